/**
 * `spotswap simulate --html`: one self-contained page (inline CSS and SVG, no script, no CDN) with the
 * headline figures, charts of cost per hour, spot share and capacity over time, the groups and any
 * invariant violations. It holds nothing that changes between runs of the same seed.
 */
import type { SimulationReport } from '../../sim/report.ts'
import type { Scenario } from '../../sim/scenario/types.ts'
import { ESTIMATED_NOTE } from '../simulate-notes.ts'
import { type GroupSummary, summarizeGroups, totalsPerTick } from '../simulate-summary.ts'
import { escapeHtml as h } from './escape.ts'
import { perMonth, renderGroupCharts } from './group-charts.ts'
import { renderLineChart } from './line-chart.ts'
import { PAGE_STYLE } from './style.ts'

const COLORS = { spot: '#1f8a5b', onDemand: '#c2410c', desired: '#64748b', service: '#2563eb' }

const money = (value: number) => `$${value.toFixed(2)}`
const percent = (value: number, digits = 1) => `${value.toFixed(digits)}%`
/** 12,345: written out so the page does not depend on the machine's locale data. */
const thousands = (value: number) => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
const minutes = (value: number | null) => (value === null ? 'never' : `${Math.round(value)} min`)

const tile = (label: string, value: string, note = '') =>
  `<div class="tile"><div class="label">${h(label)}</div><div class="value">${h(value)}</div><div class="note">${h(note)}</div></div>`

const groupRow = (row: GroupSummary) =>
  `<tr><td class="nowrap">${h(row.group)}</td><td class="nowrap">${h(row.region)}</td>` +
  `<td class="num">${row.desiredAtStart}→${row.desiredAtEnd}</td><td class="num">${row.onDemandMinimum === undefined || !row.managed ? '-' : row.onDemandMinimum}</td>` +
  `<td>${h(row.before)}</td><td>${h(row.after)}</td>` +
  `<td class="num">${percent(row.spotSharePct, 0)}</td><td class="num">${percent(row.savingsPct)}${row.savingsEstimated ? '*' : ''}</td>` +
  `<td class="num">${percent(row.availabilityPct, 2)}</td><td class="num">${percent(row.servingPct, 2)}</td>` +
  `<td class="num">${row.interruptions}</td><td class="num">${row.failedLaunches}</td>` +
  `<td class="num">${row.managed ? h(minutes(row.convergenceMinutes)) : '-'}</td></tr>` +
  // Why it is held back, on a row of its own under it: a column would squeeze the figures.
  (row.note === undefined ? '' : `<tr class="held"><td></td><td colspan="12">${h(row.note.detail)}</td></tr>`)

const charts = (scenario: Scenario, report: SimulationReport): string => {
  const ticks = totalsPerTick(scenario, report)
  const cost = renderLineChart({
    title: 'Cost per hour',
    width: 1520,
    formatY: (v) => `$${v.toFixed(v < 10 ? 1 : 0)}`,
    yInclude: [0],
    series: [
      { name: 'with spotswap', color: COLORS.spot, points: ticks.map((t) => [t.at, t.actualHourlyUsd]) },
      {
        name: 'on-demand only',
        color: COLORS.onDemand,
        dashed: true,
        points: ticks.map((t) => [t.at, t.onDemandHourlyUsd]),
      },
    ],
  })
  const share = renderLineChart({
    title: 'Spot share',
    formatY: (v) => `${v.toFixed(0)}%`,
    yInclude: [0, 100],
    series: [
      {
        name: 'spot share of in-service instances',
        color: COLORS.spot,
        points: ticks.map((t) => [t.at, t.inService === 0 ? 0 : (100 * t.spot) / t.inService]),
      },
    ],
  })
  const capacity = renderLineChart({
    title: 'Capacity',
    formatY: (v) => v.toFixed(0),
    yInclude: [0],
    series: [
      { name: 'in service', color: COLORS.service, points: ticks.map((t) => [t.at, t.inService]) },
      { name: 'desired', color: COLORS.desired, dashed: true, points: ticks.map((t) => [t.at, t.desired]) },
    ],
  })
  const section = (title: string, svg: string, width: 'wide' | 'half') =>
    `<section class="chart ${width}"><h2>${h(title)}</h2>${svg}</section>`
  return (
    section('Cost per hour, whole account', cost, 'wide') +
    `<div class="pair">${section('Spot share over time', share, 'half')}${section('Capacity over time', capacity, 'half')}</div>`
  )
}

