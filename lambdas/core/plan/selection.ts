/**
 * Which spot types may replace an instance, and in what order: every catalogue type priced in the zone
 * runs through the filters (filters.ts), and every rejected candidate records the first filter that
 * refused it, so "why not c6i.large?" has an answer.
 */

import type { GroupConfig } from '../config/config.ts'
import type { Catalog, InstanceTypeInfo } from '../types.ts'
import { poolKey } from '../types.ts'
import { type CandidateFilter, FILTERS, generationOf, type SelectionContext } from './filters.ts'
import { spotPricesIn } from './prices.ts'
import type { WorkMeter } from './work-budget.ts'

export interface RankedCandidate {
  readonly instanceType: string
  readonly zone: string
  /** poolKey(instanceType, zone), built once here: launches look pools up for every candidate they weigh. */
  readonly pool: string
  readonly spotPriceUsd: number
  readonly info: InstanceTypeInfo
}

export interface Selection {
  readonly ranked: readonly RankedCandidate[]
  /** Candidate type → name of the filter that rejected it. */
  readonly rejected: ReadonlyMap<string, string>
}

/** Locale-independent order, so rankings are the same on every machine. */
export const compareCodePoints = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

export const compareCandidates =
  (bias: GroupConfig['prioritizedInstanceTypesBias'], original: InstanceTypeInfo) =>
  (a: RankedCandidate, b: RankedCandidate): number => {
    if (bias === 'prefer_newer_generations') {
      const byGeneration = generationOf(b.instanceType) - generationOf(a.instanceType)
      if (byGeneration !== 0) return byGeneration
    }
    return (
      a.spotPriceUsd - b.spotPriceUsd ||
      a.info.vcpus - original.vcpus - (b.info.vcpus - original.vcpus) ||
      a.info.memoryMiB - b.info.memoryMiB ||
      compareCodePoints(a.instanceType, b.instanceType)
    )
  }

/** The filters that read prices, by position: checked on every selection. */
const PRICE_FILTERS: readonly number[] = FILTERS.flatMap((filter, i) => (filter.readsPrice ? [i] : []))
/** Stands for "no filter refused" among positions: one past the last filter. */
const NONE = FILTERS.length

/** What the filters that read no price depend on besides the candidate and the original type. */
const listKeys = new WeakMap<GroupConfig, string>()
const listKeyOf = (config: GroupConfig): string => {
  let key = listKeys.get(config)
  if (key === undefined) {
    key = JSON.stringify([config.allowedInstanceTypes, config.disallowedInstanceTypes])
    listKeys.set(config, key)
  }
  return key
}

type Verdicts = Map<InstanceTypeInfo, number>

/**
 * Remembered verdicts of the filters that read no price: catalogue → original type → allow and deny
 * lists → candidate → position of the first of them that refuses it (NONE when none does). Weak on the
 * catalogue and the original, so a new catalogue starts afresh and the old one's verdicts go with it.
 */
const staticVerdicts = new WeakMap<Catalog, WeakMap<InstanceTypeInfo, Map<string, Verdicts>>>()

const verdictsFor = (catalog: Catalog, ctx: SelectionContext): Verdicts => {
  let byOriginal = staticVerdicts.get(catalog)
  if (byOriginal === undefined) {
    byOriginal = new WeakMap()
    staticVerdicts.set(catalog, byOriginal)
  }
  let byLists = byOriginal.get(ctx.original)
  if (byLists === undefined) {
    byLists = new Map()
    byOriginal.set(ctx.original, byLists)
  }
  const key = listKeyOf(ctx.config)
  let verdicts = byLists.get(key)
  if (verdicts === undefined) {
    verdicts = new Map()
    byLists.set(key, verdicts)
  }
  return verdicts
}

/** Position of the first filter that reads no price and refuses `candidate`, NONE when none does. */
const staticVerdict = (candidate: InstanceTypeInfo, ctx: SelectionContext, verdicts: Verdicts): number => {
  let verdict = verdicts.get(candidate)
  if (verdict === undefined) {
    verdict = NONE
    for (let i = 0; i < FILTERS.length; i++) {
      const filter = FILTERS[i] as CandidateFilter
      if (!filter.readsPrice && !filter.keep(candidate, ctx, undefined)) {
        verdict = i
        break
      }
    }
    verdicts.set(candidate, verdict)
  }
  return verdict
}

/**
 * Position of the first filter that refuses `candidate` (NONE when it passes them all): the same answer
 * as running FILTERS in order, with the price-free verdicts remembered. Charges the meter one unit per
 * filter that order would have run, so a group's budget is spent the same however much is remembered.
 */
const firstRefusing = (
  candidate: InstanceTypeInfo,
  ctx: SelectionContext,
  spotPrice: number | undefined,
  verdicts: Verdicts,
  meter?: WorkMeter,
): number => {
  const verdict = staticVerdict(candidate, ctx, verdicts)
  let refusedAt = verdict
  for (const i of PRICE_FILTERS) {
    if (i > verdict) break
    if (!(FILTERS[i] as CandidateFilter).keep(candidate, ctx, spotPrice)) {
      refusedAt = i
      break
    }
  }
  meter?.charge(refusedAt === NONE ? NONE : refusedAt + 1)
  return refusedAt
}

/** Candidate type → the first filter that refused it, for every refused catalogue type. */
const rejections = (catalog: Catalog, ctx: SelectionContext): Map<string, string> => {
  const rejected = new Map<string, string>()
  const prices = spotPricesIn(ctx.spotPrices, ctx.zone)
  const verdicts = verdictsFor(catalog, ctx)
  for (const candidate of catalog.values()) {
    const refusedAt = firstRefusing(candidate, ctx, prices.get(candidate.name), verdicts)
    if (refusedAt !== NONE) rejected.set(candidate.name, (FILTERS[refusedAt] as CandidateFilter).name)
  }
  return rejected
}

/**
 * Runs the catalogue types through the filters and ranks the survivors. Only types priced in the zone can
 * pass `spot-offered`, so only they (a few hundred of the catalogue's 1,300) are run through the filters
 * here; the order they come in does not matter, the ranking decides it. Rejections, every type included,
 * are worked out when first asked for: most selections are never asked why, and the filters are pure.
 */
export const selectCandidates = (catalog: Catalog, ctx: SelectionContext, meter?: WorkMeter): Selection => {
  const ranked: RankedCandidate[] = []
  const verdicts = verdictsFor(catalog, ctx)
  for (const [type, spotPriceUsd] of spotPricesIn(ctx.spotPrices, ctx.zone)) {
    // Catalogues are keyed by type name.
    const candidate = catalog.get(type)
    if (candidate === undefined || firstRefusing(candidate, ctx, spotPriceUsd, verdicts, meter) !== NONE)
      continue
    ranked.push({
      instanceType: candidate.name,
      zone: ctx.zone,
      pool: poolKey(candidate.name, ctx.zone),
      spotPriceUsd,
      info: candidate,
    })
  }
  ranked.sort(compareCandidates(ctx.config.prioritizedInstanceTypesBias, ctx.original))
  let rejected: Map<string, string> | undefined
  return {
    ranked,
    get rejected() {
      rejected ??= rejections(catalog, ctx)
      return rejected
    },
  }
}
