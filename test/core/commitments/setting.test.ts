import { describe, expect, it } from 'vitest'
import { declaredIn, parseCommitments } from '../../../lambdas/core/commitments/setting.ts'
import { parseGlobalConfig } from '../../../lambdas/core/config/global-config.ts'

describe('parseCommitments', () => {
  it.each(['account', 'ignore'] as const)('reads %s', (mode) => {
    expect(parseCommitments(` ${mode} `)).toEqual({ ok: true, value: { mode } })
  })

  it('reads declared Reserved Instances, regional and zonal, with platform and tenancy', () => {
    const parsed = parseCommitments('ri us-east-1 4 m5.large; ri us-east-1a 2 c5.xlarge windows dedicated')
    expect(parsed.ok && parsed.value.mode === 'declared' && parsed.value.declared.reservedInstances).toEqual([
      {
        id: 'declared-1',
        scope: 'regional',
        type: 'm5.large',
        zone: undefined,
        region: 'us-east-1',
        platform: 'Linux/UNIX',
        tenancy: 'default',
        count: 4,
        hourlyRateUsd: 0,
      },
      {
        id: 'declared-2',
        scope: 'zonal',
        type: 'c5.xlarge',
        zone: 'us-east-1a',
        region: 'us-east-1',
        platform: 'Windows',
        tenancy: 'dedicated',
        count: 2,
        hourlyRateUsd: 0,
      },
    ])
  })

  it('reads a Compute plan, and an EC2 Instance plan when a family is named', () => {
    const parsed = parseCommitments('sp us-east-1 10 20%; sp eu-west-1 2.50 28% m5')
    const plans = parsed.ok && parsed.value.mode === 'declared' ? parsed.value.declared.savingsPlans : []
    expect(plans.map((p) => [p.kind, p.region, p.family, p.hourlyCommitmentUsd, p.discount])).toEqual([
      ['compute', 'us-east-1', undefined, 10, 0.2],
      ['ec2-instance', 'eu-west-1', 'm5', 2.5, 0.28],
    ])
  })

  it.each([
    [
      'ri us-east-1 0 m5.large',
      'entry 1 (`ri us-east-1 0 m5.large`): a count of instances (1 or more), not `0`',
    ],
    ['ri useast1 2 m5.large', 'entry 1 (`ri useast1 2 m5.large`): a region or zone, not `useast1`'],
    ['ri us-east-1 2 m5', 'entry 1 (`ri us-east-1 2 m5`): an instance type such as m5.large, not `m5`'],
    ['ri us-east-1 2 m5.large ubuntu', 'linux, windows, rhel, suse or dedicated, not `ubuntu`'],
    [
      'sp us-east-1 10 20',
      'entry 1 (`sp us-east-1 10 20`): a discount between 0% and 100% such as 28%, not `20`',
    ],
    ['sp us-east-1a 10 20%', 'a region, not `us-east-1a`'],
    ['ri us-east-1 1 m5.large; rx us-east-1', 'entry 2 (`rx us-east-1`): `ri` or `sp`'],
    ['', '`account`, `ignore`, or'],
  ])('refuses %j, saying what is wrong', (raw, expected) => {
    const parsed = parseCommitments(raw)
    expect(parsed.ok).toBe(false)
    expect(!parsed.ok && parsed.expected).toContain(expected)
  })

  it('keeps the declared commitments of one region', () => {
    const parsed = parseCommitments('ri us-east-1 1 m5.large; ri eu-west-1b 1 m5.large; sp eu-west-1 1 10%')
    if (!parsed.ok || parsed.value.mode !== 'declared') throw new Error('not declared')
    const here = declaredIn(parsed.value.declared, 'eu-west-1')
    expect(here.reservedInstances.map((r) => r.id)).toEqual(['declared-2'])
    expect(here.savingsPlans.map((p) => p.id)).toEqual(['declared-3'])
  })
})

describe('parseGlobalConfig: COMMITMENTS', () => {
  it('reads this account’s commitments by default', () => {
    expect(parseGlobalConfig({}).config.commitments).toEqual({ mode: 'account' })
  })

  it('reports a value it cannot read and falls back to this account’s reads', () => {
    const { config, errors } = parseGlobalConfig({ COMMITMENTS: 'ri us-east-1 two m5.large' })
    expect(config.commitments).toEqual({ mode: 'account' })
    expect(errors).toEqual([
      expect.objectContaining({
        name: 'COMMITMENTS',
        fatal: false,
        expected: expect.stringContaining('not `two`'),
      }),
    ])
  })
})
