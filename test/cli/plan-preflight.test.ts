import { describe, expect, it } from 'vitest'
import type { PlanReport } from '../../tools/cli/plan-report.ts'
import { group, rawScenario, testWorld } from '../sim/support.ts'
import { fakeAccount } from './plan-preflight-fakes.ts'
import { runPlan, simPlanDeps } from './plan-sim.ts'

/** One managed group of four m5.large (2 vCPUs each), launched from lt-00000000000000001. */
const world = () => testWorld(rawScenario([group('web', { desired: 4, instanceType: 'm5.large' })]))

const plan = (account = fakeAccount(), argv: string[] = []) =>
  runPlan(simPlanDeps(world(), undefined, account), ['--region', 'us-east-1', ...argv])

/** The checks, each wrapped line joined back to one. */
const checksOf = (out: string) => out.slice(out.indexOf('Pre-flight checks:')).replaceAll('\n    ', ' ')

describe('spotswap plan, pre-flight checks', () => {
  it('passes when the replacer may pass the instance role, the quota holds the conversion and Pricing answers', async () => {
    const { code, out } = await plan()
    expect(code).toBe(0)
    const checks = checksOf(out)
    expect(checks).toContain(
      '  ok    pass-role: the replacer may pass arn:aws:iam::123456789012:role/web-role (us-east-1/web)',
    )
    // Four instances of 2 vCPUs each: the one launching now and the three after it.
    expect(checks).toMatch(
      /ok {4}spot-quota us-east-1: All Standard \(A, C, D, H, I, M, R, T, Z\) Spot Instance Requests \(L-34B43A08\) is\s+640 vCPUs; converting 4 instance\(s\) needs 8,/,
    )
    expect(checks).toContain('  ok    regions: 1 region(s) not opted in are left out: af-south-1')
    expect(checks).toContain('  ok    pricing: the Pricing API answered')
    for (const line of out.split('\n')) expect(line.length, line).toBeLessThanOrEqual(120)
  })

  it('fails a role the replacer may not pass, a quota below the conversion, and a region not opted in', async () => {
    const account = fakeAccount({
      quotas: new Map([['us-east-1', new Map([['L-34B43A08', 5]])]]),
      regions: [
        { name: 'us-east-1', optIn: 'opt-in-not-required' },
        { name: 'ap-east-1', optIn: 'not-opted-in' },
      ],
    })
    account.roles.set('web-role', {
      name: 'web-role',
      arn: 'arn:aws:iam::123456789012:role/web-role',
      tags: {},
    })
    const { code, out } = await runPlan(simPlanDeps(world(), undefined, account), [
      '--region',
      'us-east-1,ap-east-1',
      '--json',
    ])
    expect(code).toBe(0)
    const report = JSON.parse(out) as PlanReport
    expect(report.preflight).toEqual(
      expect.arrayContaining([
        {
          check: 'pass-role',
          status: 'fail',
          reason: expect.stringContaining(
            'the replacer may not pass arn:aws:iam::123456789012:role/web-role (implicitDeny)',
          ),
        },
        {
          check: 'spot-quota',
          status: 'fail',
          region: 'us-east-1',
          reason: expect.stringContaining('(L-34B43A08) is 5 vCPUs; converting 4 instance(s) needs 8'),
        },
        {
          check: 'regions',
          status: 'fail',
          reason: 'not opted in, so nothing can be deployed or replaced there: ap-east-1',
        },
      ]),
    )
  })

  it('warns, naming the permission, for each check it cannot run, and still prints the plan', async () => {
    const account = fakeAccount({
      denied: new Set([
        'servicequotas:GetServiceQuota',
        'ec2:DescribeRegions',
        'iam:SimulatePrincipalPolicy',
      ]),
    })
    const { code, out } = await plan(account)
    expect(code).toBe(0)
    expect(out).toMatch(/^us-east-1\s+web\s/m)
    const checks = checksOf(out)
    expect(checks).toContain(
      '  warn  pass-role: not checked: needs iam:SimulatePrincipalPolicy (AccessDenied: not authorized to perform:',
    )
    expect(checks).toContain(
      '  warn  spot-quota us-east-1: not checked: needs servicequotas:GetServiceQuota (AccessDenied:',
    )
    expect(checks).toContain(
      '  warn  regions: not checked: needs ec2:DescribeRegions (UnauthorizedOperation:',
    )
  })

  it('says the role check was not made when no SpotSwap stack is deployed, unless the role is given', async () => {
    const undeployed = fakeAccount({ stacks: new Map() })
    const { out } = await plan(undeployed)
    expect(checksOf(out)).toContain(
      '  warn  pass-role: not checked: no SpotSwap stack with a replacer role in us-east-1 (deploy first, or pass --replacer-role ARN)',
    )
    const given = await plan(undeployed, [
      '--replacer-role',
      'arn:aws:iam::123456789012:role/SpotSwap-SpotSwapReplacerRoleAB12-XYZ',
    ])
    expect(checksOf(given.out)).toContain(
      '  ok    pass-role: the replacer may pass arn:aws:iam::123456789012:role/web-role',
    )
  })

  it('warns that savings are estimated when the Pricing API gives nothing', async () => {
    const denied = () => Promise.reject(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }))
    const deps = simPlanDeps(world(), (clients) => ({ ...clients, pricing: { getProducts: denied } }))
    const { out } = await runPlan(deps, ['--region', 'us-east-1'])
    expect(checksOf(out)).toContain(
      '  warn  pricing: no Pricing API answer for Linux/UNIX (needs pricing:GetProducts): on-demand prices and savings come from the embedded us-east-1 table, estimated',
    )
  })
})
