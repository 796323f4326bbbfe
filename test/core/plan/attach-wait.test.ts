import { describe, expect, it } from 'vitest'
import { attachWaitSeconds } from '../../../lambdas/core/plan/attach-wait.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import { NO_TRAFFIC_SOURCES, type TrafficSources } from '../../../lambdas/core/types.ts'
import { swaps } from '../../builders/actions.ts'
import { aGroup, config, minutesAgo, onDemandFleet, planInput, spotFor } from '../../builders/world.ts'

const TG = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/0123456789abcdef'
const behindTargetGroup: TrafficSources = {
  targetGroupArns: [TG],
  classicLoadBalancerNames: [],
  unreadable: [],
}
const behindClassic: TrafficSources = {
  targetGroupArns: [],
  classicLoadBalancerNames: ['web'],
  unreadable: [],
}

describe('attachWaitSeconds', () => {
  it.each([
    ['a target group', 0, behindTargetGroup],
    ['a classic load balancer', 0, behindClassic],
    ['nothing', 300, NO_TRAFFIC_SOURCES],
    [
      'a traffic source whose health cannot be read',
      300,
      { ...behindTargetGroup, unreadable: ['vpc-lattice:x'] },
    ],
  ])('in a group behind %s, of grace period 300 s, is %i s', (_, wait, trafficSources) => {
    expect(
      attachWaitSeconds(aGroup([], { trafficSources, healthCheckGracePeriodSeconds: 300 }), undefined),
    ).toBe(wait)
  })

  it('honours GRACE_PERIOD in a group behind load balancers', () => {
    expect(attachWaitSeconds(aGroup([], { trafficSources: behindTargetGroup }), 120)).toBe(120)
  })
})

describe('planGroup: when a replacement is attached', () => {
  const planFor = (trafficSources: TrafficSources, gracePeriodSeconds?: number, state?: 'pending') => {
    const fleet = onDemandFleet(2)
    const [partner] = fleet
    if (partner === undefined) throw new Error('no partner')
    // One minute old in a group whose grace period is five minutes.
    const replacement = spotFor(partner, { launchTime: minutesAgo(1), ...(state ? { state } : {}) })
    const input = planInput(fleet, {
      launched: [replacement],
      groupOverrides: { trafficSources, healthCheckGracePeriodSeconds: 300 },
      ...(gracePeriodSeconds === undefined ? {} : { config: config({ gracePeriodSeconds }) }),
    })
    return { plan: planGroup(input), replacement, partner }
  }

  it('attaches a running replacement at once in a group behind a load balancer', () => {
    const { plan, replacement, partner } = planFor(behindTargetGroup)
    expect(swaps(plan.actions)[0]?.pairs).toEqual([
      { spotInstanceId: replacement.id, onDemandInstanceId: partner.id },
    ])
  })

  it('waits for a pending replacement to run, and looks again soon', () => {
    const { plan, replacement } = planFor(behindTargetGroup, undefined, 'pending')
    expect(swaps(plan.actions)).toHaveLength(0)
    expect(plan.instanceSkips.find((s) => s.instanceId === replacement.id)?.code).toBe('warming-up')
    expect(plan.lookAgainSeconds).toBe(30)
  })

  it('waits out the grace period in a group without load balancers', () => {
    const { plan, replacement } = planFor(NO_TRAFFIC_SOURCES)
    expect(swaps(plan.actions)).toHaveLength(0)
    expect(plan.instanceSkips.find((s) => s.instanceId === replacement.id)?.reason).toMatch(
      /^warming-up: .*attached once running, from /,
    )
  })

  it('waits out an explicit GRACE_PERIOD behind a load balancer', () => {
    expect(swaps(planFor(behindTargetGroup, 300).plan.actions)).toHaveLength(0)
  })
})
