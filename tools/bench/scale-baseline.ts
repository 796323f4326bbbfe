/**
 * The planning regression gate's baseline: the warm pass's engine-to-reference CPU ratio
 * (reference-workload.ts), measured over repeated runs on one commit, with how far those runs spread.
 * The bench then calls a later ratio a regression only beyond twice that spread, so the gate trips on
 * the engine, not on the machine's noise.
 *
 *   node --import tsx tools/bench/scale-baseline.ts [--runs 10] [--quick]
 *
 * writes bench/scale-baseline.json (each run a probe process of its own, as the bench's).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { REPOSITORY } from '../shared/subprocess.ts'
import { FULL_SCALE, median, planPasses, QUICK_SCALE, type ScaleSize, spreadPct } from './scale.ts'

export interface ScaleBaseline {
  readonly commit: string
  readonly date: string
  readonly instances: number
  readonly runs: number
  /** Median engine-to-reference ratio of the warm pass over the runs. */
  readonly ratio: number
  /** (max − min) / median of the runs' ratios, percent. */
  readonly spreadPct: number
  readonly ratioRuns: readonly number[]
}

export const BASELINE_PATH = join(REPOSITORY, 'bench', 'scale-baseline.json')

/** The committed baseline, or undefined when there is none or it is not one (the gate is then not run). */
export const readScaleBaseline = (path = BASELINE_PATH): ScaleBaseline | undefined => {
  if (!existsSync(path)) return undefined
  const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<ScaleBaseline>
  const numbers = [value.instances, value.ratio, value.spreadPct]
  return numbers.every((n) => typeof n === 'number' && Number.isFinite(n))
    ? (value as ScaleBaseline)
    : undefined
}

/** The largest ratio the gate lets pass: the baseline's plus twice its spread. */
export const ratioLimit = (baseline: ScaleBaseline): number =>
  Math.round(1000 * baseline.ratio * (1 + (2 * baseline.spreadPct) / 100)) / 1000

export const measureBaseline = async (
  size: ScaleSize,
  runs: number,
  commit: string,
): Promise<ScaleBaseline> => {
  const passes = await planPasses(size, runs, { state: 'unconverged', warm: true })
  const ratioRuns = passes.map((m) => Math.round((1000 * m.cpuMs) / m.referenceCpuMs) / 1000)
  return {
    commit,
    date: new Date().toISOString(),
    instances: size.regions * size.groupsPerRegion * size.instancesPerGroup,
    runs,
    ratio: median(ratioRuns),
    spreadPct: spreadPct(ratioRuns),
    ratioRuns,
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2)
  const runs = Number(args[args.indexOf('--runs') + 1] ?? 10)
  const { execFileSync } = await import('node:child_process')
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPOSITORY }).toString().trim()
  const baseline = await measureBaseline(
    args.includes('--quick') ? QUICK_SCALE : FULL_SCALE,
    args.includes('--runs') && Number.isInteger(runs) && runs > 1 ? runs : 10,
    commit,
  )
  writeFileSync(BASELINE_PATH, `${JSON.stringify(baseline, null, 2)}\n`)
  process.stdout.write(`${JSON.stringify(baseline)}\n`)
}
