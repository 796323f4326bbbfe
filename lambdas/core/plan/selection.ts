/**
 * Which spot types may replace an instance, and in what order. A pipeline of named filters: every
 * rejected candidate records the first filter that refused it, so "why not c6i.large?" has an answer.
 */

import type { GroupConfig } from '../config/config.ts'
import { matchesGlob } from '../config/glob.ts'
import type { Catalog, InstanceTypeInfo, SpotPriceBook } from '../types.ts'
import { poolKey } from '../types.ts'
import { spotPricesIn } from './prices.ts'
import type { WorkMeter } from './work-budget.ts'

export interface SelectionContext {
  readonly original: InstanceTypeInfo
  readonly zone: string
  readonly config: GroupConfig
  readonly spotPrices: SpotPriceBook
  /** On-demand USD/hour of the original type; undefined when unknown (then nothing passes `price`). */
  readonly originalOnDemandPrice: number | undefined
}

export interface CandidateFilter {
  readonly name: string
  readonly keep: (candidate: InstanceTypeInfo, ctx: SelectionContext) => boolean
}

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

/** The candidate's spot price in the selection's zone; undefined when the pool has none. */
const spotPriceOf = (candidate: InstanceTypeInfo, ctx: SelectionContext): number | undefined =>
  spotPricesIn(ctx.spotPrices, ctx.zone).get(candidate.name)

// The filters run for every catalogue type of every selection (a few hundred thousand times in a large
// run): their helpers take no arrow function closing over the candidate, which V8 would allocate each time.
const isArm = (architecture: string): boolean => architecture === 'arm64' || architecture === 'arm64_mac'

const archFamily = (info: InstanceTypeInfo): string => (info.architectures.some(isArm) ? 'arm64' : 'x86_64')

const sharesAny = (offered: readonly string[], needed: readonly string[]): boolean => {
  for (const value of offered) if (needed.includes(value)) return true
  return false
}

/**
 * A pattern names types when it spells out their family (`t3.*`, `g4ad.xlarge`). Patterns with a wildcard
 * in the family (`*`, `*.large`, `t*`) only shape the list: a size filter such as `*.large` must not
 * let a t3.large replace an m5.large.
 */
const namesFamily = (pattern: string): boolean => {
  const family = pattern.split('.')[0] ?? ''
  return pattern !== 'current' && family.length > 0 && !/[*?]/.test(family)
}

/**
 * A type named in the allow list is an explicit choice: it may cross the performance-class filters
 * (burstable, accelerators, previous generation).
 */
const explicitlyAllowed = (candidate: InstanceTypeInfo, ctx: SelectionContext): boolean =>
  ctx.config.allowedInstanceTypes.some(
    (pattern) => namesFamily(pattern) && matchesGlob(candidate.name, pattern),
  )

/** The list as it is when it names no `current` (no copy: this runs for most catalogue types). */
const expandCurrent = (patterns: readonly string[], originalType: string): readonly string[] =>
  patterns.includes('current')
    ? patterns.map((pattern) => (pattern === 'current' ? originalType : pattern))
    : patterns

const storageFits = (candidate: InstanceTypeInfo, original: InstanceTypeInfo): boolean => {
  const needed = original.instanceStorage
  if (!needed || needed.disks === 0) return true
  const offered = candidate.instanceStorage
  if (!offered) return false
  return (
    offered.disks >= needed.disks && offered.diskSizeGb >= needed.diskSizeGb && (!needed.ssd || offered.ssd)
  )
}

const acceleratorFits = (candidate: InstanceTypeInfo, original: InstanceTypeInfo): boolean => {
  const want = original.accelerator
  const have = candidate.accelerator
  if (!want) return !have
  return (
    have !== null &&
    have.kind === want.kind &&
    have.count >= want.count &&
    have.manufacturer.toLowerCase() === want.manufacturer.toLowerCase()
  )
}

