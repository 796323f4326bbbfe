import { describe, expect, it } from 'vitest'
import { FAULT_LEVELS, median, medianOf, QUICK_SWEEP, sweepScenario } from '../../tools/bench/fault-sweep.ts'
import { sweepRows } from '../../tools/bench/render-sweep.ts'
import { resultsProblems, SCENARIO_KEYS } from '../../tools/bench/results.ts'
import { inPool } from '../../tools/bench/sweep-jobs.ts'
import { faultSweepProblems, type SweepFigures } from '../../tools/bench/sweep-results.ts'
import { checkSweepTargets } from '../../tools/bench/sweep-targets.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'
import { NO_FAULTS } from '../../tools/sim/faults.ts'
import { handMade, PRICES, pinnedGroup } from './support.ts'
import { faultSweep, sweepFigures } from './sweep-fixture.ts'

describe('the fault levels', () => {
  it('are the issue’s: none, 1% API errors, 0.5% crashes per request, both; throttling on at each', () => {
    expect(FAULT_LEVELS).toEqual({
      none: NO_FAULTS,
      'api-errors': { apiErrorRate: 0.01, throttle: true, crashRate: 0 },
      crashes: { apiErrorRate: 0, throttle: true, crashRate: 0.005 },
      both: { apiErrorRate: 0.01, throttle: true, crashRate: 0.005 },
    })
  })
})

describe('the median over seeds', () => {
  it.each([
    [[3, 1, 2], 2],
    [[10, null, 20], 20],
    [[10, null, null], null],
    [[5, 7], 7],
    [[4], 4],
  ])('of %j is %s, never counting as the longest', (values, expected) => {
    expect(median(values)).toBe(expected)
  })

  it('is taken figure by figure', () => {
    const seeds = [
      sweepFigures({ savingsPct: 50, orphanInstanceMinutes: 9 }),
      sweepFigures({ savingsPct: 58, orphanInstanceMinutes: 0 }),
      sweepFigures({ savingsPct: 54, orphanInstanceMinutes: 3 }),
    ]
    expect(medianOf(seeds)).toMatchObject({ savingsPct: 54, orphanInstanceMinutes: 3 })
  })
})

describe('a scenario swept', () => {
  // Two groups: `web` converges; `stuck` has no spot capacity in its only allowed type and never does.
  const scenario = handMade(
    {
      spotPrices: { ...PRICES, 'c5.large': { 'us-east-1a': 0.03, 'us-east-1b': 0.03 } },
      capacity: { 'c5.large/us-east-1a': { available: false }, 'c5.large/us-east-1b': { available: false } },
      groups: [
        pinnedGroup(),
        pinnedGroup({
          name: 'stuck',
          instanceType: 'c5.large',
          tags: { 'spot-enabled': 'true', autospotting_allowed_instance_types: 'c5.large' },
        }),
      ],
    },
    // The scenario's own faults kill every run; each level replaces them.
    { durationHours: 1, faults: { apiErrorRate: 0, throttle: true, crashRate: 1 } },
  )

  it('replaces the scenario’s own faults, and judges convergence on the groups that converge without faults', async () => {
    const sweep = await sweepScenario(scenario, embeddedCatalog(), {
      levels: ['none', 'both'],
      seeds: 2,
      policies: ['spotswap', 'on-demand'],
    })
    expect(sweep.seeds).toEqual([1, 2])
    expect(sweep.simulatedHours).toBe(1)
    const clean = sweep.levels.none?.spotswap
    expect(clean?.seeds).toHaveLength(2)
    for (const seed of clean?.seeds ?? []) {
      // `stuck` never converges, so the scenario never does; `web` did, under the scenario's crashRate 1 it could not.
      expect(seed.convergenceMinutes).toBeNull()
      expect(seed.faultFreeGroupsConvergenceMinutes).toBeGreaterThan(0)
      expect(seed.faultFreeGroupsConvergenceMinutes).toBeLessThan(30)
      expect(seed.savingsPct).toBeGreaterThan(0)
    }
    // The on-demand policy converges no group: the time until none of them has converged is 0.
    expect(sweep.levels.none?.['on-demand']?.median.faultFreeGroupsConvergenceMinutes).toBe(0)
    expect(sweep.levels.both?.['on-demand']?.median.savingsPct).toBe(0)
  })

  it('starts with the fault-free level, which the others are judged against', async () => {
    await expect(
      sweepScenario(scenario, embeddedCatalog(), { ...QUICK_SWEEP, levels: ['both', 'none'] }),
    ).rejects.toThrow('starts with the none level')
  })
})

