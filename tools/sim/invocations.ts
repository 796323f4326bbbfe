/**
 * spotswap's Lambdas inside the simulation: the replacer's region run (runRegion, unchanged) and the
 * interruption handler (createHandler, unchanged), each invocation a session of its own against a
 * the real AWS adapter over simulated SDK clients (cloud.ts). Around each, the invariants are checked.
 *
 * Replacer runs go through their lane's message group of the FIFO fan-out queue (fanout-queue.ts), as
 * deployed: runs of one lane never overlap, runs of a region's lanes may, and a crashed run, or one whose
 * simulated time passed the function timeout (Lambda stops it), is delivered again after the visibility
 * timeout (one function timeout and half a minute). The interruption handler is another Lambda and may run beside a replacer run
 * (the invariants are then checked around both together); a failed or crashed handler invocation is
 * retried as Lambda retries asynchronous invocations, a deadline reminder as its queue redelivers it.
 */

import { createAdapterCaches } from '../../lambdas/aws/cloud.ts'
import type { GlobalConfig } from '../../lambdas/core/config/config.ts'
import { isRegionCovered } from '../../lambdas/core/config/managed.ts'
import {
  FANOUT_CLOCK_SKEW_MS,
  FANOUT_LEASE_SECONDS,
  FANOUT_VISIBILITY_SECONDS,
  REGION_LANES,
  REPLACER_TIMEOUT_SECONDS,
} from '../../lambdas/core/constants.ts'
import { interruptionDeadlineEvent } from '../../lambdas/core/events/definitions.ts'
import type { Log, MetricsSink } from '../../lambdas/core/log.ts'
import type { GroupPlan } from '../../lambdas/core/plan/actions.ts'
import type { CloudPort } from '../../lambdas/core/port.ts'
import { type FanoutDelivery, judgeDelivery } from '../../lambdas/core/region/delivery-window.ts'
import { allLanes, laneMessageGroupId, laneOf, type RegionLane } from '../../lambdas/core/region/lanes.ts'
import { MessageLease } from '../../lambdas/core/region/lease.ts'
import { createHandler } from '../../lambdas/interruption/create-handler.ts'
import { ReasonMemory } from '../../lambdas/replacer/reasons.ts'
import { runRegion } from '../../lambdas/replacer/run-region.ts'
import { Priority } from './clock.ts'
import { simCloud } from './cloud.ts'
import {
  ASYNC_RETRY_DELAYS_SECONDS,
  DEADLINE_RETENTION_SECONDS,
  DEADLINE_VISIBILITY_SECONDS,
} from './constants.ts'
import { ContainerPool } from './container-pool.ts'
import { toEventBridge } from './eventbridge.ts'
import { type InFlightMessage, RegionMessageGroup, type RegionWork, type RunOutcome } from './fanout-queue.ts'
import type { Session } from './faults.ts'
import {
  InvariantLedger,
  type RegionSnapshot,
  type StepRun,
  snapshotRegion,
  type Violation,
} from './invariant-ledger.ts'
import { checkStep } from './invariants.ts'
import type { SimPolicy } from './policy.ts'
import type { SimEvent, World } from './world.ts'

export interface InvocationContext {
  readonly world: World
  readonly config: GlobalConfig
  readonly env: Readonly<Record<string, string>>
  readonly policy: SimPolicy
  readonly log: Log
  readonly metrics: MetricsSink
  readonly violations: Violation[]
  /** Called after every invocation, so group states are observed as they change. */
  readonly afterInvocation: () => void
  /** Told each group plan a replacer run made (the liveness invariant reads its on-demand statuses). */
  readonly onPlanned?: (region: string, plan: GroupPlan) => void
  /**
   * The environment variables whose values are fatal configuration errors: the deployed replacer then
   * refuses every invocation (lambdas/replacer/create-handler.ts), fan-out messages, launch events and
   * run requests as much as schedule ticks, and returns normally, so each message is deleted.
   */
  readonly fatalConfig?: readonly string[]
}

