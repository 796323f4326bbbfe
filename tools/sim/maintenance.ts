/**
 * EC2's scheduled events: EC2 announces them ahead (DescribeInstanceStatus `Events[]` with NotBefore) and
 * carries them out from NotBefore on; the simulator does at NotBefore exactly, the earliest EC2 may
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/monitoring-instances-status-check_sched.html):
 *
 * - `instance-stop`, `instance-retirement`: the instance stops. A member no longer running is unhealthy to
 *   Auto Scaling at once, which replaces it.
 * - `instance-reboot`, `system-reboot`, `system-maintenance`: the instance goes offline for seconds to a
 *   few minutes (SCHEDULED_OFFLINE_SECONDS) and then runs and serves again, the event `[Completed]`. But
 *   Auto Scaling "considers the instance to be unhealthy and replaces it" once a member's event is due,
 *   whatever its code
 *   (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-health-checks.html#instance-health-detection):
 *   a member is terminated and replaced at NotBefore, unless the group's HealthCheck, ReplaceUnhealthy or
 *   Terminate process is suspended (then nothing marks or replaces it, and it reboots in place).
 */
import { reconcile, terminateByEc2 } from './asg.ts'
import { terminateMember } from './asg-members.ts'
import { Priority } from './clock.ts'
import { SCHEDULED_OFFLINE_SECONDS } from './constants.ts'
import { recheckTargets } from './load-balancers.ts'
import type { ScenarioScheduledEvent } from './scenario/types.ts'
import { isActiveMember, isRunningOrPending, type SimInstance, type SimRegion } from './state.ts'
import type { World } from './world.ts'

type Code = ScenarioScheduledEvent['code']

/** Processes without which Auto Scaling neither marks nor replaces an unhealthy member. */
const REPLACEMENT_PROCESSES = ['HealthCheck', 'ReplaceUnhealthy', 'Terminate']

/** Auto Scaling replaces a member whose event is due: terminated first, then a new one launched. */
const replacedByAutoScaling = (world: World, region: SimRegion, instance: SimInstance): boolean => {
  const group = region.groupOf(instance.id)
  const member = group?.members.get(instance.id)
  if (group === undefined || member === undefined || !isActiveMember(member)) return false
  if (REPLACEMENT_PROCESSES.some((p) => group.suspendedProcesses.has(p))) return false
  terminateMember(world, region, group, instance.id)
  reconcile(world, region, group)
  return true
}

/** EC2 takes the instance offline and back: its load balancers see it fail, then pass their checks again. */
const rebootInPlace = (
  world: World,
  region: SimRegion,
  instance: SimInstance,
  code: keyof typeof SCHEDULED_OFFLINE_SECONDS,
): void => {
  const backMs = world.clock.now + SCHEDULED_OFFLINE_SECONDS[code] * 1000
  const group = region.groupOf(instance.id)
  if (group !== undefined) recheckTargets(world, region, group, instance.id, backMs)
  world.clock.schedule(backMs, Priority.external, `scheduled ${code} done`, () => {
    if (instance.scheduledEvent !== undefined)
      instance.scheduledEvent = { ...instance.scheduledEvent, completed: true }
  })
}

/** Schedules the event on one instance and carries it out at NotBefore if the instance still runs. */
export const scheduleEvent = (
  world: World,
  region: SimRegion,
  instance: SimInstance,
  code: Code,
  notBeforeMs: number,
): void => {
  instance.scheduledEvent = { code, notBeforeMs }
  world.clock.schedule(notBeforeMs, Priority.external, `scheduled ${code}`, () => {
    if (!isRunningOrPending(instance)) return
    if (code === 'instance-stop' || code === 'instance-retirement') terminateByEc2(world, region, instance)
    else if (!replacedByAutoScaling(world, region, instance)) rebootInPlace(world, region, instance, code)
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
