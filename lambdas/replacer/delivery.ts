/**
 * Reads each fan-out record's delivery (when SQS first handed its message out, and how often) and decides
 * whether its region run may start (core/region/delivery-window.ts). On Lambda a region run proves it
 * cannot overlap another run of its region, or does nothing; a local caller runs one at a time.
 */
import {
  FANOUT_CLOCK_SKEW_MS,
  FANOUT_VISIBILITY_SECONDS,
  REPLACER_TIMEOUT_SECONDS,
} from '../core/constants.ts'
import { isRecord, nonEmptyString } from '../core/events/registry.ts'
import { type DeliveryVerdict, type FanoutDelivery, judgeDelivery } from '../core/region/delivery-window.ts'

type Delivery = FanoutDelivery | { readonly problem: string }

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
  return { firstReceivedMs, receiveCount }
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

/** Lambda's context tells how long the invocation has left; anything else gets the whole timeout. */
const remainingMs = (context: unknown): number => {
  const remaining = isRecord(context) ? context.getRemainingTimeInMillis : undefined
  const ms = typeof remaining === 'function' ? Number(remaining.call(context)) : Number.NaN
  return Number.isFinite(ms) && ms >= 0 ? ms : REPLACER_TIMEOUT_SECONDS * 1000
}

export interface DeliveryCheck {
  readonly deliveries: ReadonlyMap<string, Delivery>
  /** Deployed on Lambda: a run must prove its window; a local caller runs one at a time. */
  readonly onLambda: boolean
  readonly now: Date
  readonly context: unknown
}

export const regionRunVerdict = (check: DeliveryCheck, messageId: string | undefined): DeliveryVerdict => {
  const delivery = messageId === undefined ? undefined : check.deliveries.get(messageId)
  // Off Lambda (tests, a local caller) only a readable delivery is judged: the caller runs one at a time.
  if (!check.onLambda && (delivery === undefined || 'problem' in delivery)) return { start: true }
  return judgeDelivery({
    delivery: delivery ?? { problem: 'not a record of the fan-out queue: no delivery to bound the run by' },
    endsByMs: check.now.getTime() + remainingMs(check.context),
    visibilitySeconds: FANOUT_VISIBILITY_SECONDS,
    skewMs: FANOUT_CLOCK_SKEW_MS,
  })
}
