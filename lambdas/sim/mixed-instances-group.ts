/**
 * The asg-* benchmark policies: at the start, the owner of every managed group switches it to a
 * MixedInstancesPolicy (the same on-demand minimum as base capacity, spot above it, the group's
 * compatible types as overrides) with capacity rebalancing, and Auto Scaling runs it from then on:
 * - the distribution change is rolled out gradually, launch before terminate: a few spot instances at a
 *   time; each on-demand instance beyond the base leaves once a spot instance is in service;
 * - a rebalance recommendation starts a replacement spot instance; the at-risk one is terminated once
 *   the replacement is in service (if EC2 has not taken it first);
 * - a launch that found no spot capacity is retried on Auto Scaling's next pass.
 * Documented, with the model's limits, in docs/benchmark.md.
 */

import { minOnDemandCount } from '../core/capacity.ts'
import type { GlobalConfig } from '../core/config.ts'
import { isManaged } from '../core/managed.ts'
import { LINUX } from '../core/platform.ts'
import { latestSpotPrices } from '../core/prices.ts'
import { selectCandidates } from '../core/selection.ts'
import { activeCount, launchMember, reconcile, terminateMember, zonesByFewest } from './asg.ts'
import { Priority } from './clock.ts'
import { effectiveConfig } from './group-state.ts'
import {
  activeComposition,
  chooseLaunch,
  type MixedInstancesDistribution,
  mixedInstancesOf,
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

export interface MixedInstancesRun {
  /** Spot instances Auto Scaling launched per group (scale-out, backfill, rollout, rebalancing). */
  readonly spotLaunches: ReadonlyMap<string, number>
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

export const installMixedInstances = (
  world: World,
  config: GlobalConfig,
  distribution: MixedInstancesDistribution,
  until: number,
): MixedInstancesRun => {
  const spotLaunches = new Map<string, number>()
  /** Spot instances launched to roll out the distribution, per group; done once in service or gone. */
  const rollingOut = new Map<SimGroup, Set<string>>()
  /** At-risk instance → its capacity-rebalancing replacement. */
  const replacements = new Map<string, string>()
  world.observe({
    instanceLaunched: (instance) => {
      if (instance.origin === 'asg' && instance.lifecycle === 'spot' && instance.costGroup !== undefined)
        spotLaunches.set(instance.costGroup, (spotLaunches.get(instance.costGroup) ?? 0) + 1)
    },
  })
  const pending = (group: SimGroup, id: string | undefined): boolean =>
    id !== undefined && group.members.get(id)?.lifecycleState === 'Pending'

  /**
   * A rollout launch goes where on-demand instances are, most first: the scale-in that follows balances
   * zones first, so it then takes an on-demand instance of that zone rather than a spot one elsewhere.
   */
  const zonesToRollOut = (region: SimRegion, group: SimGroup): string[] => {
    const onDemandIn = new Map<string, number>()
    for (const [id, member] of group.members) {
      const instance = region.instances.get(id)
      if (isActiveMember(member) && instance?.lifecycle === 'on-demand')
        onDemandIn.set(instance.zone, (onDemandIn.get(instance.zone) ?? 0) + 1)
    }
    return zonesByFewest(region, group).sort((a, b) => (onDemandIn.get(b) ?? 0) - (onDemandIn.get(a) ?? 0))
  }

  const rollOut = (region: SimRegion, group: SimGroup): void => {
    const mixed = mixedInstancesOf(group)
    if (mixed === undefined) return
    const batch = Math.max(1, Math.floor(group.desiredCapacity * DISTRIBUTION_BATCH_SHARE))
    const inFlight = new Set([...(rollingOut.get(group) ?? [])].filter((id) => pending(group, id)))
    rollingOut.set(group, inFlight)
    const excess = () =>
      activeComposition(region, group).onDemand - mixed.onDemandFor(group.desiredCapacity) - inFlight.size
    while (inFlight.size < batch && excess() > 0) {
      const choice = chooseLaunch(world, region, group, zonesToRollOut(region, group), 'spot')
      if (choice === undefined) break
      inFlight.add(
        // One above desired once in service: the scale-in takes an on-demand instance beyond the base.
        launchMember(world, region, group, choice, () => reconcile(world, region, group)),
      )
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
    for (const group of groups)
      setMixedInstances(group, {
        distribution,
        overrideTypes: overrideTypesFor(world, config, region, group),
        onDemandFor: (desired) => minOnDemandCount(effectiveConfig(config, group), desired, undefined),
      })
    for (let at = world.clock.now; at < until; at += MIXED_PASS_SECONDS * 1000)
      world.clock.schedule(at, Priority.external, 'auto scaling pass', () => pass(region, groups))
  }

  return {
    spotLaunches,
    onEvent: (event) => {
      if (event.kind !== 'rebalance-recommendation') return
      const region = world.region(event.region)
      world.clock.schedule(world.clock.now, Priority.external, 'capacity rebalance', () =>
        rebalance(region, event.instanceId),
      )
    },
  }
}
