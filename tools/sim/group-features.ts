/**
 * Auto Scaling features that change what spotswap may do with a group, as the simulator models them:
 * - a launch lifecycle hook holds each member Auto Scaling launches in Pending:Wait (asg.ts); an attached
 *   instance skips it (https://docs.aws.amazon.com/autoscaling/ec2/userguide/lifecycle-hooks-overview.html);
 * - suspended processes: Launch stops launches, Terminate stops scale-in (asg.ts), AddToLoadBalancer stops
 *   registrations (load-balancers.ts);
 * - a warm pool of stopped instances beside the group, not members, drawn on first when it scales out and
 *   refilled to its minimum (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-warm-pools.html);
 * - Capacity Rebalancing: a spot member given a rebalance recommendation or an interruption warning gets a
 *   replacement Auto Scaling launches, and leaves once it is in service
 *   (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-capacity-rebalancing.html);
 * - instance refreshes: Pending, then InProgress, replacing every member launched before the refresh,
 *   one at a time, a new one in service before the old one goes; Successful when none is left, Failed at
 *   once when Launch or Terminate is suspended.
 */

import { reconcile } from './asg.ts'
import { launchMember, terminateMember, zonesByFewest } from './asg-members.ts'
import { Priority } from './clock.ts'
import { REFRESH_START_SECONDS } from './constants.ts'
import { chooseLaunch } from './mixed-instances.ts'
import type { SimGroup, SimRefresh, SimRegion } from './state.ts'
import type { SimEvent, World } from './world.ts'

/**
 * Auto Scaling replaces `instanceId` with a member of its own choosing and lets it go once the new one is
 * in service (Capacity Rebalancing, instance refresh). `done` runs after.
 */
const replaceMember = (
  world: World,
  region: SimRegion,
  group: SimGroup,
  instanceId: string,
  done?: () => void,
): boolean => {
  const instance = region.instances.get(instanceId)
  if (instance === undefined || group.suspendedProcesses.has('Launch')) return false
  const zones = [instance.zone, ...zonesByFewest(region, group).filter((z) => z !== instance.zone)]
  const choice = chooseLaunch(world, region, group, zones)
  if (choice === undefined) return false
  const replacement = launchMember(world, region, group, choice, () => {
    if (group.replacing.get(instanceId)?.newId !== replacement) return
    group.replacing.delete(instanceId)
    if (group.members.get(instanceId)?.lifecycleState === 'InService')
      terminateMember(world, region, group, instanceId)
    // It left meanwhile and the group backfilled: one too many now.
    else reconcile(world, region, group)
    done?.()
  })
  group.replacing.set(instanceId, { newId: replacement, done })
  return true
}

/** Spot members a Capacity Rebalancing group already replaces. */
const rebalancing = new WeakMap<SimGroup, Set<string>>()

/** Capacity Rebalancing: the group's answer to EC2's notices about one of its spot members. */
export const onGroupEvent = (world: World, event: SimEvent): void => {
  if (event.kind !== 'rebalance-recommendation' && event.kind !== 'spot-interruption') return
  const region = world.region(event.region)
  const group = region.groupOf(event.instanceId)
  if (group === undefined || !group.capacityRebalance) return
  if (group.members.get(event.instanceId)?.lifecycleState !== 'InService') return
  const replacing = rebalancing.get(group) ?? new Set<string>()
  rebalancing.set(group, replacing)
  if (replacing.has(event.instanceId)) return
  if (replaceMember(world, region, group, event.instanceId)) replacing.add(event.instanceId)
}

/** Schedules the group's instance refreshes: each starts Pending, then replaces its members one at a time. */
export const scheduleRefreshes = (
  world: World,
  region: SimRegion,
  group: SimGroup,
  starts: readonly number[],
): void => {
  starts.forEach((startMs, i) => {
    world.clock.schedule(startMs, Priority.external, `instance refresh of ${group.name}`, () => {
      const refresh: SimRefresh = { id: `${group.name}-refresh-${i + 1}`, status: 'Pending' }
      // Only one refresh runs at a time; a new one replaces what the last one had not finished.
      for (const earlier of group.refreshes)
        if (earlier.status === 'Pending' || earlier.status === 'InProgress') earlier.status = 'Cancelled'
      group.refreshes.unshift(refresh)
      region.touch(group)
      world.clock.schedule(
        world.clock.now + REFRESH_START_SECONDS * 1000,
        Priority.external,
        'refresh starts',
        () => runRefresh(world, region, group, refresh, startMs),
      )
    })
  })
}

const runRefresh = (
  world: World,
  region: SimRegion,
  group: SimGroup,
  refresh: SimRefresh,
  startMs: number,
): void => {
  if (refresh.status === 'Cancelled') return
  if (group.suspendedProcesses.has('Launch') || group.suspendedProcesses.has('Terminate')) {
    refresh.status = 'Failed'
    return
  }
  refresh.status = 'InProgress'
  const next = (): void => {
    if (refresh.status !== 'InProgress') return
    const old = [...group.members].find(
      ([id, member]) =>
        member.lifecycleState === 'InService' &&
        !member.protectedFromScaleIn &&
        (region.instances.get(id)?.launchMs ?? startMs) < startMs,
    )
    if (old === undefined) refresh.status = 'Successful'
    // No capacity for the new instance: Auto Scaling gives the refresh up.
    else if (!replaceMember(world, region, group, old[0], next)) refresh.status = 'Failed'
  }
  next()
}
