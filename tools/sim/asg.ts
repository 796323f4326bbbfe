/**
 * Auto Scaling's own behaviour: a group keeps its desired capacity (launching on-demand instances of its
 * type, or what its MixedInstancesPolicy says, into the zone with the fewest, terminating from the zone
 * with the most, never an instance protected from scale-in), holds terminating instances in Terminating:Wait while a termination hook
 * runs, and replaces a member that EC2 took away.
 */
import { TERMINATING_TRANSITION } from '../../lambdas/core/interruption/leave.ts'
import { Priority } from './clock.ts'
import { LAUNCH_HOOK_SECONDS, TERMINATION_HOOK_SECONDS } from './constants.ts'
import { launchInstance, shutDown } from './ec2.ts'
import { drawFromWarmPool, fillWarmPool, hasLaunchHook } from './group-features.ts'
import { deregisterTargets, registerTargets } from './load-balancers.ts'
import { alignedVictims, chooseLaunch, type LaunchChoice, scaleInCandidates } from './mixed-instances.ts'
import { isActiveMember, type SimGroup, type SimInstance, type SimRegion } from './state.ts'
import type { World } from './world.ts'

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

/** Terminates a member as Auto Scaling does: through the termination hook when there is one. */
export const terminateMember = (world: World, region: SimRegion, group: SimGroup, id: string): void => {
  const member = group.members.get(id)
  const instance = region.instances.get(id)
  if (member === undefined || instance === undefined) return
  // Deregistered first, before a termination hook holds it
  // (https://docs.aws.amazon.com/autoscaling/ec2/userguide/lifecycle-hooks-overview.html).
  deregisterTargets(world, region, group, id)
  const finish = (): void => {
    region.setMemberState(group, id, 'Terminating:Proceed')
    shutDown(world, instance, () => region.removeMember(group, id))
  }
  if (group.hooks.some((hook) => hook.transition === TERMINATING_TRANSITION)) {
    region.setMemberState(group, id, 'Terminating:Wait')
    world.clock.schedule(
      world.clock.now + TERMINATION_HOOK_SECONDS * 1000,
      Priority.transition,
      'termination hook done',
      finish,
    )
    return
  }
  region.setMemberState(group, id, 'Terminating')
  shutDown(world, instance, () => region.removeMember(group, id))
}

/**
 * The member scale-in terminates next, as the default termination policy picks it
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-termination-policies.html): never one
 * protected from scale-in; a mixed group first picks the purchase option (scaleInCandidates), then the zone
 * with the most instances among those holding a candidate, so zones end most balanced; within it, a spot
 * instance the allocation strategy would keep least (alignedVictims), else one at random.
 */
const scaleInVictim = (world: World, region: SimRegion, group: SimGroup): string | undefined => {
  const byZone = activeByZone(region, group)
  const unprotected = [...byZone.values()]
    .flat()
    .filter((id) => group.members.get(id)?.protectedFromScaleIn === false)
  const eligible = new Set(scaleInCandidates(region, group, unprotected))
  let victimZone: string[] = []
  for (const ids of byZone.values())
    if (ids.some((id) => eligible.has(id)) && ids.length > victimZone.length) victimZone = ids
  const candidates = victimZone.filter((id) => eligible.has(id))
  return world.random.asg.pick(alignedVictims(world, region, group, candidates))
}

const scaleIn = (world: World, region: SimRegion, group: SimGroup, count: number): void => {
  for (let n = 0; n < count; n++) {
    const victim = scaleInVictim(world, region, group)
    if (victim === undefined) return
    terminateMember(world, region, group, victim)
  }
}

const isActive = (group: SimGroup, id: string): boolean => {
  const member = group.members.get(id)
  return member !== undefined && isActiveMember(member)
}

/** Old members Auto Scaling is replacing while their replacement is in the group too: not counted. */
const beingReplaced = (group: SimGroup): number =>
  [...group.replacing].filter(([oldId, { newId }]) => isActive(group, oldId) && isActive(group, newId)).length

/**
 * Replacements whose old member left before they joined (taken by EC2, or by spotswap): nothing is left
 * to replace, so Auto Scaling gives them up first when the group stands above desired capacity.
 */
const giveUpReplacements = (world: World, region: SimRegion, group: SimGroup, excess: number): number => {
  let left = excess
  for (const [oldId, { newId, done }] of [...group.replacing]) {
    if (left === 0) break
    if (isActive(group, oldId) || !isActive(group, newId)) continue
    group.replacing.delete(oldId)
    terminateMember(world, region, group, newId)
    left--
    done?.()
  }
  return left
}

/**
 * Brings the group's launching and in-service members to its desired capacity. A mixed group whose
 * launch finds no spot capacity stays short; Auto Scaling retries (mixed-instances-group.ts).
 */
export const reconcile = (world: World, region: SimRegion, group: SimGroup): void => {
  const active = activeCount(group) - beingReplaced(group)
  if (active > group.desiredCapacity) {
    // A suspended Terminate process stops scale-in.
    if (group.suspendedProcesses.has('Terminate')) return
    scaleIn(world, region, group, giveUpReplacements(world, region, group, active - group.desiredCapacity))
    return
  }
  // A suspended Launch process stops every launch, warm pool draws included.
  if (group.suspendedProcesses.has('Launch')) return
  for (let n = active; n < group.desiredCapacity; n++) {
    if (drawFromWarmPool(world, region, group)) continue
    const choice = chooseLaunch(world, region, group, zonesByFewest(region, group))
    if (choice === undefined) {
      world.notify((o) => o.launchFailed?.(region.name, group.name))
      return
    }
    launchMember(world, region, group, choice)
  }
  fillWarmPool(world, region, group)
}

/**
 * EC2 took an instance away (interruption, TerminateInstances). A member is marked unhealthy and
 * replaced at once; it leaves the group when it is terminated.
 */
export const terminateByEc2 = (world: World, region: SimRegion, instance: SimInstance): void => {
  const group = region.groupOf(instance.id)
  const member = group?.members.get(instance.id)
  shutDown(world, instance, () => {
    if (group !== undefined) region.removeMember(group, instance.id)
  })
  if (group === undefined || member === undefined || member.lifecycleState.startsWith('Terminating')) return
  deregisterTargets(world, region, group, instance.id)
  region.setMemberState(group, instance.id, 'Terminating')
  reconcile(world, region, group)
}

/** Auto Scaling keeps six weeks of activities; the simulator keeps the latest of them. */
const ACTIVITIES_KEPT = 100

const recordActivity = (group: SimGroup, startMs: number, cause: string): void => {
  group.activities.push({ startMs, cause })
  if (group.activities.length > ACTIVITIES_KEPT) group.activities.shift()
}

/**
 * The group's owner (a scaling policy, a person) sets the desired capacity. Setting the value the group
 * already has changes nothing AWS shows (no scaling activity, no event), so no tool can tell it happened:
 * the owner's setting stays what it was (docs/reliability.md, "Limits").
 */
export const ownerSetsDesired = (world: World, region: SimRegion, group: SimGroup, desired: number): void => {
  const clamped = Math.min(group.maxSize, Math.max(group.minSize, desired))
  if (clamped === group.desiredCapacity) return
  recordActivity(
    group,
    world.clock.now,
    `At ${new Date(world.clock.now).toISOString().replace(/\.\d{3}Z$/, 'Z')} a user request explicitly set group desired capacity changing the desired capacity from ${group.desiredCapacity} to ${clamped}.`,
  )
  group.desiredCapacity = clamped
  group.owner = { ...group.owner, desiredCapacity: clamped }
  region.touch(group)
  reconcile(world, region, group)
}
