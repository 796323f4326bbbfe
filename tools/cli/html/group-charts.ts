/**
 * The page's per-group charts: capacity with spotswap (in service, spot) beside the on-demand policy's
 * (the same scenario with nothing replaced), with interruptions, failed launches and swaps marked; and
 * cumulative dollars with spotswap against on-demand. Capped at MAX_GROUP_CHARTS, the most eventful
 * groups first, so a large account's page stays small; the table lists every group.
 */
import { HOURS_PER_MONTH } from '../../../lambdas/core/constants.ts'
import type { SimulationReport, TimelineRow } from '../../sim/report.ts'
import type { Scenario } from '../../sim/scenario/types.ts'
import type { GroupSummary } from '../simulate-summary.ts'
import { escapeHtml as h } from './escape.ts'
import { type MarkerSeries, renderLineChart, type Series } from './line-chart.ts'

/** About 5 KB a group: 24 charts keep a large account's page well under half a megabyte. */
export const MAX_GROUP_CHARTS = 24

const CUMULATIVE_POINTS = 48

const COLORS = {
  inService: '#2563eb',
  spot: '#1f8a5b',
  onDemandPolicy: '#64748b',
  onDemandCost: '#c2410c',
  interruption: '#dc2626',
  failedLaunch: '#d97706',
  swap: '#1f8a5b',
}

const money = (value: number) => `$${value.toFixed(2)}`

/** At this run's rate, a month as `plan` projects one (the same HOURS_PER_MONTH). */
export const perMonth = (usd: number, hours: number): number =>
  hours > 0 ? (usd / hours) * HOURS_PER_MONTH : 0

const rowsByGroup = (report: SimulationReport | undefined): Map<string, TimelineRow[]> => {
  const byGroup = new Map<string, TimelineRow[]>()
  for (const row of report?.timeline ?? []) {
    const rows = byGroup.get(row.group)
    if (rows === undefined) byGroup.set(row.group, [row])
    else rows.push(row)
  }
  return byGroup
}

const eventCount = (report: SimulationReport, group: string): number => {
  const events = report.groups[group]?.explanation?.events
  return events === undefined
    ? 0
    : events.interruptions.length + events.failedLaunches.length + events.swaps.length
}

/** The groups charted: the most eventful first up to the cap, shown in the table's order. */
export const chartedGroups = (groups: readonly GroupSummary[], report: SimulationReport): GroupSummary[] => {
  if (groups.length <= MAX_GROUP_CHARTS) return [...groups]
  const chosen = new Set(
    [...groups]
      .map((g, i) => ({ g, i, events: eventCount(report, g.group) }))
      .sort((a, b) => b.events - a.events || a.i - b.i)
      .slice(0, MAX_GROUP_CHARTS)
      .map(({ g }) => g.group),
  )
  return groups.filter((g) => chosen.has(g.group))
}

const markers = (scenario: Scenario, report: SimulationReport, group: string): MarkerSeries[] => {
  const events = report.groups[group]?.explanation?.events
  const at = (minutes: readonly number[]) => minutes.map((m) => scenario.start + m * 60_000)
  return [
    {
      name: 'interruptions',
      shape: 'triangle',
      color: COLORS.interruption,
      times: at(events?.interruptions ?? []),
    },
    {
      name: 'failed launches',
      shape: 'cross',
      color: COLORS.failedLaunch,
      times: at(events?.failedLaunches ?? []),
    },
    { name: 'swaps', shape: 'bar', color: COLORS.swap, times: at(events?.swaps ?? []) },
  ]
}

/** One group's figures: its summary, its timeline rows, and the on-demand policy's rows for it. */
interface GroupCharted {
  readonly scenario: Scenario
  readonly report: SimulationReport
  readonly row: GroupSummary
  readonly rows: readonly TimelineRow[]
  readonly baseline: readonly TimelineRow[]
}

const capacityChart = ({ scenario, report, row, rows, baseline }: GroupCharted): string => {
  const points = (pick: (r: TimelineRow) => number, from: readonly TimelineRow[]) =>
    from.map((r) => [Date.parse(r.at), pick(r)] as const)
  const series: Series[] = [
    { name: 'in service', color: COLORS.inService, step: true, points: points((r) => r.inService, rows) },
    { name: 'spot', color: COLORS.spot, step: true, points: points((r) => r.spot, rows) },
  ]
  if (baseline.length > 0)
    series.push({
      name: 'on-demand policy',
      color: COLORS.onDemandPolicy,
      dashed: true,
      step: true,
      points: points((r) => r.inService, baseline),
    })
  return renderLineChart({
    title: `${row.group}: capacity`,
    formatY: (v) => v.toFixed(0),
    yInclude: [0],
    legend: false,
    markers: markers(scenario, report, row.group),
    series,
  })
}

