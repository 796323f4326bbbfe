/**
 * `spotswap bench --scenario FILE...`: every policy and the oracle on the user's own scenario files, each
 * printed as the bench prints a scenario; `--faults` adds the bench's fault sweep of each file. Nothing
 * is written unless `--out` names a file: the committed results stay the committed scenarios'.
 */
import type { Catalog } from '../../lambdas/core/types.ts'
import { embeddedCatalog } from '../data/catalog.ts'
import { type ParsedOptions, UsageError } from '../shared/args.ts'
import type { CliIo } from '../shared/io.ts'
import { ScenarioError } from '../sim/scenario/check.ts'
import { loadScenarioFile } from '../sim/scenario/load.ts'
import type { Scenario } from '../sim/scenario/types.ts'
import { FULL_SWEEP, sweepScenario } from './fault-sweep.ts'
import { scenarioBlock, sweepBlock } from './render-table.ts'
import type { PolicyFigures, PolicyKey } from './results.ts'
import { runScenario } from './scenario-run.ts'
import type { ScenarioSweep } from './sweep-results.ts'

/**
 * Wherever spotswap and the asg-* policies are compared, the pace the comparison rests on: AWS documents
 * "a gradual replacement" that "launches new instances before terminating the previous ones", no rate
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_InstancesDistribution.html).
 */
const ASG_PACE_NOTE =
  "The asg-* policies replace one tenth of desired capacity every 60 s: the model's assumption, as AWS documents the order of its replacement, not its rate."

export interface RaceOptions {
  readonly paths: readonly string[]
  /** Also run the bench's fault sweep (every level, seed and policy) on each file. */
  readonly faults: boolean
  readonly out: string | undefined
}

export interface RaceResult {
  readonly scenario: string
  readonly figures: Readonly<Record<PolicyKey, PolicyFigures>>
  readonly violations: Readonly<Partial<Record<PolicyKey, number>>>
  readonly faultSweep?: ScenarioSweep
}

/**
 * The race's options from the bench's, or undefined when no --scenario asks for one. The options that
 * shape the full bench are refused rather than ignored.
 */
export const raceOptions = (options: ParsedOptions): RaceOptions | undefined => {
  const paths = options.lists.get('scenario')
  const faults = options.flags.has('faults')
  if (paths === undefined) {
    if (faults) throw new UsageError('--faults needs --scenario FILE', '--faults')
    return undefined
  }
  for (const name of ['quick', 'jobs', 'markdown'])
    if (options.flags.has(name) || options.values.has(name))
      throw new UsageError(`--${name} is for the full bench, not with --scenario`, `--${name}`)
  const twice = paths.find((path, i) => paths.indexOf(path) !== i)
  if (twice !== undefined) throw new UsageError(`--scenario: ${twice} given twice`, '--scenario')
  return { paths, faults, out: options.values.get('out') }
}

/** Every file parsed before any runs, so a typo in the last one costs no simulated hour. */
export const loadRaceScenarios = (
  paths: readonly string[],
  catalog: Catalog,
): { readonly scenarios: Scenario[]; readonly errors: ScenarioError[] } => {
  const scenarios: Scenario[] = []
  const errors: ScenarioError[] = []
  for (const path of paths)
    try {
      scenarios.push(loadScenarioFile(path, catalog))
    } catch (error) {
      if (!(error instanceof ScenarioError)) throw error
      errors.push(error)
    }
  return { scenarios, errors }
}

const violationNote = (violations: RaceResult['violations']): string[] => {
  const found = Object.entries(violations).filter(([, n]) => n !== undefined && n > 0)
  return found.length === 0
    ? []
    : [`Invariant violations: ${found.map(([policy, n]) => `${policy} ${n}`).join(', ')}.`]
}

export const raceText = (path: string, result: RaceResult): string =>
  [
    scenarioBlock(`${result.scenario} (${path})`, result.figures),
    ...violationNote(result.violations),
    ...(result.faultSweep === undefined
      ? []
      : ['', sweepBlock(result.scenario, result.faultSweep, FULL_SWEEP.policies)]),
  ].join('\n')

export const runRace = async (options: RaceOptions, io: CliIo): Promise<number> => {
  const catalog = embeddedCatalog()
  const { scenarios, errors } = loadRaceScenarios(options.paths, catalog)
  if (errors.length > 0) {
    io.err(`${errors.map((e) => e.message).join('\n')}\n`)
    return 2
  }
  const results: Record<string, RaceResult> = {}
  const blocks: string[] = []
  for (const [i, scenario] of scenarios.entries()) {
    const path = options.paths[i] ?? scenario.name
    const step = (what: string) => io.err(`bench: ${path}: ${what}\n`)
    const { figures, violations } = await runScenario(scenario, catalog, step)
    const faultSweep = options.faults
      ? await sweepScenario(scenario, catalog, FULL_SWEEP, (seed, level, policy) =>
          step(`${policy} at ${level}, seed ${seed}`),
        )
      : undefined
    results[path] = { scenario: scenario.name, figures, violations, ...(faultSweep && { faultSweep }) }
    blocks.push(raceText(path, results[path]))
  }
  io.out(['× = ratio to spotswap', ASG_PACE_NOTE, '', blocks.join('\n\n'), ''].join('\n'))
  if (options.out !== undefined) {
    io.writeFile(options.out, `${JSON.stringify({ scenarios: results }, null, 2)}\n`)
    io.out(`Wrote ${options.out}\n`)
  }
  return 0
}
