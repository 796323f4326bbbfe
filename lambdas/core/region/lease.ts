/**
 * A region run's lease on its fan-out message. Two runs of a lane never overlap because a run writes only
 * while its message is hidden from every other receiver (docs/reliability.md). The queue's visibility
 * timeout must cover the whole function timeout, or Lambda refuses the event source mapping
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html), so a run that crashes would
 * hold its lane that long. Instead the run shortens its message's visibility to a short lease as it
 * starts and renews it before each write while it works (ChangeMessageVisibility counts the new timeout
 * from the call: https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-visibility-timeout.html).
 * A crashed run then holds its lane one lease, not one visibility timeout.
 *
 * `heldUntilMs` is a lower bound of when SQS can hand the message out again, by the run's own clock: the
 * receipt's bound at first, then the start of the last renewal that answered in time plus the lease
 * (SQS applies the change no earlier than the call starts). A renewal that fails, or answers only once
 * the bound it was to extend had passed (SQS may have handed the message out meanwhile), changes nothing:
 * the run stops writing when the bound it has runs out, and says so.
 */
import { FANOUT_LEASE_RENEW_BELOW_SECONDS, FANOUT_LEASE_SECONDS } from '../constants.ts'

export interface LeaseDeps {
  /** Sets the message's visibility timeout to `seconds` from now (ChangeMessageVisibility). */
  readonly renew: (seconds: number) => Promise<void>
  readonly nowMs: () => number
  /** Called once per failed or late renewal, with what went wrong. */
  readonly onLost: (detail: string) => void
}

export class MessageLease {
  private held: number
  private renewing: Promise<void> | undefined

  /** `receiptBoundMs`: the receipt's own bound (core/region/delivery-window.ts hiddenUntilMs, less clock doubt). */
  constructor(
    receiptBoundMs: number,
    private readonly deps: LeaseDeps,
    private readonly leaseSeconds: number = FANOUT_LEASE_SECONDS,
    private readonly renewBelowSeconds: number = FANOUT_LEASE_RENEW_BELOW_SECONDS,
  ) {
    this.held = receiptBoundMs
  }

  /** Until when, by this clock, no other run can receive the message. */
  heldUntilMs(): number {
    return this.held
  }

  /**
   * Shortens the message's visibility to the lease, as the run starts: a crash from here on holds the
   * lane one lease. A failure keeps the receipt's bound, which already covers the whole run.
   */
  take(): Promise<void> {
    return this.renew()
  }

  /** Renews the lease when less than `renewBelowSeconds` of it is left; one renewal at a time. */
  keep(): Promise<void> {
    const left = this.held - this.deps.nowMs()
    if (left <= 0 || left >= this.renewBelowSeconds * 1000) return Promise.resolve()
    return this.renew()
  }

  private renew(): Promise<void> {
    this.renewing ??= this.renewOnce().finally(() => {
      this.renewing = undefined
    })
    return this.renewing
  }

  private async renewOnce(): Promise<void> {
    const startedMs = this.deps.nowMs()
    const bound = this.held
    if (startedMs >= bound) return
    try {
      await this.deps.renew(this.leaseSeconds)
    } catch (error) {
      this.deps.onLost(
        `renewing the fan-out message's lease failed (${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}): writes stop ${Math.max(0, Math.round((bound - startedMs) / 1000))} s from now, when the message may be handed out again`,
      )
      return
    }
    const answeredMs = this.deps.nowMs()
    if (answeredMs >= bound) {
      this.deps.onLost(
        `the fan-out message's lease renewal answered ${Math.ceil((answeredMs - bound) / 1000)} s after the lease it was to extend had run out: SQS may have handed the message out again, so this run writes no more`,
      )
      return
    }
    this.held = startedMs + this.leaseSeconds * 1000
  }
}
