import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { latestSpotPrices, spotPricesIn } from '../../../lambdas/core/plan/prices.ts'
import { poolKey, type SpotPrice } from '../../../lambdas/core/types.ts'
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
    expect(latestSpotPrices(rows)).toEqual(new Map([['m6a.8xlarge/us-east-1a', 0.6112]]))
  })

  it('keeps one price per type and zone: the same type differs by zone', () => {
    const book = latestSpotPrices(realRows(['m5.large', 'us-east-1b'], ['m5.large', 'us-east-1d']))
    expect(book).toEqual(
      new Map([
        ['m5.large/us-east-1b', 0.0424],
        ['m5.large/us-east-1d', 0.0416],
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
    expect(latestSpotPrices([row(0.04), row(0.05)])).toEqual(new Map([['m5.large/us-east-1b', 0.04]]))
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

describe('spotPricesIn', () => {
  /** The real us-east-1 book: every pool's first price. */
  const book = new Map(
    [...embeddedSpotPriceSteps('us-east-1')].map(([pool, steps]) => [pool, steps[0]?.priceUsd ?? 0]),
  )

  it.each(['us-east-1a', 'us-east-1b', 'us-east-1f'])(
    'answers for every type as the book does for its %s pool',
    (zone) => {
      const view = spotPricesIn(book, zone)
      const types = new Set([...book.keys()].map((pool) => pool.split('/')[0] ?? ''))
      expect(view.size).toBeGreaterThan(0)
      for (const type of types) expect(view.get(type)).toBe(book.get(poolKey(type, zone)))
    },
  )

  it('has nothing for a zone the book does not price', () => {
    expect(spotPricesIn(book, 'eu-west-1a').size).toBe(0)
  })

  it('does not mistake the end of a zone name (us-east-1a) for another zone (east-1a)', () => {
    const tricky = new Map([
      ['m5.large/us-east-1a', 0.04],
      ['m5.xlarge/east-1a', 0.08],
    ])
    expect(spotPricesIn(tricky, 'east-1a')).toEqual(new Map([['m5.xlarge', 0.08]]))
    expect(spotPricesIn(tricky, 'us-east-1a')).toEqual(new Map([['m5.large', 0.04]]))
  })
})

describe('spotPricesIn on a book from latestSpotPrices (views built with the book)', () => {
  const zones = ['us-east-1a', 'us-east-1b', 'us-east-1c']
  const types = ['m5.large', 'm5a.large', 'r5.large', 't3.large']
  const rowArbitrary = fc.record({
    instanceType: fc.constantFrom(...types),
    zone: fc.constantFrom(...zones),
    productDescription: fc.constant('Linux/UNIX'),
    priceUsd: fc.double({ min: 0.001, max: 1, noNaN: true }),
    timestamp: fc.integer({ min: 0, max: 5 }).map((h) => new Date(Date.UTC(2022, 4, 31, h))),
  })

  it('answers every type and zone as the book does, and as views built from a copy of the book do', () => {
    fc.assert(
      fc.property(fc.array(rowArbitrary, { maxLength: 40 }), (rows) => {
        const book = latestSpotPrices(rows)
        const copy = new Map(book)
        for (const zone of zones) {
          const view = spotPricesIn(book, zone)
          expect(view).toEqual(spotPricesIn(copy, zone))
          for (const type of types) expect(view.get(type)).toBe(book.get(poolKey(type, zone)))
        }
      }),
    )
  })
})
