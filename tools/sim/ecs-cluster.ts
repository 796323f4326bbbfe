/**
 * The ECS cluster of a group behind a capacity provider (sim/ecs.ts): container instances, services and
 * their tasks. Each member launched from the group's template runs the ECS agent, which registers a
 * container instance in the cluster a little after the instance is running
 * (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/ECS_instances.html); its container
 * instance goes INACTIVE when the instance is gone, and the tasks there stop with it. ECS's replica
 * scheduler (ecs-scheduler.ts) places the services' tasks on ACTIVE container instances of the group's
 * InService members, a task per slot. Standalone tasks (RunTask, group `family:NAME`) stand on the first
 * `protectedFromScaleIn` initial members and never move. Every task carries its `group` as DescribeTasks
 * tells it (`service:NAME` or `family:NAME`,
 * https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_Task.html).
 */
import { Priority } from './clock.ts'
import { ECS_AGENT_REGISTER_SECONDS } from './constants.ts'
import type { SimCluster } from './ecs-cluster-state.ts'
import type { SimGroup, SimInstance, SimRegion } from './state.ts'
import type { SimObserver, World } from './world.ts'

/** The cluster standing on `group`, if it is behind a capacity provider. */
export const clusterOf = (region: SimRegion, group: string | undefined): SimCluster | undefined =>
  group === undefined ? undefined : region.ecsClusters.get(group)

/** Instances that run the group's ECS agent: launched from its template, by Auto Scaling or spotswap. */
const runsAgent = (instance: SimInstance): boolean => instance.origin !== 'owner'

/**
 * Keeps each cluster's container instances with its instances: one registers an agent's delay after its
 * instance is running, goes INACTIVE (its tasks gone) once the instance shuts down; `cycle` runs the
 * cluster's scheduler after each change.
 */
export const clusterObserver = (
  world: World,
  cycle: (region: SimRegion, cluster: SimCluster) => void,
): SimObserver => ({
  instanceStateChanged(instance) {
    const region = world.region(instance.region)
    const cluster = clusterOf(region, instance.costGroup)
    if (cluster === undefined || !runsAgent(instance)) return
    if (instance.state === 'running') {
      world.clock.schedule(
        world.clock.now + ECS_AGENT_REGISTER_SECONDS * 1000,
        Priority.transition,
        'ecs agent registers',
        () => {
          if (instance.state !== 'running') return
          cluster.register(instance.id)
          cycle(region, cluster)
        },
      )
      return
    }
    const registered = cluster.containerInstances.get(instance.id)
    if (registered === undefined || registered.status === 'INACTIVE') return
    registered.status = 'INACTIVE'
    for (const task of cluster.tasksOn(instance.id)) cluster.tasks.delete(task.arn)
    cycle(region, cluster)
  },
  attached(group) {
    const region = world.region(group.region)
    const cluster = clusterOf(region, group.name)
    if (cluster !== undefined) cycle(region, cluster)
  },
})

/**
 * The cluster as the scenario starts: every initial member registered ACTIVE, the first
 * `protectedFromScaleIn` ones running a standalone task each.
 */
export const seedCluster = (group: SimGroup, cluster: SimCluster, standalone: number): void => {
  let n = 0
  for (const id of group.members.keys()) {
    cluster.register(id)
    if (n++ < standalone) cluster.newTask('family:standalone', undefined, id, 'RUNNING')
  }
}
