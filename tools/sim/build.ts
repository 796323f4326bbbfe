/**
 * A scenario becomes a World: regions with their prices, capacity and API gates, and groups already at
 * their desired capacity with on-demand instances spread over the zones, settled long before the start.
 */
import { TERMINATING_TRANSITION } from '../../lambdas/core/interruption/leave.ts'
import type { Catalog } from '../../lambdas/core/types.ts'
import { ApiCounter, ApiGate } from './api-gate.ts'
import { instanceTags, LAUNCHING_TRANSITION } from './asg-members.ts'
import { CapacityModel, type PoolCapacity } from './capacity.ts'
import { SimClock } from './clock.ts'
import { INITIAL_INSTANCE_AGE_HOURS } from './constants.ts'
import { launchInstance } from './ec2.ts'
import { placeBehindEcs, startCluster, watchClusters } from './ecs.ts'
import { type FaultHooks, randomFaults } from './faults.ts'
import { createLoadBalancers, registerSettled, trafficSourcesOf } from './load-balancers.ts'
import { SpotMarket } from './market.ts'
import { createRng } from './rng.ts'
import type { Scenario, ScenarioGroup, ScenarioRegion } from './scenario/types.ts'
import { type SimGroup, SimRegion } from './state.ts'
import { fillWarmPool } from './warm-pool.ts'
import { World } from './world.ts'

export interface BuildOptions {
  readonly catalog: Catalog
  /** Replaces the scenario's random faults (chaos runs script their own). */
  readonly faults?: FaultHooks
}

const toPoolCapacity = (region: ScenarioRegion): Map<string, PoolCapacity> =>
  new Map(
    [...region.capacity].map(([key, spec]) => [
      key,
      spec.kind === 'trace'
        ? { kind: 'trace', trace: spec.trace, startIndex: spec.startIndex }
        : { kind: 'unavailable' },
    ]),
  )

const createGroup = (region: SimRegion, spec: ScenarioGroup, index: number): SimGroup => {
  const configurationName = spec.launch === 'configuration' ? `${spec.name}-configuration` : undefined
  if (configurationName !== undefined) region.launchConfigurations.add(configurationName)
  const loadBalancers = createLoadBalancers(region.name, spec.name, spec.loadBalancers)
  for (const balancer of loadBalancers) region.loadBalancers.set(balancer.key, balancer)
  const group: SimGroup = {
    name: spec.name,
    region: region.name,
    minSize: spec.min,
    maxSize: spec.max,
    desiredCapacity: spec.desired,
    healthCheckGracePeriodSeconds: spec.healthCheckGracePeriod,
    tags: { ...spec.tags },
    propagatedKeys: new Set(Object.keys(spec.tags)),
    launchTemplate:
      spec.launch === 'template'
        ? {
            id: `lt-${(index + 1).toString(16).padStart(17, '0')}`,
            name: `${spec.name}-template`,
            version: '$Default',
          }
        : undefined,
    launchConfigurationName: configurationName,
    instanceType: spec.instanceType,
    zones: region.zones,
    hooks: [
      ...(spec.terminationHook ? [{ name: `${spec.name}-drain`, transition: TERMINATING_TRANSITION }] : []),
      ...(spec.launchHook ? [{ name: `${spec.name}-bootstrap`, transition: LAUNCHING_TRANSITION }] : []),
    ],
    refreshes: [],
    refreshesUnreadable: spec.instanceRefreshesUnreadable,
    suspendedProcesses: new Set(spec.suspendedProcesses),
    capacityRebalance: spec.capacityRebalance,
    replacing: new Map(),
    warmPool:
      spec.warmPool === undefined ? undefined : { minSize: spec.warmPool.minSize, instanceIds: new Set() },
    members: new Map(),
    owner: { minSize: spec.min, maxSize: spec.max, desiredCapacity: spec.desired },
    activities: [],
    loadBalancers,
    trafficSources: trafficSourcesOf(loadBalancers),
    unhealthyReplacementFraction: spec.unhealthyReplacementFraction,
    image: spec.image,
  }
  region.groups.set(group.name, group)
  return group
}

const seedInstances = (world: World, region: SimRegion, group: SimGroup, spec: ScenarioGroup): void => {
  const settledSince = world.clock.now - INITIAL_INSTANCE_AGE_HOURS * 3_600_000
  for (let i = 0; i < spec.desired; i++) {
    const instance = launchInstance(world, region, {
      type: spec.instanceType,
      zone: region.zones[i % region.zones.length] as string,
      lifecycle: 'on-demand',
      tags: instanceTags(group),
      costGroup: group.name,
      origin: 'initial',
      terminationProtected: i < spec.terminationProtected,
      // A second apart, so "oldest first" has a well-defined answer.
      runningSinceMs: settledSince + i * 1000,
    })
    region.addMember(group, instance.id, {
      lifecycleState: 'InService',
      protectedFromScaleIn: i < spec.protectedFromScaleIn,
    })
    registerSettled(group, instance)
  }
}

export const buildWorld = (scenario: Scenario, options: BuildOptions): World => {
  const clock = new SimClock(scenario.start)
  const rng = createRng(scenario.seed)
  const random = {
    asg: rng.fork('asg'),
    interruptions: rng.fork('interruptions'),
    backoff: rng.fork('backoff'),
    faults: rng.fork('faults'),
    health: rng.fork('health'),
  }
  const counter = new ApiCounter()
  const world = new World(clock, options.catalog, random, counter)
  const faults = options.faults ?? randomFaults(scenario.faults, random.faults)
  let groupIndex = 0
  for (const spec of scenario.regions) {
    const gate = new ApiGate({
      clock,
      faults,
      throttle: scenario.faults.throttle,
      rng: random.backoff,
      counter,
    })
    const market = new SpotMarket(spec.name, spec.zones, spec.spotPrices)
    const region = new SimRegion(
      spec.name,
      spec.zones,
      market,
      new CapacityModel(scenario.start, toPoolCapacity(spec)),
      gate,
    )
    region.commitments = spec.commitments
    world.regions.set(spec.name, region)
    for (const groupSpec of spec.groups) {
      const group = createGroup(region, groupSpec, groupIndex++)
      placeBehindEcs(region, group, groupSpec)
      seedInstances(world, region, group, groupSpec)
      startCluster(world, region, group, groupSpec)
      fillWarmPool(world, region, group)
    }
  }
  watchClusters(world)
  return world
}
