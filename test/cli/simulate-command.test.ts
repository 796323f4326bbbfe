import { describe, expect, it } from 'vitest'
import { loadScenarioFile } from '../../lambdas/sim/scenario/load.ts'
import { simulate } from '../../lambdas/sim/simulate.ts'
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
    expect(run.out).toMatch(/^web\s+us-east-1\s+m5\.large×4\s+\S+.*100%/m)
    expect(run.out).toMatch(/^batch\s+us-east-1\s+m5\.large×1\s+m5\.large×1\s+0%/m)
    expect(run.out).toContain('Invariants    no violation')
    expect(run.out).toMatch(/Available\s+Serving\s+Interrupted/)
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
    expect(page.match(/<svg /g)).toHaveLength(3)
    expect(page).not.toMatch(/<script|<link|src=|@import|url\(/i)
    expect(page).toContain('Cost per hour, whole account')
    expect(page).toContain('Serving traffic')
    expect(page).toContain('<th class="num">Serving</th>')
  })

  it('explains an invalid scenario by path and exits 2', async () => {
    const file = writeJson(tempDir(), 'bad.json', rawScenario([group('web', { desired: 9 })]))
    const run = await runCli(['simulate', '--scenario', file])
    expect(run.code).toBe(2)
    expect(run.err).toContain(
      '$.regions["us-east-1"].groups[0].desired: expected an integer from 0 to 6, got 9',
    )
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
