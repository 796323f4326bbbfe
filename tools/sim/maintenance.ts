/**
 * EC2's scheduled events: a retirement or stop EC2 announces ahead (DescribeInstanceStatus `Events[]`
 * with NotBefore) and carries out from NotBefore on. A member stopped then is unhealthy to Auto Scaling,
 * which terminates and replaces it
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-health-checks.html); the
 * simulator carries it out at NotBefore exactly, the earliest EC2 may
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/monitoring-instances-status-check_sched.html).
 */
import { terminateByEc2 } from './asg.ts'
import { Priority } from './clock.ts'
import type { ScenarioScheduledEvent } from './scenario/types.ts'
import { isRunningOrPending, type SimInstance, type SimRegion } from './state.ts'
import type { World } from './world.ts'

/** Schedules the event on one instance and carries it out at NotBefore if the instance still runs. */
export const scheduleEvent = (
  world: World,
  region: SimRegion,
  instance: SimInstance,
  code: string,
  notBeforeMs: number,
): void => {
  instance.scheduledEvent = { code, notBeforeMs }
  world.clock.schedule(notBeforeMs, Priority.external, `scheduled ${code}`, () => {
    if (isRunningOrPending(instance)) terminateByEc2(world, region, instance)
  })
}

/** The scenario's event: `count` in-service members of the lifecycle without an event yet, chosen at random. */
export const scheduleGroupEvents = (
  world: World,
  region: SimRegion,
  spec: ScenarioScheduledEvent,
): number => {
  const group = region.groups.get(spec.group)
  if (group === undefined) return 0
  const candidates = [...group.members]
    .filter(([, member]) => member.lifecycleState === 'InService')
    .map(([id]) => region.instances.get(id))
    .filter(
      (i): i is SimInstance =>
        i !== undefined &&
        i.lifecycle === spec.lifecycle &&
        i.scheduledEvent === undefined &&
        isRunningOrPending(i),
    )
  const chosen = world.random.interruptions.shuffle(candidates).slice(0, spec.count)
  for (const instance of chosen)
    scheduleEvent(world, region, instance, spec.code, world.clock.now + spec.leadMs)
  return chosen.length
}

/** Every scenario event, each at its time. */
export const scheduleScenarioEvents = (
  world: World,
  events: readonly ScenarioScheduledEvent[],
  regionOf: (group: string) => string | undefined,
): void => {
  for (const spec of events) {
    const region = regionOf(spec.group)
    if (region === undefined) continue
    world.clock.schedule(spec.at, Priority.external, 'scheduled event', () => {
      scheduleGroupEvents(world, world.region(region), spec)
    })
  }
}
