/**
 * Bundle size and module init time of each Lambda handler, measured by scripts/measure-cold-start.ts (run
 * as a subprocess with `--json`: the script measures when it is loaded, so it cannot be imported).
 */

import { REPOSITORY, runTypeScript } from '../shared/subprocess.ts'
import type { LambdaFigures } from './results.ts'

/** Function name → its handler; the names are the lambdas/ folders. */
export const HANDLERS: Readonly<Record<string, string>> = {
  replacer: 'lambdas/replacer/handler.ts',
  interruption: 'lambdas/interruption/handler.ts',
}

const SCRIPT = 'scripts/measure-cold-start.ts'

interface Stats {
  readonly median: number
  readonly min: number
  readonly max: number
}

export interface ColdStartMeasurement {
  readonly handler: string
  readonly bundleBytes: number
  readonly gzipBytes: number
  readonly runs: number
  readonly importMs: Stats
  readonly importCpuMs: Stats
  readonly baselineImportMs: Stats
}

export const measureLambdas = async (
  runs: number,
): Promise<{ figures: Record<string, LambdaFigures>; details: readonly ColdStartMeasurement[] }> => {
  const handlers = Object.values(HANDLERS)
  const stdout = await runTypeScript(`${REPOSITORY}${SCRIPT}`, [
    ...handlers,
    '--runs',
    String(runs),
    '--json',
  ])
  const { measurements } = JSON.parse(stdout) as { measurements: ColdStartMeasurement[] }
  const figures: Record<string, LambdaFigures> = {}
  for (const [name, handler] of Object.entries(HANDLERS)) {
    const measured = measurements.find((m) => m.handler === handler)
    if (measured === undefined) throw new Error(`${SCRIPT} did not measure ${handler}`)
    figures[name] = { bundleBytes: measured.bundleBytes, initMs: measured.importMs.median }
  }
  return { figures, details: measurements }
}
