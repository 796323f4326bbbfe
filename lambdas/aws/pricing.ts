/**
 * On-demand prices from the Pricing API, with the embedded snapshot as the fallback whenever the API
 * cannot answer (no permission, no network, an emulator without it). Never throws: a run without
 * live prices still knows roughly what on-demand costs.
 */
import type { Filter } from '@aws-sdk/client-pricing'
import { productDescriptionOf } from '../core/platform.ts'
import type { OnDemandPrices } from '../core/types.ts'
import { embeddedOnDemandPrices } from '../data/on-demand-prices.ts'
import type { AwsContext } from './context.ts'
import { errorCode, errorMessage } from './errors.ts'
import { PRICING_PAGE_SIZE } from './limits.ts'
import { collectPages } from './paginate.ts'

/**
 * The EC2 price list's operatingSystem for each spot product description. Every licence-included row,
 * Windows too, has licenseModel `No License required` (the other value is `Bring your own license`);
 * `License Included` is RDS's spelling and matches no EC2 product. RHEL with HA is its own operatingSystem,
 * SQL Server editions a preInstalledSw other than `NA`, so neither is picked up
 * (https://docs.aws.amazon.com/cost-management/latest/userguide/reading-service-price-list-file-for-services.html;
 * the answers recorded in test/aws/fixtures/pricing-products.ts show the rows next to each one).
 */
const PRICING_OS: Readonly<Record<string, string>> = {
  'Linux/UNIX': 'Linux',
  'Red Hat Enterprise Linux': 'RHEL',
  'SUSE Linux': 'SUSE',
  Windows: 'Windows',
}

const LICENCE_INCLUDED = 'No License required'

const termMatch = (Field: string, Value: string): Filter => ({ Type: 'TERM_MATCH', Field, Value })

/** Shared-tenancy, no pre-installed software, plain (not capacity-reservation) usage in one region. */
export const pricingFilters = (region: string, platform: string): Filter[] => {
  return [
    termMatch('regionCode', region),
    termMatch('operatingSystem', PRICING_OS[productDescriptionOf(platform)] ?? 'Linux'),
    termMatch('tenancy', 'Shared'),
    termMatch('preInstalledSw', 'NA'),
    termMatch('capacitystatus', 'Used'),
    termMatch('licenseModel', LICENCE_INCLUDED),
  ]
}

interface PriceListItem {
  readonly product?: { readonly attributes?: { readonly instanceType?: string } }
  readonly terms?: {
    readonly OnDemand?: Readonly<
      Record<string, { readonly priceDimensions?: Readonly<Record<string, PriceDimension>> }>
    >
  }
}

interface PriceDimension {
  readonly unit?: string
  readonly pricePerUnit?: { readonly USD?: string }
}

/** Items arrive as JSON strings (or the SDK's String wrappers around them). */
const parseItem = (item: unknown): PriceListItem | undefined => {
  try {
    if (typeof item === 'string' || item instanceof String) return JSON.parse(String(item)) as PriceListItem
    return typeof item === 'object' && item !== null ? (item as PriceListItem) : undefined
  } catch {
    return undefined
  }
}

/** The cheapest positive hourly price among the item's on-demand terms (loops: a region lists ~800 items). */
const hourlyUsd = (item: PriceListItem): number | undefined => {
  let cheapest: number | undefined
  for (const term of Object.values(item.terms?.OnDemand ?? {}))
    for (const dimension of Object.values(term.priceDimensions ?? {})) {
      if (dimension.unit !== 'Hrs') continue
      const price = Number(dimension.pricePerUnit?.USD)
      if (Number.isFinite(price) && price > 0 && (cheapest === undefined || price < cheapest))
        cheapest = price
    }
  return cheapest
}

/**
 * USD per hour by instance type. Zero-priced rows (reservation placeholders) are skipped; if a type
 * still appears twice, the cheaper row wins, as that is the price anyone would pay.
 */
export const parsePriceList = (priceList: readonly unknown[]): Map<string, number> => {
  const prices = new Map<string, number>()
  for (const raw of priceList) {
    const item = parseItem(raw)
    const instanceType = item?.product?.attributes?.instanceType
    const price = item === undefined ? undefined : hourlyUsd(item)
    if (!instanceType || price === undefined) continue
    const known = prices.get(instanceType)
    prices.set(instanceType, known === undefined ? price : Math.min(known, price))
  }
  return prices
}

const fetchFromPricingApi = async (ctx: AwsContext, platform: string): Promise<Map<string, number>> => {
  const filters = pricingFilters(ctx.region, platform)
  const items = await collectPages(async (nextToken) => {
    const page = await ctx.call('pricing:GetProducts', () =>
      ctx.pricing.getProducts({
        ServiceCode: 'AmazonEC2',
        Filters: filters,
        FormatVersion: 'aws_v1',
        MaxResults: PRICING_PAGE_SIZE,
        NextToken: nextToken,
      }),
    )
    const priceList: unknown = page.PriceList
    return { items: Array.isArray(priceList) ? (priceList as unknown[]) : [], nextToken: page.NextToken }
  })
  return parsePriceList(items)
}

const loadOnDemandPrices = async (ctx: AwsContext, platform: string): Promise<OnDemandPrices> => {
  let reason: Record<string, string>
  try {
    const prices = await fetchFromPricingApi(ctx, platform)
    if (prices.size > 0) return { prices, source: 'pricing-api' }
    reason = { error: 'NoProducts', detail: 'the Pricing API listed no prices for this region and platform' }
  } catch (error) {
    reason = { error: errorCode(error), detail: errorMessage(error) }
  }
  const fallback = embeddedOnDemandPrices(ctx.region, platform)
  // Logged once per container and region/platform: the result is cached like a live answer.
  ctx.logger.warn('On-demand prices are approximate: using the embedded snapshot', {
    region: ctx.region,
    platform,
    source: fallback.source,
    ...reason,
  })
  return fallback
}

export const onDemandPrices = (ctx: AwsContext, platform: string): Promise<OnDemandPrices> =>
  ctx.caches.onDemandPrices.get(`${ctx.region}/${productDescriptionOf(platform)}`, ctx.now(), () =>
    loadOnDemandPrices(ctx, platform),
  )
