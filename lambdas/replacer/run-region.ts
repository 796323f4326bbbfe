/**
 * One region, one run: observe → plan → execute → report. Used unchanged by the Lambda, the simulator,
 * the command line and the benchmark. The caller's contract: no two runs covering one group at a time.
 * Deployed, every run goes through its lane's message group of the FIFO fan-out queue (FANOUT_QUEUE_URL,
 * core/region/lanes.ts); a local caller runs one at a time.
 */

import { mapWithConcurrency } from '../aws/concurrency.ts'
import type { ConfigError, GlobalConfig } from '../core/config/config.ts'
import { GROUP_CONCURRENCY } from '../core/constants.ts'
import { ecsManagementOf } from '../core/ecs/capacity-provider.ts'
import { drainAllowanceSeconds } from '../core/ecs/deadline.ts'
import type { Log, MetricsSink } from '../core/log.ts'
import type { GroupPlan } from '../core/plan/actions.ts'
import type { CloudPort } from '../core/port.ts'
import { executionWaves } from '../core/region/execution-order.ts'
import { cleansStrays, type KillSwitchMode } from '../core/region/kill-switch.ts'
import { laneShare, type RegionLane } from '../core/region/lanes.ts'
import type { RunDeadline, TimeBudgetSkip } from '../core/region/time-budget.ts'
import type { OnDemandPrices } from '../core/types.ts'
import { reportForgedMarkers } from '../verify-markers.ts'
import { commitmentCoverage, reportSplitRegionUtilization } from './commitments.ts'
import { executeActions } from './execute.ts'
import { holdPlans } from './kill-switch.ts'
import { type RequestRun, requestLooks } from './look-again.ts'
import { observeRegion, type RegionSnapshot } from './observe.ts'
import type { Outcome } from './outcome.ts'
import { summarizeOutcome } from './outcome-summary.ts'
import { planRegion } from './plan-region.ts'
import type { ReasonMemory } from './reasons.ts'
import {
  emitRegionMetrics,
  reportDetailUnreadable,
  reportGroupFigures,
  reportGroupRun,
  reportRefreshUnreadable,
  reportSwapPastDeadline,
  reportUnclassified,
  swapPastDeadline,
} from './report.ts'
import { reportEcsKeptForTasks, reportEcsUnreadable } from './report-ecs.ts'
import { reportScheduled } from './report-scheduled.ts'
import { retryingOnFailure } from './retry-run.ts'
import { quoteRevertLaunchFailures } from './revert-launch-failure.ts'
import { requestReverts } from './revert-request.ts'
import { cleanStrays, reportStraysUnreadable } from './strays.ts'
import { WriteBudget } from './time-budget.ts'

export interface GroupResult {
  readonly plan: GroupPlan
  readonly outcomes: readonly Outcome[]
  /** The product description the group's prices are for, and where its on-demand prices came from. */
  readonly prices?: { readonly productDescription: string; readonly source: OnDemandPrices['source'] }
  /** Set when the run's time budget left some of the group's actions to the next run. */
  readonly timeBudget?: TimeBudgetSkip
}

export interface RegionResult {
  readonly region: string
  readonly groups: readonly GroupResult[]
  /** Spot instances launched for groups that are gone or no longer managed, and what was done with them. */
  readonly strays: readonly Outcome[]
  readonly configErrors: readonly ConfigError[]
  /** Set when the region was too large for one invocation: its groups in chunks, to enqueue. */
  readonly deferred?: readonly (readonly string[])[]
}

