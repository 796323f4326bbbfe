/**
 * Report: one log line per action, per group's figures and per finding worth a look, and CloudWatch
 * metrics per region (per group when GROUP_METRICS is on), named in core/metric-names.ts.
 */
import type { ConfigError } from '../core/config/config.ts'
import { HEALTH_DEADLINE_MAX_SECONDS, HOURS_PER_MONTH, SWAP_FINISH_RUNS } from '../core/constants.ts'
import { type UntrustedInstance, untrustedReason } from '../core/group/provenance.ts'
import type { OwnerChanges } from '../core/group/scaling-activities.ts'
import type { Log, MetricsSink, MetricValue } from '../core/log.ts'
import {
  DIMENSION_GROUP,
  DIMENSION_REASON,
  DIMENSION_REGION,
  Metric,
  type MetricName,
} from '../core/metric-names.ts'
import type { GroupPlan } from '../core/plan/actions.ts'
import type { DetailRead, UnreadableDetail } from '../core/region/details-needed.ts'
import { isHeldRaise, readSwapRecord } from '../core/swap/record.ts'
import type { OnDemandPrices } from '../core/types.ts'
import type { Outcome } from './outcome.ts'
import { summarizeOutcome } from './outcome-summary.ts'
import { heldBackByReason, isHeldBack, logReasonChanges, type ReasonMemory } from './reasons.ts'
import { reportRevertStalled } from './report-revert.ts'

type PriceSource = OnDemandPrices['source']

interface Telemetry {
  readonly log: Log
  readonly metrics: MetricsSink
}

interface Tally {
  hourlySavingsUsd: number
  spot: number
  onDemand: number
  heldBack: number
  started: number
  completed: number
  failed: number
  orphans: number
  refused: number
  configErrors: number
}

/** Counted, not filtered into an array only to take its length: this runs twice for every group. */
const heldBackCount = (plan: GroupPlan): number => {
  let count = 0
  for (const status of plan.onDemand) if (isHeldBack(status)) count++
  return count
}

/** One pass over the outcomes: this runs for every group, twice (its own metrics and the region's). */
const tally = (plan: GroupPlan, outcomes: readonly Outcome[], configErrors: number): Tally => {
  let started = 0
  let completed = 0
  let failed = 0
  let orphans = 0
  let refused = 0
  for (const { status, action, refused: wasRefused } of outcomes) {
    if (status === 'done') {
      if (action.kind === 'launch-spot') started++
      // A replacement is complete once its partner has left (a swap only attaches).
      else if (action.kind === 'complete-swap' && action.retire === 'partner') completed++
      else if (action.kind === 'terminate-spot') orphans++
    } else if (status === 'failed' && (action.kind === 'launch-spot' || action.kind === 'swap')) {
      failed++
      if (wasRefused) refused++
    }
  }
  return {
    hourlySavingsUsd: plan.figures.hourlySavingsUsd,
    spot: plan.figures.spot,
    onDemand: plan.figures.onDemand,
    heldBack: heldBackCount(plan),
    started,
    completed,
    failed,
    orphans,
    refused,
    configErrors,
  }
}

const add = (sum: Tally, t: Tally): void => {
  sum.hourlySavingsUsd += t.hourlySavingsUsd
  sum.spot += t.spot
  sum.onDemand += t.onDemand
  sum.heldBack += t.heldBack
  sum.started += t.started
  sum.completed += t.completed
  sum.failed += t.failed
  sum.orphans += t.orphans
  sum.refused += t.refused
  sum.configErrors += t.configErrors
}

const values = (t: Tally): MetricValue[] => {
  const total = t.spot + t.onDemand
  return [
    { name: Metric.HourlySavingsUsd, unit: 'None', value: t.hourlySavingsUsd },
    { name: Metric.ProjectedMonthlySavingsUsd, unit: 'None', value: t.hourlySavingsUsd * HOURS_PER_MONTH },
    { name: Metric.SpotInstances, unit: 'Count', value: t.spot },
    { name: Metric.OnDemandInstances, unit: 'Count', value: t.onDemand },
    { name: Metric.SpotSharePct, unit: 'Percent', value: total === 0 ? 0 : (100 * t.spot) / total },
    { name: Metric.OnDemandHeldBack, unit: 'Count', value: t.heldBack },
    { name: Metric.ReplacementsStarted, unit: 'Count', value: t.started },
    { name: Metric.ReplacementsCompleted, unit: 'Count', value: t.completed },
    { name: Metric.ReplacementsFailed, unit: 'Count', value: t.failed },
    { name: Metric.OrphansTerminated, unit: 'Count', value: t.orphans },
    { name: Metric.LaunchesRefused, unit: 'Count', value: t.refused },
    { name: Metric.ConfigErrors, unit: 'Count', value: t.configErrors },
  ]
}

