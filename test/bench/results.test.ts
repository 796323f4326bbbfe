import { describe, expect, it } from 'vitest'
import { commitmentNote, ratio } from '../../tools/bench/render-table.ts'
import {
  type BenchResults,
  MIXED_POLICY_KEYS,
  POLICY_KEYS,
  type PolicyFigures,
  resultsProblems,
  SCENARIO_KEYS,
} from '../../tools/bench/results.ts'
import { checkTargets } from '../../tools/bench/targets.ts'
import { faultSweep } from './sweep-fixture.ts'

const figures = (overrides: Partial<PolicyFigures> = {}): PolicyFigures => ({
  savingsPct: 60,
  fairSavingsPct: 60,
  unservedCapacityHours: 0,
  capacityAvailabilityPct: 100,
  servingAvailabilityPct: 100,
  convergenceMinutes: 10,
  interruptions: 0,
  replacements: 12,
  apiCallsPerRun: 7.5,
  ...overrides,
})

/** What only some policies carry: the zone-balanced oracle, the asg-* policies' pools. */
const policyExtras = (policy: string): Partial<PolicyFigures> =>
  policy === 'oracle'
    ? { zoneBalancedOracleSavingsPct: 58 }
    : (MIXED_POLICY_KEYS as readonly string[]).includes(policy)
      ? { spotPoolsByGroup: { web: { 'm5.large/us-east-1b': 4 } } }
      : {}

const results = (byPolicy: Partial<Record<string, Partial<PolicyFigures>>> = {}): BenchResults => ({
  commit: 'abc1234',
  date: '2022-05-31T18:00:00.000Z',
  machine: '2 × test CPU',
  scenarios: Object.fromEntries(
    SCENARIO_KEYS.map((scenario) => [
      scenario,
      Object.fromEntries(
        POLICY_KEYS.map((policy) => [policy, figures({ ...policyExtras(policy), ...byPolicy[policy] })]),
      ),
    ]),
  ),
  faultSweep: faultSweep(),
  scale: {
    regions: 20,
    groups: 10_000,
    instances: 100_000,
    planCpuMs: 1500,
    peakRssMb: 400,
    steadyStateApiCalls: [
      [10, 3],
      [1000, 12],
    ],
  },
  lambda: { replacer: { bundleBytes: 1_800_000, initMs: 300 } },
})

