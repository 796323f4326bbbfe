/** Report: CloudWatch metrics per group and per region, named in core/metric-names.ts. */

import type { ConfigError } from '../core/config/config.ts'
import { HOURS_PER_MONTH } from '../core/constants.ts'
import type { MetricsSink, MetricValue } from '../core/log.ts'
import { DIMENSION_GROUP, DIMENSION_REASON, DIMENSION_REGION, Metric } from '../core/metric-names.ts'
import type { GroupPlan } from '../core/plan/actions.ts'
import type { Outcome } from './execute.ts'
import { heldBackByReason, isHeldBack } from './reasons.ts'

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
    heldBack: plan.onDemand.filter(isHeldBack).length,
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

export const emitGroupMetrics = (
  sink: MetricsSink,
  region: string,
  plan: GroupPlan,
  outcomes: readonly Outcome[],
  configErrors: readonly ConfigError[],
): void => {
  sink.emit(
    { [DIMENSION_REGION]: region, [DIMENSION_GROUP]: plan.group },
    values(tally(plan, outcomes, errorsOf(plan.group, configErrors))),
  )
}

export const emitRegionMetrics = (
  sink: MetricsSink,
  region: string,
  groups: readonly { plan: GroupPlan; outcomes: readonly Outcome[] }[],
  configErrors: readonly ConfigError[],
): void => {
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
  ])
  for (const [reason, count] of Object.entries(heldBackByReason(groups.map((g) => g.plan))))
    sink.emit({ [DIMENSION_REGION]: region, [DIMENSION_REASON]: reason }, [
      { name: Metric.OnDemandHeldBack, unit: 'Count', value: count },
    ])
}
