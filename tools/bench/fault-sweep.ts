/**
 * The fault sweep: a scenario at fault levels that each replace the scenario's own faults (throttling on
 * at every level, as in every scenario), over several seeds, under each simulated policy. Per run it
 * keeps convergence, orphan instance-minutes, serving and savings; per level and policy, the median.
 */
import type { Catalog } from '../../lambdas/core/types.ts'
import { type FaultConfig, NO_FAULTS } from '../sim/faults.ts'
import { round } from '../sim/report.ts'
import type { Scenario } from '../sim/scenario/types.ts'
import { type SimulationRun, simulateRun } from '../sim/simulate.ts'
import { SIMULATED_POLICIES } from './policies.ts'
import type { PolicyKey } from './results.ts'
import type { FaultSweep, ScenarioSweep, SweepCell, SweepFigures } from './sweep-results.ts'

export type SweptPolicy = Exclude<PolicyKey, 'oracle'>

/**
 * The levels. A crash is per API request: at 0.5%, a run of 10 to 20 requests dies 5 to 10% of the
 * time. `none` is the baseline the targets compare with (not the scenario's own faults, which some have).
 */
export const FAULT_LEVELS = {
  none: NO_FAULTS,
  'api-errors': { apiErrorRate: 0.01, throttle: true, crashRate: 0 },
  crashes: { apiErrorRate: 0, throttle: true, crashRate: 0.005 },
  both: { apiErrorRate: 0.01, throttle: true, crashRate: 0.005 },
} as const satisfies Record<string, FaultConfig>
export type FaultLevel = keyof typeof FAULT_LEVELS

export const BASELINE_LEVEL = 'none' satisfies FaultLevel
/** The level the targets hold spotswap to: every fault at once. */
export const WORST_LEVEL = 'both' satisfies FaultLevel

export interface SweepPlan {
  /** The baseline first: the other levels' convergence is judged on the groups it converged. */
  readonly levels: readonly FaultLevel[]
  /** Seeds per level: the scenario's own seed, then the next ones. */
  readonly seeds: number
  readonly policies: readonly SweptPolicy[]
}

export const FULL_SWEEP: SweepPlan = {
  levels: Object.keys(FAULT_LEVELS) as FaultLevel[],
  seeds: 3,
  policies: Object.keys(SIMULATED_POLICIES) as SweptPolicy[],
}

/** CI: the baseline and the worst level, one seed, spotswap and the on-demand policy the targets name. */
export const QUICK_SWEEP: SweepPlan = {
  levels: [BASELINE_LEVEL, WORST_LEVEL],
  seeds: 1,
  policies: ['spotswap', 'on-demand'],
}

export const sweepLevels = (plan: SweepPlan): FaultSweep['levels'] =>
  Object.fromEntries(plan.levels.map((level) => [level, FAULT_LEVELS[level]]))

/** The groups that converged in a run: the baseline's, for the other levels' comparable convergence. */
export const convergedGroups = (run: SimulationRun): ReadonlySet<string> =>
  new Set(
    Object.entries(run.report.groups)
      .filter(([, figures]) => figures.convergenceMinutes !== null)
      .map(([name]) => name),
  )

/** When the last of `groups` converged in `run` (0 for none); null if one of them never did. */
export const groupsConvergenceMinutes = (run: SimulationRun, groups: ReadonlySet<string>): number | null => {
  let latest = 0
  for (const name of groups) {
    const minutes = run.report.groups[name]?.convergenceMinutes ?? null
    if (minutes === null) return null
    latest = Math.max(latest, minutes)
  }
  return latest
}

export const sweepFigures = (run: SimulationRun, baselineGroups: ReadonlySet<string>): SweepFigures => ({
  convergenceMinutes: run.report.totals.convergenceMinutes,
  faultFreeGroupsConvergenceMinutes: groupsConvergenceMinutes(run, baselineGroups),
  // The report's figure: time past the orphan invariant's deadline (grace + 3 schedule periods, simulate.ts).
  orphanInstanceMinutes: run.report.totals.orphanInstanceMinutes,
  servingAvailabilityPct: round(run.serving.totalPct, 3),
  savingsPct: run.report.totals.savingsPct,
})

/**
 * The median of the seeds' values, never (null) counting as the largest; of an even count, the higher of
 * the two middle ones, so a tie between seeds resolves to the worse figure for convergence and orphans.
 */
export const median = (values: readonly (number | null)[]): number | null => {
  const sorted = [...values].sort((a, b) => (a === null ? 1 : b === null ? -1 : a - b))
  return sorted[Math.floor(sorted.length / 2)] ?? null
}

const medianNumber = (values: readonly number[]): number => median(values) ?? 0

/** Each figure's median over the seeds, taken on its own. */
export const medianOf = (seeds: readonly SweepFigures[]): SweepFigures => ({
  convergenceMinutes: median(seeds.map((s) => s.convergenceMinutes)),
  faultFreeGroupsConvergenceMinutes: median(seeds.map((s) => s.faultFreeGroupsConvergenceMinutes)),
  orphanInstanceMinutes: medianNumber(seeds.map((s) => s.orphanInstanceMinutes)),
  servingAvailabilityPct: medianNumber(seeds.map((s) => s.servingAvailabilityPct)),
  savingsPct: medianNumber(seeds.map((s) => s.savingsPct)),
})

export const sweepScenario = async (
  scenario: Scenario,
  catalog: Catalog,
  plan: SweepPlan,
  onRun?: (seed: number, level: FaultLevel, policy: SweptPolicy) => void,
): Promise<ScenarioSweep> => {
  if (plan.levels[0] !== BASELINE_LEVEL)
    throw new Error(`a fault sweep starts with the ${BASELINE_LEVEL} level`)
  const seeds = Array.from({ length: plan.seeds }, (_, i) => scenario.seed + i)
  const runs = new Map<string, SweepFigures[]>()
  const cellKey = (level: FaultLevel, policy: SweptPolicy) => `${level}/${policy}`
  for (const seed of seeds)
    for (const policy of plan.policies) {
      let baselineGroups: ReadonlySet<string> = new Set()
      for (const level of plan.levels) {
        onRun?.(seed, level, policy)
        const run = await simulateRun(
          { ...scenario, seed, faults: FAULT_LEVELS[level] },
          { policy: SIMULATED_POLICIES[policy], catalog },
        )
        if (level === BASELINE_LEVEL) baselineGroups = convergedGroups(run)
        const key = cellKey(level, policy)
        runs.set(key, [...(runs.get(key) ?? []), sweepFigures(run, baselineGroups)])
      }
    }
  const cell = (level: FaultLevel, policy: SweptPolicy): SweepCell => {
    const perSeed = runs.get(cellKey(level, policy)) ?? []
    return { median: medianOf(perSeed), seeds: perSeed }
  }
  return {
    simulatedHours: scenario.durationHours,
    seeds,
    levels: Object.fromEntries(
      plan.levels.map((level) => [
        level,
        Object.fromEntries(plan.policies.map((policy) => [policy, cell(level, policy)])),
      ]),
    ),
  }
}
