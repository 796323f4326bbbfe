/**
 * The asg-* benchmark policies: at the start, the owner of every managed group switches it to a
 * MixedInstancesPolicy (the same on-demand minimum as base capacity, spot above it, the group's
 * compatible types as overrides) with capacity rebalancing, and Auto Scaling runs it from then on:
 * - the distribution change is rolled out gradually, launch before terminate
 *   (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_InstancesDistribution.html): a few spot
 *   instances at a time, each for one on-demand instance that scale-in could take (unprotected, beyond
 *   the base), launched in its zone and terminating it once in service;
 * - a rebalance recommendation starts a replacement spot instance; the at-risk one is terminated once
 *   the replacement is in service (if EC2 has not taken it first);
 * - a launch that found no spot capacity is retried on Auto Scaling's next pass.
 * Documented, with the model's limits, in docs/benchmark.md.
 */

import type { GlobalConfig } from '../../lambdas/core/config/config.ts'
import { isManaged } from '../../lambdas/core/config/managed.ts'
import { minOnDemandCount } from '../../lambdas/core/plan/group-sizes.ts'
import { latestSpotPrices } from '../../lambdas/core/plan/prices.ts'
import { selectCandidates } from '../../lambdas/core/plan/selection.ts'
import { LINUX } from '../../lambdas/core/platform.ts'
import { poolKey } from '../../lambdas/core/types.ts'
import { reconcile } from './asg.ts'
import { activeByZone, activeCount, launchMember, terminateMember, zonesByFewest } from './asg-members.ts'
import { Priority } from './clock.ts'
import { effectiveConfig } from './group-state.ts'
import {
  activeComposition,
  chooseLaunch,
  type MixedInstancesDistribution,
  type MixedInstancesGroup,
  mixedInstancesOf,
  onDemandTarget,
  setMixedInstances,
} from './mixed-instances.ts'
import { isActiveMember, type SimGroup, type SimRegion } from './state.ts'
import type { SimEvent, World } from './world.ts'

/** How often Auto Scaling looks at a group between events: its health and scaling loop is minute-scale. */
export const MIXED_PASS_SECONDS = 60

/**
 * Spot instances launched at once to roll out a distribution change: as Auto Scaling's rebalancing
 * activities, up to 10% of desired capacity (at least one) above desired.
 */
export const DISTRIBUTION_BATCH_SHARE = 0.1

/** A MixedInstancesPolicy accepts at most 40 launch template overrides. */
export const MAX_MIXED_OVERRIDES = 40

/** What Auto Scaling did for the mixed groups, per group name: the launches and what caused them. */
export interface MixedInstancesStats {
  /** Spot instances Auto Scaling launched per group (scale-out, backfill, rollout, rebalancing). */
  readonly spotLaunches: ReadonlyMap<string, number>
  /** The same per pool (`type/zone` → launches): what the allocation strategy chose. */
  readonly spotPools: ReadonlyMap<string, ReadonlyMap<string, number>>
  /** On-demand instances the switch replaces: unprotected ones beyond the base at the start. */
  readonly switchReplaces: ReadonlyMap<string, number>
  /** Rebalance recommendations received by the group's instances. */
  readonly rebalanceRecommendations: ReadonlyMap<string, number>
}

export interface MixedInstancesRun extends MixedInstancesStats {
  /** Reacts to the EventBridge events Auto Scaling acts on itself (rebalance recommendations). */
  readonly onEvent: (event: SimEvent) => void
}

/**
 * The overrides a careful owner would list: every type spotswap's selection rules accept for the group
 * in any of its zones at the start, cheapest first, up to AWS's limit.
 */
export const overrideTypesFor = (
  world: World,
  config: GlobalConfig,
  region: SimRegion,
  group: SimGroup,
): string[] => {
  const original = world.catalog.get(group.instanceType)
  if (original === undefined) return []
  const spotPrices = latestSpotPrices(region.market.priceRows(LINUX, world.clock.now))
  const best = new Map<string, number>()
  for (const zone of group.zones) {
    const { ranked } = selectCandidates(world.catalog, {
      original,
      zone,
      config: effectiveConfig(config, group),
      spotPrices,
      originalOnDemandPrice: region.market.onDemandPrice(group.instanceType),
    })
    for (const candidate of ranked)
      best.set(
        candidate.instanceType,
        Math.min(best.get(candidate.instanceType) ?? Infinity, candidate.spotPriceUsd),
      )
  }
  return [...best]
    .sort(([a, pa], [b, pb]) => pa - pb || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, MAX_MIXED_OVERRIDES)
    .map(([type]) => type)
}

const increment = <K>(map: Map<K, number>, key: K): void => {
  map.set(key, (map.get(key) ?? 0) + 1)
}

const isOnDemandMember = (region: SimRegion, group: SimGroup, id: string): boolean => {
  const member = group.members.get(id)
  return (
    member !== undefined &&
    isActiveMember(member) &&
    !member.protectedFromScaleIn &&
    region.instances.get(id)?.lifecycle === 'on-demand'
  )
}

/**
 * The on-demand member the rollout replaces next: one that scale-in could take (unprotected, beyond the
 * target, not already being replaced), in the zone with the most instances, as the termination policy
 * would pick it. None when every on-demand instance beyond the base is protected or being replaced.
 */
export const nextRolloutVictim = (
  region: SimRegion,
  group: SimGroup,
  claimed: ReadonlySet<string>,
): string | undefined => {
  const mixed = mixedInstancesOf(group)
  if (mixed === undefined) return undefined
  const excess = activeComposition(region, group).onDemand - onDemandTarget(group, mixed) - claimed.size
  if (excess <= 0) return undefined
  let victim: { id: string; zoneSize: number } | undefined
  for (const ids of activeByZone(region, group).values())
    for (const id of ids)
      if (!claimed.has(id) && isOnDemandMember(region, group, id) && ids.length > (victim?.zoneSize ?? 0))
        victim = { id, zoneSize: ids.length }
  return victim?.id
}

