/** A group's warm pool: stopped instances launched ahead, drawn into the group when it scales out. */
import { instanceTags, joinWhenBooted, zonesByFewest } from './asg-members.ts'
import { launchInstance, setState, startStopped } from './ec2.ts'
import type { SimGroup, SimRegion } from './state.ts'
import type { World } from './world.ts'

/** Launches stopped instances into the group's warm pool until it holds its minimum. */
export const fillWarmPool = (world: World, region: SimRegion, group: SimGroup): void => {
  const pool = group.warmPool
  if (pool === undefined || group.suspendedProcesses.has('Launch')) return
  while (pool.instanceIds.size < pool.minSize) {
    const zone = zonesByFewest(region, group)[0] ?? group.zones[0] ?? region.zones[0] ?? ''
    const instance = launchInstance(world, region, {
      type: group.instanceType,
      zone,
      lifecycle: 'on-demand',
      tags: instanceTags(group),
      costGroup: group.name,
      origin: 'asg',
      runningSinceMs: world.clock.now,
    })
    // Warmed:Pending runs the launch hook and stops it; the pool's state is Stopped.
    setState(world, instance, 'stopped')
    pool.instanceIds.add(instance.id)
  }
}

/** Draws the oldest warm-pool instance into the group (Pending, started); false when the pool is empty. */
export const drawFromWarmPool = (world: World, region: SimRegion, group: SimGroup): boolean => {
  const pool = group.warmPool
  const id = pool?.instanceIds.values().next().value
  const instance = id === undefined ? undefined : region.instances.get(id)
  if (pool === undefined || id === undefined || instance === undefined) return false
  pool.instanceIds.delete(id)
  region.addMember(group, id, { lifecycleState: 'Pending', protectedFromScaleIn: false })
  startStopped(world, instance, (booted) => joinWhenBooted(world, region, group, booted))
  return true
}

/** The group whose warm pool holds this instance, if any. */
export const warmPoolOwner = (region: SimRegion, instanceId: string): SimGroup | undefined =>
  [...region.groups.values()].find((g) => g.warmPool?.instanceIds.has(instanceId) === true)
