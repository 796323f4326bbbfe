/**
 * Invariant 5's one exception (write-invariants.ts): in a group ECS manages with managed termination
 * protection and without managed draining, a member's scale-in protection is ECS's statement that tasks
 * run there (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/managed-termination-protection.html),
 * and spotswap may drain it: record the attempt to replace it (TAG_REPLACEMENT_ATTEMPT), mark it as
 * drained by its swap (TAG_ECS_DRAINED), set its container instance DRAINING or ACTIVE again, and back
 * off when the drain gives up (TAG_NO_SPOT_CAPACITY_UNTIL). Once ECS has moved its tasks it lifts the protection, and the member
 * is retired as any other. With managed draining on, ECS's own termination hook drains a member Auto Scaling
 * terminates (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/managed-instance-draining.html),
 * so spotswap retires the partner itself, protected or not (scale-in protection does not stop
 * TerminateInstanceInAutoScalingGroup: ec2-auto-scaling-instance-protection.html), and never sets DRAINING.
 * Either way a released pair's replacement that ECS protects (it runs tasks) loses its pair tags as any
 * other (core/swap/closing.ts releaseAndClose): the link naming its partner and its swap's id removed, the
 * release recorded. Nothing else may touch a protected member: a retirement while ECS still protects it
 * (without managed draining) is still a violation.
 */
import {
  TAG_ECS_DRAINED,
  TAG_JOINED_GROUP,
  TAG_NO_SPOT_CAPACITY_UNTIL,
  TAG_RELEASED_SWAP_ID,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP_ID,
} from '../../lambdas/core/constants.ts'
import { clusterOf } from './ecs-cluster.ts'
import type { SimRegion } from './state.ts'

/**
 * Its protection is ECS's: a registered member of such a group, drained by spotswap (`drain`) or by ECS's
 * termination hook (`managed-draining`).
 */
export const ecsDrainer = (
  region: SimRegion,
  instanceId: string,
): 'drain' | 'managed-draining' | undefined => {
  const cluster = clusterOf(region, region.groupOf(instanceId)?.name)
  if (cluster === undefined || !cluster.managedTerminationProtection) return undefined
  const status = cluster.containerInstances.get(instanceId)?.status
  if (status !== 'ACTIVE' && status !== 'DRAINING') return undefined
  return cluster.managedDraining ? 'managed-draining' : 'drain'
}

const DRAIN_OPERATIONS = new Set(['ec2:CreateTags', 'ec2:DeleteTags'])
const DRAIN_MARKERS = new Set([TAG_ECS_DRAINED, TAG_REPLACEMENT_ATTEMPT, TAG_NO_SPOT_CAPACITY_UNTIL])
/** With managed draining: the attempt and back-off markers, never spotswap's own drain. */
const MANAGED_MARKERS = new Set([TAG_REPLACEMENT_ATTEMPT, TAG_NO_SPOT_CAPACITY_UNTIL])

/** A release's writes (replacer/execute.ts releasePair): the release recorded, then the pair tags removed. */
const RELEASE_RECORDED = new Set([TAG_JOINED_GROUP, TAG_RELEASED_SWAP_ID])
const RELEASE_UNTAGGED = new Set([TAG_REPLACING_INSTANCE, TAG_SWAP_ID])

/** What the exception reads of a recorded instance write (touches.ts). */
interface InstanceWrite {
  readonly operation: string
  readonly tagKeys?: readonly string[]
  readonly terminationProtected: boolean
  readonly ecsDrainer?: 'drain' | 'managed-draining'
}

const onlyKeys = (write: InstanceWrite, allowed: ReadonlySet<string>): boolean =>
  (write.tagKeys ?? []).length > 0 && (write.tagKeys ?? []).every((key) => allowed.has(key))

const onlyMarkers = (write: InstanceWrite, allowed: ReadonlySet<string>): boolean =>
  DRAIN_OPERATIONS.has(write.operation) && onlyKeys(write, allowed)

const isRelease = (write: InstanceWrite): boolean =>
  (write.operation === 'ec2:CreateTags' && onlyKeys(write, RELEASE_RECORDED)) ||
  (write.operation === 'ec2:DeleteTags' && onlyKeys(write, RELEASE_UNTAGGED))

/** A write of the drain swap on a member whose protection is ECS's: excused from invariant 5. */
export const isEcsDrainWrite = (write: InstanceWrite): boolean => {
  if (write.terminationProtected) return false
  if (write.ecsDrainer !== undefined && isRelease(write)) return true
  if (write.ecsDrainer === 'drain')
    return write.operation === 'ecs:UpdateContainerInstancesState' || onlyMarkers(write, DRAIN_MARKERS)
  if (write.ecsDrainer === 'managed-draining')
    return (
      write.operation === 'autoscaling:TerminateInstanceInAutoScalingGroup' ||
      onlyMarkers(write, MANAGED_MARKERS)
    )
  return false
}
