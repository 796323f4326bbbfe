/**
 * What `plan` read of the market while the replacer planned: spot prices by product description, on-demand
 * prices by platform, and the catalog. Recorded by the read-only port (read-only.ts) so plan can show the
 * prices of the candidates a launch offers, and the pre-flight check the vCPUs they need, without a
 * second read of its own.
 */
import type { Catalog, OnDemandPrices, SpotPrice } from '../../lambdas/core/types.ts'

export interface MarketSeen {
  readonly spotPrices: Map<string, readonly SpotPrice[]>
  readonly onDemandPrices: Map<string, OnDemandPrices>
  catalog: Catalog | undefined
}

export const emptyMarket = (): MarketSeen => ({
  spotPrices: new Map(),
  onDemandPrices: new Map(),
  catalog: undefined,
})

/** The latest spot price of a type in a zone, for one product description; undefined if none was read. */
export const spotPriceOf = (
  market: MarketSeen,
  productDescription: string,
  instanceType: string,
  zone: string,
): number | undefined => {
  let latest: SpotPrice | undefined
  for (const price of market.spotPrices.get(productDescription) ?? [])
    if (price.instanceType === instanceType && price.zone === zone)
      if (latest === undefined || price.timestamp > latest.timestamp) latest = price
  return latest?.priceUsd
}
