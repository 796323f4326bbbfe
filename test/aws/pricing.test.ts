import { GetProductsCommand } from '@aws-sdk/client-pricing'
import { beforeEach, describe, expect, it } from 'vitest'
import { parsePriceList } from '../../lambdas/aws/pricing.ts'
import { PRICE_CACHE_TTL_MS } from '../../lambdas/core/constants.ts'
import { embeddedOnDemandPrices } from '../../lambdas/data/on-demand-prices.ts'
import { answerGetProducts, EXPECTED_M5_LARGE } from './fixtures/pricing-products.ts'
import { awsError, pricingMock, resetMocks, testAdapter } from './support.ts'

beforeEach(resetMocks)

/** One GetProducts PriceList entry as the API returns it: a JSON document in a string. */
const priceListEntry = (instanceType: string, sku: string, usdPerHour: string, extraTerm = {}): string =>
  JSON.stringify({
    product: {
      productFamily: 'Compute Instance',
      attributes: {
        instanceType,
        regionCode: 'eu-west-1',
        location: 'EU (Ireland)',
        operatingSystem: 'Linux',
        tenancy: 'Shared',
        preInstalledSw: 'NA',
        capacitystatus: 'Used',
        licenseModel: 'No License required',
        usagetype: `EU-BoxUsage:${instanceType}`,
        operation: 'RunInstances',
        servicecode: 'AmazonEC2',
      },
      sku,
    },
    serviceCode: 'AmazonEC2',
    terms: {
      OnDemand: {
        [`${sku}.JRTCKXETXF`]: {
          priceDimensions: {
            [`${sku}.JRTCKXETXF.6YS6EN2CT7`]: {
              unit: 'Hrs',
              endRange: 'Inf',
              description: `$${usdPerHour} per On Demand Linux ${instanceType} Instance Hour`,
              appliesTo: [],
              rateCode: `${sku}.JRTCKXETXF.6YS6EN2CT7`,
              beginRange: '0',
              pricePerUnit: { USD: usdPerHour },
            },
          },
          sku,
          effectiveDate: '2026-02-01T00:00:00Z',
          offerTermCode: 'JRTCKXETXF',
          termAttributes: {},
        },
        ...extraTerm,
      },
      Reserved: {
        [`${sku}.4NA7Y494T4`]: {
          priceDimensions: {
            [`${sku}.4NA7Y494T4.6YS6EN2CT7`]: { unit: 'Hrs', pricePerUnit: { USD: '0.0010000000' } },
          },
        },
      },
    },
    version: '20260214000530',
    publicationDate: '2026-02-14T00:05:30Z',
  })

describe('parsePriceList', () => {
  it('reads the hourly on-demand USD price of each type, ignoring reserved terms', () => {
    const prices = parsePriceList([
      priceListEntry('m5.large', 'QJ4KXFEM7B5ZPR8Y', '0.1070000000'),
      priceListEntry('t3.large', 'X4G6TXSCNNBMD6YQ', '0.0912000000'),
    ])
    expect([...prices]).toEqual([
      ['m5.large', 0.107],
      ['t3.large', 0.0912],
    ])
  })

  it('skips zero-priced rows and unreadable entries, and keeps the cheaper row for a repeated type', () => {
    const prices = parsePriceList([
      priceListEntry('m5.large', 'AAAAAAAAAAAAAAAA', '0.0000000000'),
      priceListEntry('m5.large', 'BBBBBBBBBBBBBBBB', '0.1200000000'),
      priceListEntry('m5.large', 'CCCCCCCCCCCCCCCC', '0.1070000000'),
      '{ not json',
      JSON.stringify({ product: { attributes: {} }, terms: {} }),
    ])
    expect([...prices]).toEqual([['m5.large', 0.107]])
  })

  it("accepts the SDK's String wrappers around the JSON", () => {
    const wrapped: unknown = Object(priceListEntry('t3.large', 'X4G6TXSCNNBMD6YQ', '0.0912000000'))
    expect(parsePriceList([wrapped]).get('t3.large')).toBe(0.0912)
  })
})

