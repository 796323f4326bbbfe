/**
 * Auto Scaling groups with a MixedInstancesPolicy (the benchmark's asg-* policies): what Auto Scaling
 * launches next for such a group. The on-demand base comes first; the rest is spot, in the zone the
 * group balances toward (the next zone when that one has no pool with capacity), in a pool chosen by the
 * spot allocation strategy among the launch template overrides:
 * - `lowest-price`: the `spotInstancePools` cheapest pools of the zone, the one holding fewest of the
 *   group's instances (AWS spreads evenly over the N cheapest pools);
 * - `price-capacity-optimized`: the cheapest of the deepest pools (the same depth model as CreateFleet).
 * A pool qualifies as it does for CreateFleet (fleet.ts): offered, spot price at most the type's
 * on-demand price (the default maximum price), and capacity. There is no on-demand fallback: when no pool
 * of any zone qualifies, the launch fails and Auto Scaling tries again later. Scale-in picks the purchase
 * option first, then the zone, then the pool (scaleInCandidates, alignedVictims). The rules and their
 * sources are listed in docs/benchmark.md.
 *
 * Groups are registered here rather than on SimGroup so that plain groups are untouched by this model.
 */
import { poolKey } from '../../lambdas/core/types.ts'
import { byStrategy, checkPool, type Pool } from './fleet.ts'
import { isActiveMember, type SimGroup, type SimRegion, subnetOf } from './state.ts'
import type { World } from './world.ts'

export type MixedAllocationStrategy = 'lowest-price' | 'price-capacity-optimized'

/** The InstancesDistribution and capacity settings a benchmark policy gives every managed group. */
export interface MixedInstancesDistribution {
  readonly spotAllocationStrategy: MixedAllocationStrategy
  /** `lowest-price` only: how many of a zone's cheapest pools share the group (AWS's default is 2). */
  readonly spotInstancePools: number
  /** Replace a spot instance that gets a rebalance recommendation before it is interrupted. */
  readonly capacityRebalance: boolean
}

export interface MixedInstancesGroup {
  readonly distribution: MixedInstancesDistribution
  /** The launch template overrides: the types Auto Scaling may launch, best first. */
  readonly overrideTypes: readonly string[]
  /** On-demand instances the group keeps at a given desired capacity (base + percentage above base). */
  readonly onDemandFor: (desiredCapacity: number) => number
}

export interface LaunchChoice {
  readonly lifecycle: 'spot' | 'on-demand'
  readonly type: string
  readonly zone: string
}

const mixedGroups = new WeakMap<SimGroup, MixedInstancesGroup>()

export const setMixedInstances = (group: SimGroup, policy: MixedInstancesGroup): void => {
  mixedGroups.set(group, policy)
}

export const mixedInstancesOf = (group: SimGroup): MixedInstancesGroup | undefined => mixedGroups.get(group)

/** The group's active members (launching or in service): how many on-demand, how many spot per pool. */
export const activeComposition = (region: SimRegion, group: SimGroup) => {
  let onDemand = 0
  const spotByPool = new Map<string, number>()
  for (const [id, member] of group.members) {
    if (!isActiveMember(member)) continue
    const instance = region.instances.get(id)
    if (instance === undefined) continue
    if (instance.lifecycle === 'on-demand') {
      onDemand++
      continue
    }
    const key = poolKey(instance.type, instance.zone)
    spotByPool.set(key, (spotByPool.get(key) ?? 0) + 1)
  }
  return { onDemand, spotByPool }
}

const qualifyingPools = (world: World, region: SimRegion, types: readonly string[], zone: string): Pool[] =>
  types.flatMap((instanceType, priority) => {
    const check = checkPool(world, region, { instanceType, zone, subnetId: subnetOf(zone), priority })
    return check.ok ? [check.pool] : []
  })

