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
import { reconcile } from './asg.ts'
import { activeCount } from './asg-members.ts'
import { Priority } from './clock.ts'
import { ECS_PLACEMENT_RETRY_SECONDS, ECS_TASK_START_SECONDS } from './constants.ts'
import type { SimCluster, SimService, SimTask } from './ecs-cluster-state.ts'
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

/** One cluster's scheduler step: the world, the region, the group it stands on and the cluster. */
export interface ClusterScope {
  readonly world: World
  readonly region: SimRegion
  readonly group: SimGroup
  readonly cluster: SimCluster
}

const slotsFree = ({ region, group, cluster }: ClusterScope): string[] =>
  [...cluster.containerInstances.values()]
    .filter(
      (ci) =>
        ci.status === 'ACTIVE' &&
        group.members.get(ci.ec2InstanceId)?.lifecycleState === 'InService' &&
        region.instances.get(ci.ec2InstanceId)?.state === 'running' &&
        cluster.tasksOn(ci.ec2InstanceId).length < cluster.slotsPerInstance,
    )
    .map((ci) => ci.ec2InstanceId)

/**
 * Where the next task of `service` goes. `spread`: the free slot beside the fewest of its tasks, then of
 * any. `binpack`: the fullest instance with a free slot, which keeps the fewest instances in use
 * (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/task-placement-strategies.html).
 */
export const placeOn = (scope: ClusterScope, service: string): string | undefined => {
  const binpack = scope.cluster.services.find((s) => s.name === service)?.placementStrategy === 'binpack'
  let best: { id: string; mine: number; all: number } | undefined
  for (const id of slotsFree(scope)) {
    const on = scope.cluster.tasksOn(id)
    const mine = binpack ? 0 : on.filter((t) => t.service === service).length
    const all = binpack ? -on.length : on.length
    if (best === undefined || mine < best.mine || (mine === best.mine && all < best.all))
      best = { id, mine, all }
  }
  return best?.id
}

/**
 * The tasks a lowered desired count stops first. `spread`: the newest. `binpack`: those on the instance
 * left with the most free room once they stop (task-placement-strategies.html), so instances empty out.
 */
const stopOrder = (cluster: SimCluster, service: SimService, tasks: SimTask[]): SimTask[] => {
  if (service.placementStrategy !== 'binpack') return [...tasks].reverse()
  const load = (t: SimTask) => cluster.tasksOn(t.instanceId).length
  return [...tasks].reverse().sort((a, b) => load(a) - load(b))
}

const later = (scope: ClusterScope, seconds: number, label: string, run: () => boolean): void =>
  scope.world.clock.schedule(scope.world.clock.now + seconds * 1000, Priority.transition, label, () => {
    if (run()) cycleSoon(scope.world, scope.region, scope.cluster)
  })

const startTask = (scope: ClusterScope, service: string, on: string): void => {
  const task = scope.cluster.newTask(`service:${service}`, service, on, 'PENDING')
  later(scope, ECS_TASK_START_SECONDS, 'ecs task starts', () => {
    if (scope.cluster.tasks.get(task.arn)?.status !== 'PENDING') return false
    task.status = 'RUNNING'
    return true
  })
}

const stopTask = (scope: ClusterScope, task: SimTask, delaySeconds: number): void => {
  if (task.status === 'PENDING' || delaySeconds === 0) {
    scope.cluster.tasks.delete(task.arn)
    cycleSoon(scope.world, scope.region, scope.cluster)
    return
  }
  task.status = 'STOPPING'
  later(scope, delaySeconds, 'ecs task stopped', () => scope.cluster.tasks.delete(task.arn))
}

/** One service's step; true while it has fewer tasks than it wants outside DRAINING container instances. */
const serviceCycle = (scope: ClusterScope, service: SimService): boolean => {
  const { cluster } = scope
  const draining = (t: SimTask) => cluster.containerInstances.get(t.instanceId)?.status !== 'ACTIVE'
  const mine = () => [...cluster.tasks.values()].filter((t) => t.service === service.name && isLive(t))
  for (const task of mine()) if (task.status === 'PENDING' && draining(task)) stopTask(scope, task, 0)
  const desired = service.desiredCount
  const cap = Math.floor((desired * service.maximumPercent) / 100)
  let staying = mine().filter((t) => !draining(t)).length
  let live = mine().length
  while (staying < desired && live < cap) {
    const on = placeOn(scope, service.name)
    if (on === undefined) break
    startTask(scope, service.name, on)
    staying++
    live++
  }
  // The owner lowered the desired count.
  for (const task of stopOrder(
    cluster,
    service,
    mine().filter((t) => !draining(t)),
  ).slice(0, Math.max(0, staying - desired)))
    stopTask(scope, task, service.deregistrationDelaySeconds)
  const minimumHealthy = Math.ceil((desired * service.minimumHealthyPercent) / 100)
  let healthy = mine().filter((t) => t.status === 'RUNNING').length
  for (const task of mine().filter((t) => t.status === 'RUNNING' && draining(t))) {
    const runningElsewhere = mine().filter((t) => t.status === 'RUNNING' && !draining(t)).length
    if (runningElsewhere < desired && healthy - 1 < minimumHealthy) break
    stopTask(scope, task, service.deregistrationDelaySeconds)
    healthy--
  }
  return mine().filter((t) => !draining(t)).length < desired
}

/**
 * Managed termination protection: a member is protected exactly while it runs a task. A group left above
 * its desired capacity because every candidate was protected scales in once one is lifted (asg.ts).
 */
export const protect = ({ world, region, group, cluster }: ClusterScope): void => {
  if (!cluster.managedTerminationProtection) return
  let lifted = false
  for (const [id, member] of group.members) {
    const busy = cluster.tasksOn(id).length > 0
    if (member.protectedFromScaleIn === busy) continue
    member.protectedFromScaleIn = busy
    lifted ||= !busy
    region.touch(group)
  }
  if (lifted && activeCount(group) > group.desiredCapacity) reconcile(world, region, group)
}

/** Managed draining: ECS's termination hook sets a member Auto Scaling terminates DRAINING. */
const drainTerminating = ({ group, cluster }: ClusterScope): void => {
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
  const scope = { world, region, group, cluster }
  drainTerminating(scope)
  let short = false
  for (const service of cluster.services) if (serviceCycle(scope, service)) short = true
  protect(scope)
  // Serving is counted in tasks for such a group (ecs-serving.ts): every step is a change.
  region.touch(group)
  if (short) cycleSoon(world, region, cluster, ECS_PLACEMENT_RETRY_SECONDS * 1000)
}
