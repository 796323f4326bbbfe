/**
 * The replacer's FIFO fan-out queue as the simulator delivers it: one message group per lane of a region
 * (core/region/lanes.ts), so two replacer runs of a lane never overlap, while different lanes' runs go
 * side by side, as Lambda processes different message groups at once
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html). Scheduled ticks (one message
 * per lane), launch events and run requests (to the group's lane) become messages of a lane's group; one
 * sent while another is in flight waits and is delivered once the group is free, in order.
 *
 * A run that crashed or that Lambda stopped at its function timeout (a failed region run is not handed
 * back: lambdas/replacer/create-handler.ts) keeps its message: SQS delivers it again once the visibility timeout after its receipt is over, and FIFO holds
 * every later message of the group until then
 * (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/FIFO-queues-understanding-logic.html).
 * After FANOUT_MAX_RECEIVES receipts it goes to the dead-letter queue and the group moves on.
 */
import type { FanoutDelivery } from '../../lambdas/core/region/delivery-window.ts'
import { Priority, type SimClock } from './clock.ts'
import { FANOUT_MAX_RECEIVES, FANOUT_VISIBILITY_SECONDS } from './constants.ts'

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

interface Message {
  readonly work: RegionWork
  receives: number
  /** When the message was first handed out (SQS's ApproximateFirstReceiveTimestamp). */
  firstReceivedMs?: number
}

/** One lane's message group. */
export class RegionMessageGroup {
  private readonly waiting: Message[] = []
  /** A message is in flight: being run, or invisible until its redelivery. */
  private busy = false

  constructor(
    private readonly clock: SimClock,
    private readonly run: (work: RegionWork, delivery: FanoutDelivery) => Promise<RunOutcome>,
  ) {}

  /**
   * Sends a message. If the group is free it is delivered at once and this resolves once the group has
   * nothing more to deliver now; otherwise it waits for the message in flight.
   */
  async send(work: RegionWork): Promise<void> {
    this.waiting.push({ work, receives: 0 })
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
      const delivery = { firstReceivedMs: message.firstReceivedMs, receiveCount: message.receives }
      const outcome = await this.run(message.work, delivery)
      if (outcome === 'redeliver' && message.receives < FANOUT_MAX_RECEIVES) {
        const kept = message
        this.clock.schedule(
          receivedMs + FANOUT_VISIBILITY_SECONDS * 1000,
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
