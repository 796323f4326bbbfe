import { describe, expect, it } from 'vitest'
import { monthlyRunningCost, PRICES, type RunMeasurement } from '../../tools/bench/running-cost.ts'
import { COST_SHAPES, measureRun, type RunningCostFigures } from '../../tools/bench/running-cost-probe.ts'
import { checkRunningCost } from '../../tools/bench/targets.ts'

const run = (overrides: Partial<RunMeasurement> = {}): RunMeasurement => ({
  regions: 1,
  groups: 10,
  spotInstances: 40,
  invocations: 2,
  apiCalls: 20,
  metrics: 15,
  logBytes: 5_000,
  fanoutMessages: 1,
  hourlySavingsUsd: 4,
  ...overrides,
})

describe('monthlyRunningCost', () => {
  it('bills each metric emitted every run for the whole month, at the first tier', () => {
    const few = monthlyRunningCost(run({ metrics: 15 }), 5)
    const more = monthlyRunningCost(run({ metrics: 115 }), 5)
    expect(more.metricsUsd - few.metricsUsd).toBeCloseTo(100 * 0.3, 1)
  })

  it('bills metrics past the first 10,000 at the next tier', () => {
    const first = monthlyRunningCost(run({ metrics: 10_000 }), 5)
    const next = monthlyRunningCost(run({ metrics: 11_000 }), 5)
    expect(next.metricsUsd - first.metricsUsd).toBeCloseTo(1000 * 0.1, 1)
  })

  it('adds the fixed parts (dashboard, the marker key) and states the share of the savings', () => {
    const cost = monthlyRunningCost(run(), 5)
    expect(cost.dashboardUsd).toBe(PRICES.dashboardMonth)
    expect(cost.kmsUsd).toBe(PRICES.kmsKeyMonth)
    expect(cost.monthlySavingsUsd).toBeCloseTo(4 * 730.5, 1)
    expect(cost.costPctOfSavings).toBeCloseTo((100 * cost.totalUsd) / cost.monthlySavingsUsd, 1)
  })
})

describe('the running cost of a measured account', () => {
  it('emits region totals only for ten groups in one region, and costs under 1% of what they save', async () => {
    const shape = COST_SHAPES[0]
    if (shape === undefined) throw new Error('no shape')
    const measured = await measureRun(shape)
    // 12 fleet metrics, GroupsManaged, SavingsEstimatedGroups and RunDurationMs: none per group.
    expect(measured.metrics).toBe(15)
    expect(measured.groups).toBe(10)
    expect(measured.hourlySavingsUsd).toBeGreaterThan(0)
    const cost = monthlyRunningCost(measured, 5)
    expect(cost.costPctOfSavings).toBeLessThan(1)
  }, 60_000)
})

describe('the running-cost target', () => {
  const withCost = (pct: number): RunningCostFigures[] => [
    {
      shape: COST_SHAPES[0] as RunningCostFigures['shape'],
      run: run(),
      cost: { ...monthlyRunningCost(run(), 5), costPctOfSavings: pct },
    },
  ]

  it.each([
    [0.4, true],
    [1, false],
    [2.5, false],
  ])('at %d% of the savings is met: %s', (pct, met) => {
    const [check] = checkRunningCost(withCost(pct))
    expect(check?.met).toBe(met)
    expect(check?.target).toBe('running cost, 10 groups: < 1% of the savings')
  })
})
