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

import { DOOMED_SWAP_DEADLINE_SECONDS } from '../constants.ts'
import type { InterruptionAction, InterruptionSignal } from '../interruption/decision.ts'
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

/**
 * A warned member ECS is now draining stays in its group until its deadline, DOOMED_SWAP_DEADLINE_SECONDS
 * after the first warning, so ECS can start its service tasks elsewhere before it stops them (at each
 * service's minimumHealthyPercent): leaving at once stopped them with the instance, and the service ran
 * below its minimum until the group's backfill booted. The handler's own reminder
 * (the `request-runs` action's deadline, as for a member replaced ahead) makes it leave as it would have;
 * no replacer run is asked for. Only a plain leave is deferred: termination through the group without a
 * decrement. A leave with a decrement (a swap's unit, announced in the record) or a detach goes at once.
 * Undefined when nothing is deferred.
 */
export const leaveAtDeadline = (
  actions: readonly InterruptionAction[],
  signal: InterruptionSignal,
  now: Date,
): InterruptionAction[] | undefined => {
  if (signal.kind !== 'spot-interruption' || signal.deadline === true) return undefined
  const { instanceId } = signal
  // EC2's warning time, as the event carries it (a redelivery carries the same).
  const warnedAt = signal.warnedAt ?? now
  const leaves = actions.filter((a) => a.instanceId === instanceId && LEAVES.has(a.kind))
  const leave = leaves[0]
  if (leaves.length !== 1 || leave?.kind !== 'terminate-in-group' || leave.decrement) return undefined
  if (actions.some((a) => a.kind === 'record-swap')) return undefined
  const deadlineMs = warnedAt.getTime() + DOOMED_SWAP_DEADLINE_SECONDS * 1000
  const deadlineInSeconds = Math.max(0, Math.ceil((deadlineMs - now.getTime()) / 1000))
  if (deadlineInSeconds === 0) return undefined
  return actions.map((a) =>
    a === leave
      ? {
          kind: 'request-runs',
          instanceId,
          group: leave.group,
          delaysSeconds: [],
          deadlineInSeconds,
          otherwise: leave,
        }
      : a,
  )
}

const LEAVES = new Set<InterruptionAction['kind']>(['terminate-in-group', 'detach', 'request-runs'])
