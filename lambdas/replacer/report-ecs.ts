/**
 * A region whose ECS capacity providers could not be read: every group carrying AmazonECSManaged waited
 * (`ecs-capacity-providers-unreadable`). Said once per run in a warning and the
 * EcsCapacityProvidersUnreadable metric, so a read that always fails (a missing permission, the ECS
 * client not wired) shows.
 */

import type { Log, MetricsSink } from '../core/log.ts'
import { DIMENSION_REGION, Metric } from '../core/metric-names.ts'
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
