import { describe, expect, it } from 'vitest'
import { managedUsage, regionCoverage } from '../../../lambdas/core/commitments/region-usage.ts'
import { commitments, ri } from '../../builders/commitments.ts'
import { aGroup, anInstance, memberOf, minutesAgo } from '../../builders/world.ts'

const prices = new Map([
  ['Linux/UNIX', { prices: new Map([['m5.large', 0.096]]), source: 'embedded' as const }],
])

describe('managedUsage', () => {
  const older = anInstance({ type: 'm5.large', launchTime: minutesAgo(60) })
  const newer = anInstance({ type: 'm5.large', launchTime: minutesAgo(10) })
  const spot = anInstance({ type: 'm5.large', lifecycle: 'spot' })
  const unpriced = anInstance({ type: 'x9.large' })
  const leaving = anInstance({ type: 'm5.large' })
  const group = aGroup([
    memberOf(older),
    memberOf(newer),
    memberOf(spot),
    memberOf(unpriced),
    memberOf(leaving, { lifecycleState: 'Terminating' }),
  ])
  const input = {
    region: 'us-east-1',
    groups: [{ group, productDescription: 'Linux/UNIX' }],
    instances: new Map([older, newer, spot, unpriced, leaving].map((i) => [i.id, i])),
    onDemandPrices: prices,
  }

  it('lists the on-demand members in service with a price, newest first, an hour each', () => {
    expect(managedUsage(input).map((u) => [u.id, u.managed, u.onDemandRateUsd, u.seconds])).toEqual([
      [newer.id, true, 0.096, 3600],
      [older.id, true, 0.096, 3600],
    ])
  })

  it('covers the newest member first: the planner replaces the oldest first', () => {
    const covered = regionCoverage(input, commitments({ reservedInstances: [ri('ri-1', 'm5.large')] }))
    expect([...(covered?.keys() ?? [])]).toEqual([newer.id])
  })

  it('covers nothing, and computes nothing, without commitments', () => {
    expect(regionCoverage(input, commitments({}))).toBeUndefined()
  })
})