describe('results.json shape', () => {
  it('accepts what the benchmark writes, nulls included where a figure does not apply', () => {
    const written = results({ oracle: { apiCallsPerRun: null }, 'on-demand': { convergenceMinutes: null } })
    expect(resultsProblems(JSON.parse(JSON.stringify(written)))).toEqual([])
  })

  it('wants the serving figure of every policy on every scenario, slow-health included', () => {
    const valid = results()
    const { servingAvailabilityPct: _, ...withoutServing } = figures()
    const broken = {
      ...valid,
      scenarios: {
        ...valid.scenarios,
        'slow-health': { ...valid.scenarios['slow-health'], 'on-demand': withoutServing },
      },
    }
    expect(resultsProblems(broken)).toEqual([
      '$.scenarios.slow-health.on-demand.servingAvailabilityPct: expected a number',
    ])
  })

  it('wants the zone-balanced oracle on the oracle and the pools on each asg-* policy', () => {
    const valid = results()
    const web = valid.scenarios['steady-web'] ?? {}
    const { zoneBalancedOracleSavingsPct: _, ...oracle } = web.oracle as PolicyFigures
    const broken = {
      ...valid,
      scenarios: {
        ...valid.scenarios,
        'steady-web': {
          ...web,
          oracle,
          'asg-lowest-price': { ...figures(), spotPoolsByGroup: { web: { 'm5.large/us-east-1b': 'four' } } },
        },
      },
    }
    expect(resultsProblems(broken)).toEqual([
      '$.scenarios.steady-web.asg-lowest-price.spotPoolsByGroup: expected an object of groups, each an object of pools with their launches',
      '$.scenarios.steady-web.oracle.zoneBalancedOracleSavingsPct: expected a number',
    ])
  })

  it('takes the diversification and scale-out figures when present, and checks their type', () => {
    /** The results with some of steady-web's policies given other figures. */
    const steadyWeb = (byPolicy: Record<string, unknown>) => {
      const valid = results()
      return {
        ...valid,
        scenarios: { ...valid.scenarios, 'steady-web': { ...valid.scenarios['steady-web'], ...byPolicy } },
      }
    }
    const measured = { interruptionsPerInstanceDay: 0.02, scaleOutLaunches: 8, scaleOutOnDemandMinutes: 6.5 }
    expect(
      resultsProblems(
        steadyWeb({
          spotswap: { ...figures(), ...measured },
          'on-demand': { ...figures(), ...measured, scaleOutOnDemandMinutes: null },
        }),
      ),
    ).toEqual([])
    const broken = steadyWeb({
      spotswap: { ...figures(), interruptionsPerInstanceDay: 'few', scaleOutOnDemandMinutes: '7' },
    })
    expect(resultsProblems(broken)).toEqual([
      '$.scenarios.steady-web.spotswap.interruptionsPerInstanceDay: expected a number when present',
      '$.scenarios.steady-web.spotswap.scaleOutOnDemandMinutes: expected a number or null when present',
    ])
  })

  it('names every missing or mistyped field', () => {
    const valid = results()
    const broken = {
      ...valid,
      date: 'yesterday',
      scenarios: {
        ...valid.scenarios,
        'steady-web': { ...valid.scenarios['steady-web'], spotswap: { ...figures(), savingsPct: '60%' } },
        'gpu-fleet': Object.fromEntries(
          Object.entries(valid.scenarios['gpu-fleet'] ?? {}).filter(([policy]) => policy !== 'oracle'),
        ),
      },
      scale: { ...valid.scale, steadyStateApiCalls: [] },
      lambda: {},
    }
    expect(resultsProblems(broken)).toEqual([
      '$.date: expected an ISO date',
      '$.scenarios.steady-web.spotswap.savingsPct: expected a number',
      '$.scenarios.gpu-fleet.oracle: expected an object',
      '$.scale.steadyStateApiCalls: expected a non-empty list of [groups, calls] pairs',
      '$.lambda: expected an object with one entry per function',
    ])
  })
})

