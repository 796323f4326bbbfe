/**
 * The oracle: the physical limit of any replacement policy on a scenario, computed from the price and
 * capacity timeline rather than by running anything. At every instant, each spot instance a managed group
 * wants sits in the cheapest pool, in any of the group's zones, that spotswap's compatibility rules accept
 * (filters.ts FILTERS, the `price` filter included) and that has capacity: perfect knowledge, no grace
 * period, no diversification, no zone balance, no moving cost. When no pool qualifies it pays on-demand.
 * What it may not change is what the owner decided: desired capacity, the on-demand minimum, protected
 * instances, and which groups are managed at all. Desired capacity is the owner's schedule and, where a
 * scaling policy stands for the owner (ECS managed scaling), what that policy set in the run it is
 * compared with (`PolicyDesiredChanges`), as the run's own savings baseline follows it (report.ts).
 */

import type { GlobalConfig, GroupConfig } from '../../lambdas/core/config/config.ts'
import { groupConfig } from '../../lambdas/core/config/group-config.ts'
import { isManaged } from '../../lambdas/core/config/managed.ts'
import { FILTERS } from '../../lambdas/core/plan/filters.ts'
import { minOnDemandCount } from '../../lambdas/core/plan/group-sizes.ts'
import { selectCandidates } from '../../lambdas/core/plan/selection.ts'
import { LINUX } from '../../lambdas/core/platform.ts'
import { type Catalog, type InstanceTypeInfo, poolKey, spotPriceBook } from '../../lambdas/core/types.ts'
import { CapacityModel, type PoolCapacity } from '../sim/capacity.ts'
import { SpotMarket } from '../sim/market.ts'
import { onDemandOnlyCost, round } from '../sim/report.ts'
import { endOf, type Scenario, type ScenarioGroup, type ScenarioRegion } from '../sim/scenario/types.ts'

const HOUR_MS = 3_600_000
const ON_DEMAND = 'on-demand'

export interface OracleFigures {
  readonly onDemandOnlyCostUsd: number
  readonly costUsd: number
  readonly savingsPct: number
  /** Instances the oracle starts: moving a slot to another pool (or back to on-demand) is a launch. */
  readonly launches: number
}

export interface RegionModel {
  readonly spec: ScenarioRegion
  readonly market: SpotMarket
  readonly capacity: CapacityModel
}

export const regionModel = (scenario: Scenario, spec: ScenarioRegion): RegionModel => {
  const pools = new Map<string, PoolCapacity>()
  for (const [key, capacity] of spec.capacity)
    pools.set(
      key,
      capacity.kind === 'trace'
        ? { kind: 'trace', trace: capacity.trace, startIndex: capacity.startIndex }
        : { kind: 'unavailable' },
    )
  return {
    spec,
    market: new SpotMarket(spec.name, spec.zones, spec.spotPrices),
    capacity: new CapacityModel(scenario.start, pools),
  }
}

const priceFilter = FILTERS.find((filter) => filter.name === 'price')
if (priceFilter === undefined) throw new Error('oracle: filters.ts has no `price` filter')

export interface Slot {
  /** `type/zone`, or on-demand. */
  readonly pool: string
  readonly priceUsd: number
}

/** Cheapest spot pool of the zone that is compatible, priced under on-demand and has capacity, at `at`. */
export const cheapestIn = (
  model: RegionModel,
  zone: string,
  candidates: readonly InstanceTypeInfo[],
  context: { original: InstanceTypeInfo; config: GroupConfig; onDemandUsd: number },
  at: number,
): Slot => {
  let best: Slot = { pool: ON_DEMAND, priceUsd: context.onDemandUsd }
  for (const candidate of candidates) {
    const priceUsd = model.market.spotPrice(candidate.name, zone, at)
    if (priceUsd === undefined || priceUsd >= best.priceUsd) continue
    const key = poolKey(candidate.name, zone)
    const accepted = priceFilter.keep(
      candidate,
      {
        original: context.original,
        zone,
        config: context.config,
        spotPrices: new Map([[zone, new Map([[candidate.name, priceUsd]])]]),
        originalOnDemandPrice: context.onDemandUsd,
      },
      priceUsd,
    )
    if (accepted && model.capacity.shareOf(key, at) > 0) best = { pool: key, priceUsd }
  }
  return best
}

