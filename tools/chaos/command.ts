/**
 * `spotswap chaos --runs N --seed S`: N random chaos cases (seeds S..S+N-1) against the simulator, the
 * invariants checked after every step. Prints each failing seed with its violations and a one-line
 * reproduction command, and ends with exactly `N passed, M failed`; exits 1 if any failed.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeOptions, integerOption, type OptionSpec, parseOptions, UsageError } from '../shared/args.ts'
import type { CliIo, Command } from '../shared/io.ts'
import { currentCommit, machineDescription } from '../shared/machine.ts'
import { REPOSITORY } from '../shared/subprocess.ts'
import type { ChaosCase } from './case.ts'
import { generateCase } from './generate.ts'
import { judgeOpenDefects, readOpenDefects } from './open-defects.ts'
import { type CaseResult, passed, runCase, shrinkCase, sweep } from './runner.ts'
import { mergeRecords, readSweepRecord, type SweepRecord } from './sweep-record.ts'

const OPTIONS: readonly OptionSpec[] = [
  { name: 'runs', kind: 'value', placeholder: 'N', description: 'how many cases to run (default 100)' },
  { name: 'seed', kind: 'value', placeholder: 'S', description: 'seed of the first case (default 1)' },
  { name: 'case', kind: 'flag', description: "print each failing case's JSON (scenario and script)" },
  {
    name: 'shrink',
    kind: 'flag',
    description: 'shrink each failing case with fast-check and print the smallest one that still fails',
  },
  {
    name: 'replay',
    kind: 'value',
    placeholder: 'FILE',
    description: 'run the one case saved in FILE (as --case or --shrink print it) instead',
  },
  { name: 'log', kind: 'flag', description: "with --replay: print the engine's log lines, timed, to stderr" },
  {
    name: 'jobs',
    kind: 'value',
    placeholder: 'N',
    description: 'split the cases over N child processes (one per core; default 1)',
  },
  {
    name: 'record',
    kind: 'value',
    placeholder: 'FILE',
    description: 'write the sweep record (commit, machine, seeds, results) to FILE as JSON',
  },
  {
    name: 'open-defects',
    kind: 'value',
    placeholder: 'FILE',
    description: 'seeds of known, not yet fixed engine defects (JSON: seed → why): reported, not failed on',
  },
  { name: 'help', kind: 'flag', description: 'show this help' },
]

const USAGE = `Usage: spotswap chaos [options]

Runs random accounts (group shapes, hostile tags, scaling, price spikes, capacity outages, interruptions)
under faults (API errors, throttling, crashes at every step of a swap, runs queued behind one in flight,
duplicated and late events) against spotswap's replacer and interruption handler in the simulator, and
checks the eleven invariants of docs/reliability.md after every step.

${describeOptions(OPTIONS)}`

/** Violations shown per failing seed; the rest are counted. */
const SHOWN = 5

export const reproduction = (seed: number): string => `npm run chaos -- --runs 1 --seed ${seed}`

export const describeFailure = (result: CaseResult, reproduce = reproduction(result.seed)): string => {
  const lines = [`seed ${result.seed} FAILED: ${reproduce}`]
  if (result.error !== undefined)
    lines.push(`  the simulation threw: ${result.error.split('\n').slice(0, 4).join('\n    ')}`)
  for (const v of result.violations.slice(0, SHOWN))
    lines.push(`  ${v.at} ${v.group} ${v.invariant}: ${v.detail}`)
  if (result.violations.length > SHOWN)
    lines.push(`  ... and ${result.violations.length - SHOWN} more violation(s)`)
  return `${lines.join('\n')}\n`
}

export const replayCommand = (file: string): string => `npm run chaos -- --replay ${file}`

const readCase = (path: string): ChaosCase => {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new UsageError(`--replay ${path}: ${error instanceof Error ? error.message : String(error)}`)
  }
  const fields = ['seed', 'scenario', 'traces', 'faults', 'queuedRuns', 'events', 'owner']
  if (typeof parsed !== 'object' || parsed === null || fields.some((f) => !(f in parsed)))
    throw new UsageError(`--replay ${path}: not a chaos case (expected the fields ${fields.join(', ')})`)
  return parsed as ChaosCase
}

const replay = async (path: string, io: CliIo, log: boolean): Promise<number> => {
  const result = await runCase(readCase(path), log ? io.err : undefined)
  if (!passed(result)) io.out(describeFailure(result, replayCommand(path)))
  io.out(passed(result) ? '1 passed, 0 failed\n' : '0 passed, 1 failed\n')
  return passed(result) ? 0 : 1
}

