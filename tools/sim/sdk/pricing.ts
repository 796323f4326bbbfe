/**
 * The Pricing API's GetProducts, answered from the region's on-demand prices (market.ts, the embedded
 * table) as price list items: the adapter parses them into the same prices with source `pricing-api`,
 * which is what the simulator reported before it ran the adapter. Failing the request instead would make
 * every run log the fallback and report source `embedded`, and would leave the adapter's parsing and paging
 * of GetProducts unexercised.
 */
import type { Filter } from '@aws-sdk/client-pricing'
import type { PricingApi } from '../../../lambdas/aws/cloud.ts'
import { API_LIMITS } from '../../../lambdas/aws/limits.ts'
import { simAwsError } from '../errors.ts'
import type { PageRule } from './paging.ts'
import { answer, type SimApiContext } from './request.ts'

const PRODUCTS: PageRule = {
  operation: 'GetProducts',
  defaultSize: API_LIMITS.getProductsMaxResults.max,
  ...API_LIMITS.getProductsMaxResults,
  invalidCode: 'InvalidParameterException',
}

/** The price list's operatingSystem back to the spot product description the market is keyed by. */
const PLATFORMS: Readonly<Record<string, string>> = {
  Linux: 'Linux/UNIX',
  RHEL: 'Red Hat Enterprise Linux',
  SUSE: 'SUSE Linux',
  Windows: 'Windows',
}

const term = (filters: readonly Filter[], field: string): string | undefined =>
  filters.find((f) => f.Field === field)?.Value

/** One price list item as GetProducts returns it: a JSON string (only the fields the adapter reads). */
const priceItem = (instanceType: string, region: string, usd: number): string =>
  JSON.stringify({
    product: { attributes: { instanceType, regionCode: region } },
    terms: {
      OnDemand: {
        [`${instanceType}.JRTCKXETXF`]: {
          priceDimensions: {
            [`${instanceType}.6YS6EN2CT7`]: { unit: 'Hrs', pricePerUnit: { USD: String(usd) } },
          },
        },
      },
    },
  })

export const pricing = (ctx: SimApiContext): PricingApi => ({
  getProducts: (input) =>
    answer(ctx, 'pricing:GetProducts', () => {
      const filters = input.Filters ?? []
      const region = term(filters, 'regionCode')
      const os = term(filters, 'operatingSystem')
      const platform = os === undefined ? undefined : PLATFORMS[os]
      if (input.ServiceCode !== 'AmazonEC2' || region !== ctx.region.name || platform === undefined)
        throw simAwsError(
          'InvalidParameterException',
          400,
          'the simulator prices EC2 in its own region by operatingSystem only',
        )
      const page = ctx.listings.page(
        PRODUCTS,
        { maxResults: input.MaxResults, nextToken: input.NextToken },
        () => [...ctx.region.market.onDemandPrices(platform)],
      )
      return {
        FormatVersion: 'aws_v1',
        PriceList: page.items.map(([type, usd]) => priceItem(type, region, usd)),
        NextToken: page.nextToken,
        $metadata: {},
      }
    }),
})
