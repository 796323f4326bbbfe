import type { SpotPrice } from '@aws-sdk/client-ec2'
import { describe, expect, it } from 'vitest'
import { latestSpotPrices, spotPriceOf } from '../../lambdas/core/plan/prices.ts'
import type { FleetOverride } from '../../lambdas/core/port.ts'
import { embeddedSpotPriceSteps } from '../../tools/data/spot-prices.ts'
import { spotPriceRows } from '../../tools/sim/sdk/spot-prices.ts'
import { group, launchSpotFor, rawScenario, START_MS, testWorld } from './support.ts'

const override = (instanceType: string, zone: string, priority: number): FleetOverride => ({
  instanceType,
  zone,
  subnetId: `subnet-${zone}`,
  priority,
})

describe('spot prices in the simulator', () => {
  it('are the real embedded prices of each pool, as DescribeSpotPriceHistory reports them', async () => {
    const sim = testWorld(rawScenario([group('web')]))
    const book = latestSpotPrices(await sim.cloud().describeSpotPrices('Linux/UNIX', new Date(START_MS)))
    const real = embeddedSpotPriceSteps('us-east-1').get('m5.large/us-east-1b')?.[0]?.priceUsd
    expect(real).toBeDefined()
    expect(spotPriceOf(book, 'm5.large', 'us-east-1b')).toBe(real)
    // Pools without a price in the snapshot are not offered as spot at all.
    expect(spotPriceOf(book, 'm5.large', 'us-east-1a')).toBeUndefined()
    expect(book.get('us-east-1a')?.size).toBeGreaterThan(0)
    expect(await sim.cloud().describeSpotPrices('Windows', new Date(START_MS))).toEqual([])
  })

  it('follow the scenario overrides, constant or changing over time', async () => {
    const sim = testWorld(
      rawScenario(
        [group('web')],
        {},
        {
          spotPrices: {
            'm5.large': {
              'us-east-1a': 0.03,
              'us-east-1b': [
                ['2022-05-31T18:00:00Z', 0.04],
                ['2022-05-31T19:00:00Z', 0.09],
              ],
            },
          },
        },
      ),
    )
    const market = sim.region.market
    expect(market.spotPrice('m5.large', 'us-east-1a', START_MS)).toBe(0.03)
    expect(market.spotPrice('m5.large', 'us-east-1b', START_MS + 59 * 60_000)).toBe(0.04)
    expect(market.spotPrice('m5.large', 'us-east-1b', START_MS + 60 * 60_000)).toBe(0.09)
  })
})

describe('DescribeSpotPriceHistory rows in the simulator', () => {
  const HOUR = 3_600_000
  const laterPool = {
    spotPrices: {
      'm5.large': {
        'us-east-1b': [
          ['2022-05-31T19:00:00Z', 0.04],
          ['2022-05-31T20:00:00Z', 0.09],
        ],
      },
    },
  }
  const rowOf = (rows: readonly SpotPrice[]) =>
    rows.find((r) => r.InstanceType === 'm5.large' && r.AvailabilityZone === 'us-east-1b')

  it('are the same rows until a price changes, then the rows of the new prices', () => {
    const market = testWorld(rawScenario([group('web')], {}, laterPool)).region.market
    const first = spotPriceRows(market, ['Linux/UNIX'], START_MS + 1.5 * HOUR)
    expect(spotPriceRows(market, ['Linux/UNIX'], START_MS + 1.9 * HOUR)).toBe(first)
    const after = spotPriceRows(market, ['Linux/UNIX'], START_MS + 2 * HOUR)
    expect(after).not.toBe(first)
    expect(rowOf(first)).toMatchObject({ SpotPrice: '0.04', Timestamp: new Date(START_MS + HOUR) })
    expect(rowOf(after)).toMatchObject({ SpotPrice: '0.09', Timestamp: new Date(START_MS + 2 * HOUR) })
    expect(after.map((r) => r.SpotPrice)).toEqual(
      market.priceRows('Linux/UNIX', START_MS + 2 * HOUR).map((r) => String(r.priceUsd)),
    )
  })

  it("stamp a pool's first price with the time asked until its first step begins", () => {
    const market = testWorld(rawScenario([group('web')], {}, laterPool)).region.market
    const stamp = (atMs: number) => rowOf(spotPriceRows(market, ['Linux/UNIX'], atMs))?.Timestamp
    expect(stamp(START_MS + 0.25 * HOUR)).toEqual(new Date(START_MS + 0.25 * HOUR))
    expect(stamp(START_MS + 0.5 * HOUR)).toEqual(new Date(START_MS + 0.5 * HOUR))
    expect(stamp(START_MS + 1.5 * HOUR)).toEqual(new Date(START_MS + HOUR))
  })

  it('are none for a platform the snapshot does not hold', () => {
    const market = testWorld(rawScenario([group('web')])).region.market
    expect(spotPriceRows(market, ['Windows'], START_MS)).toEqual([])
  })
})

