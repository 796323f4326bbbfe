/** What can be bought and at what spot price: the instance type catalog and current spot prices. */
import type { Catalog, InstanceTypeInfo, SpotPrice } from '../core/types.ts'
import type { AwsContext } from './context.ts'
import { toInstanceTypeInfo, toSpotPrice } from './convert-ec2.ts'
import { INSTANCE_TYPES_PAGE_SIZE, SPOT_PRICES_PAGE_SIZE } from './limits.ts'
import { collectPages } from './paginate.ts'

const loadCatalog = async (ctx: AwsContext): Promise<Catalog> => {
  const types = await collectPages(async (nextToken) => {
    const page = await ctx.call('ec2:DescribeInstanceTypes', () =>
      ctx.ec2.describeInstanceTypes({ MaxResults: INSTANCE_TYPES_PAGE_SIZE, NextToken: nextToken }),
    )
    return { items: page.InstanceTypes ?? [], nextToken: page.NextToken }
  })
  const catalog = new Map<string, InstanceTypeInfo>()
  for (const type of types) {
    const info = toInstanceTypeInfo(type)
    if (info.name) catalog.set(info.name, info)
  }
  return catalog
}

/** Instance types change a few times a year; a warm container reuses its catalog (CATALOG_CACHE_TTL_MS). */
export const describeInstanceTypes = (ctx: AwsContext): Promise<Catalog> =>
  ctx.caches.catalog.get(ctx.region, ctx.now(), () => loadCatalog(ctx))

/**
 * The price in effect at `now` for every pool of one product description, via the ProductDescriptions
 * parameter rather than a `product-description` filter (which moto answers with no rows at all).
 * Rows are returned as listed; the core picks the latest per pool.
 */
export const describeSpotPrices = (
  ctx: AwsContext,
  productDescription: string,
  now: Date,
): Promise<SpotPrice[]> =>
  collectPages(async (nextToken) => {
    const page = await ctx.call('ec2:DescribeSpotPriceHistory', () =>
      ctx.ec2.describeSpotPriceHistory({
        StartTime: now,
        ProductDescriptions: [productDescription],
        MaxResults: SPOT_PRICES_PAGE_SIZE,
        NextToken: nextToken,
      }),
    )
    // A loop, not flatMap: a region lists thousands of rows every run, and flatMap's generic path was
    // most of the adapter's cost under the simulator's profile.
    const items: SpotPrice[] = []
    for (const row of page.SpotPriceHistory ?? []) {
      const price = toSpotPrice(row)
      if (price !== undefined) items.push(price)
    }
    return { items, nextToken: page.NextToken }
  })