export interface InvocationStats {
  replacerRuns: number
  /** Region messages whose run would not have ended before the message could come back: not started. */
  runsNotStarted: number
  crashedRuns: number
  failedRuns: number
  handlerInvocations: number
  /** The longest replacer run in simulated time (its requests' latency and the SDK's backoff), ms. */
  longestRunMs: number
  /** Replacer runs Lambda stopped at their function timeout (counted among the crashed runs too). */
  timedOutRuns: number
  /** Renewals of a run's lease on its message that failed or came too late (core/region/lease.ts). */
  leasesLost: number
}

/**
 * When Lambda tries an interruption handler invocation again after a failure, seconds after the previous
 * attempt: asynchronous invocations (EventBridge) twice, about one and then two minutes later; a deadline
 * reminder whenever its queue's visibility timeout ends, while the queue still keeps it.
 */
const HANDLER_RETRIES: Readonly<Record<'event' | 'reminder', readonly number[]>> = {
  event: ASYNC_RETRY_DELAYS_SECONDS,
  reminder: Array.from(
    { length: Math.floor(DEADLINE_RETENTION_SECONDS / DEADLINE_VISIBILITY_SECONDS) - 1 },
    () => DEADLINE_VISIBILITY_SECONDS,
  ),
}

/** Invocations of one region in flight together, and the region as it was before the first began. */
interface OpenStep {
  readonly before: RegionSnapshot
  readonly runs: StepRun[]
  inFlight: number
}

export class Invocations {
  readonly stats: InvocationStats = {
    replacerRuns: 0,
    runsNotStarted: 0,
    crashedRuns: 0,
    failedRuns: 0,
    handlerInvocations: 0,
    longestRunMs: 0,
    timedOutRuns: 0,
    leasesLost: 0,
  }
  private sessions = 0
  private events = 0
  private reminders = 0
  private readonly ledger = new InvariantLedger()
  private readonly open = new Map<string, OpenStep>()
  private readonly fanout = new Map<string, RegionMessageGroup>()
  /** Lanes whose last replacer run failed or crashed (a request AWS refused, or the Lambda died), with their region. */
  private readonly failing = new Map<string, string>()
  /** One replacer container for the whole simulation: reasons are logged when they change. */
  private readonly reasons = new ReasonMemory()

  /** The replacer's Lambda containers: concurrent runs never share one (container-pool.ts). */
  private readonly containers: ContainerPool
  /**
   * The interruption handler's: another function, so other execution environments, whose caches (marker
   * verdicts, the catalogue) it fills itself and never shares with the replacer's.
   */
  private readonly handlerContainers: ContainerPool

  constructor(private readonly ctx: InvocationContext) {
    this.containers = new ContainerPool(() => ctx.world.adapterCaches)
    const handlerWarm = createAdapterCaches()
    this.handlerContainers = new ContainerPool(() => handlerWarm)
  }

  private session(actor: Session['actor'], region: string, stopsAtMs?: number): Session {
    return {
      id: ++this.sessions,
      actor,
      region,
      crashed: false,
      failedCalls: 0,
      ...(stopsAtMs === undefined ? {} : { stopsAtMs }),
    }
  }

  /**
   * Runs `body` as one invocation in `region`; the invariants are checked once no invocation of the
   * region is in flight any more, against the region as it was when the first of them began.
   */
  private async invoke(
    session: Session,
    scope: { readonly onlyGroup: string | undefined; readonly lane?: RegionLane },
    body: (cloud: CloudPort) => Promise<void>,
  ): Promise<void> {
    const { world, config } = this.ctx
    const region = world.region(session.region)
    let step = this.open.get(session.region)
    if (step === undefined) {
      step = { before: snapshotRegion(config, region, this.ledger.rebalanced), runs: [], inFlight: 0 }
      this.open.set(session.region, step)
    }
    step.runs.push({ session, startedMs: world.clock.now, ...scope })
    step.inFlight++
    try {
      const pool = session.actor === 'replacer' ? this.containers : this.handlerContainers
      const caches = pool.acquire()
      try {
        await body(simCloud(world, session.region, session, this.ctx.log, caches))
      } finally {
        pool.release(caches)
      }
    } finally {
      step.inFlight--
      if (step.inFlight === 0) {
        this.open.delete(session.region)
        const after = snapshotRegion(config, region, this.ledger.rebalanced)
        const at = world.clock.nowDate().toISOString()
        const context = { config, region, ledger: this.ledger }
        this.ctx.violations.push(...checkStep(context, step.runs, step.before, after, at))
      }
      this.ctx.afterInvocation()
    }
  }

