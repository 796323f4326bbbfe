/**
 * A region whose ECS capacity providers could not be read: every group carrying AmazonECSManaged waited
 * (`ecs-capacity-providers-unreadable`). Said once per run in a warning and the
 * EcsCapacityProvidersUnreadable metric, so a read that always fails (a missing permission, the ECS
 * client not wired) shows. Members kept for their tasks are counted per group.
 */

import type { Log, MetricsSink } from '../core/log.ts'
import { DIMENSION_GROUP, DIMENSION_REGION, Metric } from '../core/metric-names.ts'
import type { GroupPlan } from '../core/plan/actions.ts'
import type { RegionSnapshot } from './observe.ts'

export const reportEcsUnreadable = (
  { log, metrics }: { readonly log: Log; readonly metrics: MetricsSink },
  region: string,
  snapshot: RegionSnapshot,
): void => {
  const observation = snapshot.ecsProviders
  if (observation?.kind !== 'unreadable') return
  log.warn('ECS capacity providers unreadable: groups tagged AmazonECSManaged start nothing this run', {
    region,
    error: observation.error,
  })
  metrics.emit({ [DIMENSION_REGION]: region }, [
    { name: Metric.EcsCapacityProvidersUnreadable, unit: 'Count', value: 1 },
  ])
}

/**
 * Members of `plan`'s group kept from a drain swap for their tasks (core/ecs/tasks.ts): a standalone task,
 * or tasks unread. Counted per group, so a member that never converts for a task someone runs by hand shows.
 */
export const reportEcsKeptForTasks = (
  { metrics }: { readonly metrics: MetricsSink },
  region: string,
  plan: GroupPlan,
): void => {
  const kept = plan.instanceSkips.filter(
    (s) => s.code === 'ecs-standalone-task' || s.code === 'ecs-tasks-unreadable',
  ).length
  if (kept === 0) return
  metrics.emit({ [DIMENSION_REGION]: region, [DIMENSION_GROUP]: plan.group }, [
    { name: Metric.EcsMembersKeptForTasks, unit: 'Count', value: kept },
  ])
}
