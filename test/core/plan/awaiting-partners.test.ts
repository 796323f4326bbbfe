/**
 * Partners of an open swap's attached replacements leave once those serve: until then they are still
 * on-demand members, but a launch for another member must not count on them to hold the on-demand
 * minimum. Counted as staying, they let the plan launch replacements for the members that will be the
 * minimum once the partners leave, and the next run terminates those launches as not needed.
 */
import { describe, expect, it } from 'vitest'
import type { HealthObservation } from '../../../lambdas/core/group/serving.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import { trafficSourceKey } from '../../../lambdas/core/port.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { launches } from '../../builders/actions.ts'
import { config, minutesAgo, onDemandFleet, planInput, spotFor } from '../../builders/world.ts'

const ARN = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/1'
const SOURCE = trafficSourceKey('target-group', ARN)
const STARTED = minutesAgo(2).toISOString()

/** Four on-demand members, `min` of them to stay; swap s1 attached replacements for the first two. */
const openSwap = (min: number, state: 'initial' | 'healthy' = 'initial') => {
  const fleet = onDemandFleet(4) as [Instance, Instance, Instance, Instance]
  const attached = fleet.slice(0, 2).map((partner) =>
    spotFor(partner, {
      launchTime: minutesAgo(3),
      tags: { ...spotFor(partner).tags, 'spotswap:swap-id': 's1', 'spotswap:joined-group': 'web' },
    }),
  )
  const health: HealthObservation = {
    kind: 'read',
    health: {
      settings: new Map([[SOURCE, { intervalSeconds: 30, healthyThreshold: 5 }]]),
      states: new Map(attached.map((i) => [i.id, new Map([[SOURCE, { state }]])])),
    },
  }
  const input = planInput([...fleet, ...attached], {
    config: config({ minOnDemandNumber: min, maxReplacementsInFlight: { kind: 'count', value: 4 } }),
    groupOverrides: {
      desiredCapacity: 6,
      maxSize: 8,
      healthCheckGracePeriodSeconds: 0,
      trafficSources: { targetGroupArns: [ARN], classicLoadBalancerNames: [], unreadable: [] },
      tags: { 'spotswap:swap': `v2 id=s1 phase=waiting owner=4 pairs=2 started=${STARTED}` },
    },
    ownerChanges: { kind: 'read', changes: [] },
    health,
  })
  return { input, fleet }
}

describe('an open swap whose replacements do not serve yet', () => {
  it('leaves the members that will be the on-demand minimum without a launch', () => {
    const { input } = openSwap(2)
    expect(launches(planGroup(input).actions)).toEqual([])
  })

  it('launches for members above the minimum its partners leave', () => {
    const { input, fleet } = openSwap(1)
    expect(launches(planGroup(input).actions).map((a) => a.replacing)).toHaveLength(1)
    expect(launches(planGroup(input).actions).map((a) => a.replacing)).not.toContain(fleet[0].id)
  })

  it('counts partners retiring this run once, not twice', () => {
    // Both replacements serve: both partners retire now, leaving two on-demand members, one above min 1.
    const { input } = openSwap(1, 'healthy')
    expect(launches(planGroup(input).actions)).toHaveLength(1)
  })
})