  /** The regions with a lane whose last replacer run failed or crashed: their plans are not all carried out. */
  failingRegions(): ReadonlySet<string> {
    return new Set(this.failing.values())
  }

  /**
   * Sends a replacer run of the region to each of its lanes' FIFO message groups (or of one group, to its
   * lane's), as the scheduled invocation does: each starts at once if no run of its lane is in flight,
   * else once the runs before it are done; the lanes' runs go side by side. Resolves when the message
   * groups have nothing more to deliver now.
   */
  async runReplacer(region: string, onlyGroup?: string): Promise<void> {
    const count = this.ctx.policy.lanes ?? REGION_LANES
    const lanes = onlyGroup === undefined ? allLanes(count) : [{ index: laneOf(onlyGroup, count), count }]
    await Promise.all(lanes.map((lane) => this.messageGroup(region, lane).send({ onlyGroup })))
  }

  /** `spotswap revert`: a run request of the group, in its lane, asking for it back on-demand. */
  async requestRevert(region: string, group: string): Promise<void> {
    const asked = this.ctx.world.region(region).groups.get(group)
    if (asked !== undefined) asked.revertRequestedMs = this.ctx.world.clock.now
    const lane = {
      index: laneOf(group, this.ctx.policy.lanes ?? REGION_LANES),
      count: this.ctx.policy.lanes ?? REGION_LANES,
    }
    await this.messageGroup(region, lane).send({ onlyGroup: group, revert: true })
  }

  private messageGroup(region: string, lane: RegionLane): RegionMessageGroup {
    const id = laneMessageGroupId(region, lane.index)
    let group = this.fanout.get(id)
    if (group === undefined) {
      group = new RegionMessageGroup(this.ctx.world.clock, (work, delivery, message) =>
        this.replacerRun(region, lane, work, delivery, message),
      )
      this.fanout.set(id, group)
    }
    return group
  }