describe('CreateFleet in the simulator', () => {
  const cheapest = { 'us-east-1b': 0.02 }
  const pricey = { 'us-east-1b': 0.05 }
  const prices = {
    spotPrices: { 'm5.large': pricey, 'm5a.large': cheapest, 'm6i.large': { 'us-east-1b': 0.04 } },
  }
  const overrides = [
    override('m5.large', 'us-east-1b', 0),
    override('m6i.large', 'us-east-1b', 1),
    override('m5a.large', 'us-east-1b', 2),
  ]

  it.each([
    ['lowest-price', 'm5a.large'],
    ['price-capacity-optimized', 'm5a.large'],
    ['capacity-optimized-prioritized', 'm5.large'],
  ] as const)('with %s launches %s when every pool has capacity', async (allocationStrategy, expected) => {
    const sim = testWorld(rawScenario([group('web')], {}, prices))
    const result = await sim.cloud().launchSpot({
      groupName: 'web',
      launchTemplate: { id: 'lt-1', name: undefined, version: '$Default' },
      launchConfigurationName: undefined,
      overrides,
      allocationStrategy,
      tags: { 'launched-for-asg': 'web' },
      clientToken: 'one',
    })
    expect(result).toMatchObject({ ok: true, instanceType: expected, zone: 'us-east-1b' })
    const instance = result.ok ? sim.region.instances.get(result.instanceId) : undefined
    expect(instance).toMatchObject({
      lifecycle: 'spot',
      state: 'pending',
      tags: { 'launched-for-asg': 'web' },
    })
  })

  it('prefers a pool with deeper capacity over a cheaper one that is short (price-capacity-optimized)', async () => {
    const sim = testWorld(
      rawScenario(
        [group('web')],
        {},
        {
          ...prices,
          capacity: {
            'm5a.large/us-east-1b': {
              trace: 'preemption/4-node/aws-08-03-2023/us-east-1f_v100_1',
              startIndex: 20,
            },
          },
        },
      ),
    )
    const share = sim.region.capacity.share('m5a.large', 'us-east-1b', START_MS)
    expect(share).toBeGreaterThan(0)
    expect(share).toBeLessThan(1)
    const result = await sim.cloud().launchSpot({
      groupName: 'web',
      launchTemplate: { id: 'lt-1', name: undefined, version: '$Default' },
      launchConfigurationName: undefined,
      overrides,
      allocationStrategy: 'price-capacity-optimized',
      tags: { 'launched-for-asg': 'web' },
      clientToken: 'deep',
    })
    expect(result).toMatchObject({ ok: true, instanceType: 'm6i.large' })
  })

  it('answers a repeated ClientToken with the first launch instead of launching again', async () => {
    const sim = testWorld(rawScenario([group('web')]))
    const first = await launchSpotFor(sim.cloud(), 'web', 'm5.large', 'us-east-1b', 'same')
    const again = await launchSpotFor(sim.cloud(), 'web', 'm5.large', 'us-east-1b', 'same')
    expect(again).toEqual(first)
    expect([...sim.region.instances.values()].filter((i) => i.lifecycle === 'spot')).toHaveLength(1)
  })

  it.each([
    ['a pool with no spot price', 'm5.large', 'us-east-1a', {}, 'Unsupported'],
    [
      'a pool priced above on-demand',
      'm5.large',
      'us-east-1b',
      { spotPrices: { 'm5.large': { 'us-east-1b': 5 } } },
      'SpotMaxPriceTooLow',
    ],
    [
      'a pool without capacity',
      'm5.large',
      'us-east-1b',
      { capacity: { 'm5.large/us-east-1b': { available: false } } },
      'InsufficientInstanceCapacity',
    ],
  ])('reports %s as a per-override error and launches nothing', async (_, type, zone, region, code) => {
    const sim = testWorld(rawScenario([group('web')], {}, region))
    const result = await launchSpotFor(sim.cloud(), 'web', type, zone)
    expect(result).toEqual({ ok: false, errors: [expect.objectContaining({ instanceType: type, code })] })
    expect([...sim.region.instances.values()].some((i) => i.lifecycle === 'spot')).toBe(false)
  })
})
