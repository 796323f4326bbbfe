/**
 * A run's selections, shared by its groups: a selection depends only on type, zone, the spot prices and
 * the selection settings, not on the group, so the groups of a run that agree on the settings share one.
 */

import type { GroupConfig } from '../config/config.ts'
import type { InstanceTypeInfo } from '../types.ts'
import { memoized, newMap } from './memo.ts'
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

/** The settings a selection depends on; groups that agree on them share selections. */
const settingsKeys = new WeakMap<GroupConfig, string>()

const settingsKeyOf = (config: GroupConfig): string =>
  JSON.stringify([
    config.allowedInstanceTypes,
    config.disallowedInstanceTypes,
    config.onDemandPriceMultiplier,
    config.prioritizedInstanceTypesBias,
    config.allowXenToNitro,
    config.allowGpuModelChange,
    config.allowCpuVendorChange,
    config.allowGenerationChange,
  ])

interface SettingsIndex {
  readonly cache: Map<string, Selection>
  readonly config: GroupConfig
  readonly settingsKey: string
  readonly byZone: Map<string, Map<string, Selection>>
}

/**
 * The index of `cache` for one group's settings, the last one asked for remembered: a group asks a dozen
 * times in a row (each launch, each member's projected saving), otherwise each time through two
 * WeakMaps. It keeps the last run's cache alive until the next run asks, as the other last-value memos do.
 */
let lastIndex: SettingsIndex | undefined
const indexOf = (cache: Map<string, Selection>, config: GroupConfig): SettingsIndex => {
  if (lastIndex?.cache !== cache || lastIndex.config !== config) {
    const settingsKey = memoized(settingsKeys, config, settingsKeyOf)
    const byZone = memoized(memoized(cacheIndexes, cache, newMap), settingsKey, newMap)
    lastIndex = { cache, config, settingsKey, byZone }
  }
  return lastIndex
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
  const cache = input.selectionCache ?? memoized(ownCaches, input, newMap)
  const { settingsKey, byZone } = indexOf(cache, config)
  const byType = memoized(byZone, zone, newMap)
  let selection = byType.get(baseType)
  if (selection === undefined) {
    // Not memoized() with a closure: capturing the arguments would cost a context on every call, hit or not.
    const key = `${baseType}|${zone}|${settingsKey}`
    selection = cache.get(key)
    if (selection === undefined) {
      selection = selectCandidates(
        input.catalog,
        { original, zone, config, spotPrices: input.spotPrices, originalOnDemandPrice: onDemandPrice },
        meter,
      )
      cache.set(key, selection)
    }
    byType.set(baseType, selection)
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
