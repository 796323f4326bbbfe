/**
 * ECS managed scaling on a simulated cluster (ecs-cluster.ts), as ECS documents it
 * (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/cluster-auto-scaling.html,
 * managed-scaling-behavior.html): every minute ECS publishes CapacityProviderReservation, M = N / C × 100,
 * where C is the group's instances and N the instances its tasks need: the instances running a task (an
 * empty one is not needed), plus, while tasks wait for a slot no instance has, the instances they need,
 * at least minimumScalingStepSize and at most maximumScalingStepSize
 * (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ManagedScaling.html). M is 0 with no task
 * and instances, 100 with neither, 200 with tasks waiting and no instance. The target tracking policy ECS
 * puts on the group keeps M at targetCapacity: desired = ceil(N × 100 / targetCapacity), raised after
 * ECS_SCALE_OUT_DATAPOINTS above it unless an instance of the group is still within instanceWarmupPeriod
 * of its launch, lowered after ECS_SCALE_IN_DATAPOINTS below it by at most ECS_SCALE_IN_STEP_PCT of the
 * instances a minute; a scale-out restarts the count. With managed termination protection only the
 * empty instances are unprotected (ecs-scheduler.ts `protect`), so a scale-in takes those. The policy's
 * change is the group's owner's (it is the only one that scales such a group, cluster-auto-scaling.html),
 * written as Auto Scaling writes a policy's activity. An instance spotswap attaches counts like any other:
 * empty until the partner's tasks move onto it, it lowers M as it would on AWS, and 15 minutes of that
 * scale the group in by one, taking an empty member.
 */
import { reconcile, recordActivity } from './asg.ts'
import { Priority } from './clock.ts'
import {
  ECS_METRIC_PERIOD_SECONDS,
  ECS_SCALE_IN_DATAPOINTS,
  ECS_SCALE_IN_STEP_PCT,
  ECS_SCALE_OUT_DATAPOINTS,
} from './constants.ts'
import type { SimCluster } from './ecs-cluster-state.ts'
import type { ScenarioManagedScaling } from './scenario/types.ts'
import { isActiveMember, type SimGroup, type SimRegion } from './state.ts'
import type { World } from './world.ts'

/** One minute's datapoint: the instances the tasks need (N) against the group's instances (C). */
export interface Reservation {
  readonly needed: number
  readonly instances: number
  /** CapacityProviderReservation, in percent. */
  readonly metric: number
}

/** What ECS counts for one datapoint. */
export interface ClusterLoad {
  /** The group's instances (C). */
  readonly instances: number
  /** Of them, those running a task. */
  readonly busy: number
  /** Tasks the services want that no free slot can take. */
  readonly waiting: number
  readonly slotsPerInstance: number
}

/** The instances a scale-out adds for `waiting` tasks: their instances, within the step sizes. */
const scaleOutStep = (load: ClusterLoad, settings: ScenarioManagedScaling): number => {
  const wanted = Math.ceil(load.waiting / load.slotsPerInstance)
  return wanted < settings.minimumScalingStepSize
    ? settings.minimumScalingStepSize
    : Math.min(settings.maximumScalingStepSize, wanted)
}

/** CapacityProviderReservation for `load` (cluster-auto-scaling.html; its special cases above). */
export const reservation = (load: ClusterLoad, settings: ScenarioManagedScaling): Reservation => {
  const needed = load.waiting > 0 ? load.instances + scaleOutStep(load, settings) : load.busy
  const metric =
    load.instances === 0 ? (needed === 0 ? 100 : 200) : Math.round((needed / load.instances) * 10_000) / 100
  return { needed, instances: load.instances, metric }
}

/** The desired capacity target tracking sets to bring the metric to targetCapacity. */
export const trackedDesired = (r: Reservation, settings: ScenarioManagedScaling): number =>
  Math.ceil((r.needed * 100) / settings.targetCapacity)

/** Counted toward capacity: in service or on its way in, not leaving. */
const countedIds = (region: SimRegion, group: SimGroup): string[] =>
  [...group.members]
    .filter(([id, m]) => isActiveMember(m) && region.instances.get(id)?.state !== 'terminated')
    .map(([id]) => id)

const freeSlots = (region: SimRegion, group: SimGroup, cluster: SimCluster): number => {
  let free = 0
  for (const ci of cluster.containerInstances.values())
    if (
      ci.status === 'ACTIVE' &&
      group.members.get(ci.ec2InstanceId)?.lifecycleState === 'InService' &&
      region.instances.get(ci.ec2InstanceId)?.state === 'running'
    )
      free += Math.max(0, cluster.slotsPerInstance - cluster.tasksOn(ci.ec2InstanceId).length)
  return free
}

