/**
 * What the plan holds back in a group ECS manages, or may manage: the whole group while the capacity
 * providers cannot be read, and each member ECS protects while it runs tasks.
 */

import type { GroupSkip, InstanceSkip } from '../plan/reasons.ts'
import type { GroupMember } from '../types.ts'
import type { EcsManagement } from './capacity-provider.ts'
import { isDrainable, keptDetail, memberTasksBlock } from './drain.ts'

/**
 * A tagged group whose capacity providers cannot be read: whether its members' protection is ECS's or the
 * owner's cannot be told, so nothing new starts in it (an open swap still finishes: it only retires
 * members it may).
 */
export const ecsGroupSkip = (ecs: EcsManagement | undefined): GroupSkip | undefined =>
  ecs?.kind === 'unreadable'
    ? {
        code: 'ecs-capacity-providers-unreadable',
        detail: `${ecs.error}: whether ECS protects its members cannot be told; the next run reads again`,
      }
    : undefined

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
