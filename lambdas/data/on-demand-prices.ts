import { productDescriptionOf } from '../core/platform.ts'
import type { OnDemandPrices } from '../core/types.ts'
import table from './fixtures/on-demand-prices.json' with { type: 'json' }

/** Derived by scripts/derive-fixtures.py from the ec2instances.info catalogue (see README.md). */
type PriceTable = Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, number>>>>>>

const FALLBACK_REGION = 'us-east-1'

const pricesByRegion: PriceTable = table

/** Lazily built maps, one per region/platform, so repeated lookups share one map. */
const cache = new Map<string, ReadonlyMap<string, number>>()

const pricesFor = (region: string, productDescription: string): ReadonlyMap<string, number> => {
  const key = `${region}\u0000${productDescription}`
  let prices = cache.get(key)
  if (!prices) {
    prices = new Map(Object.entries(pricesByRegion[region]?.[productDescription] ?? {}))
    cache.set(key, prices)
  }
  return prices
}

/**
 * On-demand USD/hour per type for a region and platform, from the committed snapshot (us-east-1, August 2023).
 * Regions missing from the snapshot get the us-east-1 prices, marked `embedded-us-east-1` so callers know the
 * figures are approximate. `platform` may be a ProductDescription or any PlatformDetails variant.
 */
export const embeddedOnDemandPrices = (region: string, platform: string): OnDemandPrices => {
  const productDescription = productDescriptionOf(platform)
  const known = Object.hasOwn(pricesByRegion, region)
  return {
    prices: pricesFor(known ? region : FALLBACK_REGION, productDescription),
    source: known ? 'embedded' : 'embedded-us-east-1',
  }
}
