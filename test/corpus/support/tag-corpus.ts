/** tags.json: hostile per-group tag values and what each must resolve to. */
import { fail, isRecord, printable, readJson } from './fixture-io.ts'

export type TagOutcome = 'launches' | 'no-launch'

export interface TagEntry {
  readonly tag: string
  /** The tag value after `repeat` is applied. */
  readonly value: string
  /** Valid companion tags on the same group (conflicting-settings cases). */
  readonly with: Readonly<Record<string, string>>
  readonly why: string
  /** Set when the entry documents a product bug: the tests asserting the expectation are `it.fails`. */
  readonly knownBug: string | undefined
  readonly expect: {
    readonly configError: boolean
    /** A substring of ConfigError.expected: what the user is told a valid value looks like. */
    readonly expected: string | undefined
    /** The setting's JSON value, `default` (the global default for that key) or `not-a-setting`. */
    readonly effective: unknown
    readonly outcome: TagOutcome
    /** Spot members of the 3-instance group after the replacer runs; only for `launches`. */
    readonly spotAtEnd: number | undefined
  }
}

export const tagLabel = (entry: TagEntry): string => `${entry.tag}="${printable(entry.value)}"`

export const loadTagCorpus = (): TagEntry[] => {
  const raw = readJson('tags.json')
  if (!Array.isArray(raw)) throw new Error('tags.json: expected an array')
  return raw.map((item: unknown, index): TagEntry => {
    if (!isRecord(item)) return fail('tags.json', index, 'not an object')
    const { tag, value, repeat, why, knownBug, expect } = item
    if (typeof tag !== 'string' || typeof value !== 'string' || typeof why !== 'string')
      return fail('tags.json', index, 'tag, value and why must be strings')
    if (repeat !== undefined && (typeof repeat !== 'number' || !Number.isInteger(repeat) || repeat < 1))
      return fail('tags.json', index, 'repeat must be a positive integer')
    if (!isRecord(expect) || typeof expect.configError !== 'boolean' || !('effective' in expect))
      return fail('tags.json', index, 'expect needs configError and effective')
    if (expect.outcome !== 'launches' && expect.outcome !== 'no-launch')
      return fail('tags.json', index, `unknown outcome ${String(expect.outcome)}`)
    if (expect.configError !== (typeof expect.expected === 'string'))
      return fail('tags.json', index, 'expect.expected is required exactly when configError is true')
    if (expect.configError && expect.effective !== 'default')
      return fail('tags.json', index, "a ConfigError always falls back: effective must be 'default'")
    const companions = item.with ?? {}
    if (!isRecord(companions) || !Object.values(companions).every((v) => typeof v === 'string'))
      return fail('tags.json', index, 'with must map tag names to strings')
    return {
      tag,
      value: value.repeat(repeat ?? 1),
      with: companions as Record<string, string>,
      why,
      knownBug: typeof knownBug === 'string' ? knownBug : undefined,
      expect: {
        configError: expect.configError,
        expected: typeof expect.expected === 'string' ? expect.expected : undefined,
        effective: expect.effective,
        outcome: expect.outcome,
        spotAtEnd: typeof expect.spotAtEnd === 'number' ? expect.spotAtEnd : undefined,
      },
    }
  })
}