const errorsOf = (group: string, errors: readonly ConfigError[]): number =>
  errors.filter((e) => e.group === group).length

/** Savings from the embedded price table (no Pricing API answer) are estimates (replacer/summary.ts). */
const isEstimated = (source: PriceSource | undefined): boolean =>
  source !== undefined && source !== 'pricing-api'

/**
 * One group's figures after its run: always a structured log line (per-group views come from Logs
 * Insights), and CloudWatch metrics per group only when GROUP_METRICS asks for them, since each metric
 * a group emits every run is billed as a custom metric (https://aws.amazon.com/cloudwatch/pricing/).
 */
export const reportGroupFigures = (
  { log, metrics }: Telemetry,
  region: string,
  { plan, outcomes, source }: GroupFiguresInput,
  configErrors: readonly ConfigError[],
  groupMetrics: boolean,
): void => {
  const figures = tally(plan, outcomes, errorsOf(plan.group, configErrors))
  // Named one by one, not spread after other fields: that spread copies property by property into an
  // object grown out of line, kilobytes for every group of every run (the keys keep their order).
  const fields: Record<string, unknown> = {
    region,
    group: plan.group,
    hourlySavingsUsd: figures.hourlySavingsUsd,
    spot: figures.spot,
    onDemand: figures.onDemand,
    heldBack: figures.heldBack,
    started: figures.started,
    completed: figures.completed,
    failed: figures.failed,
    orphans: figures.orphans,
    refused: figures.refused,
    configErrors: figures.configErrors,
  }
  if (isEstimated(source)) fields.savingsEstimated = true
  log.info('group figures', fields)
  if (groupMetrics)
    metrics.emit({ [DIMENSION_REGION]: region, [DIMENSION_GROUP]: plan.group }, values(figures))
}

interface GroupFiguresInput {
  readonly plan: GroupPlan
  readonly outcomes: readonly Outcome[]
  readonly source?: PriceSource | undefined
}

/**
 * The region's totals, only where there is something to say: a region with no managed group and no
 * configuration error emits nothing, so an account pays for the regions it uses, not the ones it covers.
 */
export const emitRegionMetrics = (
  sink: MetricsSink,
  region: string,
  groups: readonly GroupFiguresInput[],
  configErrors: readonly ConfigError[],
): void => {
  if (groups.length === 0 && configErrors.length === 0) return
  const sum: Tally = {
    hourlySavingsUsd: 0,
    spot: 0,
    onDemand: 0,
    heldBack: 0,
    started: 0,
    completed: 0,
    failed: 0,
    orphans: 0,
    refused: 0,
    configErrors: 0,
  }
  for (const { plan, outcomes } of groups) add(sum, tally(plan, outcomes, 0))
  // Global (environment) errors count once per region, group tag errors once per group.
  sum.configErrors = configErrors.length
  sink.emit({ [DIMENSION_REGION]: region }, [
    ...values(sum),
    { name: Metric.GroupsManaged, unit: 'Count', value: groups.length },
    {
      name: Metric.SavingsEstimatedGroups,
      unit: 'Count',
      value: groups.filter((g) => isEstimated(g.source)).length,
    },
  ])
  for (const [reason, count] of Object.entries(heldBackByReason(groups.map((g) => g.plan))))
    sink.emit({ [DIMENSION_REGION]: region, [DIMENSION_REASON]: reason }, [
      { name: Metric.OnDemandHeldBack, unit: 'Count', value: count },
    ])
}

/** Instances tagged as spotswap's launches that are not: a warning each, and a count per group. */
export const reportUntrusted = (
  { log, metrics }: Telemetry,
  region: string,
  group: string,
  untrusted: readonly UntrustedInstance[],
): void => {
  if (untrusted.length === 0) return
  for (const suspect of untrusted)
    log.warn('instance tagged as spotswap launch left alone', {
      region,
      group,
      instanceId: suspect.instanceId,
      reason: untrustedReason(suspect),
    })
  metrics.emit({ [DIMENSION_REGION]: region, [DIMENSION_GROUP]: group }, [
    { name: Metric.UntrustedInstances, unit: 'Count', value: untrusted.length },
  ])
}

