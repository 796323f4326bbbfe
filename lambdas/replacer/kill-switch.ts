/** The kill switch in the replacer (core/region/kill-switch.ts): applied to every region run's plans before anything is executed. */
import type { Log, MetricsSink } from '../core/log.ts'
import { DIMENSION_REGION, Metric } from '../core/metric-names.ts'
import type { GroupPlan } from '../core/plan/actions.ts'
import { holdActions, type KillSwitchMode } from '../core/region/kill-switch.ts'

/** The plans without what the switch holds; each group's held actions logged, their count per region. */
export const holdPlans = (
  plans: readonly GroupPlan[],
  mode: KillSwitchMode,
  region: string,
  log: Log,
  metrics: MetricsSink,
): GroupPlan[] => {
  let heldCount = 0
  const kept = plans.map((plan) => {
    const { plan: allowed, held } = holdActions(plan, mode)
    heldCount += held.length
    if (held.length > 0)
      log.warn('kill switch holds actions', {
        region,
        group: plan.group,
        mode,
        held: held.map((a) => ({ kind: a.kind, reason: a.reason })),
      })
    return allowed
  })
  if (mode !== 'off')
    metrics.emit({ [DIMENSION_REGION]: region }, [
      { name: Metric.ActionsHeldByKillSwitch, unit: 'Count', value: heldCount },
    ])
  return kept
}
