/**
 * bench/results.json (issue 6): what one `npm run bench` measured, and a check of its shape that the
 * quick mode (CI) asserts before it reports success.
 */
import type { RunningCostFigures } from './running-cost-probe.ts'
import { type FaultSweep, faultSweepProblems } from './sweep-results.ts'

export const SCENARIO_KEYS = [
  'steady-web',
  'daily-scaling',
  'preemption-traces',
  'gpu-fleet',
  'large-account',
  'slow-health',
  'five-zones-48h',
  'never-healthy-rush',
  'scheduled-retirement',
  'commitments',
  'ecs-cluster',
] as const
export type ScenarioKey = (typeof SCENARIO_KEYS)[number]

export const POLICY_KEYS = [
  'spotswap',
  'autospotting',
  'on-demand',
  'asg-lowest-price',
  'asg-price-capacity-optimized',
  'oracle',
] as const
export type PolicyKey = (typeof POLICY_KEYS)[number]

export interface PolicyFigures {
  /** 1 − cost / cost of the owner's desired capacity on-demand, in percent. */
  readonly savingsPct: number
  /**
   * The same with the capacity a policy left unserved charged at the on-demand price: what the
   * comparisons between policies use, since an empty slot costs nothing and serves no one.
   */
  readonly fairSavingsPct: number
  /** Instance-hours of the owner's desired capacity that were not serving. */
  readonly unservedCapacityHours: number
  /** ∫ min(in service, desired) / ∫ desired over the scenario, in percent (time-weighted). */
  readonly capacityAvailabilityPct: number
  /**
   * ∫ min(members serving traffic, owner's desired) / ∫ owner's desired, in percent (time-weighted): a
   * member serves once InService and healthy in every load balancer of its group (without any: InService).
   */
  readonly servingAvailabilityPct: number
  /** Minutes until every managed group first reached its on-demand minimum; null if one never did. */
  readonly convergenceMinutes: number | null
  /** Interruption warnings received by spot instances. */
  readonly interruptions: number
  /**
   * Interruption warnings per instance-day of the owner's desired capacity: what the pools a policy chose
   * cost in interruptions, beside what they saved. Absent from results written before it was measured.
   */
  readonly interruptionsPerInstanceDay?: number
  /**
   * On-demand instances the managed groups launched themselves (scale-outs, replacements of lost
   * members); absent for the oracle and from older results.
   */
  readonly scaleOutLaunches?: number
  /**
   * Their mean on-demand minutes, from launch until replaced, scaled in or the end of the run (a member
   * kept as the on-demand minimum runs to the end); null when there was none.
   */
  readonly scaleOutOnDemandMinutes?: number | null
  /** Spot instances brought into the groups (attached by the engine, launched by Auto Scaling, or moved by the oracle). */
  readonly replacements: number
  /** API requests per Lambda invocation; null when no Lambda runs (on-demand, asg-*, oracle). */
  readonly apiCallsPerRun: number | null
  /**
   * The oracle only: its savings when held to Auto Scaling's zone balance (each zone's share of a group
   * in that zone's cheapest pool), the part of a gap to the oracle that no zone-balanced policy can close.
   */
  readonly zoneBalancedOracleSavingsPct?: number
  /** The oracle only, on scenarios with commitments: the commitment-aware oracle's billSavingsPct so held. */
  readonly zoneBalancedOracleBillSavingsPct?: number
  /**
   * The asg-* policies only: spot launches per group and pool (`type/zone` → launches), the pools the
   * allocation strategy chose; two asg-* policies with the same figures show here whether they chose alike.
   */
  readonly spotPoolsByGroup?: Readonly<Record<string, Readonly<Record<string, number>>>>
  /**
   * Scenarios with commitments only: 1 − the policy's bill / the bill on demand with the same commitments,
   * in percent (sim/commitment-bill.ts); the oracle's knows the commitments (oracle-commitments.ts).
   */
  readonly billSavingsPct?: number
  /**
   * Scenarios with commitments only: billSavingsPct with the capacity a policy left unserved charged at the
   * on-demand price, as fairSavingsPct is to savingsPct; the oracle's is its billSavingsPct.
   */
  readonly fairBillSavingsPct?: number
  /**
   * Scenarios with commitments only: dollars of commitment paid and left unused; the oracle's, what it leaves
   * where keeping a member on demand to use it would cost more than the member's spot replacement.
   */
  readonly commitmentWasteUsd?: number
  /** What on demand with the same commitments leaves unused: the waste no policy can remove. */
  readonly unavoidableCommitmentWasteUsd?: number
}

/** The policies whose figures carry spotPoolsByGroup. */
export const MIXED_POLICY_KEYS = ['asg-lowest-price', 'asg-price-capacity-optimized'] as const

export interface ScaleFigures {
  readonly regions: number
  /** Groups in the whole account. */
  readonly groups: number
  readonly instances: number
  /** CPU time of one replacer pass over every region (observe and plan), the worse of unconverged and converged. */
  readonly planCpuMs: number
  /** Peak resident memory of that pass on the unconverged account, the simulated account included. */
  readonly peakRssMb: number
  /** The unconverged pass in a warm process (what a scheduled container pays): median CPU of five runs. */
  readonly warmPlanCpuMs?: number
  /** Peak resident memory of the warm pass's median run. */
  readonly warmPeakRssMb?: number
  /**
   * The warm pass's CPU over the reference workload's in the same process (reference-workload.ts), median
   * of five: what a change to the engine moves and the machine's speed and load much less.
   */
  readonly referenceRatio?: number
  /** How far that ratio spread over the five runs: (max − min) / median, percent. */
  readonly referenceRatioSpreadPct?: number
  /** [groups in one region, API requests of one steady-state run]. */
  readonly steadyStateApiCalls: readonly (readonly [number, number])[]
}