/** Instants in (from, to) at which a pool's price or capacity changes. */
const poolChanges = (
  model: RegionModel,
  key: string,
  type: string,
  zone: string,
  from: number,
  to: number,
) => {
  const times = model.market
    .steps(type, zone)
    .map((step) => step.at)
    .filter((at) => at > from && at < to)
  for (let change = model.capacity.nextChange(key, from); change !== undefined && change.at < to; ) {
    times.push(change.at)
    change = model.capacity.nextChange(key, change.at)
  }
  return times
}

/**
 * Per group, the desired capacities a scaling policy standing for the owner set during a run, as
 * [time, desired] (SimulationRun.policyDesiredChanges).
 */
export type PolicyDesiredChanges = ReadonlyMap<string, readonly (readonly [number, number])[]>

/** The owner's schedule and the policy's changes, in time order (the owner's first at the same instant). */
const desiredSteps = (
  group: ScenarioGroup,
  changes: readonly (readonly [number, number])[],
): (readonly [number, number])[] => [...group.desiredSchedule, ...changes].sort((a, b) => a[0] - b[0])

export const desiredAt = (
  group: ScenarioGroup,
  at: number,
  changes: readonly (readonly [number, number])[] = [],
): number => {
  let desired = group.desired
  for (const [when, value] of desiredSteps(group, changes)) if (when <= at) desired = value
  return desired
}

/**
 * How the oracle may place a group's spot instances: `anywhere` (the yardstick: all in the cheapest pool
 * of any zone) or `zone-balanced` (as Auto Scaling spreads a group over its zones, each in its zone's
 * cheapest pool; the odd ones in the cheapest zones), which tells how much of a policy's gap to the
 * oracle is the price of zone balance.
 */
export type OraclePlacement = 'anywhere' | 'zone-balanced'

/** Spot instances per zone. */
const place = (placement: OraclePlacement, count: number, slots: readonly Slot[]): number[] => {
  const cheapestFirst = slots
    .map((slot, i) => ({ slot, i }))
    .sort((a, b) => a.slot.priceUsd - b.slot.priceUsd)
  const counts = slots.map(() => 0)
  if (placement === 'anywhere') {
    const cheapest = cheapestFirst[0]
    if (cheapest !== undefined) counts[cheapest.i] = count
    return counts
  }
  const base = Math.floor(count / slots.length)
  counts.fill(base)
  for (const { i } of cheapestFirst.slice(0, count - base * slots.length)) counts[i] = (counts[i] ?? 0) + 1
  return counts
}

/** The group's on-demand price, its type, and the spot types spotswap's rules accept for it, per zone. */
export const groupCandidates = (
  scenario: Scenario,
  model: RegionModel,
  group: ScenarioGroup,
  config: GroupConfig,
  catalog: Catalog,
) => {
  const onDemandUsd = model.market.onDemandPrice(group.instanceType) ?? 0
  const original = catalog.get(group.instanceType)
  // Every pool is priced at every instant (a pool's first price also holds before it), so pricing them
  // all at 0 gives the candidates of the static filters; the `price` filter is applied per instant.
  const everyPool = spotPriceBook(
    model.market
      .priceRows(LINUX, scenario.start)
      .map((row) => [poolKey(row.instanceType, row.zone), 0] as const),
  )
  const candidatesIn = model.spec.zones.map((zone) =>
    original === undefined
      ? []
      : selectCandidates(catalog, {
          original,
          zone,
          config,
          spotPrices: everyPool,
          originalOnDemandPrice: onDemandUsd,
        }).ranked.map((c) => c.info),
  )
  return { onDemandUsd, original, candidatesIn }
}

