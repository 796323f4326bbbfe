/**
 * The fault sweep's part of results.json: per scenario, fault level and simulated policy, each seed's
 * figures and their median, and a check of that shape.
 */
import type { FaultConfig } from '../sim/faults.ts'

export interface SweepFigures {
  /** Minutes until every managed group first reached its on-demand minimum; null if one never did. */
  readonly convergenceMinutes: number | null
  /**
   * Minutes until every group that converged in the same seed's fault-free run had converged (0 when none
   * did); null if one of them never did. Equal to convergenceMinutes wherever every group converges
   * without faults, and still a figure where one never does.
   */
  readonly faultFreeGroupsConvergenceMinutes: number | null
  /** Spot instances the engine launched, running outside any group past their orphan deadline. */
  readonly orphanInstanceMinutes: number
  readonly servingAvailabilityPct: number
  readonly savingsPct: number
}

export interface SweepCell {
  /** Each figure's median over the seeds, on its own (fault-sweep.ts `medianOf`). */
  readonly median: SweepFigures
  /** In the order of the scenario's seeds. */
  readonly seeds: readonly SweepFigures[]
}

export interface ScenarioSweep {
  /** The simulated period, for orphan instance-minutes per simulated day. */
  readonly simulatedHours: number
  readonly seeds: readonly number[]
  /** Level → policy → figures. */
  readonly levels: Readonly<Record<string, Readonly<Record<string, SweepCell>>>>
}

export interface FaultSweep {
  /** The faults of each level, in place of each scenario's own. */
  readonly levels: Readonly<Record<string, FaultConfig>>
  readonly policies: readonly string[]
  readonly scenarios: Readonly<Record<string, ScenarioSweep>>
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)

const figuresProblems = (value: unknown, path: string): string[] => {
  if (!isObject(value)) return [`${path}: expected an object`]
  const problems: string[] = []
  for (const key of ['orphanInstanceMinutes', 'servingAvailabilityPct', 'savingsPct'])
    if (!isNumber(value[key])) problems.push(`${path}.${key}: expected a number`)
  for (const key of ['convergenceMinutes', 'faultFreeGroupsConvergenceMinutes'])
    if (value[key] !== null && !isNumber(value[key]))
      problems.push(`${path}.${key}: expected a number or null`)
  return problems
}

const cellProblems = (value: unknown, path: string, seeds: number): string[] => {
  if (!isObject(value)) return [`${path}: expected an object`]
  const perSeed = value.seeds
  if (!Array.isArray(perSeed) || perSeed.length !== seeds)
    return [`${path}.seeds: expected one entry per seed (${seeds})`]
  return [
    ...figuresProblems(value.median, `${path}.median`),
    ...perSeed.flatMap((figures, i) => figuresProblems(figures, `${path}.seeds[${i}]`)),
  ]
}

/** Every way `value` differs from the fault sweep's shape: each scenario with every level and policy it names. */
export const faultSweepProblems = (value: unknown, scenarios: readonly string[]): string[] => {
  const path = '$.faultSweep'
  if (!isObject(value)) return [`${path}: expected an object`]
  const levels = isObject(value.levels) ? Object.keys(value.levels) : []
  const policies = Array.isArray(value.policies) ? value.policies.filter((p) => typeof p === 'string') : []
  const problems: string[] = []
  if (!levels.includes('none'))
    problems.push(`${path}.levels: expected the fault-free level "none" and others`)
  if (policies.length === 0) problems.push(`${path}.policies: expected a non-empty list of policies`)
  const byScenario = isObject(value.scenarios) ? value.scenarios : {}
  for (const scenario of scenarios) {
    const at = `${path}.scenarios.${scenario}`
    const sweep = byScenario[scenario]
    if (!isObject(sweep)) {
      problems.push(`${at}: expected an object`)
      continue
    }
    if (!isNumber(sweep.simulatedHours) || sweep.simulatedHours <= 0)
      problems.push(`${at}.simulatedHours: expected a positive number`)
    const seeds = Array.isArray(sweep.seeds) && sweep.seeds.every(isNumber) ? sweep.seeds.length : 0
    if (seeds === 0) problems.push(`${at}.seeds: expected a non-empty list of seeds`)
    const byLevel = isObject(sweep.levels) ? sweep.levels : {}
    for (const level of levels)
      for (const policy of policies) {
        const byPolicy = byLevel[level]
        problems.push(
          ...cellProblems(
            isObject(byPolicy) ? byPolicy[policy] : undefined,
            `${at}.levels.${level}.${policy}`,
            seeds,
          ),
        )
      }
  }
  return problems
}
