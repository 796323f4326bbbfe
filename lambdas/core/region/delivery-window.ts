/**
 * Whether a region run may start, given its fan-out message's delivery. Two runs of a region must never
 * overlap (docs/reliability.md). The FIFO message group hands out one message of a region at a time, and
 * hands it out again only once its visibility timeout is over: SQS hides a received message for the
 * visibility timeout, and Lambda leaves a failed batch to come back when it ends, while it retries a
 * throttled invocation until then (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-errorhandling.html).
 * Lambda stops an invocation at its timeout. So a run that Lambda must end before its message can be
 * handed out again cannot overlap the next delivery; a run that starts too late for that (a retried
 * throttled invocation) does nothing, and the region's next message runs it.
 */

/** What an SQS record says about its message's deliveries. */
export interface FanoutDelivery {
  /** ApproximateFirstReceiveTimestamp: when SQS first handed the message out, ms since the epoch. */
  readonly firstReceivedMs: number
  /** ApproximateReceiveCount: how often SQS handed it out, this delivery included. */
  readonly receiveCount: number
}

export interface DeliveryWindowInput {
  /** The record's delivery, or why it could not be read. */
  readonly delivery: FanoutDelivery | { readonly problem: string }
  /** When Lambda stops this invocation at the latest (now + the remaining time), ms since the epoch. */
  readonly endsByMs: number
  readonly visibilitySeconds: number
  /** The lease a run shortens its message's visibility to (core/region/lease.ts). */
  readonly leaseSeconds: number
  /** How far SQS's timestamps and this clock may disagree. */
  readonly skewMs: number
}

export type DeliveryVerdict =
  /** `heldUntilMs`: the receipt's bound, less clock doubt (undefined when no delivery was judged). */
  | { readonly start: true; readonly heldUntilMs?: number }
  | { readonly start: false; readonly reason: string; readonly detail: string }

/**
 * The earliest SQS may hand the message out again. Each earlier receipt hid it at least one lease (its
 * run shortened it to one: core/region/lease.ts) or the whole visibility timeout (it never ran), so the
 * current receipt came no earlier than `receiveCount - 1` leases after the first, and hides the message
 * for the visibility timeout from then. A lower bound: a later receipt only moves the true end later.
 */
export const hiddenUntilMs = (
  delivery: FanoutDelivery,
  visibilitySeconds: number,
  leaseSeconds: number,
): number =>
  delivery.firstReceivedMs +
  ((delivery.receiveCount - 1) * Math.min(leaseSeconds, visibilitySeconds) + visibilitySeconds) * 1000

export const judgeDelivery = (input: DeliveryWindowInput): DeliveryVerdict => {
  const { delivery } = input
  if ('problem' in delivery) return { start: false, reason: 'unreadable-delivery', detail: delivery.problem }
  const hiddenUntil = hiddenUntilMs(delivery, input.visibilitySeconds, input.leaseSeconds)
  const spareMs = hiddenUntil - input.skewMs - input.endsByMs
  if (spareMs >= 0) return { start: true, heldUntilMs: hiddenUntil - input.skewMs }
  return {
    start: false,
    reason: 'late-delivery',
    detail: `this invocation may run until ${new Date(input.endsByMs).toISOString()}, ${Math.ceil(-spareMs / 1000)} s past the earliest its message can be delivered again (${new Date(hiddenUntil).toISOString()}, less ${input.skewMs / 1000} s of clock doubt)`,
  }
}