describe('the targets', () => {
  const missed = (checks: ReturnType<typeof checkTargets>) =>
    checks.filter((c) => !c.met).map((c) => c.target)

  it('are all met when spotswap is near the oracle, available, fast and the planner is small', () => {
    const checks = checkTargets(
      results({
        oracle: { savingsPct: 62 },
        autospotting: { savingsPct: 50, convergenceMinutes: 300, capacityAvailabilityPct: 99.5 },
      }),
    )
    expect(missed(checks)).toEqual([])
    // Five per scenario, convergence within 20 min + health checks for steady-web and daily-scaling, two
    // more; against asg-price-capacity-optimized, savings and convergence but on gpu-fleet, and no
    // convergence on five-zones-48h; and the fault sweep's five per scenario but serving against
    // on-demand on gpu-fleet.
    expect(checks).toHaveLength(
      SCENARIO_KEYS.length * 5 + 2 + 2 + (SCENARIO_KEYS.length - 1) * 2 - 1 + SCENARIO_KEYS.length * 5 - 1,
    )
  })

  it.each([
    [
      'savings under 90% of the oracle',
      { oracle: { savingsPct: 70 } },
      "steady-web: savings ≥ 90% of the oracle's",
    ],
    [
      'savings under 95% of the zone-balanced oracle',
      { oracle: { savingsPct: 62, zoneBalancedOracleSavingsPct: 64 } },
      "steady-web: savings ≥ 95% of the zone-balanced oracle's",
    ],
    [
      'availability under 99.9%',
      { spotswap: { capacityAvailabilityPct: 99.8 } },
      'steady-web: availability ≥ 99.9%',
    ],
    [
      'convergence under 4× autospotting’s',
      { autospotting: { convergenceMinutes: 30 } },
      'steady-web: converges ≥ 4× faster than autospotting',
    ],
    [
      'serving more than 0.05 points below on-demand',
      { spotswap: { servingAvailabilityPct: 99.94 }, 'on-demand': { servingAvailabilityPct: 100 } },
      "steady-web: serving ≥ on-demand's − 0.05 points, ≥ 99.9% where on-demand's is",
    ],
    [
      'serving under 99.9% where on-demand reaches it',
      { spotswap: { servingAvailabilityPct: 99.89 }, 'on-demand': { servingAvailabilityPct: 99.92 } },
      "steady-web: serving ≥ on-demand's − 0.05 points, ≥ 99.9% where on-demand's is",
    ],
    [
      'convergence slower than 20 minutes plus the health checks',
      { spotswap: { convergenceMinutes: 25 } },
      'steady-web: converges within 21.5 min (20 min + the health checks)',
    ],
    [
      'fair savings below asg-price-capacity-optimized',
      { spotswap: { fairSavingsPct: 55 }, 'asg-price-capacity-optimized': { fairSavingsPct: 56 } },
      "steady-web: fair savings ≥ asg-price-capacity-optimized's",
    ],
    [
      "fair savings under 99% of the zone-balanced oracle's where asg-price-capacity-optimized beats it",
      { spotswap: { fairSavingsPct: 57 }, 'asg-price-capacity-optimized': { fairSavingsPct: 59 } },
      "steady-web: fair savings ≥ 99% of the zone-balanced oracle's (asg-price-capacity-optimized saves more than it)",
    ],
    [
      'convergence later than asg-price-capacity-optimized',
      { spotswap: { convergenceMinutes: 12 } },
      'steady-web: converges no later than asg-price-capacity-optimized',
    ],
    [
      'no convergence at all',
      { spotswap: { convergenceMinutes: null } },
      'steady-web: converges ≥ 4× faster than autospotting',
    ],
    [
      'commitment left unused beyond what on demand leaves',
      {
        spotswap: { billSavingsPct: 44, commitmentWasteUsd: 3, unavoidableCommitmentWasteUsd: 1 },
        oracle: { savingsPct: 62, billSavingsPct: 45 },
      },
      'steady-web: commitment unused ≤ what the commitment-aware oracle or on demand leaves unused',
    ],
    [
      "commitment left unused beyond the commitment-aware oracle's",
      {
        spotswap: { billSavingsPct: 44, commitmentWasteUsd: 0.3, unavoidableCommitmentWasteUsd: 0 },
        oracle: { savingsPct: 62, billSavingsPct: 45, commitmentWasteUsd: 0.28 },
      },
      'steady-web: commitment unused ≤ what the commitment-aware oracle or on demand leaves unused',
    ],
    [
      "savings against the real bill under 90% of the oracle's where the list price's are near it",
      {
        spotswap: { billSavingsPct: 40, commitmentWasteUsd: 0, unavoidableCommitmentWasteUsd: 0 },
        oracle: { savingsPct: 62, billSavingsPct: 45 },
      },
      "steady-web: savings against the real bill ≥ 90% of the oracle's",
    ],
    [
      "savings against the real bill under 95% of the zone-balanced oracle's",
      {
        spotswap: { billSavingsPct: 44, commitmentWasteUsd: 0, unavoidableCommitmentWasteUsd: 0 },
        oracle: { savingsPct: 62, billSavingsPct: 45, zoneBalancedOracleBillSavingsPct: 47 },
      },
      "steady-web: savings against the real bill ≥ 95% of the zone-balanced oracle's",
    ],
    [
      'fair savings against the real bill below asg-price-capacity-optimized',
      {
        spotswap: { billSavingsPct: 44, fairBillSavingsPct: 44, commitmentWasteUsd: 0 },
        oracle: { savingsPct: 62, billSavingsPct: 45 },
        'asg-price-capacity-optimized': { fairSavingsPct: 50, billSavingsPct: 45, fairBillSavingsPct: 44.5 },
      },
      "steady-web: fair savings against the real bill ≥ asg-price-capacity-optimized's",
    ],
    [
      "savings against the real bill under 95% of the commitment-aware oracle's",
      {
        spotswap: { billSavingsPct: 40, commitmentWasteUsd: 0, unavoidableCommitmentWasteUsd: 0 },
        oracle: { savingsPct: 62, billSavingsPct: 45 },
      },
      "steady-web: savings against the real bill ≥ 95% of the commitment-aware oracle's",
    ],
  ])('report %s', (_, byPolicy, target) => {
    expect(missed(checkTargets(results(byPolicy)))).toContain(target)
  })

  it('show a convergence missed by less than a minute as it is, not rounded to a tie', () => {
    const checks = checkTargets(
      results({
        spotswap: { convergenceMinutes: 4.13 },
        'asg-price-capacity-optimized': { convergenceMinutes: 3.67 },
      }),
    )
    expect(checks).toContainEqual(
      expect.objectContaining({
        target: 'steady-web: converges no later than asg-price-capacity-optimized',
        met: false,
        detail: '4.1 min vs 3.7 min',
      }),
    )
  })

  it('hold spotswap to no more waste than on demand and 95% of the commitment-aware oracle', () => {
    const checks = checkTargets(
      results({
        spotswap: { billSavingsPct: 43, commitmentWasteUsd: 1.005, unavoidableCommitmentWasteUsd: 1 },
        oracle: { savingsPct: 62, billSavingsPct: 45 },
        autospotting: { savingsPct: 50, convergenceMinutes: 300, capacityAvailabilityPct: 99.5 },
      }),
    )
    expect(missed(checks)).toEqual([])
    expect(checks.filter((c) => c.target.includes('commitment-aware oracle'))).toHaveLength(
      2 * SCENARIO_KEYS.length,
    )
  })

  it('allow the commitment the bill-optimal oracle leaves unused, and say both figures', () => {
    const checks = checkTargets(
      results({
        spotswap: { billSavingsPct: 47.45, commitmentWasteUsd: 0.26, unavoidableCommitmentWasteUsd: 0 },
        oracle: { savingsPct: 62, billSavingsPct: 48.59, commitmentWasteUsd: 0.28 },
      }),
    )
    const waste = checks.find((c) => c.target.startsWith('commitments: commitment unused'))
    expect(waste).toMatchObject({ met: true, detail: '$0.26 vs $0.28 (oracle $0.28, on demand $0.00)' })
  })

  it('compare savings against the real bill on a scenario with commitments, the list price beside', () => {
    // The committed bench's commitments scenario: behind the oracle on the list price, not on the bill.
    const checks = checkTargets(
      results({
        spotswap: {
          savingsPct: 50,
          fairSavingsPct: 50,
          billSavingsPct: 47.45,
          fairBillSavingsPct: 47.45,
          commitmentWasteUsd: 0,
        },
        oracle: {
          savingsPct: 60.43,
          zoneBalancedOracleSavingsPct: 58.48,
          billSavingsPct: 48.59,
          zoneBalancedOracleBillSavingsPct: 47.41,
        },
        'asg-price-capacity-optimized': {
          savingsPct: 58.28,
          fairSavingsPct: 58.18,
          billSavingsPct: 39.48,
          fairBillSavingsPct: 39.4,
        },
        autospotting: { convergenceMinutes: 300 },
      }),
    )
    const commitments = checks.filter((c) => c.target.startsWith('commitments:'))
    expect(commitments.filter((c) => !c.met)).toEqual([])
    expect(commitments.map((c) => [c.target, c.detail])).toEqual(
      expect.arrayContaining([
        [
          "commitments: savings against the real bill ≥ 90% of the oracle's",
          '47.45% vs 48.59% = 97.7% (list price: 50.00% vs 60.43%)',
        ],
        [
          "commitments: savings against the real bill ≥ 95% of the zone-balanced oracle's",
          '47.45% vs 47.41% = 100.1% (list price: 50.00% vs 58.48%)',
        ],
        [
          "commitments: fair savings against the real bill ≥ asg-price-capacity-optimized's",
          '47.45% vs 39.40% (list price: 50.00% vs 58.18%)',
        ],
      ]),
    )
  })

  it('keep the list price where a compared policy has no bill', () => {
    // The oracle's bill but not its zone-balanced one; asg-price-capacity-optimized's list price only.
    const checks = checkTargets(results({ spotswap: { billSavingsPct: 47 }, oracle: { billSavingsPct: 48 } }))
    expect(checks.map((c) => c.target)).toEqual(
      expect.arrayContaining([
        "steady-web: savings against the real bill ≥ 90% of the oracle's",
        "steady-web: savings ≥ 95% of the zone-balanced oracle's",
        "steady-web: fair savings ≥ 99% of the zone-balanced oracle's (asg-price-capacity-optimized saves more than it)",
      ]),
    )
  })
})