describe('the fault sweep’s targets', () => {
  const missed = (checks: ReturnType<typeof checkSweepTargets>) =>
    checks.filter((c) => !c.met).map((c) => c.target)

  it('are five per scenario, four on gpu-fleet, all met when faults cost nothing', () => {
    const checks = checkSweepTargets(faultSweep())
    expect(missed(checks)).toEqual([])
    expect(checks).toHaveLength(SCENARIO_KEYS.length * 5 - 1)
    expect(checks.map((c) => c.target)).not.toContain(
      "gpu-fleet at both faults: serving ≥ on-demand's at the same level − 0.05 points",
    )
  })

  const steadyWebAtBoth = (spotswap: Partial<SweepFigures>, onDemand: Partial<SweepFigures> = {}) =>
    faultSweep((s, level, policy) =>
      s !== 'steady-web' || level !== 'both'
        ? {}
        : policy === 'spotswap'
          ? spotswap
          : policy === 'on-demand'
            ? onDemand
            : {},
    )

  it.each([
    [
      'convergence over 2× fault-free + 10 min',
      steadyWebAtBoth({ faultFreeGroupsConvergenceMinutes: 50.01 }),
      'converges within 2× fault-free + 10 min (groups converging without faults)',
    ],
    [
      'no convergence',
      steadyWebAtBoth({ faultFreeGroupsConvergenceMinutes: null }),
      'converges within 2× fault-free + 10 min (groups converging without faults)',
    ],
    [
      'orphans over 30 instance-minutes a day',
      steadyWebAtBoth({ orphanInstanceMinutes: 30.5 }),
      'orphan instance-minutes ≤ 30 per simulated day',
    ],
    [
      'savings over a point below fault-free',
      steadyWebAtBoth({ savingsPct: 53.9 }),
      'savings ≥ fault-free − 1 point',
    ],
    [
      // On-demand loses as much at this level: only the fault-free figure is missed.
      'serving over 0.05 points below fault-free',
      steadyWebAtBoth({ servingAvailabilityPct: 99.89 }, { servingAvailabilityPct: 99.9 }),
      'serving ≥ fault-free − 0.05 points',
    ],
    [
      'serving over 0.05 points below on-demand’s at the same level',
      steadyWebAtBoth({ servingAvailabilityPct: 99.93 }, { servingAvailabilityPct: 99.99 }),
      "serving ≥ on-demand's at the same level − 0.05 points",
    ],
  ])('report %s', (_, sweep, target) => {
    expect(missed(checkSweepTargets(sweep))).toEqual([`steady-web at both faults: ${target}`])
  })

  it.each([
    ['convergence of 2× fault-free + 10 min', { faultFreeGroupsConvergenceMinutes: 50 }],
    ['30 orphan instance-minutes a day', { orphanInstanceMinutes: 30 }],
    ['savings a point below fault-free', { savingsPct: 54 }],
    ['serving 0.05 points below fault-free', { servingAvailabilityPct: 99.9 }],
  ])('meet %s', (_, figures) => {
    expect(missed(checkSweepTargets(steadyWebAtBoth(figures)))).toEqual([])
  })

  it('count orphan minutes per simulated day and hold a scenario that never converges to its fault-free groups', () => {
    // 48 simulated hours: 50 orphan minutes are 25 a day.
    const long = faultSweep(
      (s, level, policy) =>
        s === 'five-zones-48h' && level === 'both' && policy === 'spotswap'
          ? { orphanInstanceMinutes: 50 }
          : {},
      48,
    )
    expect(missed(checkSweepTargets(long))).toEqual([])
    const never = faultSweep((s, level, policy) =>
      s === 'five-zones-48h' && policy === 'spotswap'
        ? { convergenceMinutes: null, faultFreeGroupsConvergenceMinutes: level === 'both' ? 90 : 40 }
        : {},
    )
    const check = checkSweepTargets(never).find((c) =>
      c.target.startsWith('five-zones-48h at both faults: converges'),
    )
    expect(check).toMatchObject({ met: true, detail: '90 min vs 40 min fault-free, limit 90 min' })
  })

  it('hold spotswap’s serving within 0.05 points of on-demand’s at the same level, gpu-fleet excepted', () => {
    const below = (scenario: string) =>
      faultSweep((s, level, policy) =>
        s === scenario && level === 'both'
          ? { servingAvailabilityPct: policy === 'on-demand' ? 99.99 : 99.93 }
          : {},
      )
    expect(missed(checkSweepTargets(below('daily-scaling')))).toEqual([
      "daily-scaling at both faults: serving ≥ on-demand's at the same level − 0.05 points",
    ])
    expect(missed(checkSweepTargets(below('gpu-fleet')))).toEqual([])
  })

  it('compare medians, not the worst seed', () => {
    const oneBadSeed = faultSweep((s, level, policy, seed) =>
      s === 'steady-web' && level === 'both' && policy === 'spotswap' && seed === 3 ? { savingsPct: 40 } : {},
    )
    expect(missed(checkSweepTargets(oneBadSeed))).toEqual([])
  })
})

