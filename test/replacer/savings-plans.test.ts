/**
 * A region's Savings Plans through the replacer Lambda against a FakeCloud: the read is asked for the
 * types the region runs on demand, the members the plan pays for are kept, and the region's commitment
 * utilization is published.
 */
import { describe, expect, it } from 'vitest'
import { rateKey } from '../../lambdas/core/commitments/types.ts'
import { Metric } from '../../lambdas/core/metric-names.ts'
import type { ReplacerSummary } from '../../lambdas/replacer/summary.ts'
import { cloudWithFleet, harness, skipsOf } from './support.ts'

const ENV = { MAX_REPLACEMENTS_IN_FLIGHT: '10' }

/** Three on-demand m5.large members and a Compute plan whose commitment pays for one of them at its rate. */
const fleetWithPlan = () => {
  const cloud = cloudWithFleet(3)
  const list = cloud.onDemand.prices.get('m5.large') ?? 0
  const rate = list * 0.6
  const asked: (readonly string[] | undefined)[] = []
  Object.assign(cloud, {
    readCommitments: async (types?: readonly string[]) => {
      asked.push(types)
      return {
        reservedInstances: [],
        capacityReservations: [],
        savingsPlans: [
          {
            id: 'sp-compute',
            kind: 'compute',
            hourlyCommitmentUsd: rate,
            rates: new Map([[rateKey('m5.large', 'us-east-1', 'Linux/UNIX', 'default'), rate]]),
          },
        ],
      }
    },
  })
  return { cloud, asked }
}

describe('a Savings Plan through the replacer', () => {
  it('reads the plans for the types the region runs, keeps the member the plan pays for, and publishes its use', async () => {
    const { cloud, asked } = fleetWithPlan()
    const { run, recorded } = harness({ 'us-east-1': cloud }, ENV)
    const summary = (await run()) as ReplacerSummary
    expect(asked).toEqual([['m5.large', 'm5.large', 'm5.large']])
    const covered = skipsOf(summary).filter((s) => s.code === 'commitment-covered')
    expect(covered).toHaveLength(1)
    expect(String(covered[0]?.reason)).toContain('savings-plan sp-compute (Compute Savings Plan')
    const utilization = recorded.metrics.flatMap((m) =>
      m.values
        .filter((v) => v.name === Metric.CommitmentUtilization)
        .map((v) => [m.dimensions.Region, v.value]),
    )
    expect(utilization).toEqual([['us-east-1', 100]])
  })

  it('publishes no utilization for a region without commitments', async () => {
    const cloud = cloudWithFleet(2)
    const { run, recorded } = harness({ 'us-east-1': cloud }, ENV)
    await run()
    const names = recorded.metrics.flatMap((m) => m.values.map((v) => v.name))
    expect(names).not.toContain(Metric.CommitmentUtilization)
  })
})

describe('Savings Plans that cannot be read', () => {
  it('keeps the RI read, holds the members it does not pay for, and warns with a metric', async () => {
    const cloud = cloudWithFleet(3)
    Object.assign(cloud, {
      readCommitments: async () => ({
        reservedInstances: [
          {
            id: 'ri-1',
            scope: 'regional',
            type: 'm5.large',
            region: 'us-east-1',
            platform: 'Linux/UNIX',
            tenancy: 'default',
            count: 1,
            hourlyRateUsd: 0.05,
          },
        ],
        savingsPlans: [],
        capacityReservations: [],
        savingsPlansUnreadable: 'ThrottlingException: Rate exceeded',
      }),
    })
    const { run, recorded } = harness({ 'us-east-1': cloud }, ENV)
    const summary = (await run()) as ReplacerSummary
    const codes = skipsOf(summary)
      .map((s) => s.code)
      .sort()
    expect(codes).toEqual(['commitment-covered', 'commitment-unreadable', 'commitment-unreadable'])
    expect(JSON.stringify(skipsOf(summary))).toContain('ThrottlingException: Rate exceeded')
    expect(cloud.mutations.map((c) => c.method)).toEqual([])
    const names = recorded.metrics.flatMap((m) => m.values.map((v) => v.name))
    expect(names).toContain(Metric.CommitmentsUnreadable)
    expect(names).not.toContain(Metric.CommitmentUtilization)
    expect(recorded.logs.some((l) => l.level === 'warn' && /Savings Plans unreadable/.test(l.message))).toBe(
      true,
    )
  })
})
