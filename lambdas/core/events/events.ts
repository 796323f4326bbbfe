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
type AnyDefinition = EventDefinition<string, any>

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

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const nonEmptyString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim().length > 0 ? value.trim() : undefined

const malformed = (problem: string, source?: string, detailType?: string): MalformedEvent => ({
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

// ---------------------------------------------------------------------------------------------------
// Invocation shapes: EventBridge invokes with the event itself; an SQS target wraps it in Records[].body.

export interface InvocationItem {
  /** The SQS message id, for logs; undefined for a direct EventBridge invocation. */
  readonly messageId: string | undefined
  readonly payload:
    | { readonly ok: true; readonly value: unknown }
    | { readonly ok: false; readonly problem: string }
}

const isSqsRecord = (value: unknown): value is Record<string, unknown> =>
  isRecord(value) && value.eventSource === 'aws:sqs'

/** Splits one Lambda invocation into the events it carries. Never throws. */
export const unwrapInvocation = (raw: unknown): InvocationItem[] => {
  const records = isRecord(raw) ? raw.Records : undefined
  if (!Array.isArray(records) || records.length === 0 || !records.every(isSqsRecord)) {
    return [{ messageId: undefined, payload: { ok: true, value: raw } }]
  }
  return records.map((record) => {
    const messageId = nonEmptyString(record.messageId)
    if (typeof record.body !== 'string')
      return { messageId, payload: { ok: false, problem: 'SQS record has no body' } }
    try {
      return { messageId, payload: { ok: true, value: JSON.parse(record.body) as unknown } }
    } catch (error) {
      return {
        messageId,
        payload: { ok: false, problem: `SQS body is not JSON: ${(error as Error).message}` },
      }
    }
  })
}

export interface ParsedInvocationItem<Defs extends readonly AnyDefinition[]> {
  readonly messageId: string | undefined
  readonly event: ParsedEvent<Defs>
}

export const parseInvocation = <Defs extends readonly AnyDefinition[]>(
  registry: EventRegistry<Defs>,
  raw: unknown,
): ParsedInvocationItem<Defs>[] =>
  unwrapInvocation(raw).map(({ messageId, payload }) => ({
    messageId,
    event: payload.ok ? registry.parse(payload.value) : malformed(payload.problem),
  }))

// ---------------------------------------------------------------------------------------------------
// The event kinds spotswap knows. Each Lambda builds its registry from the rows it handles.

/** EC2 instance ids: `i-` and 8 (old) or 17 hex digits. */
const INSTANCE_ID = /^i-[0-9a-f]{8,17}$/

const instanceIdField = (detail: Readonly<Record<string, unknown>>, field: string): DetailParse<string> => {
  const value = detail[field]
  if (typeof value !== 'string') return { ok: false, problem: `detail.${field} is missing` }
  return INSTANCE_ID.test(value)
    ? { ok: true, detail: value }
    : {
        ok: false,
        problem: `detail.${field} is not an EC2 instance id: ${JSON.stringify(value).slice(0, 64)}`,
      }
}

export const INSTANCE_ACTIONS = ['terminate', 'stop', 'hibernate'] as const
export type InstanceAction = (typeof INSTANCE_ACTIONS)[number]

export interface SpotInterruptionDetail {
  readonly instanceId: string
  /** What EC2 will do to the instance in two minutes (hibernate: right away). */
  readonly instanceAction: InstanceAction
}

export const spotInterruptionWarning: EventDefinition<'spot-interruption', SpotInterruptionDetail> = {
  kind: 'spot-interruption',
  source: 'aws.ec2',
  detailType: 'EC2 Spot Instance Interruption Warning',
  parseDetail: (detail) => {
    const instanceId = instanceIdField(detail, 'instance-id')
    if (!instanceId.ok) return instanceId
    const action = detail['instance-action']
    if (!(INSTANCE_ACTIONS as readonly unknown[]).includes(action)) {
      return { ok: false, problem: `detail.instance-action must be one of ${INSTANCE_ACTIONS.join(', ')}` }
    }
    return { ok: true, detail: { instanceId: instanceId.detail, instanceAction: action as InstanceAction } }
  },
}

export interface RebalanceRecommendationDetail {
  readonly instanceId: string
}

export const rebalanceRecommendation: EventDefinition<
  'rebalance-recommendation',
  RebalanceRecommendationDetail
> = {
  kind: 'rebalance-recommendation',
  source: 'aws.ec2',
  detailType: 'EC2 Instance Rebalance Recommendation',
  parseDetail: (detail) => {
    const instanceId = instanceIdField(detail, 'instance-id')
    return instanceId.ok ? { ok: true, detail: { instanceId: instanceId.detail } } : instanceId
  },
}

export interface InstanceLaunchSuccessfulDetail {
  readonly groupName: string
  readonly instanceId: string
}

export const instanceLaunchSuccessful: EventDefinition<
  'instance-launch-successful',
  InstanceLaunchSuccessfulDetail
> = {
  kind: 'instance-launch-successful',
  source: 'aws.autoscaling',
  detailType: 'EC2 Instance Launch Successful',
  parseDetail: (detail) => {
    const groupName = nonEmptyString(detail.AutoScalingGroupName)
    if (groupName === undefined) return { ok: false, problem: 'detail.AutoScalingGroupName is missing' }
    const instanceId = instanceIdField(detail, 'EC2InstanceId')
    return instanceId.ok ? { ok: true, detail: { groupName, instanceId: instanceId.detail } } : instanceId
  },
}

export interface GroupRunRequestDetail {
  readonly groupName: string
}

/**
 * spotswap's own request for a replacer run of one group, sent by the interruption handler through the
 * run-request queue (with a delay) when it replaces a member ahead of its interruption.
 */
export const groupRunRequest: EventDefinition<'group-run-request', GroupRunRequestDetail> = {
  kind: 'group-run-request',
  source: 'spotswap',
  detailType: 'Group Run Request',
  parseDetail: (detail) => {
    const groupName = nonEmptyString(detail.groupName)
    return groupName === undefined || groupName.length > 255
      ? { ok: false, problem: 'detail.groupName is not a group name' }
      : { ok: true, detail: { groupName } }
  },
}

/** The body of a run request; `id` tells requests apart (each is one replacer run, never deduplicated). */
export const groupRunRequestEvent = (
  id: string,
  region: string,
  groupName: string,
  now: Date,
): Record<string, unknown> => ({
  id,
  source: groupRunRequest.source,
  'detail-type': groupRunRequest.detailType,
  region,
  time: now.toISOString(),
  detail: { groupName },
})

export interface InterruptionDeadlineDetail {
  readonly instanceId: string
}

/**
 * spotswap's own reminder, sent by the interruption handler to itself through its deadline queue (with a
 * delay) when it replaces a member ahead of its interruption: at the deadline, a member still in its group
 * leaves at once, whatever the replacer's queue for the region is doing.
 */
export const interruptionDeadline: EventDefinition<'interruption-deadline', InterruptionDeadlineDetail> = {
  kind: 'interruption-deadline',
  source: 'spotswap',
  detailType: 'Interrupted Member Deadline',
  parseDetail: (detail) => {
    const instanceId = instanceIdField(detail, 'instanceId')
    return instanceId.ok ? { ok: true, detail: { instanceId: instanceId.detail } } : instanceId
  },
}

export const interruptionDeadlineEvent = (
  region: string,
  instanceId: string,
  now: Date,
): Record<string, unknown> => ({
  id: `${instanceId}-deadline-${now.getTime()}`,
  source: interruptionDeadline.source,
  'detail-type': interruptionDeadline.detailType,
  region,
  time: now.toISOString(),
  detail: { instanceId },
})

/** An EventBridge schedule rule's tick; the detail carries nothing. */
export const scheduledEvent: EventDefinition<'scheduled', Record<string, never>> = {
  kind: 'scheduled',
  source: 'aws.events',
  detailType: 'Scheduled Event',
  parseDetail: () => ({ ok: true, detail: {} }),
}

export type SpotInterruptionEvent = RecognizedEvent<'spot-interruption', SpotInterruptionDetail>
export type RebalanceRecommendationEvent = RecognizedEvent<
  'rebalance-recommendation',
  RebalanceRecommendationDetail
>
export type InstanceLaunchSuccessfulEvent = RecognizedEvent<
  'instance-launch-successful',
  InstanceLaunchSuccessfulDetail
>
export type ScheduledEvent = RecognizedEvent<'scheduled', Record<string, never>>
