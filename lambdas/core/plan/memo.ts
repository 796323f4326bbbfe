/** Get-or-build over a Map or WeakMap: the planner's caches keep what a run (or a catalogue) works out once. */

export interface Memo<K, V> {
  get(key: K): V | undefined
  set(key: K, value: V): unknown
}

/** The value kept under `key`, built from the key the first time it is asked for. */
export const memoized = <K, V>(memo: Memo<K, V>, key: K, build: (key: K) => NoInfer<V>): V => {
  let value = memo.get(key)
  if (value === undefined) {
    value = build(key)
    memo.set(key, value)
  }
  return value
}

export const newMap = <K, V>(): Map<K, V> => new Map()