describe('the fault sweep in results.json and RESULTS.md', () => {
  it('wants every level and policy it names on every scenario, one entry per seed', () => {
    const sweep = faultSweep()
    expect(faultSweepProblems(sweep, ['steady-web', 'gpu-fleet'])).toEqual([])
    const web = sweep.scenarios['steady-web']
    const broken = {
      ...sweep,
      scenarios: {
        ...sweep.scenarios,
        'steady-web': {
          ...web,
          levels: {
            ...web?.levels,
            crashes: {
              ...web?.levels.crashes,
              spotswap: { median: sweepFigures(), seeds: [sweepFigures()] },
            },
            both: { ...web?.levels.both, 'on-demand': undefined },
          },
        },
        'gpu-fleet': { ...sweep.scenarios['gpu-fleet'], simulatedHours: 0 },
      },
    }
    expect(faultSweepProblems(JSON.parse(JSON.stringify(broken)), ['steady-web', 'gpu-fleet'])).toEqual([
      '$.faultSweep.scenarios.steady-web.levels.crashes.spotswap.seeds: expected one entry per seed (3)',
      '$.faultSweep.scenarios.steady-web.levels.both.on-demand: expected an object',
      '$.faultSweep.scenarios.gpu-fleet.simulatedHours: expected a positive number',
    ])
    expect(resultsProblems({ commit: 'a', date: '2022-05-31T18:00:00Z', machine: 'm' })).toContain(
      '$.faultSweep: expected an object',
    )
  })

  it('shows each median with its seeds, level by level', () => {
    const sweep = faultSweep((s, level, policy, seed) =>
      s === 'steady-web' && level === 'crashes' && policy === 'spotswap'
        ? { convergenceMinutes: seed === 2 ? 151 : seed === 1 ? 40 : null, orphanInstanceMinutes: seed }
        : {},
    )
    const rows = sweepRows(sweep.scenarios['steady-web'] as NonNullable<(typeof sweep.scenarios)[string]>, [
      'spotswap',
    ])
    expect(rows.map((r) => r[1])).toEqual(['none', 'api-errors', 'crashes', 'both'])
    expect(rows[2]?.slice(0, 5)).toEqual([
      'spotswap',
      'crashes',
      '151 min [40 min, 151 min, never]',
      '20 min [20 min, 20 min, 20 min]',
      '2.0 [1.0, 2.0, 3.0]',
    ])
  })
})

describe('the pool of sweep jobs', () => {
  it('runs at most `limit` at once and keeps the items’ order', async () => {
    let running = 0
    let most = 0
    const results = await inPool([30, 10, 20, 5], 2, async (ms) => {
      running += 1
      most = Math.max(most, running)
      await new Promise((resolve) => setTimeout(resolve, ms))
      running -= 1
      return ms * 2
    })
    expect(results).toEqual([60, 20, 40, 10])
    expect(most).toBe(2)
  })
})
