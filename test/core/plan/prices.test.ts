import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { latestSpotPrices, spotPriceOf, spotPricesIn } from '../../../lambdas/core/plan/prices.ts'
import { poolKey, type SpotPrice, spotPriceBook } from '../../../lambdas/core/types.ts'
import { embeddedSpotPriceSteps } from '../../../tools/data/spot-prices.ts'

/** Every real price step of the snapshot for the given pools, as DescribeSpotPriceHistory rows (newest first). */
const realRows = (...pools: [instanceType: string, zone: string][]): SpotPrice[] =>
  pools
    .flatMap(([instanceType, zone]) =>
      (embeddedSpotPriceSteps('us-east-1').get(poolKey(instanceType, zone)) ?? []).map((step) => ({
        instanceType,
        zone,
        productDescription: 'Linux/UNIX',
        priceUsd: step.priceUsd,
        timestamp: step.at,
      })),
    )
    .sort((a, b) => b.timestamp.getTime() - a.timestamp.getTime())

describe('latestSpotPrices', () => {
  it('keeps the latest step of a pool whose price changed (m6a.8xlarge in us-east-1a)', () => {
    const rows = realRows(['m6a.8xlarge', 'us-east-1a'])
    expect(rows).toHaveLength(2)
    expect(latestSpotPrices(rows)).toEqual(spotPriceBook([['m6a.8xlarge/us-east-1a', 0.6112]]))
  })

  it('keeps one price per type and zone: the same type differs by zone', () => {
    const book = latestSpotPrices(realRows(['m5.large', 'us-east-1b'], ['m5.large', 'us-east-1d']))
    expect(book).toEqual(
      new Map([
        ['us-east-1b', new Map([['m5.large', 0.0424]])],
        ['us-east-1d', new Map([['m5.large', 0.0416]])],
      ]),
    )
  })

  it('does not depend on the order of the rows', () => {
    const rows = realRows(
      ['m6a.8xlarge', 'us-east-1a'],
      ['m5.large', 'us-east-1b'],
      ['t3.large', 'us-east-1a'],
    )
    const expected = latestSpotPrices(rows)
    fc.assert(
      fc.property(fc.shuffledSubarray(rows, { minLength: rows.length }), (shuffled) => {
        expect(latestSpotPrices(shuffled)).toEqual(expected)
      }),
    )
  })

  it('keeps the first of two rows of a pool at the same latest time', () => {
    const at = new Date('2022-05-31T18:00:00Z')
    const row = (priceUsd: number): SpotPrice => ({
      instanceType: 'm5.large',
      zone: 'us-east-1b',
      productDescription: 'Linux/UNIX',
      priceUsd,
      timestamp: at,
    })
    expect(latestSpotPrices([row(0.04), row(0.05)])).toEqual(spotPriceBook([['m5.large/us-east-1b', 0.04]]))
  })

  it('returns an empty book for no rows', () => {
    expect(latestSpotPrices([]).size).toBe(0)
  })

  it('does not modify the rows it is given', () => {
    const rows = realRows(['m6a.8xlarge', 'us-east-1a'])
    const before = structuredClone(rows)
    latestSpotPrices(rows)
    expect(rows).toEqual(before)
  })
})

describe('spotPriceBook', () => {
  /** The real us-east-1 pools: every pool's first price. */
  const pools = new Map(
    [...embeddedSpotPriceSteps('us-east-1')].map(([pool, steps]) => [pool, steps[0]?.priceUsd ?? 0]),
  )
  const book = spotPriceBook(pools)

  it.each(['us-east-1a', 'us-east-1b', 'us-east-1f'])(
    'answers for every type as the pools do for its %s pool',
    (zone) => {
      const view = spotPricesIn(book, zone)
      const types = new Set([...pools.keys()].map((pool) => pool.split('/')[0] ?? ''))
      expect(view.size).toBeGreaterThan(0)
      for (const type of types) {
        expect(view.get(type)).toBe(pools.get(poolKey(type, zone)))
        expect(spotPriceOf(book, type, zone)).toBe(pools.get(poolKey(type, zone)))
      }
    },
  )

  it('has nothing for a zone it does not price', () => {
    expect(spotPricesIn(book, 'eu-west-1a').size).toBe(0)
    expect(spotPriceOf(book, 'm5.large', 'eu-west-1a')).toBeUndefined()
  })

  it('does not mistake the end of a zone name (us-east-1a) for another zone (east-1a)', () => {
    const tricky = spotPriceBook([
      ['m5.large/us-east-1a', 0.04],
      ['m5.xlarge/east-1a', 0.08],
    ])
    expect(spotPricesIn(tricky, 'east-1a')).toEqual(new Map([['m5.xlarge', 0.08]]))
    expect(spotPricesIn(tricky, 'us-east-1a')).toEqual(new Map([['m5.large', 0.04]]))
  })
})

describe('latestSpotPrices against the rows, pool by pool', () => {
  const zones = ['us-east-1a', 'us-east-1b', 'us-east-1c']
  const types = ['m5.large', 'm5a.large', 'r5.large', 't3.large']
  const rowArbitrary = fc.record({
    instanceType: fc.constantFrom(...types),
    zone: fc.constantFrom(...zones),
    productDescription: fc.constant('Linux/UNIX'),
    priceUsd: fc.double({ min: 0.001, max: 1, noNaN: true }),
    timestamp: fc.integer({ min: 0, max: 5 }).map((h) => new Date(Date.UTC(2022, 4, 31, h))),
  })

  it('prices every pool at its first row of the latest time, and no pool without rows', () => {
    fc.assert(
      fc.property(fc.array(rowArbitrary, { maxLength: 40 }), (rows) => {
        const book = latestSpotPrices(rows)
        for (const zone of zones) {
          for (const type of types) {
            const own = rows.filter((r) => r.zone === zone && r.instanceType === type)
            const latest = Math.max(...own.map((r) => r.timestamp.getTime()))
            const expected = own.find((r) => r.timestamp.getTime() === latest)?.priceUsd
            expect(spotPriceOf(book, type, zone)).toBe(expected)
          }
          expect(book.has(zone)).toBe(rows.some((r) => r.zone === zone))
        }
      }),
    )
  })
})