const run = async (argv: readonly string[], io: CliIo): Promise<number> => {
  const options = parseOptions(argv, OPTIONS)
  if (options.flags.has('help')) {
    io.out(`${USAGE}\n`)
    return 0
  }
  const replayPath = options.values.get('replay')
  if (replayPath !== undefined) {
    if (options.values.has('runs') || options.values.has('seed'))
      throw new UsageError('--replay runs one saved case: it takes no --runs or --seed')
    return replay(replayPath, io, options.flags.has('log'))
  }
  const runs = integerOption(options, 'runs', 100, 1)
  const seed = integerOption(options, 'seed', 1, 0)
  const jobs = Math.min(integerOption(options, 'jobs', 1, 1), runs)
  if (jobs > 1 && (options.flags.has('case') || options.flags.has('shrink')))
    throw new UsageError(
      '--jobs runs the cases in child processes: rerun a failing seed alone for --case or --shrink',
    )
  const started = Date.now()
  // The commit of the code the cases run, read before they start: a commit made during a long sweep is
  // not the one it tested.
  const commit = currentCommit(ENGINE_PATHS)
  const record =
    jobs > 1
      ? { ...(await inChildren(runs, seed, jobs, io)), commit }
      : await inThisProcess(runs, seed, io, options.flags.has('case'), options.flags.has('shrink'), {
          started,
          commit,
        })
  const recordPath = options.values.get('record')
  if (recordPath !== undefined) writeFileSync(recordPath, `${JSON.stringify(record, null, 2)}\n`)
  const defectsPath = options.values.get('open-defects')
  if (defectsPath === undefined) {
    io.out(`${record.passed} passed, ${record.failed} failed\n`)
    return record.failed === 0 ? 0 : 1
  }
  const verdict = judgeOpenDefects(record, readOpenDefects(defectsPath))
  if (verdict.open.length > 0)
    io.out(
      `${verdict.open.length} open engine defect(s) failed as listed in ${defectsPath}: ${verdict.open.join(', ')}\n`,
    )
  for (const seed of verdict.fixed) io.out(`seed ${seed} passes: take it off ${defectsPath}\n`)
  const failed = verdict.unexpected.length + verdict.fixed.length
  io.out(`${record.passed} passed, ${failed} failed\n`)
  return failed === 0 ? 0 : 1
}

const inThisProcess = async (
  runs: number,
  seed: number,
  io: CliIo,
  printCase: boolean,
  shrink: boolean,
  at: { readonly started: number; readonly commit: string },
): Promise<SweepRecord> => {
  const summary = await sweep({
    runs,
    seed,
    onResult: (result) => {
      if (passed(result)) return
      io.out(describeFailure(result))
      if (printCase) io.out(`${JSON.stringify(generateCase(result.seed), null, 2)}\n`)
    },
  })
  if (shrink)
    for (const failure of summary.failed) {
      const smallest = await shrinkCase(failure.seed)
      if (smallest === undefined) continue
      io.out(`smallest failing case from seed ${failure.seed}:\n${JSON.stringify(smallest.chaos, null, 2)}\n`)
      io.out(describeFailure(smallest.result, `${replayCommand('FILE')} (the case above saved as FILE)`))
    }
  return {
    commit: at.commit,
    date: new Date(at.started).toISOString(),
    machine: machineDescription(),
    firstSeed: seed,
    runs,
    passed: summary.passed,
    failed: summary.failed.length,
    failedSeeds: summary.failed.map((f) => f.seed),
    violations: summary.failed.reduce((total, f) => total + f.violations.length, 0),
    durationSeconds: Math.round((Date.now() - at.started) / 1000),
  }
}

/** What a sweep's outcome depends on: the engine, its handlers, the simulator, the data and the generator. */
const ENGINE_PATHS = [
  'lambdas/core',
  'lambdas/aws',
  'lambdas/replacer',
  'lambdas/interruption',
  'tools/sim',
  'lambdas/data',
  'tools/data',
  'tools/shared',
  'tools/chaos',
]

/** Contiguous slices of the seeds, one child process each; their failures are printed as they finish. */
const inChildren = async (runs: number, seed: number, jobs: number, io: CliIo): Promise<SweepRecord> => {
  const scratch = mkdtempSync(join(tmpdir(), 'spotswap-chaos-'))
  try {
    const size = Math.ceil(runs / jobs)
    const slices = Array.from({ length: jobs }, (_, i) => ({
      seed: seed + i * size,
      runs: Math.min(size, runs - i * size),
      record: join(scratch, `slice-${i}.json`),
    })).filter((slice) => slice.runs > 0)
    const parts = await Promise.all(
      slices.map(async (slice) => {
        const args = [
          'chaos',
          '--runs',
          String(slice.runs),
          '--seed',
          String(slice.seed),
          '--record',
          slice.record,
        ]
        const stdout = await runChild(args)
        const failures = stdout
          .split('\n')
          .filter((line) => line !== '' && !/^\d+ passed, \d+ failed$/.test(line))
        if (failures.length > 0) io.out(`${failures.join('\n')}\n`)
        const part = readSweepRecord(JSON.parse(readFileSync(slice.record, 'utf8')))
        if ('error' in part) throw new Error(`chaos child ${slice.seed}: ${part.error}`)
        return part
      }),
    )
    const merged = mergeRecords(parts)
    if (merged === undefined) throw new Error('chaos children: the slices do not cover the seeds')
    return merged
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** The CLI in a child process; a failing sweep exits 1, which is a result here, not an error. */
const runChild = (args: readonly string[]): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'tools/cli/main.ts', ...args],
      { cwd: REPOSITORY, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null && error.code !== 1) reject(new Error(`chaos child: ${error.message}\n${stderr}`))
        else resolve(stdout)
      },
    )
  })

export const chaosCommand: Command = {
  usage: USAGE,
  run,
}
