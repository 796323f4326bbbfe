/**
 * Reads each fan-out record's delivery (when SQS first handed its message out, how often, and in which
 * message group) and decides whether its run may start (core/region/delivery-window.ts). On Lambda a run
 * proves it cannot overlap another run of its lane, or does nothing; a local caller runs one at a time.
 */
import {
  FANOUT_CLOCK_SKEW_MS,
  FANOUT_LEASE_SECONDS,
  FANOUT_VISIBILITY_SECONDS,
  REPLACER_TIMEOUT_SECONDS,
} from '../core/constants.ts'
import { isRecord, nonEmptyString } from '../core/events/registry.ts'
import { type DeliveryVerdict, type FanoutDelivery, judgeDelivery } from '../core/region/delivery-window.ts'
import { laneMessageGroupId } from '../core/region/lanes.ts'
import type { RunDeadline } from '../core/region/time-budget.ts'

type Delivery =
  | (FanoutDelivery & { readonly messageGroupId?: string; readonly receiptHandle?: string })
  | { readonly problem: string }

/** SQS sends both attributes as decimal strings (milliseconds since the epoch, and a count from 1). */
const positiveInteger = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN
  return Number.isSafeInteger(n) && n > 0 ? n : undefined
}

const deliveryOf = (record: Record<string, unknown>): Delivery => {
  const attributes = isRecord(record.attributes) ? record.attributes : {}
  const firstReceivedMs = positiveInteger(attributes.ApproximateFirstReceiveTimestamp)
  const receiveCount = positiveInteger(attributes.ApproximateReceiveCount)
  if (firstReceivedMs === undefined || receiveCount === undefined)
    return {
      problem: `SQS record without a readable ApproximateFirstReceiveTimestamp and ApproximateReceiveCount (${JSON.stringify(attributes).slice(0, 200)})`,
    }
  const messageGroupId = nonEmptyString(attributes.MessageGroupId)
  const receiptHandle = nonEmptyString(record.receiptHandle)
  return {
    firstReceivedMs,
    receiveCount,
    ...(messageGroupId === undefined ? {} : { messageGroupId }),
    ...(receiptHandle === undefined ? {} : { receiptHandle }),
  }
}

/** Each SQS record's delivery, by message id. */
export const readDeliveries = (raw: unknown): ReadonlyMap<string, Delivery> => {
  const records = isRecord(raw) && Array.isArray(raw.Records) ? raw.Records : []
  const deliveries = new Map<string, Delivery>()
  for (const record of records) {
    const messageId = isRecord(record) ? nonEmptyString(record.messageId) : undefined
    if (isRecord(record) && messageId !== undefined) deliveries.set(messageId, deliveryOf(record))
  }
  return deliveries
}

/** How long the invocation has left, as Lambda's context tells it; undefined without one. */
const contextRemainingMs = (context: unknown): number | undefined => {
  const remaining = isRecord(context) ? context.getRemainingTimeInMillis : undefined
  const ms = typeof remaining === 'function' ? Number(remaining.call(context)) : Number.NaN
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined
}

/** Lambda's context tells how long the invocation has left; anything else gets the whole timeout. */
const remainingMs = (context: unknown): number =>
  contextRemainingMs(context) ?? REPLACER_TIMEOUT_SECONDS * 1000

/**
 * When Lambda stops this invocation, for the run's time budget (core/region/time-budget.ts): now plus
 * what the context says is left. Without a context (a local caller) no deadline: nothing stops the run.
 */
export const invocationDeadline = (context: unknown, nowMs: () => number): RunDeadline | undefined => {
  const left = contextRemainingMs(context)
  return left === undefined ? undefined : { endsAtMs: nowMs() + left, nowMs }
}

export interface DeliveryCheck {
  readonly deliveries: ReadonlyMap<string, Delivery>
  /** Deployed on Lambda: a run must prove its window; a local caller runs one at a time. */
  readonly onLambda: boolean
  readonly now: Date
  readonly context: unknown
}

/**
 * A lane's runs never overlap only if its messages all go through its message group: on Lambda, a message
 * whose record names another message group (a hand-sent message, one sent before lanes with groups of
 * another lane) is not run. FIFO records carry their MessageGroupId
 * (https://docs.aws.amazon.com/lambda/latest/dg/with-sqs.html, its FIFO example event).
 */
const wrongMessageGroup = (
  delivery: Delivery | undefined,
  region: string,
  lane: number,
): DeliveryVerdict | undefined => {
  if (delivery === undefined || 'problem' in delivery) return undefined
  const expected = laneMessageGroupId(region, lane)
  if (delivery.messageGroupId === expected) return undefined
  return {
    start: false,
    reason: 'wrong-message-group',
    detail: `the message for lane ${lane} of ${region} came through message group ${delivery.messageGroupId ?? '(none)'}, not ${expected}: it could overlap a run of that lane`,
  }
}

export const regionRunVerdict = (
  check: DeliveryCheck,
  messageId: string | undefined,
  lane: { readonly region: string; readonly index: number },
): DeliveryVerdict => {
  const delivery = messageId === undefined ? undefined : check.deliveries.get(messageId)
  // Off Lambda (tests, a local caller) only a readable delivery is judged: the caller runs one at a time.
  if (!check.onLambda && (delivery === undefined || 'problem' in delivery)) return { start: true }
  const misrouted = check.onLambda ? wrongMessageGroup(delivery, lane.region, lane.index) : undefined
  if (misrouted !== undefined) return misrouted
  return judgeDelivery({
    delivery: delivery ?? { problem: 'not a record of the fan-out queue: no delivery to bound the run by' },
    endsByMs: check.now.getTime() + remainingMs(check.context),
    visibilitySeconds: FANOUT_VISIBILITY_SECONDS,
    leaseSeconds: FANOUT_LEASE_SECONDS,
    skewMs: FANOUT_CLOCK_SKEW_MS,
  })
}

/** The receipt handle of the message a record carries, to renew its lease with (core/region/lease.ts). */
export const receiptHandleOf = (check: DeliveryCheck, messageId: string | undefined): string | undefined => {
  const delivery = messageId === undefined ? undefined : check.deliveries.get(messageId)
  return delivery === undefined || 'problem' in delivery ? undefined : delivery.receiptHandle
}
