/** The benchmark on a terminal: one table per scenario, every figure with its ratio to spotswap's. */
import { renderTable } from '../shared/table.ts'
import { SWEEP_HEADERS, sweepRows, sweepSummary } from './render-sweep.ts'
import type { BenchResults, PolicyFigures } from './results.ts'
import { MIXED_POLICY_KEYS, POLICY_KEYS } from './results.ts'
import type { ScenarioSweep } from './sweep-results.ts'
import type { TargetCheck } from './targets.ts'

/** The figures every policy has, one column each. */
type Figure = Exclude<
  keyof PolicyFigures,
  | 'zoneBalancedOracleSavingsPct'
  | 'spotPoolsByGroup'
  | 'interruptionsPerInstanceDay'
  | 'scaleOutLaunches'
  | 'scaleOutOnDemandMinutes'
  | 'billSavingsPct'
  | 'fairBillSavingsPct'
  | 'zoneBalancedOracleBillSavingsPct'
  | 'commitmentWasteUsd'
  | 'unavoidableCommitmentWasteUsd'
>

const COLUMNS: readonly {
  readonly figure: Figure
  readonly header: string
  readonly format: (n: number) => string
}[] = [
  { figure: 'savingsPct', header: 'Savings', format: (n) => `${n.toFixed(2)}%` },
  { figure: 'fairSavingsPct', header: 'Fair savings', format: (n) => `${n.toFixed(2)}%` },
  { figure: 'unservedCapacityHours', header: 'Unserved h', format: (n) => n.toFixed(2) },
  { figure: 'capacityAvailabilityPct', header: 'Available', format: (n) => `${n.toFixed(3)}%` },
  { figure: 'servingAvailabilityPct', header: 'Serving', format: (n) => `${n.toFixed(3)}%` },
  { figure: 'convergenceMinutes', header: 'Converged', format: (n) => `${n.toFixed(0)} min` },
  { figure: 'interruptions', header: 'Interrupted', format: (n) => String(n) },
  { figure: 'replacements', header: 'Replacements', format: (n) => String(n) },
  { figure: 'apiCallsPerRun', header: 'API calls/run', format: (n) => n.toFixed(1) },
]

/** `value / spotswap's`, or a dash when either is missing or spotswap's is 0. */
export const ratio = (value: number | null, spotswap: number | null): string =>
  value === null || spotswap === null || spotswap === 0 ? '—' : `${(value / spotswap).toFixed(2)}×`

export const cell = (value: number | null, format: (n: number) => string): string =>
  value === null ? 'never' : format(value)

export const scenarioRows = (byPolicy: Readonly<Record<string, PolicyFigures>>): string[][] => {
  const spotswap = byPolicy.spotswap
  return POLICY_KEYS.flatMap((policy) => {
    const figures = byPolicy[policy]
    if (figures === undefined) return []
    return [
      [
        policy,
        ...COLUMNS.flatMap(({ figure, format }) => {
          const value = figures[figure]
          const noRuns = figure === 'apiCallsPerRun' && value === null
          return [noRuns ? '—' : cell(value, format), ratio(value, spotswap?.[figure] ?? null)]
        }),
      ],
    ]
  })
}

export const COLUMN_HEADERS = COLUMNS.map((c) => c.header)

const poolsText = (pools: Readonly<Record<string, Readonly<Record<string, number>>>>): string =>
  Object.entries(pools)
    .map(
      ([group, launches]) =>
        `${group}: ${Object.entries(launches)
          .map(([pool, n]) => `${pool} ×${n}`)
          .join(', ')}`,
    )
    .join('; ') || 'no spot launch'

/** Each policy's interruptions per instance-day beside its savings: what its choice of pools costs. */
export const diversificationNote = (byPolicy: Readonly<Record<string, PolicyFigures>>): string[] => {
  const shown = POLICY_KEYS.flatMap((policy) => {
    const figures = byPolicy[policy]
    const rate = figures?.interruptionsPerInstanceDay
    return figures === undefined || rate === undefined
      ? []
      : [`${policy} ${rate.toFixed(3)} (${figures.savingsPct.toFixed(2)}% saved)`]
  })
  return shown.length === 0 ? [] : [`Interruptions per instance-day (savings): ${shown.join(', ')}.`]
}

/** Each policy's on-demand minutes per instance its groups launched on-demand (scale-outs). */
export const scaleOutNote = (byPolicy: Readonly<Record<string, PolicyFigures>>): string[] => {
  const shown = POLICY_KEYS.flatMap((policy) => {
    const figures = byPolicy[policy]
    const launches = figures?.scaleOutLaunches
    if (figures === undefined || launches === undefined || launches === 0) return []
    return [`${policy} ${cell(figures.scaleOutOnDemandMinutes ?? null, (n) => n.toFixed(1))} (×${launches})`]
  })
  return shown.length === 0
    ? []
    : [`On-demand minutes per on-demand launch of the groups (launches): ${shown.join(', ')}.`]
}