/**
 * Members tagged as warned of their interruption that EC2 does not confirm (`untrusted-marker`) or could
 * not be asked about this run (`marker-unverified`): a warning each; the first counted in UntrustedMarkers.
 */
export const reportMarkers = ({ log, metrics }: Telemetry, region: string, plan: GroupPlan): void => {
  const markers = plan.instanceSkips.filter(
    (s) => s.code === 'untrusted-marker' || s.code === 'marker-unverified',
  )
  if (markers.length === 0) return
  for (const { instanceId, reason } of markers)
    log.warn('interruption marker not acted on', { region, group: plan.group, instanceId, reason })
  const untrusted = markers.filter((s) => s.code === 'untrusted-marker').length
  if (untrusted > 0)
    metrics.emit({ [DIMENSION_REGION]: region, [DIMENSION_GROUP]: plan.group }, [
      { name: Metric.UntrustedMarkers, unit: 'Count', value: untrusted },
    ])
}

/**
 * Launches spotswap made and cannot verify (core/group/provenance.ts isUnverifiedLaunch): an error line
 * each (a person must attach or terminate it) and their count per group, which an alarm watches.
 */
export const reportUnverified = (
  { log, metrics }: Telemetry,
  region: string,
  group: string,
  unverified: readonly UntrustedInstance[],
): void => {
  if (unverified.length === 0) return
  for (const launch of unverified)
    log.error('launch spotswap made cannot be verified: its partner waits until it is resolved', {
      region,
      group,
      instanceId: launch.instanceId,
      reason: untrustedReason(launch),
    })
  metrics.emit({ [DIMENSION_REGION]: region, [DIMENSION_GROUP]: group }, [
    { name: Metric.UnverifiedLaunches, unit: 'Count', value: unverified.length },
  ])
}

/**
 * Sentences of the groups' scaling activities in none of Auto Scaling's known wordings: the wording is not
 * a documented contract, so a change in it must show (a log line and a metric) rather than pass unseen.
 */
export const reportUnclassified = (
  { log, metrics }: Telemetry,
  region: string,
  changes: ReadonlyMap<string, OwnerChanges>,
): void => {
  for (const [group, read] of changes) {
    if (read.kind !== 'read' || (read.unclassified ?? 0) === 0) continue
    log.warn('scaling activities in an unknown wording', { region, group, sentences: read.unclassified })
    metrics.emit({ [DIMENSION_REGION]: region, [DIMENSION_GROUP]: group }, [
      { name: Metric.UnclassifiedScalingActivities, unit: 'Count', value: read.unclassified ?? 0 },
    ])
  }
}

/**
 * A group whose instance refreshes could not be read goes on as if none ran: a swap during a refresh wastes
 * a launch but loses no capacity. Said in a warning and the InstanceRefreshUnreadable metric, so an account
 * where the read always fails (a missing permission) shows.
 */
export const reportRefreshUnreadable = (
  { log, metrics }: Telemetry,
  region: string,
  group: string,
  error: string,
): void => {
  log.warn('instance refreshes unreadable: the group proceeds as if none were running', {
    region,
    group,
    error,
  })
  metrics.emit({ [DIMENSION_REGION]: region, [DIMENSION_GROUP]: group }, [
    { name: Metric.InstanceRefreshUnreadable, unit: 'Count', value: 1 },
  ])
}

/** The metric each failed detail read counts in. */
const UNREADABLE_METRIC: Readonly<Record<DetailRead, MetricName>> = {
  'lifecycle-hooks': Metric.LifecycleHooksUnreadable,
  'stack-status': Metric.StackStatusUnreadable,
  'termination-protection': Metric.TerminationProtectionUnreadable,
  'spot-prices': Metric.SpotPricesUnreadable,
  subnets: Metric.SubnetsUnreadable,
}

/** What a failed read holds back, as the warning says it. */
const UNREADABLE_HOLD: Readonly<Record<DetailRead, string>> = {
  'lifecycle-hooks': 'lifecycle hooks unreadable: the group starts no replacement or swap this run',
  'stack-status': 'stack status unreadable: the group waits as if its stack were updating',
  'termination-protection':
    'termination protection unreadable: the instance is treated as protected this run',
  'spot-prices': 'spot prices unreadable: the group starts no replacement or swap this run',
  subnets: "subnets' zones unreadable: the group starts no replacement or swap this run",
}

