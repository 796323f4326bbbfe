/** The bench's scenario files, loaded as a run uses them (shortened in quick mode). */
import { join } from 'node:path'
import type { Catalog } from '../../lambdas/core/types.ts'
import { REPOSITORY } from '../shared/subprocess.ts'
import { loadScenarioFile } from '../sim/scenario/load.ts'
import type { Scenario } from '../sim/scenario/types.ts'

export const SCENARIO_DIRECTORY = join(REPOSITORY, 'bench', 'scenarios')

/** Simulated hours per scenario in quick mode: enough for every policy to act, short enough for CI. */
const QUICK_HOURS = 1

export const scenarioPath = (key: string): string => join(SCENARIO_DIRECTORY, `${key}.json`)

export const benchScenario = (key: string, catalog: Catalog, quick: boolean): Scenario => {
  const loaded = loadScenarioFile(scenarioPath(key), catalog)
  return quick ? { ...loaded, durationHours: Math.min(QUICK_HOURS, loaded.durationHours) } : loaded
}
