/** bench/RESULTS.md: the latest run's tables with the date, machine and commit, and the details behind them. */

import { FANOUT_GROUPS_PER_REGION_MESSAGE } from '../../lambdas/core/constants.ts'
import { type SweepRecord, sweepLine } from '../chaos/sweep-record.ts'
import { INVARIANTS } from '../sim/invariant-list.ts'
import { type ColdStartMeasurement, HANDLERS } from './lambda-figures.ts'
import { SWEEP_HEADERS, sweepRows, sweepSummary } from './render-sweep.ts'
import { COLUMN_HEADERS, scenarioNotes, scenarioRows } from './render-table.ts'
import type { BenchResults, PolicyKey } from './results.ts'
import type { MedianPlan, ScaleDetails } from './scale.ts'
import type { TargetCheck } from './targets.ts'

export interface BenchDetails {
  readonly scenarios: Readonly<
    Record<
      string,
      {
        readonly violations: Readonly<Partial<Record<PolicyKey, number>>>
      }
    >
  >
  readonly scale: ScaleDetails
  readonly lambda: readonly ColdStartMeasurement[]
}

const table = (headers: readonly string[], rows: readonly (readonly string[])[]): string =>
  [
    `| ${headers.join(' | ')} |`,
    `|${headers.map(() => ' --- |').join('')}`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n')

const calls = (apiCalls: Readonly<Record<string, number>>): string =>
  Object.entries(apiCalls)
    .map(([operation, n]) => `${operation} ${n}`)
    .join(', ')

/** bench/chaos-sweep.json as read: the record, the reason it is unusable, or absent. */
export type SweepStatus = SweepRecord | { readonly error: string } | undefined

const sweepParagraph = (sweep: SweepStatus): string =>
  sweep === undefined
    ? 'No full chaos sweep recorded (bench/chaos-sweep.json).'
    : 'error' in sweep
      ? `bench/chaos-sweep.json is unusable: ${sweep.error}.`
      : sweepLine(sweep)

/**
 * A planning pass's CPU beside its median: every run, and the process's CPU with the simulator's share and
 * the cost of metering it.
 */
const cpuDetail = (m: MedianPlan): string =>
  `runs: ${m.cpuMsRuns.join(', ')} ms; process ${m.processCpuMs} ms, of which simulated AWS ${m.simulatedAwsCpuMs} ms and metering it ${m.meteringOverheadMs} ms`

/**
 * The unconverged pass as deployed: each region, or each chunk of a region's groups, an invocation of
 * its own. Informative: the target is the heavier pass above.
 */
const byInvocationLines = (m: MedianPlan): string[] =>
  m.invocations === undefined
    ? []
    : [
        `The unconverged pass as deployed, one invocation per region or chunk of ${FANOUT_GROUPS_PER_REGION_MESSAGE} groups (the fan-out queue's), one after another in one process as a warm container would take them: ${m.invocations.count} invocations, ${m.cpuMs} ms CPU in all (runs: ${m.cpuMsRuns.join(', ')} ms), the largest invocation ${m.invocations.largestCpuMs} ms; peak RSS ${m.peakRssMb} MB (${m.rssBeforeMb} MB before); ${calls(m.apiCalls)}.`,
        '',
      ]

export const renderResultsMarkdown = (
  results: BenchResults,
  details: BenchDetails,
  targets: readonly TargetCheck[],
  sweep: SweepStatus = undefined,
): string => {
  const scenarioSections = Object.entries(results.scenarios).map(([name, byPolicy]) => {
    const rows = scenarioRows(byPolicy).map(([policy, ...cells]) => {
      const pairs: string[] = []
      for (let i = 0; i < cells.length; i += 2) pairs.push(`${cells[i]} (${cells[i + 1]})`)
      return [policy as string, ...pairs]
    })
    const extra = details.scenarios[name]
    const violations = Object.entries(extra?.violations ?? {})
      .filter(([, n]) => (n ?? 0) > 0)
      .map(([policy, n]) => `${policy} ${n}`)
    return [
      `### ${name}`,
      '',
      table(['Policy', ...COLUMN_HEADERS], rows),
      '',
      [
        ...scenarioNotes(byPolicy),
        `Invariant violations: ${violations.length === 0 ? 'none' : violations.join(', ')}.`,
      ].join('\n\n'),
    ].join('\n')
  })
  const { faultSweep } = results
  const sweepSections = Object.entries(faultSweep.scenarios).map(([name, sweep]) =>
    [
      `### ${name} under faults`,
      '',
      table(SWEEP_HEADERS, sweepRows(sweep, faultSweep.policies)),
      '',
      `${sweep.simulatedHours} simulated hours; seeds ${sweep.seeds.join(', ')}.`,
    ].join('\n'),
  )
  const { scale } = results
  const { unconverged, converged, byInvocation, warm, steady } = details.scale
  const planRow = (m: typeof unconverged) => [
    m.state,
    String(m.unconvergedGroups),
    `${m.cpuMs} ms (${cpuDetail(m)})`,
    `${m.wallMs} ms`,
    `${m.rssBeforeMb} MB`,
    `${m.peakRssMb} MB`,
    calls(m.apiCalls),
  ]
  const largest = steady.at(-1)
  const lines = [
    '# Benchmark results',
    '',
    `- Date: ${results.date}`,
    `- Machine: ${results.machine}`,
    `- Commit: ${results.commit}`,
    '',
    "Produced by `npm run bench` (see [docs/benchmark.md](../docs/benchmark.md) for what is measured and how); the same figures are in [results.json](results.json). In the tables, each figure is followed by its ratio to spotswap's.",
    '',
    '## Targets',
    '',
    ...targets.map((t) => `- ${t.met ? 'met' : '**missed**'}: ${t.target}: ${t.detail}`),
    '',
    '## Scenarios',
    '',
    scenarioSections.join('\n\n'),
    '',
    '## Fault sweep',
    '',
    sweepSummary(faultSweep),
    '',
    sweepSections.join('\n\n'),
    '',
    '## Scale',
    '',
    `${scale.regions} regions × ${scale.groups / scale.regions} groups × ${scale.instances / scale.groups} instances (${scale.instances.toLocaleString('en-US')} instances): one replacer pass over every region at once (observe and plan, DRY_RUN), in a child process of its own. CPU counts every thread of the process (garbage collection included); memory is the whole process, the simulated account included.`,
    '',
    table(
      ['Account', 'Groups to replace', 'CPU', 'Wall', 'RSS before', 'Peak RSS', 'API requests of the pass'],
      [planRow(unconverged), planRow(converged)],
    ),
    '',
    ...byInvocationLines(byInvocation),
    `The unconverged pass again, in a process that has just run it once (what a warm container pays on a scheduled run: its code compiled by V8, its caches filled), median of ${warm.cpuMsRuns.length} runs: ${warm.cpuMs} ms CPU (${cpuDetail(warm)}); peak RSS ${warm.peakRssMb} MB. Its CPU over the reference workload's in the same process (tools/bench/reference-workload.ts), run by run: ${warm.referenceRatioRuns.join(', ')} (median ${scale.referenceRatio ?? '?'}, spread ${scale.referenceRatioSpreadPct ?? '?'}%); the regression gate compares the median with bench/scale-baseline.json.`,
    '',
    'Steady state: API requests of one ordinary run on a converged one-region account of 10-instance groups.',
    '',
    table(
      ['Groups', 'Requests'],
      steady.map((s) => [String(s.groups), String(s.calls)]),
    ),
    '',
    largest === undefined ? '' : `At ${largest.groups} groups: ${calls(largest.apiCalls)}.`,
    '',
    '## Lambda functions',
    '',
    table(
      ['Function', 'Bundle', 'gzip', 'Init (median)', 'Init CPU (median)', 'Empty-module import'],
      Object.entries(results.lambda).map(([name, figures]) => {
        const measured = details.lambda.find((m) => m.handler === HANDLERS[name])
        return [
          name,
          `${(figures.bundleBytes / 1024).toFixed(0)} KiB`,
          measured ? `${(measured.gzipBytes / 1024).toFixed(0)} KiB` : '?',
          `${figures.initMs} ms`,
          measured ? `${measured.importCpuMs.median} ms` : '?',
          measured ? `${measured.baselineImportMs.median} ms` : '?',
        ]
      }),
    ),
    '',
    `esbuild bundles as deployed (lib/functions.ts LAMBDA_BUNDLING: ESM, minified, the AWS SDK included and loaded at init), imported in fresh processes ${details.lambda[0]?.runs ?? '?'} times by scripts/measure-cold-start.ts.`,
    '',
    ...runningCostLines(results),
    '## Reliability',
    '',
    sweepParagraph(sweep),
    '',
    `Recorded by \`npm run chaos -- --runs 10000 --seed 1 --jobs 2 --record bench/chaos-sweep.json\` (the ${INVARIANTS.length} invariants of [docs/reliability.md](../docs/reliability.md), checked after every simulated step).`,
    '',
  ]
  return lines.join('\n')
}

const usd = (value: number): string => `$${value.toLocaleString('en-US', { maximumFractionDigits: 2 })}`

/** The running-cost table, when the results have one (results before it was measured do not). */
const runningCostLines = (results: BenchResults): string[] => {
  const figures = results.runningCost ?? []
  if (figures.length === 0) return []
  return [
    '## Running cost',
    '',
    table(
      [
        'Account',
        'Instances',
        'Metrics',
        'Lambda',
        'SQS',
        'CloudWatch',
        'Logs',
        'Other',
        'Total / month',
        'Savings / month',
        'Share',
      ],
      figures.map(({ shape, run, cost }) => [
        shape.name,
        String(run.groups * shape.instancesPerGroup),
        String(run.metrics),
        usd(cost.lambdaUsd),
        usd(cost.sqsUsd),
        usd(cost.metricsUsd + cost.alarmsUsd + cost.dashboardUsd),
        usd(cost.logsUsd),
        usd(cost.eventBridgeUsd + cost.kmsUsd),
        usd(cost.totalUsd),
        usd(cost.monthlySavingsUsd),
        `${cost.costPctOfSavings.toFixed(2)}%`,
      ]),
    ),
    '',
    "One steady replacer run of each converged account (groups of 4 instances of common types, every 5 minutes), measured in the simulator and priced at AWS's published us-east-1 prices without free tier (tools/bench/running-cost.ts cites each page). Savings are the engine's own hourly figure on the converged account, times the hours of a month.",
    '',
  ]
}
