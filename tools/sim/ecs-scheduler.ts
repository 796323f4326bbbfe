/**
 * ECS's service scheduler on a simulated cluster (ecs-cluster.ts), run after every change there. For each
 * service it keeps `desiredCount` tasks outside DRAINING container instances, placing each on the ACTIVE
 * container instance of an InService member with the fewest of the service's tasks, then the fewest
 * tasks, a task per slot. Tasks on a DRAINING container instance are moved as ECS moves them: PENDING
 * ones stop at once, RUNNING ones are replaced at the pace of the service's minimumHealthyPercent and
 * maximumPercent, and each stopped one drains from its load balancer for the deregistration delay
 * (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/container-instance-draining.html).
 * Standalone tasks never move. With managed termination protection ECS protects a member from scale-in
 * while it runs tasks and lifts the protection once none is left
 * (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/managed-termination-protection.html);
 * with managed draining ECS sets a member Auto Scaling terminates DRAINING
 * (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/managed-instance-draining.html).
 */
import { Priority } from './clock.ts'
import { ECS_PLACEMENT_RETRY_SECONDS, ECS_TASK_START_SECONDS } from './constants.ts'
import type { SimCluster, SimService, SimTask } from './ecs-cluster.ts'
import type { SimGroup, SimRegion } from './state.ts'
import type { World } from './world.ts'

/** Runs the cluster's scheduler `delayMs` from now, unless it already runs sooner. */
export const cycleSoon = (world: World, region: SimRegion, cluster: SimCluster, delayMs = 0): void => {
  const now = world.clock.now
  const at = now + delayMs
  if (cluster.nextCycleMs !== undefined && cluster.nextCycleMs >= now && cluster.nextCycleMs <= at) return
  cluster.nextCycleMs = at
  world.clock.schedule(at, Priority.transition, 'ecs service scheduler', () => {
    if (cluster.nextCycleMs !== at) return
    cluster.nextCycleMs = undefined
    runCycle(world, region, cluster)
  })
}

const isLive = (task: SimTask): boolean => task.status !== 'STOPPING'

const slotsFree = (region: SimRegion, group: SimGroup, cluster: SimCluster): string[] =>
  [...cluster.containerInstances.values()]
    .filter(
      (ci) =>
        ci.status === 'ACTIVE' &&
        group.members.get(ci.ec2InstanceId)?.lifecycleState === 'InService' &&
        region.instances.get(ci.ec2InstanceId)?.state === 'running' &&
        cluster.tasksOn(ci.ec2InstanceId).length < cluster.slotsPerInstance,
    )
    .map((ci) => ci.ec2InstanceId)

export const placeOn = (
  region: SimRegion,
  group: SimGroup,
  cluster: SimCluster,
  service: string,
): string | undefined => {
  let best: { id: string; mine: number; all: number } | undefined
  for (const id of slotsFree(region, group, cluster)) {
    const on = cluster.tasksOn(id)
    const mine = on.filter((t) => t.service === service).length
    if (best === undefined || mine < best.mine || (mine === best.mine && on.length < best.all))
      best = { id, mine, all: on.length }
  }
  return best?.id
}

const startTask = (
  world: World,
  region: SimRegion,
  cluster: SimCluster,
  service: string,
  on: string,
): void => {
  const task = cluster.newTask(`service:${service}`, service, on, 'PENDING')
  world.clock.schedule(
    world.clock.now + ECS_TASK_START_SECONDS * 1000,
    Priority.transition,
    'ecs task starts',
    () => {
      if (cluster.tasks.get(task.arn)?.status !== 'PENDING') return
      task.status = 'RUNNING'
      cycleSoon(world, region, cluster)
    },
  )
}

const stopTask = (
  world: World,
  region: SimRegion,
  cluster: SimCluster,
  task: SimTask,
  delaySeconds: number,
): void => {
  if (task.status === 'PENDING' || delaySeconds === 0) {
    cluster.tasks.delete(task.arn)
    cycleSoon(world, region, cluster)
    return
  }
  task.status = 'STOPPING'
  world.clock.schedule(world.clock.now + delaySeconds * 1000, Priority.transition, 'ecs task stopped', () => {
    if (!cluster.tasks.delete(task.arn)) return
    cycleSoon(world, region, cluster)
  })
}

/** One service's step; true while it has fewer tasks than it wants outside DRAINING container instances. */
const serviceCycle = (
  world: World,
  region: SimRegion,
  group: SimGroup,
  cluster: SimCluster,
  service: SimService,
): boolean => {
  const draining = (t: SimTask) => cluster.containerInstances.get(t.instanceId)?.status !== 'ACTIVE'
  const mine = () => [...cluster.tasks.values()].filter((t) => t.service === service.name && isLive(t))
  for (const task of mine())
    if (task.status === 'PENDING' && draining(task)) stopTask(world, region, cluster, task, 0)
  const desired = service.desiredCount
  const cap = Math.floor((desired * service.maximumPercent) / 100)
  let staying = mine().filter((t) => !draining(t)).length
  let live = mine().length
  while (staying < desired && live < cap) {
    const on = placeOn(region, group, cluster, service.name)
    if (on === undefined) break
    startTask(world, region, cluster, service.name, on)
    staying++
    live++
  }
  // The owner lowered the desired count: the newest tasks go first.
  for (const task of mine()
    .filter((t) => !draining(t))
    .reverse()
    .slice(0, Math.max(0, staying - desired)))
    stopTask(world, region, cluster, task, service.deregistrationDelaySeconds)
  const minimumHealthy = Math.ceil((desired * service.minimumHealthyPercent) / 100)
  let healthy = mine().filter((t) => t.status === 'RUNNING').length
  for (const task of mine().filter((t) => t.status === 'RUNNING' && draining(t))) {
    const runningElsewhere = mine().filter((t) => t.status === 'RUNNING' && !draining(t)).length
    if (runningElsewhere < desired && healthy - 1 < minimumHealthy) break
    stopTask(world, region, cluster, task, service.deregistrationDelaySeconds)
    healthy--
  }
  return mine().filter((t) => !draining(t)).length < desired
}

/** Managed termination protection: a member is protected exactly while it runs a task. */
export const protect = (region: SimRegion, group: SimGroup, cluster: SimCluster): void => {
  if (!cluster.managedTerminationProtection) return
  for (const [id, member] of group.members) {
    const busy = cluster.tasksOn(id).length > 0
    if (member.protectedFromScaleIn === busy) continue
    member.protectedFromScaleIn = busy
    region.touch(group)
  }
}

/** Managed draining: ECS's termination hook sets a member Auto Scaling terminates DRAINING. */
const drainTerminating = (group: SimGroup, cluster: SimCluster): void => {
  if (!cluster.managedDraining) return
  for (const [id, member] of group.members) {
    const registered = cluster.containerInstances.get(id)
    if (member.lifecycleState.startsWith('Terminating') && registered?.status === 'ACTIVE')
      registered.status = 'DRAINING'
  }
}

export const runCycle = (world: World, region: SimRegion, cluster: SimCluster): void => {
  const group = region.groups.get(cluster.groupName)
  if (group === undefined) return
  drainTerminating(group, cluster)
  let short = false
  for (const service of cluster.services)
    if (serviceCycle(world, region, group, cluster, service)) short = true
  protect(region, group, cluster)
  // Serving is counted in tasks for such a group (ecs-serving.ts): every step is a change.
  region.touch(group)
  if (short) cycleSoon(world, region, cluster, ECS_PLACEMENT_RETRY_SECONDS * 1000)
}
