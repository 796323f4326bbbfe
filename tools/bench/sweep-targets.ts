/**
 * The fault sweep's targets for spotswap at the worst level, per scenario, each against the same
 * scenario's fault-free figures (medians over the seeds). Reported met or missed with their numbers.
 */
import { BASELINE_LEVEL, WORST_LEVEL } from './fault-sweep.ts'
import type { FaultSweep, SweepFigures } from './sweep-results.ts'
import type { TargetCheck } from './target-check.ts'

/** Faults may slow convergence by a run or two per crash: at most twice the fault-free time plus this. */
export const CONVERGENCE_SLACK_MINUTES = 10
/** A crash may leave a launch behind for a run or two, not for hours. */
export const ORPHAN_MINUTES_PER_DAY = 30
export const SAVINGS_LOSS_POINTS = 1
export const SERVING_LOSS_POINTS = 0.05
/** Its interruptions cost every spot policy serving capacity, faults or not. */
const SERVING_AGAINST_ON_DEMAND_EXCEPT = new Set(['gpu-fleet'])

const fixed = (value: number, digits: number) => value.toFixed(digits)
const minutes = (value: number | null) => (value === null ? 'never' : `${fixed(value, 0)} min`)

export const checkSweepTargets = (sweep: FaultSweep): TargetCheck[] => {
  const checks: TargetCheck[] = []
  const at = `at ${WORST_LEVEL} faults`
  for (const [name, scenario] of Object.entries(sweep.scenarios)) {
    const figures = (level: string, policy: string): SweepFigures | undefined =>
      scenario.levels[level]?.[policy]?.median
    const faulted = figures(WORST_LEVEL, 'spotswap')
    const clean = figures(BASELINE_LEVEL, 'spotswap')
    // A quick sweep without the worst level has nothing to check.
    if (faulted === undefined || clean === undefined) continue
    const cleanConvergence = clean.faultFreeGroupsConvergenceMinutes
    const limit = cleanConvergence === null ? null : 2 * cleanConvergence + CONVERGENCE_SLACK_MINUTES
    const converged = faulted.faultFreeGroupsConvergenceMinutes
    checks.push({
      target: `${name} ${at}: converges within 2× fault-free + ${CONVERGENCE_SLACK_MINUTES} min (groups converging without faults)`,
      met: converged !== null && limit !== null && converged <= limit,
      detail: `${minutes(converged)} vs ${minutes(cleanConvergence)} fault-free, limit ${minutes(limit)}`,
    })
    const days = scenario.simulatedHours / 24
    const perDay = faulted.orphanInstanceMinutes / days
    checks.push({
      target: `${name} ${at}: orphan instance-minutes ≤ ${ORPHAN_MINUTES_PER_DAY} per simulated day`,
      met: perDay <= ORPHAN_MINUTES_PER_DAY,
      detail: `${fixed(perDay, 1)} per day (${fixed(faulted.orphanInstanceMinutes, 1)} in ${scenario.simulatedHours} h)`,
    })
    checks.push({
      target: `${name} ${at}: savings ≥ fault-free − ${SAVINGS_LOSS_POINTS} point`,
      met: faulted.savingsPct >= clean.savingsPct - SAVINGS_LOSS_POINTS,
      detail: `${fixed(faulted.savingsPct, 2)}% vs ${fixed(clean.savingsPct, 2)}%`,
    })
    checks.push({
      target: `${name} ${at}: serving ≥ fault-free − ${SERVING_LOSS_POINTS} points`,
      met: faulted.servingAvailabilityPct >= clean.servingAvailabilityPct - SERVING_LOSS_POINTS,
      detail: `${fixed(faulted.servingAvailabilityPct, 3)}% vs ${fixed(clean.servingAvailabilityPct, 3)}%`,
    })
    const onDemand = figures(WORST_LEVEL, 'on-demand')
    if (onDemand !== undefined && !SERVING_AGAINST_ON_DEMAND_EXCEPT.has(name))
      checks.push({
        target: `${name} ${at}: serving ≥ on-demand's at the same level − ${SERVING_LOSS_POINTS} points`,
        met: faulted.servingAvailabilityPct >= onDemand.servingAvailabilityPct - SERVING_LOSS_POINTS,
        detail: `${fixed(faulted.servingAvailabilityPct, 3)}% vs ${fixed(onDemand.servingAvailabilityPct, 3)}%`,
      })
  }
  return checks
}