/** Every on-demand instance above its group's minimum at the end, and why (issue 16). */
const stillOnDemandList = (report: SimulationReport): string => {
  const rows = Object.entries(report.groups).flatMap(([group, figures]) =>
    figures.stillOnDemand.map(
      (s) =>
        `<tr><td>${h(group)}</td><td>${h(s.instanceId)}</td><td>${h(s.type)}</td><td>${h(s.zone)}</td><td>${h(s.reason)}</td><td>${h(s.detail)}</td></tr>`,
    ),
  )
  if (rows.length === 0) return ''
  return `<section><h2>Still on-demand above the minimum, and why</h2><table><thead><tr><th>Group</th><th>Instance</th><th>Type</th><th>Zone</th><th>Reason</th><th>Detail</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`
}

const violationList = (report: SimulationReport): string => {
  if (report.violations.length === 0) return '<p class="ok">No invariant was violated.</p>'
  const shown = report.violations.slice(0, 50)
  const rows = shown
    .map(
      (v) =>
        `<tr><td>${h(v.at)}</td><td>${h(v.group)}</td><td>${h(v.invariant)}</td><td>${h(v.detail)}</td></tr>`,
    )
    .join('')
  const more =
    report.violations.length > shown.length
      ? `<p>${report.violations.length - shown.length} more in the JSON report.</p>`
      : ''
  return `<table><thead><tr><th>Time</th><th>Group</th><th>Invariant</th><th>Detail</th></tr></thead><tbody>${rows}</tbody></table>${more}`
}

/**
 * `baseline` is the same scenario under the on-demand policy (nothing replaced): its capacity is charted
 * beside spotswap's for each group.
 */
export const renderReportPage = (
  scenario: Scenario,
  report: SimulationReport,
  baseline?: SimulationReport,
): string => {
  const { totals } = report
  const apiCalls = Object.values(totals.apiCalls).reduce((sum, n) => sum + n, 0)
  const hours = scenario.durationHours
  const summaries = summarizeGroups(scenario, report)
  const estimated = summaries.some((g) => g.savingsEstimated)
  const tiles = [
    tile(
      estimated ? 'Savings (estimated *)' : 'Savings',
      percent(totals.savingsPct),
      `${money(totals.actualCostUsd)} instead of ${money(totals.onDemandOnlyCostUsd)}; ${money(perMonth(totals.actualCostUsd, hours))} vs ${money(perMonth(totals.onDemandOnlyCostUsd, hours))} a month`,
    ),
    tile('Capacity available', percent(totals.capacityAvailabilityPct, 2), 'in service vs desired, per tick'),
    tile(
      'Serving traffic',
      percent(totals.servingAvailabilityPct, 2),
      'in service and healthy in its load balancers, over time',
    ),
    tile('Converged', minutes(totals.convergenceMinutes), 'every group at its on-demand minimum'),
    tile(
      'Interruptions',
      String(totals.interruptions),
      `${totals.replacements} replacements, ${totals.failedLaunches} failed launches`,
    ),
    tile(
      'API requests',
      thousands(apiCalls),
      `${(apiCalls / ((hours * 60) / scenario.scheduleMinutes)).toFixed(1)} per schedule tick`,
    ),
    tile(
      'Invariant violations',
      String(report.violations.length),
      `${totals.orphanInstanceMinutes} orphan-minutes`,
    ),
  ].join('')
  const groups = summaries.map(groupRow).join('')
  const estimatedNote = estimated ? `<p class="note">* ${h(ESTIMATED_NOTE)}.</p>` : ''
  const regions = scenario.regions.map((r) => r.name).join(', ')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>spotswap simulate: ${h(scenario.name)}</title><style>${PAGE_STYLE}</style></head>
<body><main>
<header><h1>spotswap simulate <span>${h(scenario.name)}</span></h1>
<p>${h(scenario.description ?? '')}</p>
<p class="meta">${h(regions)} · ${hours} h from ${h(new Date(scenario.start).toISOString())} · runs every ${scenario.scheduleMinutes} min · seed ${scenario.seed}</p></header>
<section class="tiles">${tiles}</section>
${estimatedNote}
${charts(scenario, report)}
<section><h2>Groups</h2><table><thead><tr><th>Group</th><th>Region</th><th class="num">Desired</th><th class="num" title="on-demand minimum">OD min</th><th>Before</th><th>After</th><th class="num">Spot</th><th class="num">Savings</th><th class="num" title="capacity available">Avail.</th><th class="num">Serving</th><th class="num" title="interruptions">Intr.</th><th class="num" title="failed launches">Failed</th><th class="num">Converged</th></tr></thead><tbody>${groups}</tbody></table></section>
${renderGroupCharts(scenario, report, summaries, baseline)}
${stillOnDemandList(report)}
<section><h2>Invariants</h2>${violationList(report)}</section>
<footer>Simulated offline on real spot prices (2022-05-31) and real capacity traces; the same seed gives the same page. Generated by <code>spotswap simulate</code>.</footer>
</main></body></html>
`
}