/** Dollars spent so far at each tick: spotswap's hourly cost, and the owner's desired capacity on-demand. */
const cumulativeChart = (scenario: Scenario, row: GroupSummary, rows: readonly TimelineRow[]) => {
  const tickHours = scenario.scheduleMinutes / 60
  let spent = 0
  let onDemand = 0
  const actual: [number, number][] = []
  const baseline: [number, number][] = []
  // A cumulative line is smooth: about 48 points draw it as well as every tick does, in a tenth of the bytes.
  const every = Math.max(1, Math.ceil(rows.length / CUMULATIVE_POINTS))
  rows.forEach((r, i) => {
    if (i % every === 0 || i === rows.length - 1) {
      const at = Date.parse(r.at)
      actual.push([at, spent])
      baseline.push([at, onDemand])
    }
    spent += r.hourlyCostUsd * tickHours
    onDemand += r.desired * row.onDemandHourlyUsd * tickHours
  })
  return renderLineChart({
    title: `${row.group}: cumulative dollars`,
    formatY: (v) => `$${v.toFixed(v < 10 ? 1 : 0)}`,
    yInclude: [0],
    legend: false,
    series: [
      { name: 'with spotswap', color: COLORS.spot, points: actual },
      { name: 'on-demand only', color: COLORS.onDemandCost, dashed: true, points: baseline },
    ],
  })
}

const swatch = (color: string, label: string, dashed = false) =>
  `<span class="key"><i style="background:${color}${dashed ? ';opacity:.6' : ''}"></i>${h(label)}</span>`

const LEGEND =
  `<p class="legend">${swatch(COLORS.inService, 'in service with spotswap')}${swatch(COLORS.spot, 'spot with spotswap')}` +
  `${swatch(COLORS.onDemandPolicy, 'in service, on-demand policy (nothing replaced)', true)}` +
  `${swatch(COLORS.onDemandCost, 'on-demand dollars', true)} · marks: <b class="m-int">▼</b> interruption ` +
  `<b class="m-fail">×</b> failed launch <b class="m-swap">|</b> swap</p>`

const groupSection = (charted: GroupCharted): string => {
  const { scenario, row, rows } = charted
  const hours = scenario.durationHours
  const estimated = row.savingsEstimated ? ' (estimated: us-east-1 on-demand prices)' : ''
  const minimum =
    row.onDemandMinimum === undefined || !row.managed ? '' : ` · on-demand minimum ${row.onDemandMinimum}`
  const dollars =
    `${money(row.actualCostUsd)} with spotswap, ${money(row.onDemandOnlyCostUsd)} on-demand over ${hours} h` +
    `; a month at this rate: ${money(perMonth(row.actualCostUsd, hours))} vs ${money(perMonth(row.onDemandOnlyCostUsd, hours))}${estimated}`
  return (
    `<section class="group"><h3>${h(row.group)} <span>${h(row.region)} · ${h(row.instanceType)} · desired ${row.desiredAtStart}→${row.desiredAtEnd}${minimum}</span></h3>` +
    (row.note === undefined ? '' : `<p class="note">${h(row.note.detail)}</p>`) +
    `<div class="pair"><div class="chart">${capacityChart(charted)}</div>` +
    `<div class="chart">${cumulativeChart(scenario, row, rows)}</div></div>` +
    `<p class="dollars">${h(dollars)}</p></section>`
  )
}

export const renderGroupCharts = (
  scenario: Scenario,
  report: SimulationReport,
  groups: readonly GroupSummary[],
  baseline: SimulationReport | undefined,
): string => {
  const rows = rowsByGroup(report)
  const baselineRows = rowsByGroup(baseline)
  const charted = chartedGroups(groups, report)
  const capped =
    charted.length < groups.length
      ? `<p class="note">Charts for the ${charted.length} of ${groups.length} groups with the most interruptions, failed launches and swaps; the table above lists every group.</p>`
      : ''
  const sections = charted
    .map((row) =>
      groupSection({
        scenario,
        report,
        row,
        rows: rows.get(row.group) ?? [],
        baseline: baselineRows.get(row.group) ?? [],
      }),
    )
    .join('')
  return `<section><h2>Per group</h2>${LEGEND}${capped}${sections}</section>`
}
