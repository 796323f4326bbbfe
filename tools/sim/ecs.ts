/**
 * A group behind an ECS capacity provider: ECS tags the group `AmazonECSManaged` (propagated to its
 * instances) and DescribeCapacityProviders lists a provider naming it by ARN
 * (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_AutoScalingGroupProvider.html). The
 * provider's cluster runs on the group's members (ecs-cluster.ts, ecs-scheduler.ts). With the scenario's
 * `managedScaling`, the provider reports it ENABLED with its settings and ECS's target tracking moves the
 * group's desired capacity (ecs-managed-scaling.ts); without, DISABLED, and desired capacity moves only as
 * the scenario's owner sets it.
 */
import { TAG_ECS_MANAGED } from '../../lambdas/core/ecs/capacity-provider.ts'
import { Priority } from './clock.ts'
import { clusterObserver, seedCluster } from './ecs-cluster.ts'
import { SimCluster } from './ecs-cluster-state.ts'
import { startManagedScaling } from './ecs-managed-scaling.ts'
import { cycleSoon, placeOn, protect } from './ecs-scheduler.ts'
import type { ScenarioEcs, ScenarioGroup } from './scenario/types.ts'
import type { SimGroup, SimRegion } from './state.ts'
import type { World } from './world.ts'

const ACCOUNT = '123456789012'

const groupArn = (region: SimRegion, group: SimGroup): string =>
  `arn:aws:autoscaling:${region.name}:${ACCOUNT}:autoScalingGroup:00000000-0000-4000-8000-000000000000:autoScalingGroupName/${group.name}`

const state = (on: boolean): string => (on ? 'ENABLED' : 'DISABLED')

/** As DescribeCapacityProviders tells it (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ManagedScaling.html). */
const managedScalingOf = (spec: ScenarioEcs): { readonly status: string } => {
  const settings = spec.managedScaling
  const described = settings === undefined ? { status: state(false) } : { status: state(true), ...settings }
  return described
}

/** Puts `group` behind its capacity provider, when the scenario gives it one. */
export const placeBehindEcs = (region: SimRegion, group: SimGroup, spec: ScenarioGroup): void => {
  if (spec.ecs === undefined) return
  group.tags[TAG_ECS_MANAGED] = ''
  group.propagatedKeys.add(TAG_ECS_MANAGED)
  const name = `${group.name}-capacity`
  region.capacityProviders.push({
    name,
    status: 'ACTIVE',
    autoScalingGroupProvider: {
      autoScalingGroupArn: groupArn(region, group),
      managedScaling: managedScalingOf(spec.ecs),
      managedTerminationProtection: state(spec.ecs.managedTerminationProtection),
      managedDraining: state(spec.ecs.managedDraining),
    },
  })
  region.ecsClusters.set(group.name, new SimCluster(region.name, group.name, name, spec.ecs))
}

/**
 * The cluster of a group built with its members, settled: every member registered, the services' tasks
 * RUNNING, the members ECS protects protected; then the owner's changes of the services' desired counts.
 * Without managed termination protection the members keep the scenario's protection (the owner's).
 */
export const startCluster = (world: World, region: SimRegion, group: SimGroup, spec: ScenarioGroup): void => {
  const cluster = region.ecsClusters.get(group.name)
  if (cluster === undefined || spec.ecs === undefined) return
  seedCluster(group, cluster, spec.protectedFromScaleIn)
  const scope = { world, region, group, cluster }
  for (const service of cluster.services)
    for (let n = 0; n < service.desiredCount; n++) {
      const on = placeOn(scope, service.name)
      if (on !== undefined) cluster.newTask(`service:${service.name}`, service.name, on, 'RUNNING')
    }
  protect(scope)
  startManagedScaling(world, region, cluster)
  for (const service of cluster.services)
    for (const [at, count] of service.desiredSchedule)
      world.clock.schedule(at, Priority.external, `owner sets ${service.name}`, () => {
        service.desiredCount = count
        cycleSoon(world, region, cluster)
      })
}

/** Keeps every cluster's container instances with the instances under it (installed once per world). */
export const watchClusters = (world: World): void =>
  world.observe(clusterObserver(world, (region, cluster) => cycleSoon(world, region, cluster)))
