import { describe, expect, it } from 'vitest'
import { loadScenarioFile } from '../../tools/sim/scenario/load.ts'
import { simulate } from '../../tools/sim/simulate.ts'
import { group, rawScenario } from '../sim/support.ts'
import { runCli, tempDir, writeJson } from './support.ts'

const scenarioFile = () =>
  writeJson(
    tempDir(),
    'small.json',
    rawScenario([group('web', { desired: 4 }), group('batch', { desired: 1, tags: {} })]),
  )

describe('spotswap simulate', () => {
  it('prints a summary per group and writes the JSON report and the page', async () => {
    const file = scenarioFile()
    const run = await runCli([
      'simulate',
      '--scenario',
      file,
      '--json',
      'out/report.json',
      '--html',
      'out/page.html',
    ])
    expect(run.code).toBe(0)
    expect(run.out).toMatch(/^web\s+us-east-1\s+4→4\s+0\s+m5\.large\s+\S+.*100%/m)
    expect(run.out).toMatch(/^batch\s+us-east-1\s+1→1\s+-\s+m5\.large\s+m5\.large×1\s+0%/m)
    expect(run.out).toContain('Invariants    no violation')
    expect(run.out).toMatch(/Spot\s+Savings\s+Serving\s+Intr\.\s+Failed/)
    expect(run.out).toMatch(
      /^Serving\s+100\.000% of desired capacity in service and healthy in its load balancers/m,
    )
    const report = JSON.parse(run.files.get('out/report.json') ?? '{}')
    expect(report.totals.servingAvailabilityPct).toBe(100)
    expect(report.groups.web.servingAvailabilityPct).toBe(100)
    expect(report).toEqual(JSON.parse(JSON.stringify(await simulate(loadScenarioFile(file)))))
    expect(Object.keys(report)).toEqual(['scenario', 'seed', 'totals', 'groups', 'timeline', 'violations'])
  })

  it('writes a page that stands alone: charts as inline SVG, no script, nothing fetched', async () => {
    const run = await runCli(['simulate', '--scenario', scenarioFile(), '--html', 'page.html'])
    const page = run.files.get('page.html') ?? ''
    // Three for the account, two per group (capacity, cumulative dollars).
    expect(page.match(/<svg /g)).toHaveLength(3 + 2 * 2)
    expect(page).not.toMatch(/<script|<link|src=|@import|url\(/i)
    expect(page).toContain('Cost per hour, whole account')
    expect(page).toContain('Serving traffic')
    expect(page).toContain('<th class="num">Serving</th>')
  })

  it('says, under the table, in the JSON and on the page, why an on-demand instance above the minimum stays', async () => {
    // us-east-1c prices no m5.large stand-in in the embedded data: its member stays on-demand, with why.
    const file = writeJson(
      tempDir(),
      'zone-c.json',
      rawScenario([group('web', { desired: 3 })], {}, { zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'] }),
    )
    const run = await runCli(['simulate', '--scenario', file, '--json', 'report.json', '--html', 'page.html'])
    expect(run.out.replace(/\n {4}/g, ' ')).toMatch(
      /^Still on-demand above the minimum at the end, and why:\n {2}web i-\w+ m5\.large us-east-1c: no-compatible-spot-type \(none of the 43 types priced in us-east-1c passes the filters; nearest in size: m4\.large \(ebs-throughput\)/m,
    )
    const report = JSON.parse(run.files.get('report.json') ?? '{}')
    expect(report.groups.web.stillOnDemand).toEqual([
      expect.objectContaining({ type: 'm5.large', zone: 'us-east-1c', reason: 'no-compatible-spot-type' }),
    ])
    const page = run.files.get('page.html') ?? ''
    expect(page).toContain('<h2>Still on-demand above the minimum, and why</h2>')
    expect(page).toContain('<td>us-east-1c</td><td>no-compatible-spot-type</td>')
  })

  it('explains an invalid scenario by path and exits 2', async () => {
    const file = writeJson(tempDir(), 'bad.json', rawScenario([group('web', { desired: 9 })]))
    const run = await runCli(['simulate', '--scenario', file])
    expect(run.code).toBe(2)
    expect(run.err).toContain(
      '$.regions["us-east-1"].groups[0].desired: expected an integer from 0 to 6, got 9',
    )
  })

  it("replaces the scenario's faults with --faults, keeping the fields it does not name", async () => {
    const file = scenarioFile()
    const run = await runCli([
      'simulate',
      '--scenario',
      file,
      '--faults',
      'crashRate=0.05',
      '--json',
      'r.json',
    ])
    expect(run.code).toBe(0)
    const scenario = loadScenarioFile(file)
    const crashing = { ...scenario, faults: { ...scenario.faults, crashRate: 0.05 } }
    const report = JSON.parse(run.files.get('r.json') ?? '{}')
    expect(report).toEqual(JSON.parse(JSON.stringify(await simulate(crashing))))
    expect(report).not.toEqual(JSON.parse(JSON.stringify(await simulate(scenario))))
  })

  it.each([
    ['crashRate=2', 'crashRate must be a number from 0 to 1'],
    ['crashRate=-0.1', 'crashRate must be a number from 0 to 1'],
    ['throttle=yes', 'throttle must be true or false'],
    ['crashes=0.1', "unknown key 'crashes'"],
    ['crashRate', "'crashRate' is not KEY=VALUE"],
  ])('refuses --faults %s and exits 2', async (faults, message) => {
    const run = await runCli(['simulate', '--scenario', scenarioFile(), '--faults', faults])
    expect(run.code).toBe(2)
    expect(run.err).toContain(message)
  })

  it('exits 2 with the usage for an unknown option, and for an unknown command', async () => {
    const option = await runCli(['simulate', '--scenrio', 'x.json'])
    expect(option.code).toBe(2)
    expect(option.err).toContain('unknown option --scenrio')
    expect(option.err).toContain('Usage: spotswap simulate')
    const command = await runCli(['simulat'])
    expect(command.code).toBe(2)
    expect(command.err).toContain("unknown command 'simulat'")
  })
})
