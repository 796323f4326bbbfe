/**
 * `npm run bench`, in one process: every standard scenario under every policy, the engine's scale
 * figures (child processes) and the Lambda figures (a subprocess), gathered into results.json's shape.
 */
import { join } from 'node:path'
import { embeddedCatalog } from '../data/catalog.ts'
import { currentCommit, machineDescription } from '../shared/machine.ts'
import { REPOSITORY } from '../shared/subprocess.ts'
import { loadScenarioFile } from '../sim/scenario/load.ts'
import { measureLambdas } from './lambda-figures.ts'
import type { BenchDetails } from './render-markdown.ts'
import type { BenchResults, PolicyFigures, PolicyKey } from './results.ts'
import { SCENARIO_KEYS } from './results.ts'
import { FULL_SCALE, measureScale, QUICK_SCALE } from './scale.ts'
import { runScenario } from './scenario-run.ts'

export const SCENARIO_DIRECTORY = join(REPOSITORY, 'bench', 'scenarios')

export interface BenchOptions {
  /** Small sizes for CI: one simulated hour per scenario, a small account, one import per Lambda. */
  readonly quick: boolean
  /** Told what is being measured, step by step. */
  readonly onStep?: (step: string) => void
}

/** Simulated hours per scenario in quick mode: enough for every policy to act, short enough for CI. */
const QUICK_HOURS = 1
/** Fresh-process imports per Lambda bundle (the median is reported). */
const COLD_START_RUNS = { quick: 1, full: 9 }

export const scenarioPath = (key: string): string => join(SCENARIO_DIRECTORY, `${key}.json`)

export const runBench = async (
  options: BenchOptions,
): Promise<{ results: BenchResults; details: BenchDetails }> => {
  const step = options.onStep ?? (() => {})
  // The code measured is the code at the start: a commit made during a ten-minute run is not it.
  const commit = currentCommit()
  const date = new Date().toISOString()
  const catalog = embeddedCatalog()
  const scenarios: Record<string, Record<PolicyKey, PolicyFigures>> = {}
  const scenarioDetails: Record<string, BenchDetails['scenarios'][string]> = {}
  for (const key of SCENARIO_KEYS) {
    const loaded = loadScenarioFile(scenarioPath(key), catalog)
    const scenario = options.quick
      ? { ...loaded, durationHours: Math.min(QUICK_HOURS, loaded.durationHours) }
      : loaded
    const outcome = await runScenario(scenario, catalog, (policy) => step(`${key}: ${policy}`))
    scenarios[key] = { ...outcome.figures }
    scenarioDetails[key] = { violations: outcome.violations }
  }
  const scale = await measureScale(options.quick ? QUICK_SCALE : FULL_SCALE, step)
  step('Lambda bundles and init time')
  const lambda = await measureLambdas(options.quick ? COLD_START_RUNS.quick : COLD_START_RUNS.full)
  return {
    results: {
      commit,
      date,
      machine: machineDescription(),
      scenarios,
      scale: scale.figures,
      lambda: lambda.figures,
    },
    details: { scenarios: scenarioDetails, scale: scale.details, lambda: lambda.details },
  }
}
