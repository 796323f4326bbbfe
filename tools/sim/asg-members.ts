/**
 * Auto Scaling's members one at a time: launching one into the zone with the fewest (through the launch
 * hook when the group has one), its joining once booted, and its leaving (through the termination hook
 * when the group has one). asg.ts keeps the group at its desired capacity with these.
 */
import { TERMINATING_TRANSITION } from '../../lambdas/core/interruption/leave.ts'
import { Priority } from './clock.ts'
import { LAUNCH_HOOK_SECONDS, TERMINATION_HOOK_SECONDS } from './constants.ts'
import { launchInstance, shutDown } from './ec2.ts'
import { deregisterTargets, registerTargets } from './load-balancers.ts'
import type { LaunchChoice } from './mixed-instances.ts'
import { isActiveMember, type SimGroup, type SimInstance, type SimMember, type SimRegion } from './state.ts'
import type { World } from './world.ts'

export const LAUNCHING_TRANSITION = 'autoscaling:EC2_INSTANCE_LAUNCHING'

export const hasLaunchHook = (group: SimGroup): boolean =>
  group.hooks.some((hook) => hook.transition === LAUNCHING_TRANSITION)

export const GROUP_NAME_TAG = 'aws:autoscaling:groupName'

/** The group's launching and in-service members per zone, in the group's zone order. */
export const activeByZone = (region: SimRegion, group: SimGroup): Map<string, string[]> => {
  const byZone = new Map<string, string[]>(group.zones.map((zone) => [zone, []]))
  for (const [id, member] of group.members) {
    if (!isActiveMember(member)) continue
    const zone = region.instances.get(id)?.zone
    if (zone !== undefined) byZone.get(zone)?.push(id)
  }
  return byZone
}

/**
 * Whether scale-in may take the member: a launching one always (scale-in protection starts once a member
 * is InService), an InService one unless protected from scale-in
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-instance-protection.html).
 */
export const mayScaleIn = (member: SimMember): boolean =>
  member.lifecycleState.startsWith('Pending') ||
  (member.lifecycleState === 'InService' && !member.protectedFromScaleIn)

export const activeCount = (group: SimGroup): number =>
  [...group.members.values()].filter(isActiveMember).length

export const instanceTags = (group: SimGroup): Record<string, string> => {
  const tags: Record<string, string> = {}
  for (const key of group.propagatedKeys) {
    const value = group.tags[key]
    if (value !== undefined) tags[key] = value
  }
  tags[GROUP_NAME_TAG] = group.name
  return tags
}

/**
 * Launches a member as the choice says (a plain group: its own type on-demand) and returns its id;
 * `onInService` runs once it has booted and joined the group (never, if it is taken away before).
 */
export const launchMember = (
  world: World,
  region: SimRegion,
  group: SimGroup,
  choice: LaunchChoice,
  onInService?: (id: string) => void,
): string => {
  const instance = launchInstance(
    world,
    region,
    {
      type: choice.type,
      zone: choice.zone,
      lifecycle: choice.lifecycle,
      tags: instanceTags(group),
      costGroup: group.name,
      origin: 'asg',
    },
    (booted) => joinWhenBooted(world, region, group, booted, onInService),
  )
  region.addMember(group, instance.id, { lifecycleState: 'Pending', protectedFromScaleIn: false })
  return instance.id
}

/**
 * A member Auto Scaling launched (or drew from its warm pool) has booted: InService, registered with the
 * load balancers, announced; a launch lifecycle hook holds it in Pending:Wait first (group-features.ts).
 */
export const joinWhenBooted = (
  world: World,
  region: SimRegion,
  group: SimGroup,
  booted: SimInstance,
  onInService?: (id: string) => void,
): void => {
  if (group.members.get(booted.id)?.lifecycleState !== 'Pending') return
  const join = (): void => {
    region.setMemberState(group, booted.id, 'InService')
    registerTargets(world, region, group, booted)
    world.emit({
      kind: 'instance-launch-successful',
      region: region.name,
      group: group.name,
      instanceId: booted.id,
    })
    onInService?.(booted.id)
  }
  if (!hasLaunchHook(group)) {
    join()
    return
  }
  region.setMemberState(group, booted.id, 'Pending:Wait')
  world.clock.schedule(
    world.clock.now + LAUNCH_HOOK_SECONDS * 1000,
    Priority.transition,
    'launch hook done',
    () => {
      if (group.members.get(booted.id)?.lifecycleState === 'Pending:Wait' && booted.state === 'running')
        join()
    },
  )
}

/** The group's zones, the one with the fewest launching or in-service members first (ties: zone order). */
export const zonesByFewest = (region: SimRegion, group: SimGroup): string[] =>
  [...activeByZone(region, group)].sort(([, a], [, b]) => a.length - b.length).map(([zone]) => zone)

/**
 * Terminates a member as Auto Scaling does: it leaves its load balancers first and stays `Terminating`,
 * running and billed, until they have drained it ("Auto Scaling waits for the in-flight requests to
 * complete, or for the maximum timeout to expire, before terminating instances due to a scaling event or
 * health check replacement": https://docs.aws.amazon.com/elasticloadbalancing/latest/classic/config-conn-drain.html;
 * a target group's target "can be terminated" once the deregistration delay elapses:
 * https://docs.aws.amazon.com/elasticloadbalancing/latest/application/load-balancer-target-groups.html#deregistration-delay).
 * Then the termination hook holds it when there is one, and it shuts down
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/lifecycle-hooks-overview.html: deregistered and
 * drained before `Terminating:Wait`). EC2 may take the instance meanwhile (terminateByEc2).
 */
export const terminateMember = (world: World, region: SimRegion, group: SimGroup, id: string): void => {
  const member = group.members.get(id)
  const instance = region.instances.get(id)
  if (member === undefined || instance === undefined) return
  const drainedMs = deregisterTargets(world, region, group, id)
  region.setMemberState(group, id, 'Terminating')
  const stillLeaving = (): boolean => group.members.get(id)?.lifecycleState.startsWith('Terminating') === true
  const finish = (): void => {
    if (!stillLeaving()) return
    region.setMemberState(group, id, 'Terminating:Proceed')
    shutDown(world, instance, () => region.removeMember(group, id))
  }
  const drained = (): void => {
    if (!stillLeaving()) return
    if (!group.hooks.some((hook) => hook.transition === TERMINATING_TRANSITION)) {
      shutDown(world, instance, () => region.removeMember(group, id))
      return
    }
    region.setMemberState(group, id, 'Terminating:Wait')
    world.clock.schedule(
      world.clock.now + TERMINATION_HOOK_SECONDS * 1000,
      Priority.transition,
      'termination hook done',
      finish,
    )
  }
  if (drainedMs > world.clock.now)
    world.clock.schedule(drainedMs, Priority.transition, 'connection draining done', drained)
  else drained()
}

/**
 * The member scale-in terminates next, as the default termination policy picks it
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-termination-policies.html): never one
 * protected from scale-in; a mixed group first picks the purchase option (scaleInCandidates), then the zone
 * with the most instances among those holding a candidate, so zones end most balanced; within it, a spot
 * instance the allocation strategy would keep least (alignedVictims), else one at random.
 */
