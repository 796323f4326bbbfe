/**
 * `spotswap plan` against moto_server through the real AWS adapter and SDK: it reports what the replacer
 * would do and why groups are left alone, and it only reads. moto's spot prices are dummies ($0.00001),
 * so savings are asserted as positive, not as figures.
 */
import { expect, it, vi } from 'vitest'
import type { PlanReport } from '../../tools/cli/plan-report.ts'
import { describeMoto, freshAccountPerTest } from '../e2e/support/moto.ts'
import { allInstances, createGroup, groupState } from '../e2e/support/world.ts'

/** moto builds a new account's EC2 backend on first use and answers DescribeInstanceTypes slowly. */
const E2E_TIMEOUT_MS = 240_000

const READ = /^(ec2|autoscaling|cloudformation|pricing):(Describe|Get|List)[A-Za-z]*$/

/** Fresh modules: the adapter's SDK clients must be created for this test's moto account. */
const plan = async (argv: readonly string[]) => {
  vi.resetModules()
  const { main } = await import('../../tools/cli/main.ts')
  let out = ''
  let err = ''
  const code = await main(['plan', ...argv], {
    out: (text) => {
      out += text
    },
    err: (text) => {
      err += text
    },
    progressStream: undefined,
    writeFile: () => {
      throw new Error('plan writes no file')
    },
    env: { ...process.env },
  })
  return { code, out, err }
}

describeMoto('spotswap plan against moto', (moto) => {
  freshAccountPerTest(moto)

  it(
    'reports the launches it would make and the unmanaged groups it would leave, reading only',
    async () => {
      await createGroup({ name: 'web', desired: 2, min: 0, max: 3, tags: { 'spot-enabled': 'true' } })
      await createGroup({ name: 'batch', desired: 1, min: 1, max: 1, tags: { team: 'data' } })
      const before = {
        web: await groupState('web'),
        batch: await groupState('batch'),
        instances: await allInstances(),
      }

      const { code, out } = await plan(['--region', 'us-east-1', '--json'])

      expect(code).toBe(0)
      const report = JSON.parse(out) as PlanReport
      expect(report.dryRun).toBe(true)
      const [region] = report.regions
      expect(region?.error).toBeUndefined()
      const web = region?.groups.find((g) => g.group === 'web')
      expect(web?.managed).toBe(true)
      // The default in-flight budget of a group without load balancers is the whole group: both at once.
      expect(web?.actions).toEqual([
        expect.objectContaining({ kind: 'launch-spot', status: 'planned' }),
        expect.objectContaining({ kind: 'launch-spot', status: 'planned' }),
      ])
      expect(web?.projectedHourlySavingsUsd).toBeGreaterThan(0)
      expect(web?.projectedMonthlySavingsUsd).toBeCloseTo((web?.projectedHourlySavingsUsd ?? 0) * 730.5, 4)
      expect(region?.groups.find((g) => g.group === 'batch')).toMatchObject({
        managed: false,
        skipped: 'not-managed: opt-in needs spot-enabled=true',
        actions: [],
      })

      const operations = Object.keys(report.apiCalls)
      expect(operations).toContain('autoscaling:DescribeAutoScalingGroups')
      expect(operations.filter((operation) => !READ.test(operation))).toEqual([])
      expect({
        web: await groupState('web'),
        batch: await groupState('batch'),
        instances: await allInstances(),
      }).toEqual(before)
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'prints a table of what it would do per group, with the projected hourly and monthly savings',
    async () => {
      await createGroup({
        name: 'api',
        desired: 2,
        min: 0,
        max: 2,
        tags: { 'spot-enabled': 'true', autospotting_min_on_demand_number: '1' },
      })

      const { code, out } = await plan(['--region', 'us-east-1'])

      expect(code).toBe(0)
      expect(out).toContain('Dry run: nothing was changed.')
      expect(out).toMatch(/^us-east-1\s+api\s+2\/0\s+0%\s+1× launch-spot\s+\$\d+\.\d{2}\s+\$\d+\.\d{2}/m)
      expect(out).toMatch(/Projected savings once done: \$\d+\.\d{2}\/hour/)
    },
    E2E_TIMEOUT_MS,
  )
})
