/**
 * The drain swap: how a member ECS protects while it runs tasks is converted. Its replacement is launched
 * and attached as for any member; once the replacement's container instance is ACTIVE in the cluster the
 * partner is set DRAINING, and ECS moves its service tasks to the other container instances at the pace
 * of each service's deployment configuration, then removes its scale-in protection
 * (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/container-instance-draining.html,
 * https://docs.aws.amazon.com/AmazonECS/latest/developerguide/managed-termination-protection.html). Only
 * then is it retired, as any partner (core/swap/finish-pairs.ts): spotswap never retires a member while
 * ECS protects it. A drain not done by ECS_DRAIN_DEADLINE_SECONDS after the swap's health deadline gives
 * up: the replacement leaves with the swap's unit and the partner is set ACTIVE again.
 *
 * With the capacity provider's managed draining on, ECS drains a member itself when Auto Scaling
 * terminates it, through its own termination lifecycle hook
 * (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/managed-instance-draining.html), and scale-in
 * protection does not stop TerminateInstanceInAutoScalingGroup
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-instance-protection.html). So
 * spotswap never sets such a partner DRAINING (never twice): once the replacement's container instance is
 * ACTIVE, the partner is retired with a decrement, as any, and ECS drains it on its way out.
 *
 * A member running a standalone task is never drained: ECS would never move that task, so the drain could
 * only stall (core/ecs/tasks.ts). Nor is one whose tasks could not be read this run. A drain given up (it
 * stalled, or a standalone task started meanwhile) is not tried again for ECS_DRAIN_RETRY_MINUTES: each
 * try moves the member's service tasks.
 *
 * spotswap sets a container instance ACTIVE again only if it drained it for the open swap: the partner
 * carries TAG_ECS_DRAINED with the swap's id, a marker with a MAC (core/markers.ts), written before the
 * drain. A member an owner drained is never set ACTIVE by spotswap.
 */
import { ECS_DRAIN_DEADLINE_SECONDS, ECS_DRAIN_RETRY_MINUTES, TAG_ECS_DRAINED } from '../constants.ts'
import type { EcsStateAction, SwapPair } from '../plan/actions.ts'
import type { PairSituation } from '../swap/transitions.ts'
import type { GroupMember, Instance } from '../types.ts'
import type { EcsManagement } from './capacity-provider.ts'
import type { EcsContainerInstance } from './cluster.ts'
import { standaloneBlock } from './tasks.ts'

/** Sets a container instance DRAINING (after writing TAG_ECS_DRAINED) or ACTIVE again. */
/** A drain pair's step this run: the row of PAIR_TRANSITIONS that applies, and the ECS write it takes. */
export interface DrainStep {
  readonly situation: PairSituation
  readonly detail: string
  readonly action?: EcsStateAction
  /** A drain given up: the partner's next replacement waits this long (ECS_DRAIN_RETRY_MINUTES). */
  readonly backOffMinutes?: number
}

type Cluster = Extract<EcsManagement, { kind: 'managed' }>['cluster'] & { kind: 'read' }

/**
 * The managed group's cluster, when read: a swap drains in it, itself (managed draining off) or through
 * ECS's own termination hook (managed draining on).
 */
const drainingCluster = (ecs: EcsManagement | undefined): Cluster | undefined =>
  ecs?.kind === 'managed' && ecs.cluster.kind === 'read' ? ecs.cluster : undefined

/** ECS drains the group's members itself when Auto Scaling terminates them (managed draining on). */
const ecsDrains = (ecs: EcsManagement | undefined): boolean =>
  ecs?.kind === 'managed' && ecs.provider.managedDraining

/**
 * A member a drain swap may replace: ECS protects it (its container instance is ACTIVE in the managed
 * group's cluster) and no task of it keeps it (tasksBlock).
 */
