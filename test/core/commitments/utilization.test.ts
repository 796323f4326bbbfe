import { describe, expect, it } from 'vitest'
import { rateKey } from '../../../lambdas/core/commitments/types.ts'
import { commitmentUtilization } from '../../../lambdas/core/commitments/utilization.ts'
import { commitments, plan, ri, usage } from '../../builders/commitments.ts'

const M5_LARGE_RATE = rateKey('m5.large', 'us-east-1', 'Linux/UNIX', 'default')

describe('commitmentUtilization', () => {
  it('is undefined when the region holds no RI or Savings Plan', () => {
    expect(commitmentUtilization([usage('a', 'm5.large')], commitments({}))).toBeUndefined()
  })

  it('is the share of a Savings Plan commitment the hour uses: $0.06 of $0.12', () => {
    const sp = plan('sp-1', { hourlyCommitmentUsd: 0.12, rates: new Map([[M5_LARGE_RATE, 0.06]]) })
    const used = commitmentUtilization([usage('a', 'm5.large')], commitments({ savingsPlans: [sp] }))
    expect(used).toBeCloseTo(0.5, 9)
  })

  it('weighs each commitment by what it costs an hour: a used $0.12 plan and an idle $0.04 RI make 75%', () => {
    const sp = plan('sp-1', { hourlyCommitmentUsd: 0.12, rates: new Map([[M5_LARGE_RATE, 0.06]]) })
    const idle = ri('ri-1', 'c5.large', { hourlyRateUsd: 0.04 })
    const used = commitmentUtilization(
      [usage('a', 'm5.large'), usage('b', 'm5.large')],
      commitments({ savingsPlans: [sp], reservedInstances: [idle] }),
    )
    expect(used).toBeCloseTo(0.75, 9)
  })

  it('counts each alike when a price is not known (a declared RI): one used, one idle make 50%', () => {
    const used = commitmentUtilization(
      [usage('a', 'm5.large')],
      commitments({
        reservedInstances: [
          ri('ri-used', 'm5.large', { hourlyRateUsd: 0 }),
          ri('ri-idle', 'c5.large', { hourlyRateUsd: 0 }),
        ],
      }),
    )
    expect(used).toBeCloseTo(0.5, 9)
  })

  it('bills in AWS order, whoever runs the usage: an unmanaged line uses the RI as much as a member', () => {
    const used = commitmentUtilization(
      [usage('a', 'm5.large', { managed: false })],
      commitments({ reservedInstances: [ri('ri-1', 'm5.large')] }),
    )
    expect(used).toBeCloseTo(1, 9)
  })
})