  /**
   * One delivery of a region message: a crashed run keeps its message for redelivery. As deployed
   * (replacer/delivery.ts), it starts only if Lambda stops it before its message can come back; the
   * simulated poller invokes at once, so only a visibility timeout too short for the function's would stop it.
   */
  private async replacerRun(
    region: string,
    lane: RegionLane,
    { onlyGroup, revert, retry }: RegionWork,
    delivery: FanoutDelivery,
    message: InFlightMessage,
  ): Promise<RunOutcome> {
    if (this.ctx.fatalConfig !== undefined && this.ctx.fatalConfig.length > 0) {
      this.ctx.log.error(
        'configuration prevents any action this run; fix the environment variables named above',
        {
          fatal: this.ctx.fatalConfig,
        },
      )
      return 'done'
    }
    const verdict = judgeDelivery({
      delivery,
      endsByMs: this.ctx.world.clock.now + REPLACER_TIMEOUT_SECONDS * 1000,
      visibilitySeconds: FANOUT_VISIBILITY_SECONDS,
      leaseSeconds: FANOUT_LEASE_SECONDS,
      skewMs: FANOUT_CLOCK_SKEW_MS,
    })
    if (!verdict.start) {
      this.stats.runsNotStarted++
      this.ctx.log.warn('event ignored', { region, reason: `${verdict.reason}: ${verdict.detail}` })
      return 'done'
    }
    const startedMs = this.ctx.world.clock.now
    // Lambda stops the run at its function timeout, as it stops a crashed one (its message kept).
    const stopsAtMs = startedMs + REPLACER_TIMEOUT_SECONDS * 1000
    const session = this.session('replacer', region, stopsAtMs)
    session.messageHiddenUntilMs = () => message.hiddenUntilMs()
    const lease = this.lease(session, message, verdict.heldUntilMs)
    this.stats.replacerRuns++
    let outcome: RunOutcome = 'done'
    await this.invoke(session, { onlyGroup, lane }, async (cloud) => {
      try {
        // As the handler does first: the message's visibility shortened to the run's lease.
        await lease.take()
        const result = await runRegion({
          cloud,
          config: this.ctx.config,
          now: this.ctx.world.clock.nowDate(),
          log: this.ctx.log,
          metrics: this.ctx.metrics,
          reasons: this.reasons,
          lane,
          deadline: { endsAtMs: stopsAtMs, nowMs: () => this.ctx.world.clock.now, lease },
          ...(onlyGroup === undefined ? {} : { onlyGroup }),
          ...(revert === true && onlyGroup !== undefined ? { revert: [onlyGroup] } : {}),
          // A run that fails before it acts asks for another through the run-request queue (a dead Lambda asks nothing).
          ...(this.ctx.policy.replacer
            ? {
                retry: retry === true,
                requestRetry: async (delay: number) => {
                  if (session.crashed) return
                  this.ctx.world.clock.schedule(
                    this.ctx.world.clock.now + delay * 1000,
                    Priority.invocation,
                    'retry of a failed run',
                    () => this.messageGroup(region, lane).send({ onlyGroup, retry: true }),
                  )
                },
              }
            : {}),
          ...(this.ctx.policy.maxPoolShare === undefined
            ? {}
            : { maxPoolShare: this.ctx.policy.maxPoolShare }),
          // A swap waiting for its replacements to serve asks for an early look through the run-request queue.
          ...(this.ctx.policy.replacer
            ? {
                requestRun: async (
                  group: string,
                  delay: number,
                  why: 'swap' | 'warm-up',
                  swapDelay?: number,
                ) => {
                  // A policy without warm-up looks still takes the look the open swap asks for.
                  if (why === 'warm-up' && this.ctx.policy.runRequests === 'swaps') {
                    if (swapDelay !== undefined) await this.requestRuns(region, group, [swapDelay])
                    return
                  }
                  await this.requestRuns(region, group, [delay])
                },
              }
            : {}),
        })
        for (const { plan } of result.groups) this.ctx.onPlanned?.(region, plan)
      } catch (error) {
        // A failed region run is logged and its message deleted (the next tick reconciles; lambdas/replacer/create-handler.ts).
        if (!session.crashed) this.ctx.log.error('region run failed', { region, error: String(error) })
        // The failed request may be one an earlier invocation of this container started and left in a
        // shared load (a catalogue read in flight when that run ended, as a frozen Lambda resumes it): it
        // failed this run all the same, so the invariants must not judge the run as clean.
        if (!session.crashed && session.failedCalls === 0) session.failedCalls = 1
      }
      // A crashed invocation never answers: SQS delivers its message again after the visibility timeout.
      const laneId = laneMessageGroupId(region, lane.index)
      if (session.crashed || session.failedCalls > 0) this.failing.set(laneId, region)
      else this.failing.delete(laneId)
      if (session.crashed) outcome = 'redeliver'
      if (session.crashed) this.stats.crashedRuns++
      else if (session.failedCalls > 0) this.stats.failedRuns++
      if (session.timedOut === true) this.stats.timedOutRuns++
      this.stats.longestRunMs = Math.max(this.stats.longestRunMs, this.ctx.world.clock.now - startedMs)
    })
    return outcome
  }