export const isDrainable = (ecs: EcsManagement | undefined, member: GroupMember): boolean => {
  const cluster = drainingCluster(ecs)
  const instance = cluster?.containerInstances.get(member.instanceId)
  return (
    member.protectedFromScaleIn &&
    cluster !== undefined &&
    instance?.status === 'ACTIVE' &&
    tasksBlock(cluster, instance) === undefined
  )
}

/**
 * Why a container instance is not drained for its tasks (core/ecs/tasks.ts): a standalone task ECS would
 * never move, or tasks that could not be read. One running no task has none to read.
 */
export const tasksBlock = (cluster: Cluster, instance: EcsContainerInstance) =>
  instance.runningTasksCount === 0 ? undefined : standaloneBlock(cluster.tasks?.get(instance.ec2InstanceId))

/** The tasks block of a protected member of a group spotswap drains in, if any. */
export const memberTasksBlock = (ecs: EcsManagement | undefined, member: GroupMember) => {
  const cluster = drainingCluster(ecs)
  const instance = cluster?.containerInstances.get(member.instanceId)
  return cluster === undefined || instance?.status !== 'ACTIVE' || !member.protectedFromScaleIn
    ? undefined
    : tasksBlock(cluster, instance)
}

/** Why a protected member of a managed group is kept as it is, when it is not drainable. */
export const keptDetail = (ecs: EcsManagement & { kind: 'managed' }): string =>
  ecs.cluster.kind === 'unreadable'
    ? `; its cluster could not be read (${ecs.cluster.error})`
    : ecs.cluster.kind === 'no-cluster'
      ? '; no cluster names the capacity provider'
      : '; it has no ACTIVE container instance in the cluster'

export interface DrainInput {
  readonly group: string
  readonly ecs: EcsManagement | undefined
  readonly now: Date
  /** The open swap's id (its record's). */
  readonly swapId: string | undefined
  readonly detail: (id: string) => Instance | undefined
  /** Protected from scale-in: by ECS, in a managed group. */
  readonly scaleInProtected: (id: string) => boolean
  readonly terminationProtected: (id: string) => boolean
}

const drainedBySwap = (input: DrainInput, id: string): boolean =>
  input.swapId !== undefined && input.detail(id)?.tags[TAG_ECS_DRAINED] === input.swapId

const stateAction = (
  input: DrainInput,
  kind: EcsStateAction['kind'],
  cluster: Cluster,
  instance: EcsContainerInstance,
  reason: string,
): EcsStateAction => ({
  kind,
  group: input.group,
  instanceId: instance.ec2InstanceId,
  cluster: cluster.clusterArn,
  containerInstanceArn: instance.arn,
  ...(kind === 'ecs-drain' && input.swapId !== undefined ? { swapId: input.swapId } : {}),
  reason,
})

/**
 * The step of a pair whose partner ECS protects, or undefined when the pair is no drain pair (the group
 * is not one spotswap drains in, the partner is not protected by ECS any more, or it is the owner's to
 * keep: protected against API termination, or kept for the on-demand minimum): the pair then goes by
 * PAIR_TRANSITIONS as any other. `deadlineMs` is the swap's health deadline.
 */
