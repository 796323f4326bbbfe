/**
 * Which spot types may replace an instance, and in what order: every catalogue type priced in the zone
 * runs through the filters (filters.ts), and every rejected candidate records the first filter that
 * refused it, so "why not c6i.large?" has an answer.
 */

import type { GroupConfig } from '../config/config.ts'
import type { CandidateFlag, Catalog, InstanceTypeInfo } from '../types.ts'
import { poolKey } from '../types.ts'
import { type CandidateFilter, FILTERS, flagsOf, generationOf, type SelectionContext } from './filters.ts'
import { memoized, newMap } from './memo.ts'
import { spotPricesIn } from './prices.ts'
import type { WorkMeter } from './work-budget.ts'

export interface RankedCandidate {
  readonly instanceType: string
  readonly zone: string
  /** poolKey(instanceType, zone), built once here: launches look pools up for every candidate they weigh. */
  readonly pool: string
  readonly spotPriceUsd: number
  readonly info: InstanceTypeInfo
  /** What replacing the original with it changes that the filters let through (shown by `plan`). */
  readonly flags: readonly CandidateFlag[]
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
const listKeyOf = (config: GroupConfig): string =>
  JSON.stringify([
    config.allowedInstanceTypes,
    config.disallowedInstanceTypes,
    config.allowXenToNitro,
    config.allowGpuModelChange,
    config.allowCpuVendorChange,
    config.allowGenerationChange,
  ])

/** A catalogue type and the position of the first filter reading no price that refuses it (NONE: none). */
interface Verdict {
  readonly info: InstanceTypeInfo
  readonly at: number
}

/** By type name; null for a priced type the catalogue does not know. */
type Verdicts = Map<string, Verdict | null>

/**
 * Remembered verdicts of the filters that read no price: catalogue → original type → allow and deny
 * lists → candidate type → verdict. Weak on the catalogue, so a new catalogue starts afresh and the old
 * one's verdicts go with it. Allow and deny lists are tags anyone may write: past MAX_VERDICT_SETS sets
 * (originals × lists, tens of kB each) a catalogue's verdicts start afresh, so a container's memory stays
 * bounded however many lists its groups carry. Only the time to work them out again is lost.
 */
export const MAX_VERDICT_SETS = 500

interface CatalogVerdicts {
  /** Original type → allow and deny lists → verdicts. */
  readonly byOriginal: Map<InstanceTypeInfo, Map<string, Verdicts>>
  sets: number
}

const staticVerdicts = new WeakMap<Catalog, CatalogVerdicts>()
const noVerdicts = (): CatalogVerdicts => ({ byOriginal: new Map(), sets: 0 })

const verdictsFor = (catalog: Catalog, ctx: SelectionContext): Verdicts => {
  const remembered = memoized(staticVerdicts, catalog, noVerdicts)
  const key = memoized(listKeys, ctx.config, listKeyOf)
  let verdicts = remembered.byOriginal.get(ctx.original)?.get(key)
  if (verdicts === undefined) {
    if (remembered.sets >= MAX_VERDICT_SETS) {
      remembered.byOriginal.clear()
      remembered.sets = 0
    }
    verdicts = new Map()
    memoized(remembered.byOriginal, ctx.original, newMap).set(key, verdicts)
    remembered.sets++
  }
  return verdicts
}

/** The remembered verdict on catalogue type `type`, worked out the first time it is asked for. */
const verdictOn = (
  type: string,
  catalog: Catalog,
  ctx: SelectionContext,
  verdicts: Verdicts,
): Verdict | null => {
  let verdict = verdicts.get(type)
  if (verdict === undefined) {
    // Catalogues are keyed by type name.
    const info = catalog.get(type)
    verdict = null
    if (info !== undefined) {
      let at = NONE
      for (let i = 0; i < FILTERS.length; i++) {
        const filter = FILTERS[i] as CandidateFilter
        if (!filter.readsPrice && !filter.keep(info, ctx, undefined)) {
          at = i
          break
        }
      }
      verdict = { info, at }
    }
    verdicts.set(type, verdict)
  }
  return verdict
}

/**
 * Position of the first filter that refuses the candidate (NONE when it passes them all): the same answer
 * as running FILTERS in order, with the price-free verdict remembered.
 */
const firstRefusing = (verdict: Verdict, ctx: SelectionContext, spotPrice: number | undefined): number => {
  for (const i of PRICE_FILTERS) {
    if (i > verdict.at) break
    if (!(FILTERS[i] as CandidateFilter).keep(verdict.info, ctx, spotPrice)) return i
  }
  return verdict.at
}

/** Work units of one candidate: one per filter that running FILTERS in order would have asked. */
const unitsOf = (refusedAt: number): number => (refusedAt === NONE ? NONE : refusedAt + 1)

/** Candidate type → the first filter that refused it, for every refused catalogue type. */
const rejections = (catalog: Catalog, ctx: SelectionContext): Map<string, string> => {
  const rejected = new Map<string, string>()
  const prices = spotPricesIn(ctx.spotPrices, ctx.zone)
  const verdicts = verdictsFor(catalog, ctx)
  for (const type of catalog.keys()) {
    const verdict = verdictOn(type, catalog, ctx, verdicts)
    if (verdict === null) continue
    const refusedAt = firstRefusing(verdict, ctx, prices.get(type))
    if (refusedAt !== NONE) rejected.set(verdict.info.name, (FILTERS[refusedAt] as CandidateFilter).name)
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
  let units = 0
  for (const [type, spotPriceUsd] of spotPricesIn(ctx.spotPrices, ctx.zone)) {
    const verdict = verdictOn(type, catalog, ctx, verdicts)
    if (verdict === null) continue
    const refusedAt = firstRefusing(verdict, ctx, spotPriceUsd)
    units += unitsOf(refusedAt)
    if (refusedAt !== NONE) continue
    ranked.push({
      instanceType: verdict.info.name,
      zone: ctx.zone,
      pool: poolKey(verdict.info.name, ctx.zone),
      spotPriceUsd,
      info: verdict.info,
      flags: flagsOf(verdict.info, ctx.original),
    })
  }
  // Charged once: a selection has no effect but its answer, so the budget runs out in the same one.
  meter?.charge(units)
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