const groupCost = (
  scenario: Scenario,
  model: RegionModel,
  group: ScenarioGroup,
  config: GroupConfig,
  catalog: Catalog,
  placement: OraclePlacement,
  changes: readonly (readonly [number, number])[],
): { costUsd: number; launches: number } => {
  const start = scenario.start
  const end = endOf(scenario)
  const { onDemandUsd, original, candidatesIn } = groupCandidates(scenario, model, group, config, catalog)
  const zones = model.spec.zones
  const instants = new Set([
    start,
    ...desiredSteps(group, changes)
      .map(([at]) => at)
      .filter((at) => at > start && at < end),
  ])
  zones.forEach((zone, z) => {
    for (const candidate of candidatesIn[z] ?? [])
      for (const at of poolChanges(model, poolKey(candidate.name, zone), candidate.name, zone, start, end))
        instants.add(at)
  })
  const timeline = [...instants].sort((a, b) => a - b)
  const protectedCount = Math.max(group.protectedFromScaleIn, group.terminationProtected)
  let costUsd = 0
  let launches = 0
  let previous: { slots: Slot[]; counts: number[] } | undefined
  timeline.forEach((at, i) => {
    const until = timeline[i + 1] ?? end
    const desired = desiredAt(group, at, changes)
    const onDemand = Math.min(desired, Math.max(minOnDemandCount(config, desired, undefined), protectedCount))
    const slots = zones.map((zone, z) =>
      original === undefined
        ? { pool: ON_DEMAND, priceUsd: onDemandUsd }
        : cheapestIn(model, zone, candidatesIn[z] ?? [], { original, config, onDemandUsd }, at),
    )
    const counts = place(placement, desired - onDemand, slots)
    const hourly =
      onDemand * onDemandUsd + slots.reduce((sum, slot, z) => sum + slot.priceUsd * (counts[z] ?? 0), 0)
    costUsd += (hourly * (until - at)) / HOUR_MS
    slots.forEach((slot, z) => {
      const now = counts[z] ?? 0
      const before = previous?.slots[z]?.pool === slot.pool ? (previous.counts[z] ?? 0) : 0
      // A slot moving to another pool is a launch; at the first instant, moving off the initial on-demand is.
      if (previous !== undefined || slot.pool !== ON_DEMAND) launches += Math.max(0, now - before)
    })
    previous = { slots, counts }
  })
  return { costUsd, launches }
}

/**
 * The oracle's figures for a whole scenario (every group, managed or not, as the simulator reports), at
 * the desired capacities of the run it is compared with where a scaling policy set them.
 */
export const oracleFigures = (
  scenario: Scenario,
  config: GlobalConfig,
  catalog: Catalog,
  placement: OraclePlacement = 'anywhere',
  policyChanges: PolicyDesiredChanges = new Map(),
): OracleFigures => {
  let onDemandOnly = 0
  let cost = 0
  let launches = 0
  for (const spec of scenario.regions) {
    const model = regionModel(scenario, spec)
    for (const group of spec.groups) {
      const changes = policyChanges.get(group.name) ?? []
      const groupOnDemandOnly = onDemandOnlyCost(
        scenario,
        group,
        model.market.onDemandPrice(group.instanceType) ?? 0,
        changes,
      )
      onDemandOnly += groupOnDemandOnly
      if (!isManaged(group.tags, config)) {
        cost += groupOnDemandOnly
        continue
      }
      const effective = groupConfig(config.defaults, group.name, group.tags).config
      const result = groupCost(scenario, model, group, effective, catalog, placement, changes)
      cost += result.costUsd
      launches += result.launches
    }
  }
  return {
    onDemandOnlyCostUsd: round(onDemandOnly, 4),
    costUsd: round(cost, 4),
    savingsPct: onDemandOnly > 0 ? round(100 * (1 - cost / onDemandOnly), 2) : 0,
    launches,
  }
}
