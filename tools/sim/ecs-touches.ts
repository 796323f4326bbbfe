/**
 * Invariant 5's one exception (write-invariants.ts): in a group ECS manages with managed termination
 * protection and without managed draining, a member's scale-in protection is ECS's statement that tasks
 * run there (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/managed-termination-protection.html),
 * and spotswap may drain it: record the attempt to replace it (TAG_REPLACEMENT_ATTEMPT), mark it as
 * drained by its swap (TAG_ECS_DRAINED), set its container instance DRAINING or ACTIVE again, and back
 * off when the drain gives up (TAG_NO_SPOT_CAPACITY_UNTIL). Once ECS has moved its tasks it lifts the protection, and the member
 * is retired as any other. Nothing else may touch a protected member: a retirement while ECS still
 * protects it is still a violation.
 */
import {
  TAG_ECS_DRAINED,
  TAG_NO_SPOT_CAPACITY_UNTIL,
  TAG_REPLACEMENT_ATTEMPT,
} from '../../lambdas/core/constants.ts'
import { clusterOf } from './ecs-cluster.ts'
import type { SimRegion } from './state.ts'
import type { WriteRecord } from './touches.ts'

/** Its protection is ECS's and spotswap drains in its cluster: a registered member of such a group. */
export const isEcsDrainable = (region: SimRegion, instanceId: string): boolean => {
  const cluster = clusterOf(region, region.groupOf(instanceId)?.name)
  if (cluster === undefined || !cluster.managedTerminationProtection || cluster.managedDraining) return false
  const status = cluster.containerInstances.get(instanceId)?.status
  return status === 'ACTIVE' || status === 'DRAINING'
}

const DRAIN_OPERATIONS = new Set(['ec2:CreateTags', 'ec2:DeleteTags'])
const DRAIN_MARKERS = new Set([TAG_ECS_DRAINED, TAG_REPLACEMENT_ATTEMPT, TAG_NO_SPOT_CAPACITY_UNTIL])

/** A write of the drain swap on a member whose protection is ECS's: excused from invariant 5. */
export const isEcsDrainWrite = (write: WriteRecord & { kind: 'instance' }): boolean =>
  write.ecsDrainable === true &&
  !write.terminationProtected &&
  (write.operation === 'ecs:UpdateContainerInstancesState' ||
    (DRAIN_OPERATIONS.has(write.operation) &&
      (write.tagKeys ?? []).length > 0 &&
      (write.tagKeys ?? []).every((key) => DRAIN_MARKERS.has(key))))
