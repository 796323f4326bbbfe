import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BUILTIN_SCENARIO, loadScenarioFile } from '../../tools/sim/scenario/load.ts'
import { simulate } from '../../tools/sim/simulate.ts'

const ROOT = join(import.meta.dirname, '../..')

describe('the built-in scenario (npm start)', () => {
  it('runs the whole day without an invariant violation, every managed group converging and saving', async () => {
    const report = await simulate(loadScenarioFile(BUILTIN_SCENARIO))
    expect(report.violations).toEqual([])
    expect(report.totals.convergenceMinutes).not.toBeNull()
    expect(report.totals.savingsPct).toBeGreaterThan(30)
    expect(report.totals.interruptions).toBeGreaterThan(0)
    expect(report.groups['db-proxies']?.actualCostUsd).toBe(report.groups['db-proxies']?.onDemandOnlyCostUsd)
  }, 60_000)
})

describe('bin/spotswap.js', () => {
  it('runs the TypeScript command line through tsx and lists the commands', () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'bin/spotswap.js'), '--help'], {
      encoding: 'utf8',
    })
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/simulate\s+run spotswap against a simulated AWS account/)
    expect(result.stdout).toMatch(/plan\s+read-only dry run/)
  }, 30_000)
})
