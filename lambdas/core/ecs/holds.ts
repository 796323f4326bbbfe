/**
 * What the plan holds back in a group ECS manages, or may manage: the whole group while the capacity
 * providers cannot be read, and each member ECS protects while it runs tasks.
 */

import type { GroupSkip, InstanceSkip } from '../plan/reasons.ts'
import type { Group, GroupMember } from '../types.ts'
import type { EcsManagement } from './capacity-provider.ts'
import { isDrainable, keptDetail, memberTasksBlock } from './drain.ts'

/**
 * A tagged group whose capacity providers cannot be read: whether its members' protection is ECS's or the
 * owner's cannot be told, so nothing new starts in it (an open swap still finishes: it only retires
 * members it may).
 */
export const ecsGroupSkip = (ecs: EcsManagement | undefined, group: Group): GroupSkip | undefined =>
  ecs?.kind === 'unreadable'
    ? {
        code: 'ecs-capacity-providers-unreadable',
        detail: `${ecs.error}: whether ECS protects its members cannot be told; the next run reads again`,
      }
    : ecs?.kind === 'managed'
      ? scaleInPending(group)
      : undefined

/** Members that count toward desired capacity: in service or on their way in, not leaving. */
const COUNTED_STATES = new Set(['InService', 'Pending', 'Pending:Wait', 'Pending:Proceed'])

/**
 * A managed group holding more members than its desired capacity: the owner (or ECS managed scaling)
 * scaled in while ECS protected them, and Auto Scaling terminates each one as soon as ECS lifts its
 * protection (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-instance-protection.html:
 * desired capacity is decremented at once, the instances go once their protection is removed). A partner
 * drained now would be taken by that scale-in before the swap could retire it with its decrement, and the
 * swap's unit would stay held (chaos seed 197). Nothing new starts until the scale-in is done; an open
 * swap still finishes.
 */
const scaleInPending = (group: Group): GroupSkip | undefined => {
  const counted = group.members.filter((m) => COUNTED_STATES.has(m.lifecycleState)).length
  return counted > group.desiredCapacity
    ? {
        code: 'ecs-scale-in-pending',
        detail: `${counted} members for a desired capacity of ${group.desiredCapacity}: Auto Scaling takes each one whose protection ECS lifts; a drained partner would leave without the swap's decrement`,
      }
    : undefined
}

/**
 * A protected member of a group ECS manages: ECS protects it while it runs non-daemon tasks and lifts the
 * protection once they stop (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/managed-termination-protection.html).
 * Said apart from an owner's protection, so `plan` tells why. Kept, unless a drain swap can take it
 * (`drainable`: its container instance is ACTIVE in the cluster and no task of it keeps it, drain.ts).
 */
export const ecsMemberSkip = (
  ecs: EcsManagement | undefined,
  member: GroupMember,
): InstanceSkip | 'drainable' | undefined => {
  if (ecs?.kind !== 'managed' || !member.protectedFromScaleIn) return undefined
  // Its container instance ACTIVE: replaced by a drain swap (drain.ts).
  if (isDrainable(ecs, member)) return 'drainable'
  const blocked = memberTasksBlock(ecs, member)
  if (blocked !== undefined)
    return {
      instanceId: member.instanceId,
      code: blocked.code,
      reason: `${blocked.code}: ECS protects it while it runs tasks and ${blocked.detail}; not drained${blocked.code === 'ecs-standalone-task' ? ' while it runs' : ' this run'}`,
    }
  return {
    instanceId: member.instanceId,
    code: 'ecs-tasks-running',
    reason: `ecs-tasks-running: ECS protects it while it runs non-daemon tasks (capacity provider ${ecs.provider.name}, managed termination protection); kept until ECS lifts the protection${keptDetail(ecs)}`,
  }
}