/** The tasks each service wants beyond those it has outside DRAINING container instances. */
const unplaced = (cluster: SimCluster): number => {
  let short = 0
  for (const service of cluster.services) {
    const placed = [...cluster.tasks.values()].filter(
      (t) =>
        t.service === service.name &&
        t.status !== 'STOPPING' &&
        cluster.containerInstances.get(t.instanceId)?.status === 'ACTIVE',
    ).length
    short += Math.max(0, service.desiredCount - placed)
  }
  return short
}

export const clusterLoad = (region: SimRegion, group: SimGroup, cluster: SimCluster): ClusterLoad => {
  const ids = countedIds(region, group)
  return {
    instances: ids.length,
    busy: ids.filter((id) => cluster.tasksOn(id).length > 0).length,
    waiting: Math.max(0, unplaced(cluster) - freeSlots(region, group, cluster)),
    slotsPerInstance: cluster.slotsPerInstance,
  }
}

const warmingUp = (world: World, region: SimRegion, group: SimGroup, warmupSeconds: number): boolean =>
  countedIds(region, group).some(
    (id) => world.clock.now - (region.instances.get(id)?.launchMs ?? 0) < warmupSeconds * 1000,
  )

/** The target tracking policy ECS puts on the group: sets desired capacity as its alarm says. */
const policySetsDesired = (
  world: World,
  { region, group, cluster }: { region: SimRegion; group: SimGroup; cluster: SimCluster },
  desired: number,
  alarm: 'AlarmHigh' | 'AlarmLow',
): void => {
  const clamped = Math.min(group.maxSize, Math.max(group.minSize, desired))
  if (clamped === group.desiredCapacity) return
  cluster.desiredChanges.push([world.clock.now, clamped])
  const at = new Date(world.clock.now).toISOString().replace(/\.\d{3}Z$/, 'Z')
  recordActivity(
    group,
    world.clock.now,
    `At ${at} a monitor alarm TargetTracking-${group.name}-${alarm} in state ALARM triggered policy ECSManagedAutoScalingPolicy changing the desired capacity from ${group.desiredCapacity} to ${clamped}.`,
  )
  group.owner = { ...group.owner, desiredCapacity: clamped }
  group.desiredCapacity = clamped
  region.touch(group)
  reconcile(world, region, group)
}

/** The policy's alarms: consecutive datapoints above and below targetCapacity. */
interface Alarms {
  high: number
  low: number
}

/** One minute: the datapoint, then what the policy's alarms do with it. */
export const scalingStep = (world: World, region: SimRegion, cluster: SimCluster, alarms: Alarms): void => {
  const settings = cluster.managedScaling
  const group = region.groups.get(cluster.groupName)
  if (settings === undefined || group === undefined) return
  const r = reservation(clusterLoad(region, group, cluster), settings)
  alarms.high = r.metric > settings.targetCapacity ? alarms.high + 1 : 0
  alarms.low = r.metric < settings.targetCapacity ? alarms.low + 1 : 0
  const desired = trackedDesired(r, settings)
  if (alarms.high >= ECS_SCALE_OUT_DATAPOINTS && desired > group.desiredCapacity) {
    if (!warmingUp(world, region, group, settings.instanceWarmupPeriod))
      policySetsDesired(world, { region, group, cluster }, desired, 'AlarmHigh')
    return
  }
  if (alarms.low < ECS_SCALE_IN_DATAPOINTS || desired >= group.desiredCapacity) return
  const step = Math.max(1, Math.floor((group.desiredCapacity * ECS_SCALE_IN_STEP_PCT) / 100))
  policySetsDesired(
    world,
    { region, group, cluster },
    Math.max(desired, group.desiredCapacity - step),
    'AlarmLow',
  )
}

/** Publishes the cluster's datapoint every metric period from now on, when its provider scales it. */
export const startManagedScaling = (world: World, region: SimRegion, cluster: SimCluster): void => {
  if (cluster.managedScaling === undefined) return
  const alarms: Alarms = { high: 0, low: 0 }
  const tick = (at: number): void =>
    world.clock.schedule(at, Priority.external, 'ecs managed scaling datapoint', () => {
      scalingStep(world, region, cluster, alarms)
      tick(at + ECS_METRIC_PERIOD_SECONDS * 1000)
    })
  tick(world.clock.now + ECS_METRIC_PERIOD_SECONDS * 1000)
}
