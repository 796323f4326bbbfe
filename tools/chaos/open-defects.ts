/**
 * Engine defects chaos found and that are not fixed yet, by seed, with why (`--open-defects FILE`): a
 * sweep reports them as open instead of failing on them, and fails on a listed seed that passes, so the
 * list only ever holds seeds that still fail. Each one is also described under Findings in
 * docs/reliability.md.
 */
import { readFileSync } from 'node:fs'
import { UsageError } from '../shared/args.ts'

/** Seed → what fails and why, as the findings table says it. */
export type OpenDefects = ReadonlyMap<number, string>

export const readOpenDefects = (path: string): OpenDefects => {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new UsageError(`--open-defects ${path}: ${(error as Error).message}`)
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(`--open-defects ${path}: expected an object of seed → why`)
  const defects = new Map<number, string>()
  for (const [key, why] of Object.entries(parsed)) {
    if (!/^\d{1,9}$/.test(key) || typeof why !== 'string' || why.trim() === '')
      throw new UsageError(`--open-defects ${path}: "${key}" must be a seed with a non-empty reason`)
    defects.set(Number(key), why)
  }
  return defects
}

export interface OpenDefectVerdict {
  /** Listed seeds that failed, as expected. */
  readonly open: readonly number[]
  /** Failed seeds that are not listed: real failures. */
  readonly unexpected: readonly number[]
  /** Listed seeds in the sweep's range that passed: fixed, to be taken off the list. */
  readonly fixed: readonly number[]
}

export const judgeOpenDefects = (
  sweep: { readonly firstSeed: number; readonly runs: number; readonly failedSeeds: readonly number[] },
  defects: OpenDefects,
): OpenDefectVerdict => {
  const failed = new Set(sweep.failedSeeds)
  const inRange = (seed: number) => seed >= sweep.firstSeed && seed < sweep.firstSeed + sweep.runs
  return {
    open: sweep.failedSeeds.filter((seed) => defects.has(seed)),
    unexpected: sweep.failedSeeds.filter((seed) => !defects.has(seed)),
    fixed: [...defects.keys()].filter((seed) => inRange(seed) && !failed.has(seed)).sort((a, b) => a - b),
  }
}
