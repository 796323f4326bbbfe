/**
 * Events arrive at the edge as untyped JSON: an EventBridge event delivered directly, or the same
 * event wrapped in an SQS message. They are parsed here, once, through a registry keyed by source and
 * detail-type, so each Lambda declares the event kinds it handles as data and every other event
 * becomes a typed no-op instead of an exception. Parsing never throws.
 */

export interface EventEnvelope {
  readonly id: string | undefined
  readonly source: string
  readonly detailType: string
  readonly account: string | undefined
  /** The region the event is about; it decides which region's API is called. */
  readonly region: string
  readonly time: Date | undefined
  readonly resources: readonly string[]
}

export type DetailParse<D> =
  | { readonly ok: true; readonly detail: D }
  | { readonly ok: false; readonly problem: string }

/** One row of the registry: how to read the `detail` of one source + detail-type. */
export interface EventDefinition<K extends string = string, D = unknown> {
  readonly kind: K
  readonly source: string
  readonly detailType: string
  readonly parseDetail: (detail: Readonly<Record<string, unknown>>) => DetailParse<D>
}

export interface RecognizedEvent<K extends string, D> {
  readonly kind: K
  readonly envelope: EventEnvelope
  readonly detail: D
}

/** A well-formed event that no row of this registry handles. */
export interface UnrecognizedEvent {
  readonly kind: 'unrecognized'
  readonly envelope: EventEnvelope
}

/** Input that cannot be acted on: not an event, a required field missing or invalid, unparsable JSON. */
export interface MalformedEvent {
  readonly kind: 'malformed'
  readonly problem: string
  readonly source: string | undefined
  readonly detailType: string | undefined
}

// biome-ignore lint/suspicious/noExplicitAny: the detail type varies per row; EventOf recovers it.
export type AnyDefinition = EventDefinition<string, any>

/** The union of recognized events a list of definitions produces. */
export type EventOf<Defs extends readonly AnyDefinition[]> = {
  [I in keyof Defs]: Defs[I] extends EventDefinition<infer K, infer D> ? RecognizedEvent<K, D> : never
}[number]

export type ParsedEvent<Defs extends readonly AnyDefinition[]> =
  | EventOf<Defs>
  | UnrecognizedEvent
  | MalformedEvent

export interface EventRegistry<Defs extends readonly AnyDefinition[]> {
  readonly definitions: Defs
  parse(raw: unknown): ParsedEvent<Defs>
}

const RESERVED_KINDS = new Set(['unrecognized', 'malformed'])

/** `us-east-1`, `ap-southeast-4`, `us-gov-west-1`: anything else is not a region an API can be called in. */
export const REGION_NAME = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/

/** Known sources and detail-types are short; an unknown one is kept only as far as a log line needs. */
const MAX_NAME_LENGTH = 128
const bounded = (value: string | undefined): string | undefined =>
  value === undefined || value.length <= MAX_NAME_LENGTH ? value : `${value.slice(0, MAX_NAME_LENGTH)}…`
const registryKey = (source: string, detailType: string): string => `${source}\u0000${detailType}`

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export const nonEmptyString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim().length > 0 ? value.trim() : undefined

export const malformed = (problem: string, source?: string, detailType?: string): MalformedEvent => ({
  kind: 'malformed',
  problem,
  source,
  detailType,
})

const parseTime = (value: unknown): Date | undefined => {
  if (typeof value !== 'string') return undefined
  const time = new Date(value)
  return Number.isNaN(time.getTime()) ? undefined : time
}

export const createEventRegistry = <const Defs extends readonly AnyDefinition[]>(
  definitions: Defs,
): EventRegistry<Defs> => {
  const byKey = new Map<string, AnyDefinition>()
  for (const definition of definitions) {
    const key = registryKey(definition.source, definition.detailType)
    // Programmer errors in a static table: fail at module load, never at run time.
    if (RESERVED_KINDS.has(definition.kind)) throw new Error(`event kind '${definition.kind}' is reserved`)
    if (byKey.has(key))
      throw new Error(`two event definitions for ${definition.source} / ${definition.detailType}`)
    byKey.set(key, definition)
  }

  const parse = (raw: unknown): ParsedEvent<Defs> => {
    if (!isRecord(raw)) return malformed(`expected an EventBridge event object, got ${describeType(raw)}`)
    const source = bounded(nonEmptyString(raw.source))
    const detailType = bounded(nonEmptyString(raw['detail-type']))
    if (source === undefined || detailType === undefined) {
      return malformed("missing 'source' or 'detail-type'", source, detailType)
    }
    const region = nonEmptyString(raw.region)
    if (region === undefined) return malformed("missing 'region'", source, detailType)
    if (!REGION_NAME.test(region)) {
      return malformed(
        `'region' is not a region name: ${JSON.stringify(region).slice(0, 64)}`,
        source,
        detailType,
      )
    }
    const envelope: EventEnvelope = {
      id: nonEmptyString(raw.id),
      source,
      detailType,
      account: nonEmptyString(raw.account),
      region,
      time: parseTime(raw.time),
      resources: Array.isArray(raw.resources)
        ? raw.resources.filter((r): r is string => typeof r === 'string')
        : [],
    }
    const definition = byKey.get(registryKey(source, detailType))
    if (definition === undefined) return { kind: 'unrecognized', envelope }
    if (!isRecord(raw.detail)) return malformed("missing 'detail' object", source, detailType)
    const parsed = definition.parseDetail(raw.detail)
    if (!parsed.ok) return malformed(parsed.problem, source, detailType)
    return { kind: definition.kind, envelope, detail: parsed.detail } as EventOf<Defs>
  }

  return { definitions, parse }
}

const describeType = (value: unknown): string => {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value
}
