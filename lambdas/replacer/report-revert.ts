/**
 * A group whose revert stalled (core/revert/step.ts): its raises kept giving their unit back, so spotswap
 * stopped raising and left the group as it is. Said every run while it lasts in an error line and the
 * RevertsStalled metric (alarmed), since only its owner can lift what stops Auto Scaling from launching.
 */

import type { Log, MetricsSink } from '../core/log.ts'
import { DIMENSION_GROUP, DIMENSION_REGION, Metric } from '../core/metric-names.ts'
import type { GroupPlan } from '../core/plan/actions.ts'

export const reportRevertStalled = (
  { log, metrics }: { readonly log: Log; readonly metrics: MetricsSink },
  region: string,
  plan: GroupPlan,
): void => {
  if (plan.skip?.code !== 'revert-stalled') return
  log.error('revert stalled: nothing more is raised until its owner asks again', {
    region,
    group: plan.group,
    reason: plan.skip.detail,
    ...(plan.revertLaunchFailure === undefined
      ? {}
      : {
          statusCode: plan.revertLaunchFailure.statusCode,
          statusMessage: plan.revertLaunchFailure.statusMessage,
        }),
  })
  metrics.emit({ [DIMENSION_REGION]: region, [DIMENSION_GROUP]: plan.group }, [
    { name: Metric.RevertsStalled, unit: 'Count', value: 1 },
  ])
}
