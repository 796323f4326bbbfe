/**
 * `spotswap simulate [--scenario FILE] [--policy NAME] [--json FILE] [--html FILE]`: runs the real engine
 * (or another of the bench's policies) against the offline account of a scenario (the built-in one by
 * default) and prints what happened per group.
 */

import { SIMULATED_POLICIES } from '../bench/policies.ts'
import { describeOptions, type OptionSpec, parseOptions, UsageError } from '../shared/args.ts'
import type { CliIo, Command } from '../shared/io.ts'
import { pct, usd } from '../shared/table.ts'
import type { FaultConfig } from '../sim/faults.ts'
import { ON_DEMAND_POLICY, type SimPolicy } from '../sim/policy.ts'
import type { SimulationReport } from '../sim/report.ts'
import { ScenarioError } from '../sim/scenario/check.ts'
import { BUILTIN_SCENARIO, loadScenarioFile } from '../sim/scenario/load.ts'
import type { Scenario } from '../sim/scenario/types.ts'
import { simulate } from '../sim/simulate.ts'
import { renderReportPage } from './html/report-page.ts'
import { createProgress } from './progress.ts'
import { summarizeGroups } from './simulate-summary.ts'
import { groupTable, wrapLine } from './simulate-table.ts'

const OPTIONS: readonly OptionSpec[] = [
  {
    name: 'scenario',
    kind: 'value',
    placeholder: 'FILE',
    description: 'scenario JSON (default: the built-in account)',
  },
  {
    name: 'faults',
    kind: 'value',
    placeholder: 'K=V,...',
    description:
      "replace the scenario's faults, e.g. crashRate=0.005,apiErrorRate=0 (rates per API request; throttle=true|false)",
  },
  {
    name: 'policy',
    kind: 'value',
    placeholder: 'NAME',
    description: `run this policy instead of spotswap: ${Object.keys(SIMULATED_POLICIES).join(', ')}`,
  },
  { name: 'json', kind: 'value', placeholder: 'FILE', description: 'write the full report as JSON' },
  {
    name: 'html',
    kind: 'value',
    placeholder: 'FILE',
    description: 'write a self-contained page with charts',
  },
  { name: 'help', kind: 'flag', description: 'show this help' },
]

const USAGE = `Usage: spotswap simulate [options]

Runs spotswap's replacer and interruption handler, unchanged, against a simulated AWS account on real
spot prices and capacity traces, and reports savings, availability and what happened to each group.
--policy runs one of the bench's other policies on the same account instead.

${describeOptions(OPTIONS)}`

const VIOLATIONS_SHOWN = 10

const RATES = ['apiErrorRate', 'crashRate'] as const

/** `--faults crashRate=0.005,apiErrorRate=0`: the fields named replace the scenario's, the others stay. */
export const parseFaultsOption = (text: string, base: FaultConfig): FaultConfig => {
  const faults: { -readonly [K in keyof FaultConfig]: FaultConfig[K] } = { ...base }
  for (const pair of text.split(',')) {
    const [key = '', value = '', ...extra] = pair.split('=').map((part) => part.trim())
    if (extra.length > 0 || value === '')
      throw new UsageError(`--faults: '${pair}' is not KEY=VALUE`, '--faults')
    if (key === 'throttle') {
      if (value !== 'true' && value !== 'false')
        throw new UsageError(`--faults: throttle must be true or false, not '${value}'`, '--faults')
      faults.throttle = value === 'true'
    } else if ((RATES as readonly string[]).includes(key)) {
      const rate = Number(value)
      if (!/^\d*\.?\d+(e-?\d+)?$/i.test(value) || !(rate >= 0 && rate <= 1))
        throw new UsageError(`--faults: ${key} must be a number from 0 to 1, not '${value}'`, '--faults')
      faults[key as (typeof RATES)[number]] = rate
    } else {
      throw new UsageError(
        `--faults: unknown key '${key}' (${[...RATES, 'throttle'].join(', ')})`,
        '--faults',
      )
    }
  }
  return faults
}

/** `--policy NAME`: one of the bench's simulated policies; spotswap when not given. */
export const parsePolicyOption = (name: string | undefined): SimPolicy => {
  if (name === undefined) return SIMULATED_POLICIES.spotswap
  if (Object.hasOwn(SIMULATED_POLICIES, name))
    return SIMULATED_POLICIES[name as keyof typeof SIMULATED_POLICIES]
  throw new UsageError(
    `--policy: unknown policy '${name}' (${Object.keys(SIMULATED_POLICIES).join(', ')})`,
    '--policy',
  )
}

