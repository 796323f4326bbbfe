/**
 * An interruption warning for a spot member of a group ECS manages: the member is set DRAINING at once, so
 * ECS moves its service tasks within the two minutes EC2 gives
 * (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/container-instance-spot.html), unless the
 * capacity provider's managed draining is on (ECS drains it itself when Auto Scaling terminates it:
 * https://docs.aws.amazon.com/AmazonECS/latest/developerguide/managed-instance-draining.html).
 *
 * The ECS agent drains a spot instance on its own warning when ECS_ENABLE_SPOT_INSTANCE_DRAINING is set on
 * it, which spotswap cannot see from outside. It drains anyway: a container instance that reached ACTIVE
 * may be set DRAINING (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_UpdateContainerInstancesState.html),
 * so a second DRAINING changes nothing, and one ECS refuses is reported in the answer, never thrown.
 */

import type { Group } from '../types.ts'
import { type EcsCapacityProvider, protectingProvider } from './capacity-provider.ts'
import { clusterOfProvider, type EcsCluster } from './cluster.ts'

export type InterruptionDrain =
  | { readonly kind: 'drain'; readonly clusterArn: string }
  | { readonly kind: 'none'; readonly why: string }

/** Whether to drain a warned spot member of `group`, and in which cluster. */
export const interruptionDrainOf = (
  group: Group,
  providers: readonly EcsCapacityProvider[],
  clusters: readonly EcsCluster[],
): InterruptionDrain => {
  const provider = protectingProvider(group, providers)
  if (provider === undefined) return { kind: 'none', why: 'no capacity provider protects the group' }
  if (provider.managedDraining)
    return { kind: 'none', why: `capacity provider ${provider.name} drains it itself (managed draining)` }
  const cluster = clusterOfProvider(clusters, provider.name)
  if (cluster === undefined)
    return { kind: 'none', why: `no cluster names capacity provider ${provider.name}` }
  return { kind: 'drain', clusterArn: cluster.arn }
}
