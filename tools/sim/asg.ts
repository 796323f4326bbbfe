/**
 * Auto Scaling's own behaviour: a group keeps its desired capacity (launching on-demand instances of its
 * type, or what its MixedInstancesPolicy says, into the zone with the fewest, terminating from the zone
 * with the most, never an InService instance protected from scale-in), holds terminating instances in
 * Terminating:Wait while a termination hook runs, and replaces a member that EC2 took away.
 */
import {
  activeByZone,
  activeCount,
  launchMember,
  mayScaleIn,
  terminateMember,
  zonesByFewest,
} from './asg-members.ts'
import { shutDown } from './ec2.ts'
import { deregisterTargets } from './load-balancers.ts'
import { alignedVictims, chooseLaunch, scaleInCandidates } from './mixed-instances.ts'
import { isActiveMember, type SimActivity, type SimGroup, type SimInstance, type SimRegion } from './state.ts'
import { drawFromWarmPool, fillWarmPool } from './warm-pool.ts'
import type { World } from './world.ts'

const scaleInVictim = (world: World, region: SimRegion, group: SimGroup): string | undefined => {
  const byZone = activeByZone(region, group)
  const unprotected = [...byZone.values()].flat().filter((id) => {
    const member = group.members.get(id)
    return member !== undefined && mayScaleIn(member)
  })
  const eligible = new Set(scaleInCandidates(region, group, unprotected))
  let victimZone: string[] = []
  for (const ids of byZone.values())
    if (ids.some((id) => eligible.has(id)) && ids.length > victimZone.length) victimZone = ids
  const candidates = victimZone.filter((id) => eligible.has(id))
  return world.random.asg.pick(alignedVictims(world, region, group, candidates))
}

const isActive = (group: SimGroup, id: string): boolean => {
  const member = group.members.get(id)
  return member !== undefined && isActiveMember(member)
}

/** Old members Auto Scaling is replacing while their replacement is in the group too: not counted. */
const beingReplaced = (group: SimGroup): number =>
  [...group.replacing].filter(([oldId, { newId }]) => isActive(group, oldId) && isActive(group, newId)).length

/**
 * Terminates members until the group stands at its desired capacity: Auto Scaling maintains that number
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/auto-scaling-groups.html). Counted again after
 * each victim: taking either side of a replacement in flight leaves the count as it was.
 */
const scaleIn = (world: World, region: SimRegion, group: SimGroup): void => {
  while (activeCount(group) - beingReplaced(group) > group.desiredCapacity) {
    // A victim may be the old side of a replacement in flight: that replacement goes next, not another member.
    if (giveUpReplacements(world, region, group, 1) === 0) continue
    const victim = scaleInVictim(world, region, group)
    if (victim === undefined) return
    terminateMember(world, region, group, victim)
  }
}

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
    giveUpReplacements(world, region, group, active - group.desiredCapacity)
    scaleIn(world, region, group)
    return
  }
  // A suspended Launch process stops every launch, warm pool draws included.
  if (group.suspendedProcesses.has('Launch')) return
  if (group.ownLaunchesFail === true && active < group.desiredCapacity) {
    recordFailedLaunch(world, region, group, active)
    world.notify((o) => o.launchFailed?.(region.name, group.name))
    return
  }
  for (let n = active; n < group.desiredCapacity; n++) {
    if (drawFromWarmPool(world, region, group)) continue
    const choice = chooseLaunch(world, region, group, zonesByFewest(region, group))
    if (choice === undefined) {
      recordFailedLaunch(world, region, group, n)
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

export const recordActivity = (
  group: SimGroup,
  startMs: number,
  cause: string,
  failed?: SimActivity['failed'],
): void => {
  group.activities.push(failed === undefined ? { startMs, cause } : { startMs, cause, failed })
  if (group.activities.length > ACTIVITIES_KEPT) group.activities.shift()
}

/** An activity's time in a cause: whole seconds, as Auto Scaling writes it. */
const causeTime = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

/**
 * A launch Auto Scaling could not make, as its activity says: `Failed`, with EC2's reason as its
 * StatusMessage (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_Activity.html).
 */
const recordFailedLaunch = (world: World, region: SimRegion, group: SimGroup, from: number): void => {
  const zone = zonesByFewest(region, group)[0] ?? group.zones[0] ?? region.name
  const statusMessage = `We currently do not have sufficient ${group.instanceType} capacity in the Availability Zone you requested (${zone}). Our system will be working on provisioning additional capacity. Launching EC2 instance failed.`
  recordActivity(
    group,
    world.clock.now,
    `At ${causeTime(world.clock.now)} an instance was started in response to a difference between desired and actual capacity, increasing the capacity from ${from} to ${from + 1}.`,
    { description: `Launching a new EC2 instance.  Status Reason: ${statusMessage}`, statusMessage },
  )
}

/**
 * The group's owner (a scaling policy, a person) sets the desired capacity. Setting the value the group
 * already has changes nothing AWS shows (no scaling activity, no event), so no tool can tell it happened:
 * the owner's setting stays what it was (docs/reliability.md, "Limits").
 */
export const ownerSetsDesired = (world: World, region: SimRegion, group: SimGroup, desired: number): void => {
  const clamped = Math.min(group.maxSize, Math.max(group.minSize, desired))
  if (clamped === group.desiredCapacity) return
  group.owner = { ...group.owner, desiredCapacity: clamped }
  userSetsDesired(world, region, group, clamped)
}

/** SetDesiredCapacity within the group's bounds, as its activity records it; the group then reaches it. */
export const userSetsDesired = (world: World, region: SimRegion, group: SimGroup, desired: number): void => {
  recordActivity(
    group,
    world.clock.now,
    `At ${causeTime(world.clock.now)} a user request explicitly set group desired capacity changing the desired capacity from ${group.desiredCapacity} to ${desired}.`,
  )
  group.desiredCapacity = desired
  region.touch(group)
  reconcile(world, region, group)
}
