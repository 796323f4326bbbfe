import { beforeAll, describe, expect, it } from 'vitest'
import { chartedGroups, MAX_GROUP_CHARTS } from '../../tools/cli/html/group-charts.ts'
import type { GroupSummary } from '../../tools/cli/simulate-summary.ts'
import type { SimulationReport } from '../../tools/sim/report.ts'
import { group, rawScenario } from '../sim/support.ts'
import { type CliRun, runCli, tempDir, writeJson } from './support.ts'

const WIDTH = 120

const longest = (text: string): number => Math.max(...text.split('\n').map((line) => [...line].length))

/** The table row of a group: its cells, split on the runs of spaces between columns. */
const rowOf = (out: string, name: string): string[] =>
  (out.split('\n').find((line) => line.startsWith(`${name} `)) ?? '').split(/ {2,}/)

const HEADERS = [
  'Group',
  'Region',
  'Desired',
  'OD min',
  'Before',
  'After',
  'Spot',
  'Savings',
  'Serving',
  'Intr.',
  'Failed',
]
const cell = (row: readonly string[], header: string): string | undefined => row[HEADERS.indexOf(header)]

describe('spotswap simulate: the built-in scenario', () => {
  let run: CliRun
  let report: SimulationReport
  beforeAll(async () => {
    run = await runCli(['simulate', '--json', 'report.json'])
    report = JSON.parse(run.files.get('report.json') ?? '{}')
  }, 120_000)

  it('fits every line within 120 columns', () => {
    expect(run.code).toBe(0)
    expect(longest(run.out)).toBeLessThanOrEqual(WIDTH)
    // Each group on one line of the table, every column there: fitted, not wrapped.
    for (const name of Object.keys(report.groups)) expect(rowOf(run.out, name)).toHaveLength(HEADERS.length)
  })

  it('shows each group’s desired capacity at start and end, its on-demand minimum and failed launches', () => {
    const gpu = rowOf(run.out, 'gpu-training')
    const failed = report.groups['gpu-training']?.failedLaunches ?? 0
    expect(failed).toBeGreaterThan(0)
    expect(cell(gpu, 'Failed')).toBe(String(failed))
    expect(cell(gpu, 'Intr.')).toBe(String(report.groups['gpu-training']?.interruptions))
    // queue-workers keeps 25% on-demand (its tags) and the owner grows it from 8 to 12.
    const queue = rowOf(run.out, 'queue-workers')
    expect(cell(queue, 'Desired')).toBe('8→12')
    expect(cell(queue, 'OD min')).toBe('3')
    expect(report.groups['queue-workers']?.explanation?.onDemandMinimum).toBe(3)
  })

  it('says why an untagged, an opted-out and a skipped group show no or less spot', () => {
    const notes = run.out.slice(run.out.indexOf('Groups held back, and why:'))
    expect(notes).toContain('  db-proxies: not tagged spot-enabled=true (TAG_FILTERS, opt-in)')
    expect(notes).toContain('  analytics-eu: opted out: spot-enabled=false')
    expect(notes).toMatch(
      / {2}shop-eu: skipped in \d+ of \d+ replacer runs: outside-cron-window ×\d+; last: outside-cron-window \(/,
    )
    expect(cell(rowOf(run.out, 'db-proxies'), 'OD min')).toBe('-')
  })

  it('marks the savings priced from the embedded us-east-1 table as estimated, next to them', () => {
    expect(cell(rowOf(run.out, 'web-west'), 'Savings')).toMatch(/^\d+\.\d%\*$/)
    expect(cell(rowOf(run.out, 'web-frontend'), 'Savings')).toMatch(/^\d+\.\d%$/)
    expect(run.out).toContain(
      '* on-demand prices are the embedded us-east-1 table (August 2023), used for a region it does not list: savings estimated',
    )
    expect(run.out).toMatch(/^Cost .* saved \(estimated, see \*\)$/m)
  })
})

describe('spotswap simulate: the table and the page', () => {
  it('fits a wide account within 120 columns, keeping the start and end of long group names', async () => {
    const long = (suffix: string) => `payments-checkout-service-production-blue-green-canary-${suffix}`
    const file = writeJson(
      tempDir(),
      'wide.json',
      rawScenario([
        group(long('east-1'), { desired: 6 }),
        group(long('east-2'), { desired: 5, instanceType: 'c5.xlarge' }),
      ]),
    )
    const run = await runCli(['simulate', '--scenario', file])
    expect(run.code).toBe(0)
    expect(longest(run.out)).toBeLessThanOrEqual(WIDTH)
    expect(run.out).toMatch(/^payments-\S*…\S*east-1 /m)
    expect(run.out).toMatch(/^payments-\S*…\S*east-2 /m)
    // us-east-1 is priced from its own table: no estimate.
    expect(run.out).not.toContain('savings estimated')
  })

  it('says on the page, next to the savings, that a region priced from the us-east-1 table is estimated', async () => {
    const eu = { zones: ['eu-west-1a', 'eu-west-1b'], groups: [group('shop', { desired: 2 })] }
    const file = writeJson(tempDir(), 'eu.json', rawScenario([], { regions: { 'eu-west-1': eu } }))
    const run = await runCli(['simulate', '--scenario', file, '--html', 'p.html'])
    expect(run.code).toBe(0)
    expect(cell(rowOf(run.out, 'shop'), 'Savings')).toMatch(/^\d+\.\d%\*$/)
    const page = run.files.get('p.html') ?? ''
    expect(page).toContain('<div class="label">Savings (estimated *)</div>')
    expect(page).toMatch(/<td class="num">\d+\.\d%\*<\/td>/)
    expect(page).toContain(
      '<p class="note">* on-demand prices are the embedded us-east-1 table (August 2023)',
    )
    expect(page).toContain('(estimated: us-east-1 on-demand prices)')
  })

  it("gives the engine's skip reason for a group it skips, and an opted-out group's tag", async () => {
    const file = writeJson(
      tempDir(),
      'skips.json',
      rawScenario([
        group('hooked', { launchHook: true }),
        group('opted', { tags: { 'spot-enabled': 'false' } }),
      ]),
    )
    const run = await runCli(['simulate', '--scenario', file, '--json', 'r.json', '--html', 'p.html'])
    expect(run.out).toMatch(
      /^ {2}hooked: skipped in (\d+) of \1 replacer runs: launch-hooks ×\1; last: launch-hooks \(/m,
    )
    expect(run.out).toContain('  opted: opted out: spot-enabled=false')
    expect(cell(rowOf(run.out, 'hooked'), 'Spot')).toBe('0%')
    const report = JSON.parse(run.files.get('r.json') ?? '{}') as SimulationReport
    expect(report.groups.hooked?.explanation?.runs.skipped).toEqual({
      'launch-hooks': report.groups.hooked?.explanation?.runs.planned,
    })
    const page = run.files.get('p.html') ?? ''
    expect(page).toContain('<td colspan="12">opted out: spot-enabled=false</td>')
    expect(page).toMatch(/<p class="note">skipped in \d+ of \d+ replacer runs: launch-hooks/)
  })

  it('charts each group with its interruptions and swaps marked, beside the on-demand policy', async () => {
    const file = writeJson(
      tempDir(),
      'events.json',
      rawScenario([group('web', { desired: 4 }), group('batch', { desired: 2, tags: {} })], {
        interruptions: [{ at: '2022-05-31T19:00:00Z', group: 'web', count: 1 }],
      }),
    )
    const run = await runCli(['simulate', '--scenario', file, '--json', 'r.json', '--html', 'p.html'])
    const report = JSON.parse(run.files.get('r.json') ?? '{}') as SimulationReport
    const events = report.groups.web?.explanation?.events
    expect(events?.interruptions).toEqual([60])
    expect(events?.swaps.length).toBe(report.groups.web?.replacements)
    const page = run.files.get('p.html') ?? ''
    const sections = page.split('<section class="group">').slice(1)
    expect(sections.map((s) => s.slice(0, s.indexOf(' <span>')))).toEqual(['<h3>web', '<h3>batch'])
    const [web = '', batch = ''] = sections
    expect(web).toContain('<title>interruptions: 1</title>')
    expect(web).toContain(`<title>swaps: ${events?.swaps.length}</title>`)
    expect(batch).not.toContain('<title>swaps:')
    // The on-demand policy's capacity: dashed, beside spotswap's in service and spot.
    expect(
      web.match(/<path d="M[^"]*" fill="none" stroke="#64748b" stroke-width="2" stroke-dasharray/g),
    ).toHaveLength(1)
    expect(web).toMatch(/a month at this rate: \$\d+\.\d\d vs \$\d+\.\d\d/)
    expect(page).not.toMatch(/<script|<link|src=|@import|url\(/i)
  })
})

describe('chartedGroups', () => {
  const summary = (name: string) => ({ group: name }) as GroupSummary
  const eventful = (swaps: number) => ({
    explanation: { events: { interruptions: [], failedLaunches: [], swaps: Array(swaps).fill(1) } },
  })

  it('charts every group up to the cap, then the most eventful ones in the table’s order', () => {
    const names = Array.from({ length: MAX_GROUP_CHARTS + 6 }, (_, i) => `g${i}`)
    const report = {
      groups: Object.fromEntries(names.map((name, i) => [name, eventful(i % 2 === 0 ? 0 : i)])),
    } as unknown as SimulationReport
    const charted = chartedGroups(names.map(summary), report).map((g) => g.group)
    expect(charted).toHaveLength(MAX_GROUP_CHARTS)
    // The 15 odd-numbered groups have swaps; then the even ones, first in the table first.
    expect(charted.slice(0, 12)).toEqual([
      'g0',
      'g1',
      'g2',
      'g3',
      'g4',
      'g5',
      'g6',
      'g7',
      'g8',
      'g9',
      'g10',
      'g11',
    ])
    expect(charted).toContain('g29')
    expect(charted).not.toContain('g28')
    expect(chartedGroups(names.slice(0, 3).map(summary), report)).toHaveLength(3)
  })
})