/** Under the table: every on-demand instance above its group's minimum at the end, and why (issue 16). */
const stillOnDemandLines = (report: SimulationReport): string[] => {
  const lines = Object.entries(report.groups).flatMap(([group, figures]) =>
    figures.stillOnDemand.map(
      (s) =>
        `  ${group} ${s.instanceId} ${s.type} ${s.zone}: ${s.reason}${s.detail === '' ? '' : ` (${s.detail})`}`,
    ),
  )
  return lines.length === 0 ? [] : ['Still on-demand above the minimum at the end, and why:', ...lines]
}

export const summaryText = (scenario: Scenario, report: SimulationReport): string => {
  const groups = summarizeGroups(scenario, report)
  const estimated = groups.some((g) => g.savingsEstimated) ? ' (estimated, see *)' : ''
  const { totals } = report
  const requests = Object.values(totals.apiCalls).reduce((sum, n) => sum + n, 0)
  const converged =
    totals.convergenceMinutes === null ? 'not every group' : `${Math.round(totals.convergenceMinutes)} min`
  const lines = [
    `Scenario ${report.scenario} (seed ${report.seed}): ${scenario.durationHours} h, ${scenario.regions.length} region(s), ${groups.length} group(s)`,
    '',
    ...groupTable(groups),
    '',
    `Cost          ${usd(totals.actualCostUsd)} instead of ${usd(totals.onDemandOnlyCostUsd)} on-demand only: ${pct(totals.savingsPct)} saved${estimated}`,
    `Availability  ${pct(totals.capacityAvailabilityPct, 3)} of desired capacity in service; converged: ${converged}`,
    `Serving       ${pct(totals.servingAvailabilityPct, 3)} of desired capacity in service and healthy in its load balancers (time-weighted)`,
    `Activity      ${totals.replacements} replacements, ${totals.interruptions} interruptions, ${totals.failedLaunches} failed launches, ${requests} API requests`,
    ...stillOnDemandLines(report),
    `Invariants    ${report.violations.length === 0 ? 'no violation' : `${report.violations.length} violation(s)`}`,
    ...report.violations
      .slice(0, VIOLATIONS_SHOWN)
      .map((v) => `  ${v.at} ${v.group} ${v.invariant}: ${v.detail}`),
  ].flatMap(wrapLine)
  if (report.violations.length > VIOLATIONS_SHOWN)
    lines.push(`  ... ${report.violations.length - VIOLATIONS_SHOWN} more in the JSON report`)
  return `${lines.join('\n')}\n`
}

/** The page charts each group's capacity beside what the on-demand policy (nothing replaced) keeps. */
const writePage = async (scenario: Scenario, report: SimulationReport, file: string, io: CliIo) => {
  const shown = io.progressStream
    ? createProgress('on-demand policy for the page', io.progressStream)
    : undefined
  const baseline = await simulate(scenario, {
    policy: ON_DEMAND_POLICY,
    onProgress: (fraction) => shown?.update(fraction),
  })
  shown?.done()
  io.writeFile(file, renderReportPage(scenario, report, baseline))
}

const run = async (argv: readonly string[], io: CliIo): Promise<number> => {
  const options = parseOptions(argv, OPTIONS)
  if (options.flags.has('help')) {
    io.out(`${USAGE}\n`)
    return 0
  }
  const policy = parsePolicyOption(options.values.get('policy'))
  const path = options.values.get('scenario') ?? BUILTIN_SCENARIO
  let scenario: Scenario
  try {
    scenario = loadScenarioFile(path)
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error
    io.err(`${error.message}\n`)
    return 2
  }
  const faults = options.values.get('faults')
  if (faults !== undefined) scenario = { ...scenario, faults: parseFaultsOption(faults, scenario.faults) }
  const progress = io.progressStream
    ? createProgress(`simulating ${scenario.name}`, io.progressStream)
    : undefined
  const report = await simulate(scenario, { policy, onProgress: (fraction) => progress?.update(fraction) })
  progress?.done()
  const json = options.values.get('json')
  if (json !== undefined) io.writeFile(json, `${JSON.stringify(report, null, 2)}\n`)
  const html = options.values.get('html')
  if (html !== undefined) await writePage(scenario, report, html, io)
  io.out(summaryText(scenario, report))
  for (const [what, file] of [
    ['report', json],
    ['page', html],
  ] as const)
    if (file !== undefined) io.out(`Wrote the ${what} to ${file}\n`)
  return 0
}

export const simulateCommand: Command = {
  usage: USAGE,
  run,
}
