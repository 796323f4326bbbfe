/**
 * The replacer's FIFO fan-out queue as the simulator delivers it: one message group per lane of a region
 * (core/region/lanes.ts), so two replacer runs of a lane never overlap, while different lanes' runs go
 * side by side, as Lambda processes different message groups at once
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html). Scheduled ticks (one message
 * per lane), launch events and run requests (to the group's lane) become messages of a lane's group; one
 * sent while another is in flight waits and is delivered once the group is free, in order.
 *
 * A run that crashed or that Lambda stopped at its function timeout (a failed region run is not handed
 * back: lambdas/replacer/create-handler.ts) keeps its message: SQS delivers it again once its visibility
 * is over (the queue's timeout after the receipt, or the run's lease: core/region/lease.ts), and FIFO
 * holds every later message of the group until then
 * (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/FIFO-queues-understanding-logic.html).
 * After FANOUT_MAX_RECEIVES receipts it goes to the dead-letter queue and the group moves on.
 */
import type { FanoutDelivery } from '../../lambdas/core/region/delivery-window.ts'
import { Priority, type SimClock } from './clock.ts'
import { FANOUT_MAX_RECEIVES, FANOUT_VISIBILITY_SECONDS } from './constants.ts'
import { simAwsError } from './errors.ts'

/** What one message asks for: a run of the whole region, or of one group. */
export interface RegionWork {
  readonly onlyGroup: string | undefined
  /** A run request asking for `onlyGroup` to revert to on-demand (replacer/revert-request.ts). */
  readonly revert?: boolean
  /** Another run of a run that failed before it acted (replacer/retry-run.ts). */
  readonly retry?: boolean
}

/** How a delivered run ended: its message deleted, or kept for redelivery. */
export type RunOutcome = 'done' | 'redeliver'

/** The message a run was handed, as SQS holds it while it is in flight. */
export interface InFlightMessage {
  /** Until when SQS hides it from every other receiver (simulated epoch ms). */
  hiddenUntilMs(): number
  /**
   * ChangeMessageVisibility: hides it `seconds` from now. SQS refuses it once the message is visible
   * again (MessageNotInflight,
   * https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/API_ChangeMessageVisibility.html).
   */
  changeVisibility(seconds: number): void
}

interface Message {
  readonly work: RegionWork
  receives: number
  /** When the message was first handed out (SQS's ApproximateFirstReceiveTimestamp). */
  firstReceivedMs?: number
  /** While in flight: until when it is hidden. */
  hiddenUntilMs: number
}

/** One lane's message group. */
export class RegionMessageGroup {
  private readonly waiting: Message[] = []
  /** A message is in flight: being run, or invisible until its redelivery. */
  private busy = false
  /** Runs that ended after their message's visibility had lapsed (their lease was not renewed). */
  leaseLapses = 0

  constructor(
    private readonly clock: SimClock,
    private readonly run: (
      work: RegionWork,
      delivery: FanoutDelivery,
      message: InFlightMessage,
    ) => Promise<RunOutcome>,
  ) {}

  /**
   * Sends a message. If the group is free it is delivered at once and this resolves once the group has
   * nothing more to deliver now; otherwise it waits for the message in flight.
   */
  async send(work: RegionWork): Promise<void> {
    this.waiting.push({ work, receives: 0, hiddenUntilMs: 0 })
    if (!this.busy) await this.deliver()
  }

  /** Messages sent and not yet done, the one in flight included. */
  get pending(): number {
    return this.waiting.length + (this.busy ? 1 : 0)
  }

  private async deliver(): Promise<void> {
    this.busy = true
    for (let message = this.waiting.shift(); message !== undefined; message = this.waiting.shift()) {
      const receivedMs = this.clock.now
      message.receives++
      message.firstReceivedMs ??= receivedMs
      message.hiddenUntilMs = receivedMs + FANOUT_VISIBILITY_SECONDS * 1000
      const delivery = { firstReceivedMs: message.firstReceivedMs, receiveCount: message.receives }
      const held = message
      const inFlight: InFlightMessage = {
        hiddenUntilMs: () => held.hiddenUntilMs,
        changeVisibility: (seconds) => {
          if (this.clock.now >= held.hiddenUntilMs)
            throw simAwsError('MessageNotInflight', 400, "The specified message isn't in flight.")
          held.hiddenUntilMs = this.clock.now + seconds * 1000
        },
      }
      let outcome = await this.run(message.work, delivery, inFlight)
      // A run that outlived its message's visibility (its lease lapsed): SQS handed the message out again
      // when it lapsed, and Lambda's delete with the old receipt came too late. The simulator delivers it
      // again once the run is over; the run wrote nothing past the lapse (invariant write-past-lease).
      if (outcome === 'done' && this.clock.now >= message.hiddenUntilMs) {
        this.leaseLapses++
        outcome = 'redeliver'
      }
      if (outcome === 'redeliver' && message.receives < FANOUT_MAX_RECEIVES) {
        const kept = message
        this.clock.schedule(
          Math.max(this.clock.now, message.hiddenUntilMs),
          Priority.invocation,
          'fan-out redelivery',
          () => {
            this.waiting.unshift(kept)
            return this.deliver()
          },
        )
        return
      }
    }
    this.busy = false
  }
}
