import { describe, expect, it } from 'vitest'
import type { HealthObservation } from '../../../lambdas/core/group/serving.ts'
import { type PlanInput, planGroup } from '../../../lambdas/core/plan/planner.ts'
import { type TargetState, trafficSourceKey } from '../../../lambdas/core/port.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { launches, swaps } from '../../builders/actions.ts'
import { config, minutesAgo, onDemandFleet, planInput, spotFor } from '../../builders/world.ts'

const ARN = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/1'
const SOURCE = trafficSourceKey('target-group', ARN)
const behindTargetGroup = { targetGroupArns: [ARN], classicLoadBalancerNames: [], unreadable: [] }

/** Health as read: 30 s × `checks` checks, each instance in the state given. */
const health = (states: Record<string, TargetState['state']>, checks = 5): HealthObservation => ({
  kind: 'read',
  health: {
    settings: new Map([[SOURCE, { intervalSeconds: 30, healthyThreshold: checks }]]),
    states: new Map(Object.entries(states).map(([id, state]) => [id, new Map([[SOURCE, { state }]])])),
  },
})

const STARTED = minutesAgo(2).toISOString()

/**
 * A web group of four on-demand members behind a target group whose swap s1 attached a replacement for
 * the first two minutes ago (still in its health checks), and a replacement for the second launched
 * meanwhile, running: ready but for the open swap. Grace period 0.
 */
const openSwapWithReady = (
  overrides: {
    record?: string
    maxSize?: number
    health?: HealthObservation | undefined
    readyState?: Instance['state']
    healthChecks?: number
    ownerChanges?: PlanInput['ownerChanges']
  } = {},
) => {
  const fleet = onDemandFleet(4)
  const [partner, second] = fleet as [Instance, Instance]
  const attached = spotFor(partner, {
    launchTime: minutesAgo(3),
    tags: { ...spotFor(partner).tags, 'spotswap:swap-id': 's1', 'spotswap:joined-group': 'web' },
  })
  const ready = spotFor(second, { launchTime: minutesAgo(1), state: overrides.readyState ?? 'running' })
  const input: PlanInput = planInput([...fleet, attached], {
    config: config({ maxReplacementsInFlight: { kind: 'count', value: 1 } }),
    groupOverrides: {
      desiredCapacity: 5,
      maxSize: overrides.maxSize ?? 8,
      healthCheckGracePeriodSeconds: 0,
      trafficSources: behindTargetGroup,
      tags: {
        'spotswap:swap': overrides.record ?? `v2 id=s1 phase=waiting owner=4 pairs=1 started=${STARTED}`,
      },
    },
    ownerChanges: 'ownerChanges' in overrides ? overrides.ownerChanges : { kind: 'read', changes: [] },
    launched: [ready],
    health:
      'health' in overrides ? overrides.health : health({ [attached.id]: 'initial' }, overrides.healthChecks),
  })
  return { input, fleet, partner, second, attached, ready }
}

describe('a replacement ready while its group swap waits for its replacements to serve', () => {
  it('joins the open swap as one more pair, under the MaxSize standing', () => {
    const { input, second, ready } = openSwapWithReady()
    const plan = planGroup(input)
    expect(swaps(plan.actions)).toEqual([
      expect.objectContaining({
        swapId: 's1',
        pairs: [{ spotInstanceId: ready.id, onDemandInstanceId: second.id }],
        raiseMaxSizeTo: undefined,
        swapRecord: `v2 id=s1 phase=attaching owner=4 pairs=2 attached=1 started=${STARTED}`,
        attachedRecord: `v2 id=s1 phase=waiting owner=4 pairs=2 started=${STARTED}`,
      }),
    ])
    expect(plan.actions.map((a) => a.kind)).not.toContain('close-swap')
    expect(plan.instanceSkips).not.toContainEqual(expect.objectContaining({ code: 'waiting-for-open-swap' }))
  })

  it('frees its room in the in-flight budget for the next launch, made once the attach is done', () => {
    const { input, fleet } = openSwapWithReady()
    const plan = planGroup(input)
    expect(launches(plan.actions).map((a) => a.replacing)).toEqual([fleet[2]?.id])
  })

  it('waits for the swap to close while the replacements health is not read', () => {
    const { input, ready } = openSwapWithReady({ health: undefined })
    const plan = planGroup(input)
    expect(swaps(plan.actions)).toEqual([])
    expect(plan.instanceSkips).toContainEqual(
      expect.objectContaining({ instanceId: ready.id, code: 'waiting-for-open-swap' }),
    )
  })

  it('waits for the swap to close when joining would need MaxSize raised', () => {
    // The swap raised MaxSize to the owner's figure plus its one pair: no room for a second.
    const { input, ready } = openSwapWithReady({
      record: `v2 id=s1 phase=waiting owner=4 pairs=1 max=4 raised=5 started=${STARTED}`,
      maxSize: 5,
    })
    const plan = planGroup(input)
    expect(swaps(plan.actions)).toEqual([])
    expect(plan.instanceSkips).toContainEqual(
      expect.objectContaining({ instanceId: ready.id, code: 'waiting-for-open-swap' }),
    )
  })

  it('looks again when a replacement still booting may join, not when the swap health checks end', () => {
    // Ten checks of 30 s: the swap's own look comes three minutes from now; the pending launch joins sooner.
    const { input } = openSwapWithReady({ readyState: 'pending', healthChecks: 10 })
    const plan = planGroup(input)
    expect(swaps(plan.actions)).toEqual([])
    expect(plan.lookAgainSeconds).toBe(30)
  })

  it('asks for the scaling activities first: a join must not follow an owner change unseen', () => {
    const { input, ready } = openSwapWithReady({ ownerChanges: undefined })
    const plan = planGroup(input)
    expect(swaps(plan.actions)).toEqual([])
    expect(plan.awaitingActivities).toBe(true)
    expect(plan.instanceSkips).toContainEqual(
      expect.objectContaining({ instanceId: ready.id, code: 'waiting-for-open-swap' }),
    )
  })
})