  /**
   * A replacer run's lease on its message (lambdas/core/region/lease.ts), renewed with a
   * ChangeMessageVisibility request of the run's own, which meets the faults any request meets.
   */
  private lease(
    session: Session,
    message: InFlightMessage,
    receiptBoundMs: number | undefined,
  ): MessageLease {
    const { clock } = this.ctx.world
    const gate = this.ctx.world.region(session.region).gate
    return new MessageLease(receiptBoundMs ?? message.hiddenUntilMs(), {
      renew: async (seconds) => {
        await Promise.resolve()
        gate.call(session, 'sqs:ChangeMessageVisibility', () => message.changeVisibility(seconds))
      },
      nowMs: () => clock.now,
      onLost: (detail) => {
        if (session.crashed) return
        this.stats.leasesLost++
        this.ctx.log.warn('fan-out message lease not renewed', { region: session.region, detail })
      },
    })
  }

  /**
   * The run-request queue: each message starts a replacer run of the group once its delay is over (SQS
   * delivers delayed messages to the replacer as it does any other).
   */
  private readonly requestRuns = async (
    region: string,
    group: string,
    delaysSeconds: readonly number[],
  ): Promise<void> => {
    const { world } = this.ctx
    for (const delay of delaysSeconds)
      world.clock.schedule(world.clock.now + delay * 1000, Priority.invocation, 'requested run', () =>
        this.runReplacer(region, group),
      )
  }

  /** EventBridge delivers the event to the Lambda its rule targets, at once. */
  deliver(event: SimEvent): void {
    const { world, policy } = this.ctx
    if (event.kind === 'rebalance-recommendation') this.ledger.rebalanced.add(event.instanceId)
    const wanted =
      event.kind === 'instance-launch-successful' ? policy.launchEvents : policy.interruptionHandler
    // The replacer drops launch events of regions outside REGIONS; the handler checks REGIONS itself.
    const covered =
      event.kind !== 'instance-launch-successful' || isRegionCovered(event.region, this.ctx.config)
    if (!wanted || !covered) return
    const at = world.clock.now
    const payload = toEventBridge(event, at, ++this.events)
    world.clock.schedule(at, Priority.invocation, event.kind, () =>
      event.kind === 'instance-launch-successful'
        ? this.runReplacer(event.region, event.group)
        : this.handleInterruption(event.region, payload, HANDLER_RETRIES.event),
    )
  }

  /**
   * The deadline queue: the handler's reminder about a member replaced ahead reaches it after the delay,
   * as an SQS record whose body is the event (interruptionDeadlineEvent), whatever the region's fan-out
   * queue is doing.
   */
  private readonly requestDeadline = async (
    region: string,
    instanceId: string,
    delaySeconds: number,
  ): Promise<void> => {
    const { world } = this.ctx
    const sentAt = world.clock.nowDate()
    const payload = {
      Records: [
        {
          eventSource: 'aws:sqs',
          messageId: `deadline-${++this.reminders}`,
          body: JSON.stringify(interruptionDeadlineEvent(region, instanceId, sentAt)),
        },
      ],
    }
    world.clock.schedule(
      world.clock.now + delaySeconds * 1000,
      Priority.invocation,
      'deadline reminder',
      () => this.handleInterruption(region, payload, HANDLER_RETRIES.reminder),
    )
  }

  private async handleInterruption(
    region: string,
    payload: Record<string, unknown>,
    retries: readonly number[],
  ): Promise<void> {
    const { world, env, log, metrics } = this.ctx
    const session = this.session('interruption', region)
    this.stats.handlerInvocations++
    let failed = false
    await this.invoke(session, { onlyGroup: undefined }, async (cloud) => {
      const handle = createHandler({
        env,
        cloudFor: () => cloud,
        log,
        metrics,
        now: () => world.clock.nowDate(),
        // Replace-ahead: runs requested through the run-request queue, reminders through the deadline queue.
        ...(this.ctx.policy.replacer
          ? { requestRuns: this.requestRuns, requestDeadline: this.requestDeadline }
          : {}),
      })
      try {
        await handle(payload)
      } catch {
        failed = true
      }
      failed ||= session.crashed
    })
    const [delay, ...later] = retries
    if (failed && delay !== undefined)
      world.clock.schedule(world.clock.now + delay * 1000, Priority.invocation, 'interruption retry', () =>
        this.handleInterruption(region, payload, later),
      )
  }
}
