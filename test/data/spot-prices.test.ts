import { describe, expect, it } from 'vitest'
import { poolKey } from '../../lambdas/core/types.ts'
import {
  embeddedRegions,
  embeddedSpotPriceSteps,
  embeddedSpotWindow,
  embeddedZones,
} from '../../tools/data/spot-prices.ts'

const windowStart = new Date('2022-05-31T18:00:00Z')

const allPools = () => embeddedRegions().flatMap((region) => [...embeddedSpotPriceSteps(region)])

describe('embeddedSpotPriceSteps', () => {
  it('has m5.large prices in several us-east-1 zones that differ by zone', () => {
    const pools = embeddedSpotPriceSteps('us-east-1')
    const m5 = embeddedZones('us-east-1').flatMap((zone) => pools.get(poolKey('m5.large', zone)) ?? [])
    expect(m5.length).toBeGreaterThanOrEqual(2)
    expect(new Set(m5.map((step) => step.priceUsd)).size).toBeGreaterThan(1)
    expect(pools.get(poolKey('m5.large', 'us-east-1b'))).toEqual([{ at: windowStart, priceUsd: 0.0424 }])
    expect(pools.get(poolKey('m5.large', 'us-east-1d'))).toEqual([{ at: windowStart, priceUsd: 0.0416 }])
  })

  it('starts every pool at the window start with its earliest known price', () => {
    const late = allPools().filter(([, steps]) => steps[0]?.at.getTime() !== windowStart.getTime())
    expect(late).toEqual([])
  })

  it('keeps later price changes in time order', () => {
    const steps = embeddedSpotPriceSteps('us-east-1').get(poolKey('m6a.8xlarge', 'us-east-1a'))
    expect(steps).toEqual([
      { at: windowStart, priceUsd: 0.6081 },
      { at: new Date('2022-05-31T21:44:26Z'), priceUsd: 0.6112 },
    ])
    const unsorted = allPools().filter(([, steps]) =>
      steps.some((step, i) => i > 0 && step.at <= (steps[i - 1]?.at ?? step.at)),
    )
    expect(unsorted).toEqual([])
  })

  it('covers the 433 Linux types priced in us-east-1', () => {
    const types = new Set([...embeddedSpotPriceSteps('us-east-1').keys()].map((pool) => pool.split('/')[0]))
    expect(types.size).toBe(433)
  })

  it('returns no pools for a region without data', () => {
    expect(embeddedSpotPriceSteps('mars-north-1').size).toBe(0)
    expect(embeddedZones('mars-north-1')).toEqual([])
  })
})

describe('embeddedZones', () => {
  it.each([
    ['us-east-1', ['us-east-1a', 'us-east-1b', 'us-east-1c', 'us-east-1d', 'us-east-1e', 'us-east-1f']],
    ['us-east-2', ['us-east-2a', 'us-east-2b', 'us-east-2c']],
    ['us-west-1', ['us-west-1a', 'us-west-1b']],
    ['us-west-2', ['us-west-2a', 'us-west-2b', 'us-west-2c', 'us-west-2d']],
  ])('names the zones of %s', (region, zones) => {
    expect(embeddedZones(region)).toEqual(zones)
  })
})

describe('embeddedRegions', () => {
  it('lists all 17 regions of the price history, sorted', () => {
    const regions = embeddedRegions()
    expect(regions).toHaveLength(17)
    expect(regions).toEqual([...regions].sort())
    expect(regions).toEqual(expect.arrayContaining(['us-east-1', 'us-east-2', 'us-west-2', 'eu-west-1']))
  })
})

describe('embeddedSpotWindow', () => {
  it('spans the six hours of the 2022-05-31 snapshot', () => {
    expect(embeddedSpotWindow()).toEqual({ start: windowStart, end: new Date('2022-06-01T00:00:00Z') })
  })
})