/**
 * A hooks, stack-status or termination-protection read that failed after the SDK's retries: it held back
 * only its group (or instance). Said in a warning and a metric per read, so a read that always fails (a
 * missing permission) shows.
 */
export const reportDetailUnreadable = (
  { log, metrics }: Telemetry,
  region: string,
  { read, group, subject, error }: UnreadableDetail,
): void => {
  log.warn(UNREADABLE_HOLD[read], { region, group, read, subject, error })
  metrics.emit({ [DIMENSION_REGION]: region, [DIMENSION_GROUP]: group }, [
    { name: UNREADABLE_METRIC[read], unit: 'Count', value: 1 },
  ])
}

/**
 * What one group's run says as it ends: a line per action, the skip, the members whose reason for staying
 * on-demand changed (when the container remembers them), launches left alone, an exceeded plan budget.
 */
export const reportGroupRun = (
  telemetry: Telemetry & { readonly reasons?: ReasonMemory | undefined },
  region: string,
  dryRun: boolean,
  plan: GroupPlan,
  outcomes: readonly Outcome[],
): void => {
  const { log, metrics, reasons } = telemetry
  for (const outcome of outcomes) {
    const entry = { region, group: plan.group, ...summarizeOutcome(outcome) }
    if (outcome.status === 'failed') log.error('action failed', entry)
    else log.info(dryRun ? 'action planned (dry run)' : 'action done', entry)
  }
  if (plan.skipped) log.info('group skipped', { region, group: plan.group, reason: plan.skipped })
  if (reasons !== undefined) logReasonChanges(log, region, plan, reasons)
  reportUntrusted(telemetry, region, plan.group, plan.untrusted ?? [])
  reportMarkers(telemetry, region, plan)
  reportUnverified(telemetry, region, plan.group, plan.unverified ?? [])
  reportRevertStalled(telemetry, region, plan)
  if (plan.skip?.code === 'plan-budget-exceeded')
    metrics.emit({ [DIMENSION_REGION]: region, [DIMENSION_GROUP]: plan.group }, [
      { name: Metric.PlanBudgetExceeded, unit: 'Count', value: 1 },
    ])
}

/**
 * When the group's swap started, if it is still open past any deadline it can have: a swap gives up on a
 * replacement at most HEALTH_DEADLINE_MAX_SECONDS after it started (core/swap/finish-pairs.ts), and
 * finishing takes SWAP_FINISH_RUNS more runs. A swap closed by this run's actions is over. A group ECS
 * manages gives its drains `drainSeconds` more (core/ecs/deadline.ts). A record that only holds a raise
 * (no pairs: core/swap/closing.ts heldRaise) has no deadline: it stands while the owner's desired capacity
 * is above the owner's MaxSize, and the close that puts MaxSize back once desired allows needs no one.
 */
export const swapPastDeadline = (
  groupTags: Readonly<Record<string, string>>,
  outcomes: readonly Outcome[],
  now: Date,
  scheduleMinutes: number,
  drainSeconds = 0,
): Date | undefined => {
  const read = readSwapRecord(groupTags)
  if (read.kind !== 'read' || isHeldRaise(read.record)) return undefined
  const startedAt = read.record.startedAt
  if (startedAt === undefined) return undefined
  if (outcomes.some((o) => o.status === 'done' && o.action.kind === 'close-swap')) return undefined
  const boundMs =
    (HEALTH_DEADLINE_MAX_SECONDS + drainSeconds + SWAP_FINISH_RUNS * scheduleMinutes * 60) * 1000
  return now.getTime() - startedAt.getTime() > boundMs ? startedAt : undefined
}

/** A swap open past its deadline holds desired capacity and MaxSize: an error line and a count a person is paged on. */
export const reportSwapPastDeadline = (
  { log, metrics }: Telemetry,
  region: string,
  group: string,
  startedAt: Date,
): void => {
  log.error('swap open past its deadline: its plan says what holds it', {
    region,
    group,
    startedAt: startedAt.toISOString(),
  })
  metrics.emit({ [DIMENSION_REGION]: region, [DIMENSION_GROUP]: group }, [
    { name: Metric.SwapsPastDeadline, unit: 'Count', value: 1 },
  ])
}
