/**
 * Scheduled events as the run reports them: each group's members with one, and what spotswap does about
 * each (a log line and ScheduledMembers), and a read that failed (a warning and ScheduledEventsUnreadable).
 */
import type { Log, MetricsSink } from '../core/log.ts'
import type { ScheduledEventsObservation } from '../core/maintenance/events.ts'
import { DIMENSION_GROUP, DIMENSION_REGION, Metric } from '../core/metric-names.ts'
import type { GroupPlan } from '../core/plan/actions.ts'

interface Telemetry {
  readonly log: Log
  readonly metrics: MetricsSink
}

export const reportScheduled = (
  { log, metrics }: Telemetry,
  region: string,
  observed: ScheduledEventsObservation | undefined,
  plans: readonly GroupPlan[],
): void => {
  if (observed?.kind === 'unreadable') {
    log.warn('scheduled events could not be read: no member is replaced for one this run', {
      region,
      error: observed.error,
    })
    metrics.emit({ [DIMENSION_REGION]: region }, [
      { name: Metric.ScheduledEventsUnreadable, unit: 'Count', value: 1 },
    ])
  }
  for (const plan of plans) {
    const scheduled = plan.scheduled ?? []
    if (scheduled.length === 0) continue
    log.info('members with a scheduled event', { region, group: plan.group, scheduled })
    metrics.emit({ [DIMENSION_REGION]: region, [DIMENSION_GROUP]: plan.group }, [
      { name: Metric.ScheduledMembers, unit: 'Count', value: scheduled.length },
    ])
  }
}
