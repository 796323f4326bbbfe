/**
 * The instance type `spotswap verify` builds its group from: the cheapest type the region prices on
 * demand for Linux that spotswap would replace with spot, i.e. for which the replacer's own selection
 * (lambdas/core/plan/selection.ts) ranks at least two spot candidates in the group's zones.
 */
import type { GroupConfig } from '../../lambdas/core/config/config.ts'
import { selectCandidates } from '../../lambdas/core/plan/selection.ts'
import type { Catalog, InstanceTypeInfo, SpotPriceBook } from '../../lambdas/core/types.ts'

export interface TypeChoiceInput {
  readonly catalog: Catalog
  /** On-demand USD/hour by type (Linux/UNIX). */
  readonly onDemandPrices: ReadonlyMap<string, number>
  readonly spotPrices: SpotPriceBook
  readonly zones: readonly string[]
  readonly config: GroupConfig
}

export interface TypeChoice {
  readonly instanceType: string
  readonly onDemandPriceUsd: number
  /** The zones where the type itself is offered as spot: the group's subnets are kept to these. */
  readonly zones: readonly string[]
  /** Distinct spot candidates the replacer would rank for it, cheapest first. */
  readonly candidates: readonly string[]
}

/** Runs the launch template's image (x86_64, HVM) on a plain instance: no accelerator, no bare metal. */
const plain = (info: InstanceTypeInfo): boolean =>
  info.architectures.includes('x86_64') &&
  info.virtualizationTypes.includes('hvm') &&
  info.spotSupported &&
  !info.bareMetal &&
  info.accelerator === null

/** Enough to retire both on-demand members and move an interrupted one to another pool. */
const MIN_CANDIDATES = 2

export const chooseVerifyType = (input: TypeChoiceInput): TypeChoice | undefined => {
  const priced = [...input.onDemandPrices]
    .filter(([type]) => {
      const info = input.catalog.get(type)
      return info !== undefined && plain(info)
    })
    .sort(([a, pa], [b, pb]) => pa - pb || (a < b ? -1 : a > b ? 1 : 0))
  for (const [type, price] of priced) {
    const original = input.catalog.get(type) as InstanceTypeInfo
    const zones = input.zones.filter((zone) => input.spotPrices.get(zone)?.has(type))
    const candidates = new Set<string>()
    for (const zone of zones) {
      const selection = selectCandidates(input.catalog, {
        original,
        zone,
        config: input.config,
        spotPrices: input.spotPrices,
        originalOnDemandPrice: price,
      })
      for (const ranked of selection.ranked) candidates.add(ranked.instanceType)
    }
    if (candidates.size >= MIN_CANDIDATES)
      return { instanceType: type, onDemandPriceUsd: price, zones, candidates: [...candidates] }
  }
  return undefined
}
