/**
 * Which ranked candidates one launch offers the fleet, and as which overrides: the best ones, passing over
 * pools that already hold their share of the group's spot instances.
 */
import { MAX_FLEET_OVERRIDES } from '../constants.ts'
import type { FleetOverride } from '../port.ts'
import type { RankedCandidate } from './selection.ts'

export interface FleetChoices {
  /** The candidate the fleet is expected to launch: the cheapest offered. */
  readonly first: RankedCandidate
  readonly overrides: readonly FleetOverride[]
}

const toOverrides = (choices: readonly RankedCandidate[], subnetId: string | undefined): FleetOverride[] =>
  choices.map((c, priority) =>
    c.flags.length === 0
      ? { instanceType: c.instanceType, subnetId, zone: c.zone, priority }
      : { instanceType: c.instanceType, subnetId, zone: c.zone, priority, flags: c.flags },
  )

/**
 * The overrides of the best candidates as they rank, by ranking and subnet. Most launches of a run offer
 * exactly these (one selection serves every group of a type and zone), so they share one read-only list
 * instead of building twenty objects each, all kept until the run ends.
 */
const topOverrides = new WeakMap<
  readonly RankedCandidate[],
  Map<string | undefined, readonly FleetOverride[]>
>()

const overridesOfTop = (
  ranked: readonly RankedCandidate[],
  subnetId: string | undefined,
): readonly FleetOverride[] => {
  let bySubnet = topOverrides.get(ranked)
  if (bySubnet === undefined) {
    bySubnet = new Map()
    topOverrides.set(ranked, bySubnet)
  }
  let overrides = bySubnet.get(subnetId)
  if (overrides === undefined) {
    overrides = toOverrides(ranked.slice(0, MAX_FLEET_OVERRIDES), subnetId)
    bySubnet.set(subnetId, overrides)
  }
  return overrides
}

/**
 * No pool holds more than `maxPoolShare` of the group's `targetSpot` spot instances while other pools
 * exist: candidates whose pool is full are passed over, unless every candidate's is. `ranked` is not empty.
 */
export const fleetChoices = (
  ranked: readonly RankedCandidate[],
  poolCounts: ReadonlyMap<string, number>,
  targetSpot: number,
  maxPoolShare: number,
  subnetId: string | undefined,
): FleetChoices => {
  const cap = Math.max(1, Math.ceil(targetSpot * maxPoolShare))
  // Only the first MAX_FLEET_OVERRIDES open candidates are ever used: stop looking once they are found.
  // The candidates passed over name the list: launches that pass over the same ones (the rest of a group
  // once a pool holds its share) share it, as those passing over none share the top overrides.
  let passedOver = ''
  let openCount = 0
  let firstOpen: RankedCandidate | undefined
  for (let index = 0; index < ranked.length && openCount < MAX_FLEET_OVERRIDES; index++) {
    const candidate = ranked[index] as RankedCandidate
    if ((poolCounts.get(candidate.pool) ?? 0) < cap) {
      openCount++
      firstOpen ??= candidate
    } else passedOver += `${index},`
  }
  if (passedOver === '' || firstOpen === undefined)
    return { first: ranked[0] as RankedCandidate, overrides: overridesOfTop(ranked, subnetId) }
  return { first: firstOpen, overrides: overridesPassingOver(ranked, subnetId, passedOver, cap, poolCounts) }
}

/** Open overrides by ranking, subnet and the candidates passed over (their indices), built once each. */
const passingOver = new WeakMap<readonly RankedCandidate[], Map<string, readonly FleetOverride[]>>()

const overridesPassingOver = (
  ranked: readonly RankedCandidate[],
  subnetId: string | undefined,
  passedOver: string,
  cap: number,
  poolCounts: ReadonlyMap<string, number>,
): readonly FleetOverride[] => {
  let byKey = passingOver.get(ranked)
  if (byKey === undefined) {
    byKey = new Map()
    passingOver.set(ranked, byKey)
  }
  const key = `${subnetId ?? ''}|${passedOver}`
  let overrides = byKey.get(key)
  if (overrides === undefined) {
    const open: RankedCandidate[] = []
    for (let index = 0; index < ranked.length && open.length < MAX_FLEET_OVERRIDES; index++) {
      const candidate = ranked[index] as RankedCandidate
      if ((poolCounts.get(candidate.pool) ?? 0) < cap) open.push(candidate)
    }
    overrides = toOverrides(open, subnetId)
    byKey.set(key, overrides)
  }
  return overrides
}
