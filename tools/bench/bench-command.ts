/**
 * `spotswap bench [--quick] [--committed] [--jobs N] [--out FILE] [--markdown FILE]`: runs the benchmark, prints
 * the tables with ratios to spotswap, writes results.json (and RESULTS.md). A full run writes them under
 * bench/out/ (git-ignored), so running the bench never changes the committed results; `--committed`
 * writes bench/results.json and bench/RESULTS.md, the ones the docs quote. `--quick` (CI) writes to a
 * temporary directory unless told otherwise, and every run fails if what it wrote is not results.json's shape.
 */
import { existsSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readSweepRecord } from '../chaos/sweep-record.ts'
import {
  describeOptions,
  integerOption,
  type OptionSpec,
  type ParsedOptions,
  parseOptions,
  UsageError,
} from '../shared/args.ts'
import type { CliIo, Command } from '../shared/io.ts'
import { REPOSITORY } from '../shared/subprocess.ts'
import { runBench } from './bench.ts'
import { raceOptions, runRace } from './race.ts'
import { renderResultsMarkdown, type SweepStatus } from './render-markdown.ts'
import { renderResultsText } from './render-table.ts'
import { resultsProblems, SCENARIO_KEYS } from './results.ts'
import { readScaleBaseline } from './scale-baseline.ts'
import { checkTargets } from './targets.ts'

/** The machine the bench is run on has two cores; quick mode's small sweep is not worth a process. */
const FULL_JOBS = 2

export const OPTIONS: readonly OptionSpec[] = [
  {
    name: 'quick',
    kind: 'flag',
    description: 'small sizes for CI; writes to a temporary directory by default',
  },
  {
    name: 'committed',
    kind: 'flag',
    description: 'write the committed results, bench/results.json and bench/RESULTS.md (default: bench/out/)',
  },
  {
    name: 'jobs',
    kind: 'value',
    placeholder: 'N',
    description: `processes for the fault sweep, one scenario each (default ${FULL_JOBS}; --quick: 1)`,
  },
  {
    name: 'out',
    kind: 'value',
    placeholder: 'FILE',
    description: 'results JSON (default: bench/out/results.json)',
  },
  {
    name: 'markdown',
    kind: 'value',
    placeholder: 'FILE',
    description: 'results page (default: bench/out/RESULTS.md)',
  },
  {
    name: 'scenario',
    kind: 'list',
    placeholder: 'FILE',
    description: 'race the policies on these scenario files only (repeatable); writes nothing without --out',
  },
  { name: 'faults', kind: 'flag', description: 'with --scenario: also the fault sweep of each file' },
  { name: 'help', kind: 'flag', description: 'show this help' },
]

/** The committed record of the latest full chaos sweep, quoted in RESULTS.md. */
export const readSweep = (path = join(REPOSITORY, 'bench', 'chaos-sweep.json')): SweepStatus => {
  if (!existsSync(path)) return undefined
  try {
    return readSweepRecord(JSON.parse(readFileSync(path, 'utf8')))
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

const USAGE = `Usage: spotswap bench [options]

Runs every scenario of bench/scenarios under spotswap, AutoSpotting's behaviour, on-demand only, Auto
Scaling's mixed-instances groups and the oracle; runs them again at four fault levels, three seeds each
(the fault sweep; --quick: no faults and all of them, one seed, spotswap and on-demand only); measures
the engine's planning time, memory and API calls at scale and the Lambda bundles; prints the tables
(each figure with its ratio to spotswap's). About ten minutes on two cores; --quick about a minute.

With --scenario FILE (one or more), runs only those files, under every policy and the oracle, and prints
each one's table: race the policies on your own account's shape. No fault sweep (unless --faults: four
levels, three seeds, every policy, sixty runs a file), no scale or Lambda figures, and no file written unless --out names one.

${describeOptions(OPTIONS)}`

/**
 * Where a run writes: the committed files only when asked (`--committed`), so a run made to try something
 * cannot overwrite the results the docs quote; quick results never go there, being of other sizes.
 */
export const outputPaths = (
  options: ParsedOptions,
  scratch: string,
): { readonly out: string; readonly markdown: string | undefined } => {
  const quick = options.flags.has('quick')
  const committed = options.flags.has('committed')
  if (quick && committed)
    throw new UsageError('--quick results are not the committed ones: drop --committed', '--committed')
  const folder = committed ? join(REPOSITORY, 'bench') : join(REPOSITORY, 'bench', 'out')
  return {
    out: options.values.get('out') ?? join(quick ? scratch : folder, 'results.json'),
    markdown: options.values.get('markdown') ?? (quick ? undefined : join(folder, 'RESULTS.md')),
  }
}

const run = async (argv: readonly string[], io: CliIo): Promise<number> => {
  const options = parseOptions(argv, OPTIONS)
  if (options.flags.has('help')) {
    io.out(`${USAGE}\n`)
    return 0
  }
  const race = raceOptions(options)
  if (race !== undefined) return runRace(race, io)
  const quick = options.flags.has('quick')
  const jobs = integerOption(options, 'jobs', quick ? 1 : FULL_JOBS, 1)
  const { out, markdown } = outputPaths(options, join(tmpdir(), `spotswap-bench-${process.pid}`))

  const started = Date.now()
  const { results, details } = await runBench({ quick, jobs, onStep: (step) => io.err(`bench: ${step}\n`) })
  const targets = checkTargets(results, readScaleBaseline())
  const json = `${JSON.stringify(results, null, 2)}\n`
  io.writeFile(out, json)
  if (markdown !== undefined)
    io.writeFile(markdown, renderResultsMarkdown(results, details, targets, readSweep()))
  io.out(renderResultsText(results, targets))

  const problems = resultsProblems(JSON.parse(json), SCENARIO_KEYS)
  if (problems.length > 0) {
    io.err(`${out} is not valid results JSON:\n${problems.map((p) => `  ${p}`).join('\n')}\n`)
    return 1
  }
  io.out(
    `\nWrote ${out}${markdown === undefined ? '' : ` and ${markdown}`} in ${Math.round((Date.now() - started) / 1000)} s\n`,
  )
  return 0
}

export const benchCommand: Command = {
  usage: USAGE,
  run,
}
