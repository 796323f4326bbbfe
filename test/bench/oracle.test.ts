import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { oracleFigures } from '../../tools/bench/oracle.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'
import { ASG_PRICE_CAPACITY_OPTIMIZED_POLICY, SPOTSWAP_POLICY } from '../../tools/sim/policy.ts'
import type { Scenario } from '../../tools/sim/scenario/types.ts'
import { simulateRun } from '../../tools/sim/simulate.ts'
import { handMade, M5_LARGE_ON_DEMAND, PRICES, pinnedGroup } from './support.ts'

const oracle = (scenario: Scenario, placement?: 'anywhere' | 'zone-balanced') =>
  oracleFigures(scenario, parseGlobalConfig(scenario.env).config, embeddedCatalog(), placement)

const HOURS = 2
const onDemandOnly = (instances: number) => instances * M5_LARGE_ON_DEMAND * HOURS

describe('the oracle', () => {
  it('puts every instance in the cheapest compatible pool of any zone, from the first instant', () => {
    const figures = oracle(handMade({ spotPrices: PRICES }))
    expect(figures.costUsd).toBeCloseTo(4 * 0.03 * HOURS, 6)
    expect(figures.onDemandOnlyCostUsd).toBeCloseTo(onDemandOnly(4), 6)
    expect(figures.savingsPct).toBeCloseTo(100 * (1 - 0.24 / 0.768), 2)
    expect(figures.launches).toBe(4)
  })

  it('held to zone balance, spreads the group over its zones, each in that zone’s cheapest pool', () => {
    // Two in us-east-1a on m5a.large at 0.03, two in us-east-1b on m5.large at 0.04.
    expect(oracle(handMade({ spotPrices: PRICES }), 'zone-balanced').costUsd).toBeCloseTo(
      (2 * 0.03 + 2 * 0.04) * HOURS,
      6,
    )
  })

  it('moves to the next cheapest pool while its pool has no capacity, and counts the move as launches', () => {
    const figures = oracle(
      handMade({ spotPrices: PRICES, capacity: { 'm5a.large/us-east-1a': { trace: 'hourly:1,0' } } }),
    )
    expect(figures.costUsd).toBeCloseTo(4 * 0.03 + 4 * 0.04, 6)
    expect(figures.launches).toBe(8)
  })

  it('pays on-demand while no compatible pool has capacity', () => {
    const none = { available: false }
    const capacity = Object.fromEntries(
      ['m5.large', 'm5a.large'].flatMap((type) =>
        ['us-east-1a', 'us-east-1b'].map((zone) => [`${type}/${zone}`, none]),
      ),
    )
    const figures = oracle(handMade({ spotPrices: PRICES, capacity }))
    expect(figures.costUsd).toBeCloseTo(onDemandOnly(4), 6)
    expect(figures.savingsPct).toBe(0)
    expect(figures.launches).toBe(0)
  })

  it('never uses a pool priced at or above the on-demand price (the `price` filter)', () => {
    const dear = { 'us-east-1a': 0.2, 'us-east-1b': 0.096 }
    const figures = oracle(handMade({ spotPrices: { 'm5.large': dear, 'm5a.large': dear } }))
    expect(figures.savingsPct).toBe(0)
  })

  it.each([
    ['an on-demand minimum', { autospotting_min_on_demand_number: '1' }, 1 * M5_LARGE_ON_DEMAND + 3 * 0.03],
    ['an unmanaged group', { 'spot-enabled': 'false' }, 4 * M5_LARGE_ON_DEMAND],
  ])('keeps what the owner decided: %s', (_, tags, hourlyUsd) => {
    const group = pinnedGroup()
    const scenario = handMade({
      spotPrices: PRICES,
      groups: [{ ...group, tags: { ...(group.tags as Record<string, string>), ...tags } }],
    })
    expect(oracle(scenario).costUsd).toBeCloseTo(hourlyUsd * HOURS, 6)
  })

  it('follows the owner’s desired capacity over time', () => {
    const scenario = handMade({
      spotPrices: PRICES,
      groups: [pinnedGroup({ desiredSchedule: [['2022-05-31T19:00:00Z', 8]] })],
    })
    const figures = oracle(scenario)
    expect(figures.costUsd).toBeCloseTo(4 * 0.03 + 8 * 0.03, 6)
    expect(figures.onDemandOnlyCostUsd).toBeCloseTo((4 + 8) * M5_LARGE_ON_DEMAND, 6)
    expect(figures.launches).toBe(8)
  })

  it('follows the desired capacity a scaling policy standing for the owner set in the run (ECS managed scaling)', () => {
    const scenario = handMade({ spotPrices: PRICES, groups: [pinnedGroup()] })
    const changes = new Map([['web', [[Date.parse('2022-05-31T19:00:00Z'), 8] as const]]])
    const { config } = parseGlobalConfig(scenario.env)
    const figures = oracleFigures(scenario, config, embeddedCatalog(), 'anywhere', changes)
    expect(figures.costUsd).toBeCloseTo(4 * 0.03 + 8 * 0.03, 6)
    expect(figures.onDemandOnlyCostUsd).toBeCloseTo((4 + 8) * M5_LARGE_ON_DEMAND, 6)
    expect(figures.launches).toBe(8)
  })

  it.each([
    ['spotswap', SPOTSWAP_POLICY],
    ['asg-price-capacity-optimized', ASG_PRICE_CAPACITY_OPTIMIZED_POLICY],
  ])('is not beaten by %s while it serves full capacity', async (_, policy) => {
    const scenario = handMade({
      spotPrices: PRICES,
      capacity: { 'm5a.large/us-east-1a': { trace: 'hourly:1,0' } },
    })
    const run = await simulateRun(scenario, { policy })
    expect(run.availability.totalPct).toBeGreaterThanOrEqual(99)
    expect(run.report.totals.savingsPct).toBeLessThanOrEqual(oracle(scenario).savingsPct)
  })
})