/** The spot pool the allocation strategy picks in one zone, or undefined when none qualifies. */
export const spotPoolIn = (
  world: World,
  region: SimRegion,
  group: SimGroup,
  mixed: MixedInstancesGroup,
  zone: string,
): Pool | undefined => {
  const pools = qualifyingPools(world, region, mixed.overrideTypes, zone)
  const { spotAllocationStrategy: strategy, spotInstancePools } = mixed.distribution
  pools.sort(byStrategy(strategy))
  if (strategy === 'price-capacity-optimized') return pools[0]
  const { spotByPool } = activeComposition(region, group)
  const held = (pool: Pool) => spotByPool.get(poolKey(pool.override.instanceType, pool.zone)) ?? 0
  // Sorted cheapest first, so the first of the fewest is also the cheapest of them.
  return pools
    .slice(0, Math.max(1, spotInstancePools))
    .reduce<Pool | undefined>(
      (best, pool) => (best === undefined || held(pool) < held(best) ? pool : best),
      undefined,
    )
}

/**
 * What Auto Scaling launches next for the group, trying zones in the order given (fewest instances
 * first): its own type on-demand for a plain group; for a mixed group on-demand while below its base,
 * else spot. Undefined when a mixed group finds no spot pool in any zone.
 */
export const chooseLaunch = (
  world: World,
  region: SimRegion,
  group: SimGroup,
  zones: readonly string[],
  lifecycle?: 'spot',
): LaunchChoice | undefined => {
  const first = zones[0] ?? (group.zones[0] as string)
  const mixed = mixedGroups.get(group)
  if (mixed === undefined) return { lifecycle: 'on-demand', type: group.instanceType, zone: first }
  if (
    lifecycle === undefined &&
    activeComposition(region, group).onDemand < mixed.onDemandFor(group.desiredCapacity)
  )
    return { lifecycle: 'on-demand', type: group.instanceType, zone: first }
  for (const zone of zones) {
    const pool = spotPoolIn(world, region, group, mixed, zone)
    if (pool !== undefined) return { lifecycle: 'spot', type: pool.override.instanceType, zone: pool.zone }
  }
  return undefined
}

/** On-demand instances the group keeps at its current desired capacity. */
export const onDemandTarget = (group: SimGroup, mixed: MixedInstancesGroup): number =>
  mixed.onDemandFor(group.desiredCapacity)

const lifecycleOf = (region: SimRegion, id: string) => region.instances.get(id)?.lifecycle

/**
 * The members scale-in may take, by purchase option first: a mixed group "first identifies which of the
 * two types (Spot or On-Demand) should be terminated"
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-termination-policies.html):
 * on-demand while it holds more than its target, else spot; the other option only when the chosen one has
 * no unprotected member. A plain group: every unprotected member. Never a spot instance launched to move
 * toward the distribution while an on-demand one is in excess, so no launch is undone by the next scale-in.
 */
export const scaleInCandidates = (
  region: SimRegion,
  group: SimGroup,
  unprotected: readonly string[],
): string[] => {
  const mixed = mixedGroups.get(group)
  if (mixed === undefined) return [...unprotected]
  const onDemand = unprotected.filter((id) => lifecycleOf(region, id) === 'on-demand')
  const spot = unprotected.filter((id) => lifecycleOf(region, id) === 'spot')
  const onDemandInExcess = activeComposition(region, group).onDemand > onDemandTarget(group, mixed)
  const preferred = onDemandInExcess ? onDemand : spot
  return preferred.length > 0 ? preferred : [...unprotected]
}

/**
 * Within the chosen zone, the spot instances the allocation strategy would keep least (the remaining
 * instances "align to the allocation strategy"): `price-capacity-optimized` those of the shallowest pool,
 * then the dearest; `lowest-price` those of the dearest pool. On-demand and plain members: all alike.
 */
export const alignedVictims = (
  world: World,
  region: SimRegion,
  group: SimGroup,
  ids: readonly string[],
): string[] => {
  const mixed = mixedGroups.get(group)
  if (mixed === undefined || ids.length === 0 || ids.some((id) => lifecycleOf(region, id) !== 'spot'))
    return [...ids]
  const now = world.clock.now
  const rank = (id: string): [number, number] => {
    const instance = region.instances.get(id)
    if (instance === undefined) return [0, 0]
    const price = region.market.spotPrice(instance.type, instance.zone, now) ?? 0
    const share = region.capacity.share(instance.type, instance.zone, now)
    return mixed.distribution.spotAllocationStrategy === 'price-capacity-optimized'
      ? [share, -price]
      : [0, -price]
  }
  const worst = ids.map(rank).reduce((a, b) => (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) ? b : a))
  return ids.filter((id) => {
    const [share, price] = rank(id)
    return share === worst[0] && price === worst[1]
  })
}