export const FILTERS: readonly CandidateFilter[] = [
  {
    name: 'spot-offered',
    keep: (c, ctx) => c.spotSupported && spotPriceOf(c, ctx) !== undefined,
  },
  { name: 'architecture', keep: (c, ctx) => archFamily(c) === archFamily(ctx.original) },
  {
    name: 'virtualization',
    keep: (c, ctx) => sharesAny(c.virtualizationTypes, ctx.original.virtualizationTypes),
  },
  { name: 'vcpus', keep: (c, ctx) => c.vcpus >= ctx.original.vcpus },
  { name: 'memory', keep: (c, ctx) => c.memoryMiB >= ctx.original.memoryMiB },
  { name: 'instance-storage', keep: (c, ctx) => storageFits(c, ctx.original) },
  { name: 'ebs-throughput', keep: (c, ctx) => c.ebsThroughputMBps >= ctx.original.ebsThroughputMBps },
  // Bare metal both ways: metal is not needed by virtualised workloads, and is needed by those that
  // run their own hypervisor or use hardware features a virtualised type hides.
  { name: 'bare-metal', keep: (c, ctx) => c.bareMetal === ctx.original.bareMetal },
  {
    name: 'burstable',
    keep: (c, ctx) => !c.burstable || ctx.original.burstable || explicitlyAllowed(c, ctx),
  },
  {
    name: 'accelerator',
    keep: (c, ctx) => acceleratorFits(c, ctx.original) || explicitlyAllowed(c, ctx),
  },
  {
    // Previous-generation types only replace previous-generation ones, and never with an older generation.
    name: 'generation',
    keep: (c, ctx) =>
      c.currentGeneration ||
      (!ctx.original.currentGeneration && generationOf(c.name) >= generationOf(ctx.original.name)) ||
      explicitlyAllowed(c, ctx),
  },
  {
    name: 'allow-list',
    keep: (c, ctx) =>
      ctx.config.allowedInstanceTypes.length === 0 ||
      expandCurrent(ctx.config.allowedInstanceTypes, ctx.original.name).some((p) => matchesGlob(c.name, p)),
  },
  {
    name: 'deny-list',
    keep: (c, ctx) =>
      !expandCurrent(ctx.config.disallowedInstanceTypes, ctx.original.name).some((p) =>
        matchesGlob(c.name, p),
      ),
  },
  {
    name: 'price',
    keep: (c, ctx) => {
      const spot = spotPriceOf(c, ctx)
      return (
        spot !== undefined &&
        ctx.originalOnDemandPrice !== undefined &&
        spot < ctx.originalOnDemandPrice * ctx.config.onDemandPriceMultiplier
      )
    },
  },
]

/** Locale-independent order, so rankings are the same on every machine. */
export const compareCodePoints = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** `m5.large` → 5, `c6gn.xlarge` → 6; 0 when the name has no generation digit. */
export const generationOf = (instanceType: string): number => {
  const match = /^[a-z]+(\d+)/.exec(instanceType)
  return match?.[1] ? Number(match[1]) : 0
}

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

/** `FILTERS.find` without a closure per candidate: this runs for every catalogue type of every selection. */
const firstRefusing = (
  candidate: InstanceTypeInfo,
  ctx: SelectionContext,
  meter?: WorkMeter,
): CandidateFilter | undefined => {
  for (let i = 0; i < FILTERS.length; i++) {
    const filter = FILTERS[i] as CandidateFilter
    if (!filter.keep(candidate, ctx)) {
      meter?.charge(i + 1)
      return filter
    }
  }
  meter?.charge(FILTERS.length)
  return undefined
}

/** Candidate type → the first filter that refused it, for every refused catalogue type. */
const rejections = (catalog: Catalog, ctx: SelectionContext): Map<string, string> => {
  const rejected = new Map<string, string>()
  for (const candidate of catalog.values()) {
    const refusedBy = firstRefusing(candidate, ctx)
    if (refusedBy) rejected.set(candidate.name, refusedBy.name)
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
  for (const type of spotPricesIn(ctx.spotPrices, ctx.zone).keys()) {
    // Catalogues are keyed by type name.
    const candidate = catalog.get(type)
    if (candidate === undefined || firstRefusing(candidate, ctx, meter) !== undefined) continue
    ranked.push({
      instanceType: candidate.name,
      zone: ctx.zone,
      pool: poolKey(candidate.name, ctx.zone),
      spotPriceUsd: spotPriceOf(candidate, ctx) ?? Number.POSITIVE_INFINITY,
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
