import { describe, expect, it } from 'vitest'
import { SIMULATED_POLICIES } from '../../tools/bench/policies.ts'
import { loadScenarioFile } from '../../tools/sim/scenario/load.ts'
import { simulate } from '../../tools/sim/simulate.ts'
import { group, rawScenario } from '../sim/support.ts'
import { runCli, tempDir, writeJson } from './support.ts'

const scenarioFile = () =>
  writeJson(tempDir(), 'small.json', rawScenario([group('web', { desired: 2 })], { durationHours: 1 }))

const report = (run: { files: Map<string, string> }) => JSON.parse(run.files.get('report.json') ?? '{}')

describe('spotswap simulate --policy', () => {
  it('runs the on-demand policy instead of spotswap: nothing replaced, nothing saved', async () => {
    const file = scenarioFile()
    const args = ['simulate', '--scenario', file, '--json', 'report.json']
    const onDemand = await runCli([...args, '--policy', 'on-demand'])
    expect(onDemand.code).toBe(0)
    expect(report(onDemand).totals).toMatchObject({ savingsPct: 0, replacements: 0 })
    expect(report(await runCli(args)).totals.savingsPct).toBeGreaterThan(0)
  })

  it.each(Object.keys(SIMULATED_POLICIES))(
    'reports what the %s policy does on the scenario',
    async (name) => {
      const file = scenarioFile()
      const run = await runCli(['simulate', '--scenario', file, '--policy', name, '--json', 'report.json'])
      expect(run.code).toBe(0)
      const policy = SIMULATED_POLICIES[name as keyof typeof SIMULATED_POLICIES]
      expect(report(run)).toEqual(
        JSON.parse(JSON.stringify(await simulate(loadScenarioFile(file), { policy }))),
      )
    },
  )

  it('lists the valid names for a typo, exits 2 and runs nothing', async () => {
    const run = await runCli(['simulate', '--scenario', scenarioFile(), '--policy', 'nope'])
    expect(run.code).toBe(2)
    expect(run.err).toContain(
      `--policy: unknown policy 'nope' (${Object.keys(SIMULATED_POLICIES).join(', ')})`,
    )
    expect(run.err).toContain(
      'spotswap, autospotting, on-demand, asg-lowest-price, asg-price-capacity-optimized',
    )
    expect(run.out).toBe('')
  })

  it('names the policies in its help', async () => {
    const help = await runCli(['simulate', '--help'])
    expect(help.out).toMatch(/--policy NAME +run this policy instead of spotswap: spotswap, autospotting/)
  })
})