/** On a scenario with commitments: each policy's savings against the real bill and the commitment it left unused. */
export const commitmentNote = (byPolicy: Readonly<Record<string, PolicyFigures>>): string[] => {
  const shown = POLICY_KEYS.flatMap((policy) => {
    const figures = byPolicy[policy]
    if (figures?.billSavingsPct === undefined) return []
    const waste = figures.commitmentWasteUsd
    return [
      `${policy} ${figures.billSavingsPct.toFixed(2)}%${waste === undefined ? '' : ` ($${waste.toFixed(2)} unused)`}`,
    ]
  })
  const unavoidable = byPolicy.spotswap?.unavoidableCommitmentWasteUsd
  const balanced = byPolicy.oracle?.zoneBalancedOracleBillSavingsPct
  return shown.length === 0
    ? []
    : [
        `Savings against the real bill (on demand with the same commitments), commitment unused: ${shown.join(', ')}` +
          (balanced === undefined ? '' : `; the oracle held to zone balance ${balanced.toFixed(2)}%`) +
          (unavoidable === undefined ? '.' : `; on demand leaves $${unavoidable.toFixed(2)} unused.`),
      ]
}

/**
 * The lines under a scenario's table: the zone-balanced oracle with spotswap's share of it, the pools
 * each asg-* policy launched into per group (said once when both chose the same), the interruptions per
 * instance-day beside the savings, and what each on-demand launch of the groups cost in on-demand minutes.
 */
export const scenarioNotes = (byPolicy: Readonly<Record<string, PolicyFigures>>): string[] => {
  const notes: string[] = []
  const balanced = byPolicy.oracle?.zoneBalancedOracleSavingsPct
  const spotswap = byPolicy.spotswap?.savingsPct
  if (balanced !== undefined)
    notes.push(
      `Oracle held to Auto Scaling's zone balance: ${balanced.toFixed(2)}% savings` +
        (spotswap === undefined || balanced <= 0
          ? '.'
          : `; spotswap's ${spotswap.toFixed(2)}% is ${((100 * spotswap) / balanced).toFixed(1)}% of it.`),
    )
  const pools = MIXED_POLICY_KEYS.flatMap((policy) => {
    const chosen = byPolicy[policy]?.spotPoolsByGroup
    return chosen === undefined ? [] : [{ policy, text: poolsText(chosen) }]
  })
  if (pools.length === 2 && pools[0]?.text === pools[1]?.text)
    notes.push(`Spot pools (launches), the same for ${MIXED_POLICY_KEYS.join(' and ')}: ${pools[0]?.text}.`)
  else for (const { policy, text } of pools) notes.push(`Spot pools (launches) of ${policy}: ${text}.`)
  return [...notes, ...diversificationNote(byPolicy), ...scaleOutNote(byPolicy), ...commitmentNote(byPolicy)]
}

const SCENARIO_HEADER = [
  { header: 'Policy' },
  ...COLUMNS.flatMap((c) => [
    { header: c.header, align: 'right' as const },
    { header: '×', align: 'right' as const },
  ]),
]

/** One scenario: its name, a row per policy with the ratios to spotswap's, and the notes under them. */
export const scenarioBlock = (name: string, byPolicy: Readonly<Record<string, PolicyFigures>>): string =>
  [name, renderTable(SCENARIO_HEADER, scenarioRows(byPolicy)), ...scenarioNotes(byPolicy)].join('\n')

const SWEEP_HEADER = SWEEP_HEADERS.map((header, i) => ({
  header,
  align: i < 2 ? ('left' as const) : ('right' as const),
}))

/** One scenario's fault sweep: a row per policy and level. */
export const sweepBlock = (name: string, sweep: ScenarioSweep, policies: readonly string[]): string =>
  [`${name} under faults`, renderTable(SWEEP_HEADER, sweepRows(sweep, policies))].join('\n')

export const renderResultsText = (results: BenchResults, targets: readonly TargetCheck[]): string => {
  const blocks = Object.entries(results.scenarios).map(([name, byPolicy]) => scenarioBlock(name, byPolicy))
  const sweepBlocks = Object.entries(results.faultSweep.scenarios).map(([name, sweep]) =>
    sweepBlock(name, sweep, results.faultSweep.policies),
  )
  const { scale } = results
  const lines = [
    `spotswap benchmark, ${results.date}, commit ${results.commit}`,
    results.machine,
    '× = ratio to spotswap',
    '',
    blocks.join('\n\n'),
    '',
    sweepSummary(results.faultSweep),
    '',
    sweepBlocks.join('\n\n'),
    '',
    `Scale: ${scale.regions} regions, ${scale.groups} groups, ${scale.instances} instances: ${scale.planCpuMs} ms CPU to plan, ${scale.peakRssMb} MB peak RSS`,
    `Steady-state API calls per run [groups, calls]: ${scale.steadyStateApiCalls.map(([g, c]) => `[${g}, ${c}]`).join(' ')}`,
    ...Object.entries(results.lambda).map(
      ([name, f]) => `Lambda ${name}: ${(f.bundleBytes / 1024).toFixed(0)} KiB bundle, ${f.initMs} ms init`,
    ),
    '',
    'Targets',
    ...targets.map((t) => `  ${t.met ? 'met   ' : 'MISSED'}  ${t.target}: ${t.detail}`),
  ]
  return `${lines.join('\n')}\n`
}