describe('onDemandPrices', () => {
  it('asks the Pricing API for shared-tenancy Linux prices in the region and reads every page', async () => {
    pricingMock
      .on(GetProductsCommand)
      .resolvesOnce({
        PriceList: [priceListEntry('m5.large', 'QJ4KXFEM7B5ZPR8Y', '0.1070000000')],
        NextToken: 'n2',
      })
      .resolvesOnce({ PriceList: [priceListEntry('t3.large', 'X4G6TXSCNNBMD6YQ', '0.0912000000')] })
    const { cloud, apiCalls, logged } = testAdapter('eu-west-1')

    const result = await cloud.onDemandPrices('Linux/UNIX')

    expect(result.source).toBe('pricing-api')
    expect(Object.fromEntries(result.prices)).toEqual({ 'm5.large': 0.107, 't3.large': 0.0912 })
    expect(pricingMock).toHaveReceivedNthCommandWith(GetProductsCommand, 1, {
      ServiceCode: 'AmazonEC2',
      Filters: [
        { Type: 'TERM_MATCH', Field: 'regionCode', Value: 'eu-west-1' },
        { Type: 'TERM_MATCH', Field: 'operatingSystem', Value: 'Linux' },
        { Type: 'TERM_MATCH', Field: 'tenancy', Value: 'Shared' },
        { Type: 'TERM_MATCH', Field: 'preInstalledSw', Value: 'NA' },
        { Type: 'TERM_MATCH', Field: 'capacitystatus', Value: 'Used' },
        { Type: 'TERM_MATCH', Field: 'licenseModel', Value: 'No License required' },
      ],
    })
    expect(pricingMock).toHaveReceivedNthCommandWith(GetProductsCommand, 2, { NextToken: 'n2' })
    expect(apiCalls).toEqual(['pricing:GetProducts', 'pricing:GetProducts'])
    expect(logged).toEqual([])
  })

  // Against the price list's own attribute values: each platform's filters find exactly its licence-included,
  // shared-tenancy row without pre-installed software, never BYOL, SQL Server, RHEL with HA or reservations.
  it.each(Object.entries(EXPECTED_M5_LARGE))(
    'finds the %s price in a recorded Pricing API answer',
    async (platform, usd) => {
      pricingMock.on(GetProductsCommand).callsFake((input) => answerGetProducts(input.Filters))
      const { cloud, logged } = testAdapter('us-east-1')
      const result = await cloud.onDemandPrices(platform)
      expect(result.source).toBe('pricing-api')
      expect(Object.fromEntries(result.prices)).toEqual({ 'm5.large': usd })
      expect(logged).toEqual([])
    },
  )

  it.each([
    ['Windows', 'Windows'],
    ['Red Hat Enterprise Linux', 'RHEL'],
    ['SUSE Linux', 'SUSE'],
  ])('filters %s by operatingSystem %s, licence included', async (platform, operatingSystem) => {
    pricingMock.on(GetProductsCommand).callsFake((input) => answerGetProducts(input.Filters))
    await testAdapter('us-east-1').cloud.onDemandPrices(platform)
    const filters = pricingMock.commandCalls(GetProductsCommand)[0]?.args[0].input.Filters ?? []
    expect(filters).toContainEqual({ Type: 'TERM_MATCH', Field: 'operatingSystem', Value: operatingSystem })
    // The EC2 price list spells licence-included Windows `No License required`; `License Included` matches nothing.
    expect(filters).toContainEqual({
      Type: 'TERM_MATCH',
      Field: 'licenseModel',
      Value: 'No License required',
    })
  })

  it('falls back to the embedded table for a platform the Pricing API lists nothing for, and says so', async () => {
    pricingMock.on(GetProductsCommand).callsFake((input) => answerGetProducts(input.Filters))
    const { cloud, logged } = testAdapter('eu-west-3')
    const result = await cloud.onDemandPrices('Windows')
    expect(result.source).toBe('embedded-us-east-1')
    expect(result.prices.get('m5.large')).toBe(
      embeddedOnDemandPrices('us-east-1', 'Windows').prices.get('m5.large'),
    )
    expect(logged[0]?.attributes).toMatchObject({ platform: 'Windows', error: 'NoProducts' })
  })

  it('falls back to the embedded prices when the Pricing API fails, logs it once and caches the answer', async () => {
    pricingMock.on(GetProductsCommand).rejects(awsError('InternalFailure', 'Internal Server Error', 500))
    const { cloud, logged } = testAdapter('us-east-1')

    const first = await cloud.onDemandPrices('Linux/UNIX')
    const second = await cloud.onDemandPrices('Linux/UNIX')

    expect(first.source).toBe('embedded')
    expect(first.prices.get('m5.large')).toBe(0.096)
    expect(second).toBe(first)
    expect(pricingMock).toHaveReceivedCommandTimes(GetProductsCommand, 1)
    expect(logged).toEqual([
      {
        level: 'warn',
        message: 'On-demand prices are approximate: using the embedded snapshot',
        attributes: expect.objectContaining({
          region: 'us-east-1',
          source: 'embedded',
          error: 'InternalFailure',
        }),
      },
    ])
  })

  it('falls back to the us-east-1 snapshot for a region the snapshot lacks', async () => {
    pricingMock.on(GetProductsCommand).rejects(awsError('AccessDeniedException', 'not authorized', 400))
    const result = await testAdapter('ap-southeast-2').cloud.onDemandPrices('Linux/UNIX')
    expect(result.source).toBe('embedded-us-east-1')
    expect(result.prices.get('m5.large')).toBe(0.096)
  })

  it('falls back when the Pricing API lists nothing for the region', async () => {
    pricingMock.on(GetProductsCommand).resolves({ PriceList: [] })
    const { cloud, logged } = testAdapter('us-east-1')
    await expect(cloud.onDemandPrices('Linux/UNIX')).resolves.toHaveProperty('source', 'embedded')
    expect(logged[0]?.attributes).toMatchObject({ error: 'NoProducts' })
  })

  it('asks the Pricing API again once PRICE_CACHE_TTL_MS has passed', async () => {
    pricingMock
      .on(GetProductsCommand)
      .resolves({ PriceList: [priceListEntry('m5.large', 'QJ4KXFEM7B5ZPR8Y', '0.107')] })
    const { cloud, clock } = testAdapter()

    await cloud.onDemandPrices('Linux/UNIX')
    clock.nowMs += PRICE_CACHE_TTL_MS - 1
    await cloud.onDemandPrices('Linux/UNIX')
    expect(pricingMock).toHaveReceivedCommandTimes(GetProductsCommand, 1)

    clock.nowMs += 1
    await cloud.onDemandPrices('Linux/UNIX')
    expect(pricingMock).toHaveReceivedCommandTimes(GetProductsCommand, 2)
  })

  it('caches each platform separately', async () => {
    pricingMock
      .on(GetProductsCommand)
      .resolves({ PriceList: [priceListEntry('m5.large', 'QJ4KXFEM7B5ZPR8Y', '0.107')] })
    const { cloud } = testAdapter()
    await cloud.onDemandPrices('Linux/UNIX')
    await cloud.onDemandPrices('Windows')
    await cloud.onDemandPrices('Linux/UNIX')
    expect(pricingMock).toHaveReceivedCommandTimes(GetProductsCommand, 2)
  })
})
