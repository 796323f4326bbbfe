import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import type { SpotPriceBook } from '../../lambdas/core/types.ts'
import { chooseVerifyType } from '../../tools/cli/verify-type.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'

const catalog = embeddedCatalog()
const config = parseGlobalConfig({}).config.defaults

const book = (zones: Record<string, Record<string, number>>): SpotPriceBook =>
  new Map(Object.entries(zones).map(([zone, prices]) => [zone, new Map(Object.entries(prices))]))

const onDemand = new Map([
  ['p3.2xlarge', 0.001],
  ['t3a.nano', 0.0047],
  ['t3.nano', 0.0052],
  ['m5.large', 0.096],
  ['m5a.large', 0.086],
  ['m6i.large', 0.096],
])

const choose = (prices: Record<string, Record<string, number>>, zones: readonly string[]) =>
  chooseVerifyType({ catalog, onDemandPrices: onDemand, spotPrices: book(prices), zones, config })

describe('chooseVerifyType', () => {
  it('takes the cheapest plain x86_64 type with two spot candidates, skipping accelerated types', () => {
    const choice = choose(
      {
        'us-east-1a': {
          'p3.2xlarge': 0.0005,
          'p3.8xlarge': 0.0006,
          't3a.nano': 0.0016,
          't3a.micro': 0.003,
          'm5a.large': 0.03,
        },
      },
      ['us-east-1a'],
    )
    expect(choice).toEqual({
      instanceType: 't3a.nano',
      onDemandPriceUsd: 0.0047,
      zones: ['us-east-1a'],
      candidates: ['t3a.nano', 't3a.micro'],
    })
  })

  // Candidates keep the CPU vendor by default and must cost less than the type on demand.
  it('moves to a dearer type when the cheaper ones have fewer than two spot candidates in the zones', () => {
    const choice = choose(
      {
        'us-east-1a': { 't3a.nano': 0.0016, 'm5a.large': 0.03, 'm5.large': 0.03, 'm6i.large': 0.03 },
      },
      ['us-east-1a'],
    )
    expect(choice?.instanceType).toBe('m5.large')
    expect(choice?.candidates).toContain('m6i.large')
  })

  it('keeps only the zones where the type itself is offered as spot', () => {
    const choice = choose(
      {
        'us-east-1a': { 't3a.nano': 0.0016, 't3a.micro': 0.003 },
        'us-east-1b': { 't3a.micro': 0.003 },
      },
      ['us-east-1a', 'us-east-1b'],
    )
    expect(choice).toMatchObject({ instanceType: 't3a.nano', zones: ['us-east-1a'] })
  })

  it('answers undefined when no type has spot candidates in the zones', () => {
    expect(choose({}, ['us-east-1a'])).toBeUndefined()
  })
})