export const drainStep = (
  input: DrainInput,
  pair: SwapPair,
  keepsMinimum: boolean,
  deadlineMs: number,
): DrainStep | undefined => {
  const cluster = drainingCluster(input.ecs)
  const partnerId = pair.onDemandInstanceId
  if (cluster === undefined || !keepsMinimum || !input.scaleInProtected(partnerId)) return undefined
  if (input.terminationProtected(partnerId)) return undefined
  const partner = cluster.containerInstances.get(partnerId)
  if (partner === undefined || (partner.status !== 'ACTIVE' && partner.status !== 'DRAINING'))
    return undefined
  const nowMs = input.now.getTime()
  const ours = partner.status === 'DRAINING' && drainedBySwap(input, partnerId)
  const giveUp = (situation: PairSituation, detail: string): DrainStep => ({
    situation,
    detail,
    // Only a drain that was due is not tried again soon; a replacement that never joined backs off as any.
    ...(situation === 'ecs-not-registered-by-deadline' ? {} : { backOffMinutes: ECS_DRAIN_RETRY_MINUTES }),
    ...(ours
      ? {
          action: stateAction(
            input,
            'ecs-undrain',
            cluster,
            partner,
            `${situation}: ${detail}; set ACTIVE again`,
          ),
        }
      : {}),
  })
  const replacement = cluster.containerInstances.get(pair.spotInstanceId)
  // ECS's own hook drains the partner when Auto Scaling terminates it: spotswap never drains it too.
  if (ecsDrains(input.ecs) && partner.status !== 'ACTIVE') return undefined
  if (replacement?.status !== 'ACTIVE') {
    const detail = `${pair.spotInstanceId} has no ACTIVE container instance in ${cluster.clusterArn} (${replacement?.status ?? 'not registered'})`
    return nowMs >= deadlineMs
      ? giveUp('ecs-not-registered-by-deadline', detail)
      : { situation: 'ecs-registering', detail }
  }
  const drainDeadlineMs = deadlineMs + ECS_DRAIN_DEADLINE_MS
  const blocked = partner.status === 'ACTIVE' ? tasksBlock(cluster, partner) : undefined
  if (blocked?.code === 'ecs-standalone-task') return giveUp('ecs-standalone-task', blocked.detail)
  if (blocked !== undefined)
    return nowMs >= drainDeadlineMs
      ? giveUp('ecs-drain-stalled', `${partnerId} was never drained: ${blocked.detail}`)
      : { situation: 'ecs-tasks-unread', detail: `${partnerId}: ${blocked.detail}` }
  if (ecsDrains(input.ecs))
    return {
      situation: 'ecs-managed-draining',
      detail: `${pair.spotInstanceId}'s container instance is ACTIVE; ECS drains ${partnerId} as Auto Scaling terminates it (managed draining)`,
    }
  if (partner.status === 'ACTIVE')
    return {
      situation: 'ecs-drain',
      detail: `${pair.spotInstanceId}'s container instance is ACTIVE`,
      action: stateAction(
        input,
        'ecs-drain',
        cluster,
        partner,
        `ecs-drain: ${pair.spotInstanceId} is ACTIVE in the cluster; ECS moves ${partnerId}'s ${partner.runningTasksCount} task(s) to it and the others`,
      ),
    }
  const detail = `${partnerId} is DRAINING with ${partner.runningTasksCount} task(s) running`
  return nowMs >= drainDeadlineMs
    ? giveUp('ecs-drain-stalled', `${detail} at ${new Date(drainDeadlineMs).toISOString()}`)
    : { situation: 'ecs-draining', detail }
}

/**
 * Members spotswap drained for a swap that no longer holds them as partners (the swap gave up, was
 * released, or closed): set ACTIVE again. `partners` are the open swap's half-done partners this run.
 */
export const undrainLeftovers = (
  input: DrainInput,
  members: readonly GroupMember[],
  partners: ReadonlySet<string>,
): EcsStateAction[] => {
  const cluster =
    input.ecs?.kind === 'managed' && input.ecs.cluster.kind === 'read' ? input.ecs.cluster : undefined
  if (cluster === undefined) return []
  return members.flatMap((m) => {
    const instance = cluster.containerInstances.get(m.instanceId)
    // Any swap's: the marker has a MAC, so spotswap drained it; the one that did no longer holds it.
    const marked = input.detail(m.instanceId)?.tags[TAG_ECS_DRAINED] !== undefined
    if (instance?.status !== 'DRAINING' || !marked || partners.has(m.instanceId)) return []
    return [
      stateAction(
        input,
        'ecs-undrain',
        cluster,
        instance,
        `ecs-undrain: spotswap drained ${m.instanceId} for a swap that no longer retires it; set ACTIVE again`,
      ),
    ]
  })
}

const ECS_DRAIN_DEADLINE_MS = ECS_DRAIN_DEADLINE_SECONDS * 1000
