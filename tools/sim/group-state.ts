/** A group as the report and the invariant checks see it at one moment. */

import type { GlobalConfig, GroupConfig } from '../../lambdas/core/config/config.ts'
import { groupConfig } from '../../lambdas/core/config/group-config.ts'
import { isManaged } from '../../lambdas/core/config/managed.ts'
import { TAG_REPLACING_INSTANCE } from '../../lambdas/core/constants.ts'
import { minOnDemandCount } from '../../lambdas/core/plan/group-sizes.ts'
import type { SimGroup, SimRegion } from './state.ts'

export interface GroupState {
  readonly desired: number
  readonly minSize: number
  readonly maxSize: number
  readonly inService: number
  readonly spot: number
  readonly onDemand: number
  /** On-demand instances the group's configuration says to keep (for its current in-service count). */
  readonly requiredOnDemand: number
  /** In-service on-demand members spotswap must not replace (scale-in or API termination protection). */
  readonly protectedOnDemand: number
  /** The in-service on-demand members protected from scale-in or from termination. */
  readonly protectedOnDemandIds: readonly string[]
  readonly managed: boolean
}

interface TagReading {
  readonly config: GroupConfig
  readonly managed: boolean
}

/**
 * Parsed per tags object: the port replaces a group's tags object on every change, so identity is a
 * safe key, and the states observed after every event do not parse the same tags over and over.
 */
const readings = new WeakMap<GlobalConfig, WeakMap<object, TagReading>>()

const readTags = (config: GlobalConfig, group: SimGroup): TagReading => {
  let byTags = readings.get(config)
  if (byTags === undefined) {
    byTags = new WeakMap()
    readings.set(config, byTags)
  }
  let reading = byTags.get(group.tags)
  if (reading === undefined) {
    reading = {
      config: groupConfig(config.defaults, group.name, group.tags).config,
      managed: isManaged(group.tags, config),
    }
    byTags.set(group.tags, reading)
  }
  return reading
}

/** The group's effective configuration: the engine's defaults and its `autospotting_*` tags. */
export const effectiveConfig = (config: GlobalConfig, group: SimGroup): GroupConfig =>
  readTags(config, group).config

export const groupState = (config: GlobalConfig, region: SimRegion, group: SimGroup): GroupState => {
  let inService = 0
  let spot = 0
  const protectedOnDemandIds: string[] = []
  const spotPartners: string[] = []
  for (const [id, member] of group.members) {
    if (member.lifecycleState !== 'InService') continue
    inService++
    const instance = region.instances.get(id)
    if (instance?.lifecycle === 'spot') {
      spot++
      const partner = instance.tags[TAG_REPLACING_INSTANCE]
      if (partner !== undefined) spotPartners.push(partner)
    } else if (member.protectedFromScaleIn || instance?.terminationProtected) protectedOnDemandIds.push(id)
  }
  // The minimum is a share of the group's own size: a replacement beside its in-service partner (an open
  // swap's +1) does not count in it, as in the engine (core/plan/planner.ts).
  const besidePartner = spotPartners.filter(
    (id) => group.members.get(id)?.lifecycleState === 'InService',
  ).length
  return {
    desired: group.desiredCapacity,
    minSize: group.minSize,
    maxSize: group.maxSize,
    inService,
    spot,
    onDemand: inService - spot,
    requiredOnDemand: minOnDemandCount(readTags(config, group).config, inService - besidePartner, undefined),
    protectedOnDemand: protectedOnDemandIds.length,
    protectedOnDemandIds,
    managed: readTags(config, group).managed,
  }
}

/** Instance types of the group's in-service members, with counts, sorted by type. */
export const memberTypes = (region: SimRegion, group: SimGroup): Record<string, number> => {
  const counts = new Map<string, number>()
  for (const [id, member] of group.members) {
    if (member.lifecycleState !== 'InService') continue
    const type = region.instances.get(id)?.type
    if (type !== undefined) counts.set(type, (counts.get(type) ?? 0) + 1)
  }
  return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}
