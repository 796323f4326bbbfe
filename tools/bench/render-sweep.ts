/** The fault sweep as tables: per scenario, one row per policy and level, each median with its seeds. */
import type { FaultConfig } from '../sim/faults.ts'
import type { FaultSweep, ScenarioSweep, SweepCell, SweepFigures } from './sweep-results.ts'

const COLUMNS: readonly {
  readonly figure: keyof SweepFigures
  readonly header: string
  readonly format: (n: number) => string
}[] = [
  { figure: 'convergenceMinutes', header: 'Converged', format: (n) => `${n.toFixed(0)} min` },
  {
    figure: 'faultFreeGroupsConvergenceMinutes',
    header: 'Fault-free groups converged',
    format: (n) => `${n.toFixed(0)} min`,
  },
  { figure: 'orphanInstanceMinutes', header: 'Orphan instance-min', format: (n) => n.toFixed(1) },
  { figure: 'servingAvailabilityPct', header: 'Serving', format: (n) => `${n.toFixed(3)}%` },
  { figure: 'savingsPct', header: 'Savings', format: (n) => `${n.toFixed(2)}%` },
]

export const SWEEP_HEADERS = ['Policy', 'Faults', ...COLUMNS.map((c) => c.header)]

const value = (n: number | null, format: (n: number) => string): string => (n === null ? 'never' : format(n))

/** The median, then each seed's figure in brackets when there are several. */
const cellText = (cell: SweepCell, figure: keyof SweepFigures, format: (n: number) => string): string => {
  const median = value(cell.median[figure], format)
  return cell.seeds.length < 2
    ? median
    : `${median} [${cell.seeds.map((s) => value(s[figure], format)).join(', ')}]`
}

export const sweepRows = (scenario: ScenarioSweep, policies: readonly string[]): string[][] =>
  policies.flatMap((policy) =>
    Object.entries(scenario.levels).flatMap(([level, byPolicy]) => {
      const cell = byPolicy[policy]
      return cell === undefined
        ? []
        : [[policy, level, ...COLUMNS.map(({ figure, format }) => cellText(cell, figure, format))]]
    }),
  )

const faultText = (config: FaultConfig): string =>
  [
    config.apiErrorRate > 0 ? `${100 * config.apiErrorRate}% API errors` : '',
    config.crashRate > 0 ? `${100 * config.crashRate}% crashes per request` : '',
  ]
    .filter((part) => part !== '')
    .join(' and ') || 'no injected faults'

/** What was run: the levels, each with its faults, and the seeds of each scenario. */
export const sweepSummary = (sweep: FaultSweep): string => {
  const levels = Object.entries(sweep.levels)
    .map(([level, config]) => `${level} (${faultText(config)}${config.throttle ? ', throttling' : ''})`)
    .join('; ')
  const seeds = Object.values(sweep.scenarios)[0]?.seeds.length ?? 0
  return `Levels, each in place of the scenario's own faults: ${levels}. ${seeds} seed${seeds === 1 ? '' : 's'} per level (the scenario's own and the next ones); each figure is the median over the seeds (never counting as the longest), the seeds' own figures in brackets.`
}
