/**
 * The fault sweep over every scenario: in this process (one job), or one child process per scenario with
 * at most `jobs` at once, the heaviest scenarios first so that the last one to finish is a light one.
 * Each run is deterministic in its seed, so the figures do not depend on how the work is split.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Catalog } from '../../lambdas/core/types.ts'
import { REPOSITORY } from '../shared/subprocess.ts'
import type { Scenario } from '../sim/scenario/types.ts'
import { benchScenario } from './bench-scenario.ts'
import { type SweepPlan, sweepLevels, sweepScenario } from './fault-sweep.ts'
import type { FaultSweep, ScenarioSweep } from './sweep-results.ts'

export interface SweepRequest {
  readonly scenario: string
  readonly quick: boolean
  readonly plan: SweepPlan
}

const CHILD = fileURLToPath(new URL('./sweep-child.ts', import.meta.url))

/** A heavy scenario's sweep takes minutes, under load many more: the limit only stops a hung child. */
const CHILD_TIMEOUT_MS = 90 * 60_000

const inChild = (request: SweepRequest): Promise<ScenarioSweep> =>
  new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CHILD, JSON.stringify(request)],
      { cwd: REPOSITORY, maxBuffer: 64 * 1024 * 1024, timeout: CHILD_TIMEOUT_MS },
      (error, stdout, stderr) => {
        if (error !== null)
          reject(new Error(`fault sweep of ${request.scenario}: ${error.message}\n${stderr}`))
        else resolve(JSON.parse(stdout) as ScenarioSweep)
      },
    )
  })

/** Simulated instance-hours: what a scenario's runs cost, roughly, to order the work heaviest first. */
export const scenarioWeight = (scenario: Scenario): number =>
  scenario.durationHours *
  scenario.regions.reduce((total, region) => total + region.groups.reduce((sum, g) => sum + g.desired, 0), 0)

/** Runs `work` on every item with at most `limit` running at once, in the items' order; results in that order. */
export const inPool = async <T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> => {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker))
  return results
}

export const runFaultSweep = async (options: {
  readonly scenarios: readonly string[]
  readonly catalog: Catalog
  readonly quick: boolean
  readonly plan: SweepPlan
  readonly jobs: number
  readonly onStep: (step: string) => void
}): Promise<FaultSweep> => {
  const { catalog, quick, plan, jobs, onStep } = options
  const loaded = options.scenarios.map((key) => ({ key, scenario: benchScenario(key, catalog, quick) }))
  const order = [...loaded].sort((a, b) => scenarioWeight(b.scenario) - scenarioWeight(a.scenario))
  const swept = await inPool(order, jobs, async ({ key, scenario }) => {
    if (jobs <= 1)
      return sweepScenario(scenario, catalog, plan, (seed, level, policy) =>
        onStep(`fault sweep ${key}: seed ${seed}, ${level}, ${policy}`),
      )
    onStep(`fault sweep ${key}: ${plan.seeds} seeds × ${plan.levels.length} levels, in a child process`)
    const sweep = await inChild({ scenario: key, quick, plan })
    onStep(`fault sweep ${key}: done`)
    return sweep
  })
  const byKey = new Map(order.map(({ key }, i) => [key, swept[i] as ScenarioSweep]))
  return {
    levels: sweepLevels(plan),
    policies: plan.policies,
    scenarios: Object.fromEntries(options.scenarios.map((key) => [key, byKey.get(key) as ScenarioSweep])),
  }
}
