/**
 * Runs chaos cases through the simulator (the real replacer and interruption handler) and collects the
 * invariant violations. Case `seed` is `generateCase(seed)`; a sweep of N runs from seed S runs S..S+N-1,
 * so any failing run is reproduced alone with `--runs 1 --seed <its seed>`. A failing case can be shrunk
 * by fast-check to a smaller one that still fails.
 */
import fc from 'fast-check'
import type { Log } from '../../lambdas/core/log.ts'
import type { Violation } from '../sim/invariant-ledger.ts'
import { simulate } from '../sim/simulate.ts'
import type { World } from '../sim/world.ts'
import { type ChaosCase, scenarioOf } from './case.ts'
import { caseArbitrary, generateCase } from './generate.ts'
import { chaosFaults, chaosPrepare } from './script.ts'

export interface CaseResult {
  readonly seed: number
  readonly violations: readonly Violation[]
  /** The simulation itself threw (a simulator bug, or an engine exception that escaped its Lambda). */
  readonly error: string | undefined
}

export const passed = (result: CaseResult): boolean =>
  result.violations.length === 0 && result.error === undefined

/**
 * The engine's log lines, each prefixed with the simulated time: what the replacer and the handler did
 * and why, for reading a failing case.
 */
export const timedLog = (write: (line: string) => void, now: () => Date | undefined): Log => {
  const line =
    (level: string) =>
    (message: string, attributes?: Record<string, unknown>): void =>
      write(`${now()?.toISOString() ?? '-'} ${level} ${message} ${JSON.stringify(attributes ?? {})}\n`)
  return { debug: () => {}, info: line('INFO'), warn: line('WARN'), error: line('ERROR') }
}

export const runCase = async (chaos: ChaosCase, log?: (line: string) => void): Promise<CaseResult> => {
  try {
    const scenario = scenarioOf(chaos)
    let world: World | undefined
    const report = await simulate(scenario, {
      ...(log === undefined ? {} : { log: timedLog(log, () => world?.clock.nowDate()) }),
      faults: chaosFaults(chaos, () => world?.clock.now ?? scenario.start, scenario.start),
      prepare: (prepared, invocations) => {
        world = prepared
        chaosPrepare(chaos)(prepared, invocations)
      },
    })
    return { seed: chaos.seed, violations: report.violations, error: undefined }
  } catch (error) {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
    return { seed: chaos.seed, violations: [], error: detail }
  }
}

export interface SweepOptions {
  readonly runs: number
  readonly seed: number
  /** Told every result as it comes. */
  readonly onResult?: (result: CaseResult) => void
}

export interface SweepSummary {
  readonly passed: number
  readonly failed: readonly CaseResult[]
}

export const sweep = async ({ runs, seed, onResult }: SweepOptions): Promise<SweepSummary> => {
  let passedRuns = 0
  const failed: CaseResult[] = []
  for (let n = 0; n < runs; n++) {
    const result = await runCase(generateCase(seed + n))
    onResult?.(result)
    if (passed(result)) passedRuns++
    else failed.push(result)
  }
  return { passed: passedRuns, failed }
}

/** fast-check's smallest case it could find from `seed`'s that still fails, or undefined if it passes. */
export const shrinkCase = async (
  seed: number,
): Promise<{ chaos: ChaosCase; result: CaseResult } | undefined> => {
  let smallest: { chaos: ChaosCase; result: CaseResult } | undefined
  await fc.check(
    fc.asyncProperty(caseArbitrary(seed), async (chaos) => {
      const result = await runCase(chaos)
      if (passed(result)) return true
      smallest = { chaos, result }
      return false
    }),
    { seed, numRuns: 1 },
  )
  return smallest
}
