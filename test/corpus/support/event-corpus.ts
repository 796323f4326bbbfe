/** events.json: malformed or unexpected invocations and what each handler must answer. */
import { fail, isRecord, readJson, readRaw } from './fixture-io.ts'

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
const sqsInvocation = (bodies: readonly string[]): Record<string, unknown> => ({
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