export interface RegionRunOptions {
  readonly cloud: CloudPort
  readonly config: GlobalConfig
  readonly now: Date
  readonly log: Log
  readonly metrics: MetricsSink
  /** Reconcile only this group (an `EC2 Instance Launch Successful` event). */
  readonly onlyGroup?: string
  /** Reconcile only these groups (one chunk of a large region). */
  readonly onlyGroups?: readonly string[]
  /** With fan-out: defer a region with more managed groups than this, in chunks of this size. */
  readonly splitAbove?: number
  /** Only this lane's groups (core/region/lanes.ts): lanes of a region may run at once. */
  readonly lane?: RegionLane
  /** See PlanInput.maxPoolShare; the benchmark's AutoSpotting policy sets 1. */
  readonly maxPoolShare?: number
  /**
   * Asks for a run of one group after a delay (the run-request queue), so a swap waiting for its
   * replacement to serve is looked at again before the next scheduled run. Without it, the next
   * scheduled run looks.
   */
  readonly requestRun?: RequestRun
  /**
   * What the container last logged of each on-demand member's reason: a member's reason is logged when
   * it changes (replacer/reasons.ts). Without it, reasons are not logged.
   */
  readonly reasons?: ReasonMemory
  /** The kill switch as this run read it (core/region/kill-switch.ts); off when not given. */
  readonly killSwitch?: KillSwitchMode
  /** Groups a run request asks to revert to on-demand (replacer/revert-request.ts). */
  readonly revert?: readonly string[]
  /** When Lambda stops this run: no write starts too close to it (core/region/time-budget.ts). */
  readonly deadline?: RunDeadline
  /** This run is another run of one that failed: it asks for none (core/region/look-again.ts). */
  readonly retry?: boolean
  /** Asks for another run of this run's scope after a delay, when it fails (replacer/retry-run.ts). */
  readonly requestRetry?: (delaySeconds: number) => Promise<void>
}

/**
 * Every group's actions in two waves (core/region/execution-order.ts): what settles earlier runs' work in
 * every group, then what starts new work; each group's run reported once both are done.
 */
const executeRegion = async (
  options: RegionRunOptions,
  snapshot: RegionSnapshot,
  plans: readonly GroupPlan[],
  budget: WriteBudget,
): Promise<GroupResult[]> => {
  const { cloud, config } = options
  const waves = plans.map((plan) => ({ group: plan.group, ...executionWaves(plan.actions) }))
  // The region's lanes may run at once: each takes its share of the region's concurrency.
  const concurrency = laneShare(GROUP_CONCURRENCY, options.lane?.count ?? 1)
  const executeWave = (wave: 'settling' | 'starting', earlier: readonly Outcome[][] = []) =>
    mapWithConcurrency(waves, concurrency, (actions, index) =>
      executeActions(cloud, actions[wave], config.dryRun, {
        earlier: earlier[index] ?? [],
        mayStart: () => budget.mayWrite(actions.group),
      }),
    )
  const settled = await executeWave('settling')
  const started = await executeWave('starting', settled)
  const productDescriptions = new Map(snapshot.groups.map((g) => [g.group.name, g.productDescription]))
  return plans.map((plan, index): GroupResult => {
    const outcomes = [...(settled[index] ?? []), ...(started[index] ?? [])]
    reportGroupRun(options, cloud.region, config.dryRun, plan, outcomes)
    const productDescription = productDescriptions.get(plan.group)
    const source =
      productDescription === undefined ? undefined : snapshot.onDemandPrices.get(productDescription)?.source
    const timeBudget = budget.skipOf(plan.group)
    return {
      plan,
      outcomes,
      ...(timeBudget === undefined ? {} : { timeBudget }),
      ...(productDescription === undefined || source === undefined
        ? {}
        : { prices: { productDescription, source } }),
    }
  })
}

/** What the run reports per group (overdue swaps, figures) and for the region, once it has acted. */
const reportRegion = (
  options: RegionRunOptions,
  snapshot: RegionSnapshot,
  groups: readonly GroupResult[],
  now: Date,
): void => {
  const { config } = options
  const region = options.cloud.region
  const groupOf = new Map(snapshot.groups.map((g) => [g.group.name, g.group]))
  for (const { plan, outcomes } of groups) {
    const group = groupOf.get(plan.group)
    const drainSeconds =
      group === undefined ? 0 : drainAllowanceSeconds(ecsManagementOf(group, snapshot.ecsProviders))
    const startedAt = swapPastDeadline(group?.tags ?? {}, outcomes, now, config.scheduleMinutes, drainSeconds)
    if (startedAt !== undefined) reportSwapPastDeadline(options, region, plan.group, startedAt)
    reportEcsKeptForTasks(options, region, plan)
  }
  const figures = groups.map(({ plan, outcomes, prices }) => ({ plan, outcomes, source: prices?.source }))
  for (const group of figures)
    reportGroupFigures(options, region, group, snapshot.configErrors, config.groupMetrics === true)
  emitRegionMetrics(options.metrics, region, figures, snapshot.configErrors)
  reportScheduled(
    options,
    region,
    snapshot.scheduledEvents,
    groups.map((g) => g.plan),
  )
}