export interface LambdaFigures {
  /** Minified esbuild bundle, everything included. */
  readonly bundleBytes: number
  /** Median time to import the bundle in a fresh process: module initialisation. */
  readonly initMs: number
}

export interface BenchResults {
  readonly commit: string
  readonly date: string
  readonly machine: string
  readonly scenarios: Readonly<Record<string, Readonly<Record<string, PolicyFigures>>>>
  /** Every scenario again at fault levels in place of its own faults (fault-sweep.ts). */
  readonly faultSweep: FaultSweep
  readonly scale: ScaleFigures
  readonly lambda: Readonly<Record<string, LambdaFigures>>
  /** spotswap's own monthly cost on three account sizes, beside what it saves there (running-cost.ts). */
  readonly runningCost?: readonly RunningCostFigures[]
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)

/** Every way `value` differs from the results.json shape; empty when it conforms. */
export const resultsProblems = (value: unknown, scenarios: readonly string[] = SCENARIO_KEYS): string[] => {
  const problems: string[] = []
  const need = (ok: boolean, path: string, expected: string) => {
    if (!ok) problems.push(`${path}: expected ${expected}`)
  }
  if (!isObject(value)) return ['$: expected an object']
  for (const key of ['commit', 'date', 'machine'])
    need(typeof value[key] === 'string' && value[key] !== '', `$.${key}`, 'a non-empty string')
  need(!Number.isNaN(Date.parse(String(value.date))), '$.date', 'an ISO date')
  const scenarioMap = value.scenarios
  need(isObject(scenarioMap), '$.scenarios', 'an object')
  for (const scenario of scenarios) {
    const byPolicy = isObject(scenarioMap) ? scenarioMap[scenario] : undefined
    if (!isObject(byPolicy)) {
      problems.push(`$.scenarios.${scenario}: expected an object`)
      continue
    }
    for (const policy of POLICY_KEYS) {
      const path = `$.scenarios.${scenario}.${policy}`
      const figures = byPolicy[policy]
      need(isObject(figures), path, 'an object')
      if (!isObject(figures)) continue
      for (const key of [
        'savingsPct',
        'fairSavingsPct',
        'unservedCapacityHours',
        'capacityAvailabilityPct',
        'servingAvailabilityPct',
        'interruptions',
        'replacements',
      ])
        need(isNumber(figures[key]), `${path}.${key}`, 'a number')
      for (const key of ['convergenceMinutes', 'apiCallsPerRun'])
        need(figures[key] === null || isNumber(figures[key]), `${path}.${key}`, 'a number or null')
      for (const key of [
        'interruptionsPerInstanceDay',
        'scaleOutLaunches',
        'billSavingsPct',
        'fairBillSavingsPct',
        'zoneBalancedOracleBillSavingsPct',
        'commitmentWasteUsd',
        'unavoidableCommitmentWasteUsd',
      ])
        need(figures[key] === undefined || isNumber(figures[key]), `${path}.${key}`, 'a number when present')
      need(
        figures.scaleOutOnDemandMinutes === undefined ||
          figures.scaleOutOnDemandMinutes === null ||
          isNumber(figures.scaleOutOnDemandMinutes),
        `${path}.scaleOutOnDemandMinutes`,
        'a number or null when present',
      )
      if (policy === 'oracle')
        need(
          isNumber(figures.zoneBalancedOracleSavingsPct),
          `${path}.zoneBalancedOracleSavingsPct`,
          'a number',
        )
      if ((MIXED_POLICY_KEYS as readonly string[]).includes(policy))
        need(
          isObject(figures.spotPoolsByGroup) &&
            Object.values(figures.spotPoolsByGroup).every(
              (pools) => isObject(pools) && Object.values(pools).every(isNumber),
            ),
          `${path}.spotPoolsByGroup`,
          'an object of groups, each an object of pools with their launches',
        )
    }
  }
  problems.push(...faultSweepProblems(value.faultSweep, scenarios))
  const scale = value.scale
  need(isObject(scale), '$.scale', 'an object')
  if (isObject(scale)) {
    for (const key of ['regions', 'groups', 'instances', 'planCpuMs', 'peakRssMb'])
      need(isNumber(scale[key]), `$.scale.${key}`, 'a number')
    for (const key of ['warmPlanCpuMs', 'warmPeakRssMb', 'referenceRatio', 'referenceRatioSpreadPct'])
      need(scale[key] === undefined || isNumber(scale[key]), `$.scale.${key}`, 'a number when present')
    const calls = scale.steadyStateApiCalls
    need(
      Array.isArray(calls) &&
        calls.length > 0 &&
        calls.every((pair) => Array.isArray(pair) && pair.length === 2 && pair.every(isNumber)),
      '$.scale.steadyStateApiCalls',
      'a non-empty list of [groups, calls] pairs',
    )
  }
  const lambda = value.lambda
  need(
    isObject(lambda) && Object.keys(lambda).length > 0,
    '$.lambda',
    'an object with one entry per function',
  )
  for (const [name, figures] of Object.entries(isObject(lambda) ? lambda : {})) {
    need(isObject(figures), `$.lambda.${name}`, 'an object')
    for (const key of ['bundleBytes', 'initMs'])
      need(isObject(figures) && isNumber(figures[key]), `$.lambda.${name}.${key}`, 'a number')
  }
  return problems
}