describe('the commitments note', () => {
  it("gives each policy's bill and waste, the oracle's and the zone-balanced oracle's bill", () => {
    expect(
      commitmentNote({
        spotswap: figures({
          billSavingsPct: 47.45,
          commitmentWasteUsd: 0.26,
          unavoidableCommitmentWasteUsd: 0,
        }),
        oracle: figures({
          billSavingsPct: 48.59,
          commitmentWasteUsd: 0.28,
          zoneBalancedOracleBillSavingsPct: 47.41,
        }),
      }),
    ).toEqual([
      'Savings against the real bill (on demand with the same commitments), commitment unused: spotswap 47.45% ($0.26 unused), oracle 48.59% ($0.28 unused); the oracle held to zone balance 47.41%; on demand leaves $0.00 unused.',
    ])
  })
})

describe('ratios to spotswap', () => {
  it.each([
    [30, 60, '0.50×'],
    [60, 60, '1.00×'],
    [5, 0, '—'],
    [null, 60, '—'],
    [60, null, '—'],
  ])('%s against %s is %s', (value, spotswap, expected) => {
    expect(ratio(value, spotswap)).toBe(expected)
  })
})

describe('the planning targets', () => {
  const withScale = (scale: Partial<BenchResults['scale']>): BenchResults => {
    const base = results()
    return { ...base, scale: { ...base.scale, ...scale } }
  }
  const planning = (checks: ReturnType<typeof checkTargets>) =>
    checks.filter((c) => c.target.startsWith('planning'))
  const baseline = {
    commit: 'abc1234',
    date: '2026-11-27T00:00:00.000Z',
    instances: 100_000,
    runs: 10,
    ratio: 4,
    spreadPct: 10,
    ratioRuns: [4],
  }

  it('hold the warm pass to 1.2 s of CPU and 512 MB when it was measured', () => {
    const [under] = planning(checkTargets(withScale({ warmPlanCpuMs: 1150, warmPeakRssMb: 430 })))
    expect(under).toMatchObject({ met: true, target: expect.stringContaining('warm (median of five)') })
    const [over] = planning(checkTargets(withScale({ warmPlanCpuMs: 1250, warmPeakRssMb: 430 })))
    expect(over?.met).toBe(false)
    const [heavy] = planning(checkTargets(withScale({ warmPlanCpuMs: 1000, warmPeakRssMb: 600 })))
    expect(heavy?.met).toBe(false)
  })

  it('fall back on the cold pass for results that have no warm figure', () => {
    expect(planning(checkTargets(withScale({ planCpuMs: 1900 })))).toEqual([
      expect.objectContaining({ met: true, target: 'planning 100,000 instances: < 2 s CPU, < 512 MB' }),
    ])
  })

  it("gate the engine-to-reference ratio at the baseline's plus twice its spread, at the same size only", () => {
    const gate = (ratio: number, instances = 100_000) =>
      planning(
        checkTargets(withScale({ warmPlanCpuMs: 1000, referenceRatio: ratio }), { ...baseline, instances }),
      )
    expect(gate(4.79).map((c) => c.met)).toEqual([true, true])
    expect(gate(4.81).map((c) => c.met)).toEqual([true, false])
    expect(gate(9, 40)).toHaveLength(1)
  })
})
