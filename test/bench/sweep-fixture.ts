/** A fault sweep in results.json's shape for the bench's tests: every scenario, level and policy alike. */
import { FAULT_LEVELS, type FaultLevel, FULL_SWEEP } from '../../tools/bench/fault-sweep.ts'
import { SCENARIO_KEYS } from '../../tools/bench/results.ts'
import type { FaultSweep, SweepFigures } from '../../tools/bench/sweep-results.ts'

export const sweepFigures = (overrides: Partial<SweepFigures> = {}): SweepFigures => ({
  convergenceMinutes: 20,
  faultFreeGroupsConvergenceMinutes: 20,
  orphanInstanceMinutes: 0,
  servingAvailabilityPct: 99.95,
  savingsPct: 55,
  ...overrides,
})

/** Each run's figures: the defaults with what `vary` says for that scenario, level, policy and seed. */
export const faultSweep = (
  vary: (
    scenario: string,
    level: FaultLevel,
    policy: string,
    seed: number,
  ) => Partial<SweepFigures> = () => ({}),
  hours = 24,
): FaultSweep => ({
  levels: Object.fromEntries(FULL_SWEEP.levels.map((level) => [level, FAULT_LEVELS[level]])),
  policies: FULL_SWEEP.policies,
  scenarios: Object.fromEntries(
    SCENARIO_KEYS.map((scenario) => {
      const seeds = [1, 2, 3]
      const levels = Object.fromEntries(
        FULL_SWEEP.levels.map((level) => [
          level,
          Object.fromEntries(
            FULL_SWEEP.policies.map((policy) => {
              const perSeed = seeds.map((seed) => sweepFigures(vary(scenario, level, policy, seed)))
              // The fixture's median is the second seed's: tests that vary seeds keep it the middle one.
              return [policy, { median: perSeed[1] as SweepFigures, seeds: perSeed }]
            }),
          ),
        ]),
      )
      return [scenario, { simulatedHours: hours, seeds, levels }]
    }),
  ),
})
