/**
 * A per-container cache with expiry. It stores the pending promise, so concurrent callers share one
 * load; a failed load is forgotten so the next caller tries again.
 */
export class TtlCache<T> {
  private readonly entries = new Map<string, { readonly value: Promise<T>; readonly expiresAt: number }>()

  constructor(private readonly ttlMs: number) {}

  get(key: string, nowMs: number, load: () => Promise<T>): Promise<T> {
    const entry = this.entries.get(key)
    if (entry !== undefined && entry.expiresAt > nowMs) return entry.value
    const value = load()
    this.entries.set(key, { value, expiresAt: nowMs + this.ttlMs })
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key)
    })
    return value
  }

  /** Drops the entry, so the next `get` loads it again: for a caller that knows it went stale early. */
  forget(key: string): void {
    this.entries.delete(key)
  }
}
