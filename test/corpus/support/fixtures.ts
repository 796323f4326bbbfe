/**
 * Loads the corpus fixtures (tags.json, events.json, env.json) and checks their shape, so a typo in a
 * fixture fails loudly here instead of silently weakening a test. Format: see ../README.md.
 */
import { readFileSync } from 'node:fs'

const readJson = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../${name}`, import.meta.url), 'utf8')) as unknown

export const readRaw = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8')

const fail = (file: string, index: number, problem: string): never => {
  throw new Error(`${file} entry ${index}: ${problem}`)
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Control characters, bidi overrides and zero-width characters as \u escapes, so test names stay legible. */
export const printable = (text: string, max = 48): string => {
  const escaped = [...text]
    .map((ch) => (/^[\x20-\x7e]$/.test(ch) ? ch : `\\u{${(ch.codePointAt(0) ?? 0).toString(16)}}`))
    .join('')
  return escaped.length > max ? `${escaped.slice(0, max)}… (${text.length} chars)` : escaped
}

// ---------------------------------------------------------------------------------------------------
// tags.json

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

// ---------------------------------------------------------------------------------------------------
// events.json

export type ReplacerExpectation =
  /** Parsed as malformed or unrecognized: a warn line `event ignored`, no cloud touched at all. */
  | { readonly result: 'ignored'; readonly reason: string; readonly knownBug?: string }
  /** A region run that reads and changes nothing. */
  | {
      readonly result: 'no-op-run'
      readonly region: string
      readonly knownBug?: string
      readonly firstActs?: boolean
    }

export interface InterruptionExpectation {
  readonly outcome: 'invalid' | 'ignored' | 'skipped'
  readonly reason: string
  /** A substring of the result's detail. */
  readonly detail?: string
  readonly knownBug?: string
  /** For duplicates: the earlier delivery did act, so the last one's silence is meaningful. */
  readonly firstActs?: boolean
}

export interface EventEntry {
  readonly name: string
  readonly why: string
  /** The invocation payload, with `expand` and `sqsBodies`/`sqsBodyFiles` applied. */
  readonly invocation: unknown
  /** How many events the invocation carries (SQS records). */
  readonly items: number
  /** The same invocation is delivered this many times; expectations are about the last delivery. */
  readonly deliveries: number
  /** One expectation per item (the fixture may give one for all). */
  readonly expect: {
    readonly replacer: readonly ReplacerExpectation[]
    readonly interruption: readonly InterruptionExpectation[]
  }
  /** Set when an expectation documents a product bug. */
  readonly knownBug: { readonly replacer?: string; readonly interruption?: string }
  /** Set when a handler writes an unbounded log line for this input (a product bug). */
  readonly logBoundBug: string | undefined
}

interface Expansion {
  readonly path: readonly string[]
  readonly unit: string
  readonly times: number
}

/** Sets `path` inside `target` to `unit` repeated `times`: huge strings without a huge fixture file. */
const expand = (target: unknown, { path, unit, times }: Expansion): unknown => {
  const copy = structuredClone(target) as Record<string, unknown>
  let cursor: Record<string, unknown> = copy
  for (const key of path.slice(0, -1)) {
    const next = cursor[key]
    if (!isRecord(next)) throw new Error(`expand: ${path.join('.')} does not exist`)
    cursor = next
  }
  cursor[path.at(-1) as string] = unit.repeat(times)
  return copy
}

const SQS_ARN = 'arn:aws:sqs:us-east-1:123456789012:spotswap-events'

/** The SQS event a Lambda receives for these message bodies (one record each). */
export const sqsInvocation = (bodies: readonly string[]): Record<string, unknown> => ({
  Records: bodies.map((body, index) => ({
    messageId: `corpus-message-${index}`,
    receiptHandle: `corpus-receipt-${index}`,
    body,
    attributes: { ApproximateReceiveCount: '1' },
    messageAttributes: {},
    eventSource: 'aws:sqs',
    eventSourceARN: SQS_ARN,
    awsRegion: 'us-east-1',
  })),
})

export const loadEventCorpus = (): EventEntry[] => {
  const raw = readJson('events.json')
  if (!Array.isArray(raw)) throw new Error('events.json: expected an array')
  return raw.map((item: unknown, index): EventEntry => {
    if (!isRecord(item)) return fail('events.json', index, 'not an object')
    const { name, why, expect } = item
    if (typeof name !== 'string' || typeof why !== 'string')
      return fail('events.json', index, 'name and why must be strings')
    const shapes = ['event', 'sqsBodies', 'sqsBodyFiles'].filter((key) => key in item)
    if (shapes.length !== 1)
      return fail('events.json', index, 'exactly one of event, sqsBodies, sqsBodyFiles is required')
    const objectOrList = (value: unknown) =>
      isRecord(value) || (Array.isArray(value) && value.length > 0 && value.every(isRecord))
    if (!isRecord(expect) || !objectOrList(expect.replacer) || !objectOrList(expect.interruption))
      return fail('events.json', index, 'expect needs replacer and interruption (an object or one per item)')
    const expansions = (item.expand ?? []) as Expansion[]
    let invocation: unknown
    let items = 1
    if ('event' in item) {
      invocation = expansions.reduce(expand, item.event)
    } else {
      const bodies =
        'sqsBodies' in item
          ? (item.sqsBodies as unknown[]).map((body) =>
              typeof body === 'string' ? body : JSON.stringify(body),
            )
          : (item.sqsBodyFiles as string[]).map(readRaw)
      invocation = sqsInvocation(bodies)
      items = bodies.length
    }
    const perItem = <T>(value: unknown): T[] => {
      const list = (Array.isArray(value) ? value : Array.from({ length: items }, () => value)) as T[]
      if (list.length !== items)
        fail('events.json', index, `expected ${items} expectations, got ${list.length}`)
      return list
    }
    const replacer = perItem<ReplacerExpectation>(expect.replacer)
    const interruption = perItem<InterruptionExpectation>(expect.interruption)
    const bugOf = (list: readonly { knownBug?: string }[]) => list.find((e) => e.knownBug)?.knownBug
    const replacerBug = bugOf(replacer)
    const interruptionBug = bugOf(interruption)
    return {
      name,
      why,
      invocation,
      items,
      deliveries: typeof item.deliveries === 'number' ? item.deliveries : 1,
      expect: { replacer, interruption },
      knownBug: {
        ...(replacerBug ? { replacer: replacerBug } : {}),
        ...(interruptionBug ? { interruption: interruptionBug } : {}),
      },
      logBoundBug: typeof item.logBoundBug === 'string' ? item.logBoundBug : undefined,
    }
  })
}

// ---------------------------------------------------------------------------------------------------
// env.json

export type EnvBehaviour =
  /** Nothing is touched: no AWS call at all. */
  | 'no-action'
  /** Works normally: the replacer launches spot, the interruption handler acts on the member. */
  | 'acts'
  /** Observes and plans, never mutates. */
  | 'dry-run'
  /** REGIONS selects no region: the replacer runs nowhere, the interruption handler ignores the event. */
  | 'no-region'

export interface EnvEntry {
  readonly name: string
  readonly why: string
  readonly env: Readonly<Record<string, string>>
  readonly expect: {
    /** Every ConfigError, in any order: the variable, whether it is fatal, and what was used instead. */
    readonly errors: readonly { readonly name: string; readonly fatal: boolean; readonly fallback: string }[]
    readonly behaviour: EnvBehaviour
  }
}

export const loadEnvCorpus = (): EnvEntry[] => {
  const raw = readJson('env.json')
  if (!Array.isArray(raw)) throw new Error('env.json: expected an array')
  return raw.map((item: unknown, index): EnvEntry => {
    if (!isRecord(item)) return fail('env.json', index, 'not an object')
    const { name, why, env, expect } = item
    if (typeof name !== 'string' || typeof why !== 'string')
      return fail('env.json', index, 'name and why must be strings')
    if (!isRecord(env) || !Object.values(env).every((v) => typeof v === 'string'))
      return fail('env.json', index, 'env must map variable names to strings')
    if (!isRecord(expect) || !Array.isArray(expect.errors) || typeof expect.behaviour !== 'string')
      return fail('env.json', index, 'expect needs errors and behaviour')
    const fatal = (expect.errors as { fatal: boolean }[]).some((e) => e.fatal)
    if (fatal !== (expect.behaviour === 'no-action'))
      return fail('env.json', index, "behaviour is 'no-action' exactly when an error is fatal")
    return {
      name,
      why,
      env: env as Record<string, string>,
      expect: expect as unknown as EnvEntry['expect'],
    }
  })
}
