import { describe, expect, it } from 'vitest'
import type { LaunchSpotAction } from '../../lambdas/core/plan/actions.ts'
import { summarizeOutcome } from '../../lambdas/replacer/outcome-summary.ts'

const launch = (overrides: LaunchSpotAction['overrides']): LaunchSpotAction => ({
  kind: 'launch-spot',
  group: 'web',
  replacing: 'i-1',
  replacingType: 'm5.large',
  zone: 'us-east-1a',
  launchTemplate: undefined,
  launchConfigurationName: 'web',
  overrides,
  allocationStrategy: 'price-capacity-optimized',
  tags: {},
  clientToken: 't',
  attempt: 1,
  attemptSince: '2022-05-31T18:00:00.000Z',
  capacityBackoffUntil: '2022-05-31T18:30:00.000Z',
  releaseIfNotLaunched: false,
  expectedHourlySavingsUsd: 0.05,
  reason: 'cheaper',
})

describe('summarizeOutcome of a launch', () => {
  it('lists the candidates and, for those that change CPU vendor or generation, what they change', () => {
    const action = launch([
      { instanceType: 'm5n.large', subnetId: undefined, zone: 'us-east-1a', priority: 0 },
      {
        instanceType: 'm6a.large',
        subnetId: undefined,
        zone: 'us-east-1a',
        priority: 1,
        flags: ['cpu-vendor-change', 'generation-change'],
      },
    ])
    expect(summarizeOutcome({ action, status: 'planned' })).toMatchObject({
      candidates: ['m5n.large', 'm6a.large'],
      flagged: { 'm6a.large': ['cpu-vendor-change', 'generation-change'] },
    })
  })

  it('says nothing of flags when no candidate changes anything', () => {
    const action = launch([
      { instanceType: 'm5n.large', subnetId: undefined, zone: 'us-east-1a', priority: 0 },
    ])
    expect(summarizeOutcome({ action, status: 'planned' })).not.toHaveProperty('flagged')
  })

  it('makes one summary per outcome, and shares the candidates of launches sharing their overrides', () => {
    const overrides = [
      { instanceType: 'm5n.large', subnetId: undefined, zone: 'us-east-1a', priority: 0 },
      {
        instanceType: 'm6a.large',
        subnetId: undefined,
        zone: 'us-east-1a',
        priority: 1,
        flags: ['generation-change'] as const,
      },
    ]
    const outcome = { action: launch(overrides), status: 'planned' } as const
    expect(summarizeOutcome(outcome)).toBe(summarizeOutcome(outcome))
    const other = summarizeOutcome({ action: { ...launch(overrides), replacing: 'i-2' }, status: 'planned' })
    expect(other).toMatchObject({ replacing: 'i-2' })
    expect(other.candidates).toBe(summarizeOutcome(outcome).candidates)
    expect(other.flagged).toBe(summarizeOutcome(outcome).flagged)
  })
})
