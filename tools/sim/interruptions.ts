/**
 * EC2's side of spot interruptions: a rebalance recommendation to every instance of a pool whose capacity
 * drops, the two-minute warning to the instances that will go, and the interruption itself 120 s later.
 * Capacity changes come from the pools' traces; scripted interruptions from the scenario.
 */
import { terminateByEc2 } from './asg.ts'
import { Priority } from './clock.ts'
import { INTERRUPTION_NOTICE_SECONDS } from './constants.ts'
import { isRunningOrPending, type SimInstance, type SimRegion } from './state.ts'
import type { World } from './world.ts'

/** Gives the two-minute warning (once per instance) and schedules the interruption. */
export const warn = (world: World, region: SimRegion, instance: SimInstance): void => {
  if (instance.interruptAtMs !== undefined || !isRunningOrPending(instance) || instance.lifecycle !== 'spot')
    return
  const at = world.clock.now + INTERRUPTION_NOTICE_SECONDS * 1000
  instance.interruptAtMs = at
  world.notify((o) => o.interruptionWarned?.(instance))
  world.emit({ kind: 'spot-interruption', region: region.name, instanceId: instance.id })
  world.clock.schedule(at, Priority.external, 'spot interruption', () => {
    if (isRunningOrPending(instance)) terminateByEc2(world, region, instance)
  })
}

const poolInstances = (region: SimRegion, key: string): SimInstance[] =>
  [...region.instances.values()].filter(
    (i) =>
      i.lifecycle === 'spot' &&
      isRunningOrPending(i) &&
      i.interruptAtMs === undefined &&
      `${i.type}/${i.zone}` === key,
  )

/**
 * A pool's capacity share fell from `from` to `to`: that proportion of its instances (all of them at 0)
 * is interrupted, chosen at random; every instance of the pool first gets a rebalance recommendation.
 */
export const capacityDropped = (
  world: World,
  region: SimRegion,
  key: string,
  from: number,
  to: number,
): void => {
  if (to >= from) return
  const running = poolInstances(region, key)
  if (running.length === 0) return
  for (const instance of running)
    world.emit({ kind: 'rebalance-recommendation', region: region.name, instanceId: instance.id })
  const count = to <= 0 ? running.length : Math.ceil(running.length * (1 - to / from))
  for (const instance of world.random.interruptions.shuffle(running).slice(0, count))
    warn(world, region, instance)
}

/** A scripted interruption: `count` of the group's in-service spot members, chosen at random. */
export const interruptGroup = (world: World, region: SimRegion, groupName: string, count: number): number => {
  const group = region.groups.get(groupName)
  if (group === undefined) return 0
  const candidates = [...group.members]
    .filter(([, member]) => member.lifecycleState === 'InService')
    .map(([id]) => region.instances.get(id))
    .filter(
      (i): i is SimInstance => i !== undefined && i.lifecycle === 'spot' && i.interruptAtMs === undefined,
    )
  const victims = world.random.interruptions.shuffle(candidates).slice(0, count)
  for (const instance of victims) warn(world, region, instance)
  return victims.length
}

/** Schedules the capacity changes of every traced pool, one change at a time. */
export const scheduleCapacityChanges = (world: World, region: SimRegion, until: number): void => {
  for (const key of region.capacity.tracedPools()) {
    const next = (after: number): void => {
      const change = region.capacity.nextChange(key, after)
      if (change === undefined || change.at > until) return
      const before = region.capacity.shareOf(key, after)
      world.clock.schedule(change.at, Priority.external, `capacity ${key}`, () => {
        capacityDropped(world, region, key, before, change.share)
        next(change.at)
      })
    }
    next(world.clock.now)
  }
}