export const installMixedInstances = (
  world: World,
  config: GlobalConfig,
  distribution: MixedInstancesDistribution,
  until: number,
): MixedInstancesRun => {
  const spotLaunches = new Map<string, number>()
  const spotPools = new Map<string, Map<string, number>>()
  const switchReplaces = new Map<string, number>()
  const rebalanceRecommendations = new Map<string, number>()
  /** Spot instance launched to roll out the distribution → the on-demand member it replaces, per group. */
  const rollingOut = new Map<SimGroup, Map<string, string>>()
  /** At-risk instance → its capacity-rebalancing replacement. */
  const replacements = new Map<string, string>()
  world.observe({
    instanceLaunched: (instance) => {
      if (instance.origin !== 'asg' || instance.lifecycle !== 'spot' || instance.costGroup === undefined)
        return
      increment(spotLaunches, instance.costGroup)
      const pools = spotPools.get(instance.costGroup) ?? new Map<string, number>()
      spotPools.set(instance.costGroup, pools)
      increment(pools, poolKey(instance.type, instance.zone))
    },
  })
  const pending = (group: SimGroup, id: string | undefined): boolean =>
    id !== undefined && group.members.get(id)?.lifecycleState === 'Pending'

  /**
   * Launch before terminate, one on-demand member at a time: the spot instance goes into the member's zone
   * (the next zone with the fewest instances when no pool qualifies there) and the member is terminated
   * once it is in service, if still beyond the target; the group is then brought back to its desired
   * capacity (a scale-out meanwhile counted the launch as capacity).
   */
  const rollOut = (region: SimRegion, group: SimGroup): void => {
    const mixed = mixedInstancesOf(group)
    if (mixed === undefined) return
    const batch = Math.max(1, Math.floor(group.desiredCapacity * DISTRIBUTION_BATCH_SHARE))
    const inFlight = new Map([...(rollingOut.get(group) ?? [])].filter(([id]) => pending(group, id)))
    rollingOut.set(group, inFlight)
    while (inFlight.size < batch) {
      const victim = nextRolloutVictim(region, group, new Set(inFlight.values()))
      const zone = region.instances.get(victim ?? '')?.zone
      if (victim === undefined || zone === undefined) break
      const zones = [zone, ...zonesByFewest(region, group).filter((z) => z !== zone)]
      const choice = chooseLaunch(world, region, group, zones, 'spot')
      if (choice === undefined) break
      const launched = launchMember(world, region, group, choice, () => {
        const member = group.members.get(victim)
        const beyondTarget = activeComposition(region, group).onDemand > onDemandTarget(group, mixed)
        if (member !== undefined && isActiveMember(member) && beyondTarget)
          terminateMember(world, region, group, victim)
        reconcile(world, region, group)
      })
      inFlight.set(launched, victim)
    }
  }

  const pass = (region: SimRegion, groups: readonly SimGroup[]): void => {
    for (const group of groups) {
      if (activeCount(group) < group.desiredCapacity) reconcile(world, region, group)
      rollOut(region, group)
    }
  }

  const rebalance = (region: SimRegion, instanceId: string): void => {
    const group = region.groupOf(instanceId)
    const mixed = group === undefined ? undefined : mixedInstancesOf(group)
    const instance = region.instances.get(instanceId)
    if (group === undefined || !mixed?.distribution.capacityRebalance || instance === undefined) return
    if (group.members.get(instanceId)?.lifecycleState !== 'InService') return
    if (pending(group, replacements.get(instanceId))) return
    const zones = [instance.zone, ...zonesByFewest(region, group).filter((z) => z !== instance.zone)]
    const choice = chooseLaunch(world, region, group, zones, 'spot')
    if (choice === undefined) return
    const replacement = launchMember(world, region, group, choice, () => {
      const atRisk = group.members.get(instanceId)
      if (atRisk !== undefined && isActiveMember(atRisk)) terminateMember(world, region, group, instanceId)
      // EC2 took it first and the group backfilled: one too many now.
      else reconcile(world, region, group)
    })
    replacements.set(instanceId, replacement)
  }

  for (const region of world.regions.values()) {
    const groups = [...region.groups.values()].filter((group) => isManaged(group.tags, config))
    for (const group of groups) {
      const mixed: MixedInstancesGroup = {
        distribution,
        overrideTypes: overrideTypesFor(world, config, region, group),
        onDemandFor: (desired) => minOnDemandCount(effectiveConfig(config, group), desired, undefined),
      }
      setMixedInstances(group, mixed)
      const onDemand = [...group.members.keys()].filter((id) => isOnDemandMember(region, group, id))
      const beyondBase = activeComposition(region, group).onDemand - onDemandTarget(group, mixed)
      switchReplaces.set(group.name, Math.max(0, Math.min(onDemand.length, beyondBase)))
    }
    for (let at = world.clock.now; at < until; at += MIXED_PASS_SECONDS * 1000)
      world.clock.schedule(at, Priority.external, 'auto scaling pass', () => pass(region, groups))
  }

  return {
    spotLaunches,
    spotPools,
    switchReplaces,
    rebalanceRecommendations,
    onEvent: (event) => {
      if (event.kind !== 'rebalance-recommendation') return
      const region = world.region(event.region)
      const group = region.groupOf(event.instanceId)
      if (group !== undefined && mixedInstancesOf(group) !== undefined)
        increment(rebalanceRecommendations, group.name)
      world.clock.schedule(world.clock.now, Priority.external, 'capacity rebalance', () =>
        rebalance(region, event.instanceId),
      )
    },
  }
}
