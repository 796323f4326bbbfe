/**
 * `npm run bench`: every standard scenario under every policy, the same scenarios again at fault levels
 * (in child processes when given jobs), the engine's scale figures (child processes) and the Lambda
 * figures (a subprocess), gathered into results.json's shape.
 */

import { embeddedCatalog } from '../data/catalog.ts'
import { currentCommit, machineDescription } from '../shared/machine.ts'
import { benchScenario } from './bench-scenario.ts'
import { FULL_SWEEP, QUICK_SWEEP } from './fault-sweep.ts'
import { measureLambdas } from './lambda-figures.ts'
import type { BenchDetails } from './render-markdown.ts'
import type { BenchResults, PolicyFigures, PolicyKey } from './results.ts'
import { SCENARIO_KEYS } from './results.ts'
import { measureRunningCosts } from './running-cost-probe.ts'
import { FULL_SCALE, measureScale, QUICK_SCALE } from './scale.ts'
import { runScenario } from './scenario-run.ts'
import { runFaultSweep } from './sweep-jobs.ts'

export { SCENARIO_DIRECTORY, scenarioPath } from './bench-scenario.ts'

export interface BenchOptions {
  /**
   * Small sizes for CI: one simulated hour per scenario, a fault sweep of one seed at the baseline and
   * worst levels, a small account, one import per Lambda.
   */
  readonly quick: boolean
  /** Processes for the fault sweep (1: this one). */
  readonly jobs?: number
  /** Told what is being measured, step by step. */
  readonly onStep?: (step: string) => void
}

/** Fresh-process imports per Lambda bundle (the median is reported). */
const COLD_START_RUNS = { quick: 1, full: 9 }

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
    const scenario = benchScenario(key, catalog, options.quick)
    const outcome = await runScenario(scenario, catalog, (policy) => step(`${key}: ${policy}`))
    scenarios[key] = { ...outcome.figures }
    scenarioDetails[key] = { violations: outcome.violations }
  }
  const faultSweep = await runFaultSweep({
    scenarios: SCENARIO_KEYS,
    catalog,
    quick: options.quick,
    plan: options.quick ? QUICK_SWEEP : FULL_SWEEP,
    jobs: options.jobs ?? 1,
    onStep: step,
  })
  const scale = await measureScale(options.quick ? QUICK_SCALE : FULL_SCALE, step)
  step('running cost of three account sizes')
  const runningCost = await measureRunningCosts()
  step('Lambda bundles and init time')
  const lambda = await measureLambdas(options.quick ? COLD_START_RUNS.quick : COLD_START_RUNS.full)
  return {
    results: {
      commit,
      date,
      machine: machineDescription(),
      scenarios,
      faultSweep,
      scale: scale.figures,
      lambda: lambda.figures,
      runningCost,
    },
    details: { scenarios: scenarioDetails, scale: scale.details, lambda: lambda.details },
  }
}
