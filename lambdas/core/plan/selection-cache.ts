/**
 * A run's selections, shared by its groups: a selection depends only on type, zone, the spot prices and
 * the selection settings, not on the group, so the groups of a run that agree on the settings share one.
 */

import type { GroupConfig } from '../config/config.ts'
import type { InstanceTypeInfo } from '../types.ts'
import type { PlanInput } from './plan-input.ts'
import { type Selection, selectCandidates } from './selection.ts'
import type { WorkMeter } from './work-budget.ts'

/** Per-run caches of selections when the caller keeps none (tests, one-off plans). */
const ownCaches = new WeakMap<PlanInput, Map<string, Selection>>()

/**
 * A run's selection cache indexed by settings key, zone and type, kept beside the cache it indexes (and
 * dropped with it). Every instance of a large run asks (launches, liveness savings, moves), and a lookup by
 * `type|zone|settings` builds and hashes a new string of a hundred characters each time; these keys are
 * strings already built and hashed. Each entry is the cache's own entry for the same key.
 */
const cacheIndexes = new WeakMap<Map<string, Selection>, Map<string, Map<string, Map<string, Selection>>>>()

const indexOf = (
  cache: Map<string, Selection>,
  settingsKey: string,
  zone: string,
): Map<string, Selection> => {
  let bySettings = cacheIndexes.get(cache)
  if (bySettings === undefined) {
    bySettings = new Map()
    cacheIndexes.set(cache, bySettings)
  }
  let byZone = bySettings.get(settingsKey)
  if (byZone === undefined) {
    byZone = new Map()
    bySettings.set(settingsKey, byZone)
  }
  let byType = byZone.get(zone)
  if (byType === undefined) {
    byType = new Map()
    byZone.set(zone, byType)
  }
  return byType
}

/** The selection for a type in a zone, shared by the groups of a run that agree on the settings. */
export const cachedSelection = (
  input: PlanInput,
  config: GroupConfig,
  baseType: string,
  original: InstanceTypeInfo,
  zone: string,
  onDemandPrice: number,
  meter?: WorkMeter,
): Selection => {
  let cache = input.selectionCache ?? ownCaches.get(input)
  if (cache === undefined) {
    cache = new Map()
    ownCaches.set(input, cache)
  }
  const settingsKey = selectionSettingsKey(config)
  const index = indexOf(cache, settingsKey, zone)
  let selection = index.get(baseType)
  if (selection === undefined) {
    const cacheKey = `${baseType}|${zone}|${settingsKey}`
    selection = cache.get(cacheKey)
    if (selection === undefined) {
      selection = selectCandidates(
        input.catalog,
        { original, zone, config, spotPrices: input.spotPrices, originalOnDemandPrice: onDemandPrice },
        meter,
      )
      cache.set(cacheKey, selection)
    }
    index.set(baseType, selection)
  }
  return selection
}

/**
 * What replacing an on-demand instance of `type` in `zone` would save per hour at today's prices: its
 * on-demand price less the cheapest compatible spot price there; undefined when nothing can replace it.
 */
export const projectedSaving = (
  input: PlanInput,
  config: GroupConfig,
  type: string,
  zone: string,
  meter?: WorkMeter,
): number | undefined => {
  const original = input.catalog.get(type)
  const onDemandPrice = input.onDemandPrices.get(type)
  if (original === undefined || onDemandPrice === undefined) return undefined
  const first = cachedSelection(input, config, type, original, zone, onDemandPrice, meter).ranked[0]
  return first === undefined ? undefined : Math.max(0, onDemandPrice - first.spotPriceUsd)
}

const settingsKeys = new WeakMap<GroupConfig, string>()

/** The settings a selection depends on; groups that agree on them share selections. */
const selectionSettingsKey = (config: GroupConfig): string => {
  let key = settingsKeys.get(config)
  if (key === undefined) {
    key = settingsKeyOf(config)
    settingsKeys.set(config, key)
  }
  return key
}

const settingsKeyOf = (config: GroupConfig): string =>
  JSON.stringify([
    config.allowedInstanceTypes,
    config.disallowedInstanceTypes,
    config.onDemandPriceMultiplier,
    config.prioritizedInstanceTypesBias,
  ])