export const runRegion = (options: RegionRunOptions): Promise<RegionResult> =>
  retryingOnFailure(options, () => runRegionOnce(options))

const runRegionOnce = async (options: RegionRunOptions): Promise<RegionResult> => {
  const { cloud, config, now, log } = options
  const region = cloud.region
  const named = [
    ...(options.onlyGroups ?? []),
    ...(options.onlyGroup === undefined ? [] : [options.onlyGroup]),
  ]
  const observed = await observeRegion(cloud, config, now, {
    onlyGroups: named.length > 0 ? new Set(named) : undefined,
    splitAbove: options.splitAbove,
    lane: options.lane,
  })
  const strayOptions = { log, metrics: options.metrics, dryRun: config.dryRun, now }
  const killSwitch = options.killSwitch ?? 'off'
  const cleaning = cleansStrays(killSwitch)
  if (observed.straysUnreadable !== undefined) reportStraysUnreadable(log, region, observed.straysUnreadable)
  if ('chunks' in observed) {
    log.info('region deferred in chunks', { region, chunks: observed.chunks.length })
    await reportSplitRegionUtilization(options, observed)
    const strays = cleaning
      ? await cleanStrays(observed.strays, observed.strayGroups, cloud, strayOptions)
      : []
    return { region, groups: [], strays, configErrors: [], deferred: observed.chunks }
  }
  const snapshot = await requestReverts({ ...options, dryRun: config.dryRun }, observed)
  for (const error of snapshot.configErrors) log.warn('invalid configuration value', { region, ...error })
  reportForgedMarkers(options, region, snapshot.untrustedMarkers ?? [])
  reportEcsUnreadable(options, region, snapshot)
  if (snapshot.partnersUnreadable !== undefined)
    log.warn("launches' partners unreadable: their groups wait this run", {
      region,
      error: snapshot.partnersUnreadable,
    })
  for (const { failedReads } of snapshot.groups)
    for (const failed of failedReads ?? []) reportDetailUnreadable(options, region, failed)
  const unmanaged = named.filter((name) => !snapshot.groups.some((g) => g.group.name === name))
  if (unmanaged.length > 0) {
    log.info('asked for groups spotswap does not manage (or that are gone): nothing to do for them', {
      region,
      groups: unmanaged,
    })
  }
  const planned = await planRegion(
    {
      snapshot,
      config,
      now,
      maxPoolShare: options.maxPoolShare,
      caches: new Map(),
      coverage: await commitmentCoverage(options, snapshot),
      onOwnerChanges: (changes) => reportUnclassified(options, region, changes),
      onRefreshUnreadable: (group, error) => reportRefreshUnreadable(options, region, group, error),
      onDetailUnreadable: (detail) => reportDetailUnreadable(options, region, detail),
    },
    cloud,
  )
  const explained = await quoteRevertLaunchFailures(cloud, log, snapshot.groups, planned)
  const plans = holdPlans(explained, killSwitch, region, log, options.metrics)
  const budget = new WriteBudget(options.deadline)
  // Strays first: a crash later in the run must not keep them running for another run.
  const strays =
    cleaning && (await budget.hasTime())
      ? await cleanStrays(snapshot.strays, snapshot.strayGroups, budget.guard(cloud), strayOptions)
      : []
  for (const outcome of strays) log.info('stray spot instance', { region, ...summarizeOutcome(outcome) })
  const groups = await executeRegion({ ...options, cloud: budget.guard(cloud) }, snapshot, plans, budget)
  budget.report(options, region)
  await requestLooks({ ...options, region }, groups)
  reportRegion(options, snapshot, groups, now)
  return { region, groups, strays, configErrors: snapshot.configErrors }
}
