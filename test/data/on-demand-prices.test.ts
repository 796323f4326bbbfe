import { describe, expect, it } from 'vitest'
import { embeddedOnDemandPrices } from '../../lambdas/data/on-demand-prices.ts'

describe('embeddedOnDemandPrices', () => {
  it.each([
    ['Linux/UNIX', 'm5.large', 0.096],
    ['Windows', 'm5.large', 0.188],
    ['Red Hat Enterprise Linux', 't3.large', 0.1432],
    ['SUSE Linux', 'g4dn.xlarge', 0.582],
  ])('prices %s %s in us-east-1 at %f USD/hour', (platform, type, usd) => {
    expect(embeddedOnDemandPrices('us-east-1', platform).prices.get(type)).toBe(usd)
  })

  it('marks the prices of a known region as embedded', () => {
    expect(embeddedOnDemandPrices('us-east-1', 'Linux/UNIX').source).toBe('embedded')
  })

  it('falls back to us-east-1 prices, marked approximate, when the region is unknown', () => {
    const fallback = embeddedOnDemandPrices('ap-southeast-7', 'Linux/UNIX')
    expect(fallback.source).toBe('embedded-us-east-1')
    expect(fallback.prices.get('m5.large')).toBe(0.096)
  })

  it.each([
    ['Windows BYOL', 'Windows'],
    ['Windows with SQL Server Standard', 'Windows'],
    ['Red Hat Enterprise Linux with HA', 'Red Hat Enterprise Linux'],
    ['SUSE Linux Enterprise Server', 'SUSE Linux'],
    ['Linux/UNIX', 'Linux/UNIX'],
  ])('prices the platform details %s as %s', (platformDetails, productDescription) => {
    expect(embeddedOnDemandPrices('us-east-1', platformDetails).prices).toBe(
      embeddedOnDemandPrices('us-east-1', productDescription).prices,
    )
  })

  it('omits types the catalogue prices at zero, such as Windows on Graviton', () => {
    const windows = embeddedOnDemandPrices('us-east-1', 'Windows').prices
    expect(windows.has('a1.large')).toBe(false)
    expect(windows.has('m5.large')).toBe(true)
    expect([...windows.values()].every((usd) => usd > 0)).toBe(true)
  })

  it('has no prices for an unknown instance type', () => {
    expect(embeddedOnDemandPrices('us-east-1', 'Linux/UNIX').prices.get('m99.huge')).toBeUndefined()
  })
})
