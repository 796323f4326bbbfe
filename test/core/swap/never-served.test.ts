import { describe, expect, it } from 'vitest'
import { parseCronSchedule } from '../../../lambdas/core/config/cron.ts'
import {
  TAG_JOINED_GROUP,
  TAG_RELEASED_SWAP_ID,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP_ID,
} from '../../../lambdas/core/constants.ts'
import type { HealthObservation } from '../../../lambdas/core/group/serving.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import { type TargetState, trafficSourceKey } from '../../../lambdas/core/port.ts'
import { regionReadSkip } from '../../../lambdas/core/region/region-reads.ts'
import {
  attachedBoundMs,
  judgeAgainSeconds,
  judgeNeverServed,
} from '../../../lambdas/core/swap/never-served.ts'
import { swapIdAt } from '../../../lambdas/core/swap/record.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { aGroup, anInstance, memberOf, minutesAgo, NOW, planInput, spotFor } from '../../builders/world.ts'

const ARN = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/1'
const SOURCE = trafficSourceKey('target-group', ARN)
const behindTargetGroup = { targetGroupArns: [ARN], classicLoadBalancerNames: [], unreadable: [] }

/** Health as read: 30 s × 5 checks, each instance in the state given. */
const health = (states: Record<string, TargetState['state']>): HealthObservation => ({
  kind: 'read',
  health: {
    settings: new Map([[SOURCE, { intervalSeconds: 30, healthyThreshold: 5 }]]),
    states: new Map(Object.entries(states).map(([id, state]) => [id, new Map([[SOURCE, { state }]])])),
  },
})

/**
 * A spot member spotswap attached to `web` and recorded as joined, whose partner is gone (retired, or
 * taken by a scale-in or an interruption): launched `launchedMinutesAgo` minutes ago, grace period 0.
 */
const joinedReplacement = (launchedMinutesAgo: number, tags: Record<string, string> = {}): Instance => {
  const partner = anInstance()
  const spot = spotFor(partner, { launchTime: minutesAgo(launchedMinutesAgo) })
  return { ...spot, tags: { ...spot.tags, [TAG_JOINED_GROUP]: 'web', ...tags } }
}

const judge = (
  members: readonly Instance[],
  observation: HealthObservation | undefined,
  options: {
    isPair?: (id: string) => boolean
    isProtected?: (id: string) => boolean
    graceSeconds?: number
  } = {},
) => {
  const byId = new Map(members.map((i) => [i.id, i]))
  return judgeNeverServed({
    group: aGroup(
      members.map((i) => memberOf(i)),
      { trafficSources: behindTargetGroup, healthCheckGracePeriodSeconds: 0 },
    ),
    now: NOW,
    detail: (id) => byId.get(id),
    isProtected: options.isProtected ?? (() => false),
    isPair: options.isPair ?? (() => false),
    health: observation,
    graceSeconds: options.graceSeconds ?? 0,
    scheduleSeconds: 300,
  })
}

// Grace 0, 5-minute runs, 30 s × 5 checks: a released replacement is given until 10 minutes after its
// launch (the latest its attach can be) plus a 300 s health deadline: 15 minutes.
describe('judgeNeverServed', () => {
  it('lets a replacement that never served leave once past its deadline, whatever its swap became', () => {
    const spot = joinedReplacement(16)
    const verdict = judge([spot], health({ [spot.id]: 'initial' }))
    expect(verdict.leave.map((m) => m.instanceId)).toEqual([spot.id])
    expect(verdict.leave[0]?.reason).toMatch(/^never-served: .*initial/)
    expect(verdict.served).toEqual([])
  })

  it.each([
    ['unhealthy', 'unhealthy' as const],
    ['not registered with its target group (deregistered)', undefined],
  ])('counts a member %s as not serving', (_, state) => {
    const spot = joinedReplacement(16)
    const verdict = judge([spot], health(state === undefined ? {} : { [spot.id]: state }))
    expect(verdict.leave.map((m) => m.instanceId)).toEqual([spot.id])
  })

  // Attached at the latest 4 minutes ago, its checks not decided: looked at again at its deadline, in 60 s.
  it('waits until the deadline for one whose checks have not called it unhealthy', () => {
    const spot = joinedReplacement(14)
    expect(judge([spot], health({ [spot.id]: 'initial' }))).toEqual({
      served: [],
      leave: [],
      awaitingHealth: [],
      lookAgainSeconds: 60,
    })
  })

  // Its partner is gone, so nothing serves in its stead: the load balancer's verdict is not waited out.
  it('lets one its load balancer reports failing its checks leave before its deadline, once past the grace period', () => {
    const spot = joinedReplacement(12)
    const verdict = judge([spot], health({ [spot.id]: 'unhealthy' }))
    expect(verdict.leave.map((m) => m.instanceId)).toEqual([spot.id])
    expect(verdict.leave[0]?.reason).toMatch(/^failed-checks: .*unhealthy/)
  })

  it('keeps one failing its checks within the grace period, and looks again when the grace period ends', () => {
    // Grace 600 s: attached at the latest 600 + 2 × 300 s after its launch 25 minutes ago, 5 minutes ago.
    const spot = joinedReplacement(25)
    const verdict = judge([spot], health({ [spot.id]: 'unhealthy' }), { graceSeconds: 600 })
    expect(verdict).toEqual({ served: [], leave: [], awaitingHealth: [], lookAgainSeconds: 300 })
  })

  it.each([
    ['failing its checks (reason Instance)', 'Instance', 1],
    ['still registering or in its first checks (reason ELB)', 'ELB', 0],
  ])('reads a classic load balancer’s OutOfService %s', (_, reason, leaving) => {
    const spot = joinedReplacement(12)
    const byId = new Map([[spot.id, spot]])
    const classic = trafficSourceKey('classic', 'web-elb')
    const verdict = judgeNeverServed({
      group: aGroup([memberOf(spot)], {
        trafficSources: { targetGroupArns: [], classicLoadBalancerNames: ['web-elb'], unreadable: [] },
      }),
      now: NOW,
      detail: (id) => byId.get(id),
      isProtected: () => false,
      isPair: () => false,
      health: {
        kind: 'read',
        health: {
          settings: new Map([[classic, { intervalSeconds: 30, healthyThreshold: 10 }]]),
          states: new Map([[spot.id, new Map([[classic, { state: 'OutOfService', reason }]])]]),
        },
      },
      graceSeconds: 0,
      scheduleSeconds: 300,
    })
    expect(verdict.leave).toHaveLength(leaving)
  })

  it('settles one seen serving: the launch tags are the memory of never having served', () => {
    const spot = joinedReplacement(60)
    expect(judge([spot], health({ [spot.id]: 'healthy' }))).toEqual({
      served: [spot.id],
      leave: [],
      awaitingHealth: [],
    })
  })

  it('asks for the health it needs, and judges nothing without it', () => {
    const spot = joinedReplacement(60)
    expect(judge([spot], undefined)).toEqual({ served: [], leave: [], awaitingHealth: [spot.id] })
    expect(judge([spot], { kind: 'unreadable', error: 'Throttling' })).toEqual({
      served: [],
      leave: [],
      awaitingHealth: [],
    })
  })

  it('leaves the open swap its pairs, the owner what they protected, and settled members alone', () => {
    const pair = joinedReplacement(60)
    const protectedOne = joinedReplacement(60)
    const settled = anInstance({ lifecycle: 'spot', tags: { [TAG_JOINED_GROUP]: 'web' } })
    const verdict = judge(
      [pair, protectedOne, settled],
      health({ [pair.id]: 'unhealthy', [protectedOne.id]: 'unhealthy', [settled.id]: 'unhealthy' }),
      { isPair: (id) => id === pair.id, isProtected: (id) => id === protectedOne.id },
    )
    expect(verdict).toEqual({ served: [], leave: [], awaitingHealth: [] })
  })

  it.each([
    ['an on-demand instance', (i: Instance): Instance => ({ ...i, lifecycle: 'on-demand' })],
    [
      'a spot member with launch tags that joined another group and names no partner spotswap recorded',
      (i: Instance): Instance => {
        const { [TAG_REPLACING_INSTANCE]: _, ...tags } = i.tags
        return { ...i, tags: { ...tags, [TAG_JOINED_GROUP]: 'other' } }
      },
    ],
  ])('never takes out what spotswap cannot show it attached: %s', (_, forge) => {
    const spot = forge(joinedReplacement(60))
    expect(judge([spot], health({ [spot.id]: 'unhealthy' })).leave).toEqual([])
  })

  it('believes a partner that records it as its launch when the joined-group tag was never written', () => {
    const partner = anInstance({ tags: {} })
    const spot = spotFor(partner, { launchTime: minutesAgo(60) })
    const recorded = {
      ...partner,
      tags: { 'spotswap:replacement-attempt': `1:${spot.id}@${spot.launchTime.toISOString()}` },
    }
    const byId = new Map([spot, recorded].map((i) => [i.id, i]))
    const verdict = judgeNeverServed({
      group: aGroup([memberOf(spot)], { trafficSources: behindTargetGroup }),
      now: NOW,
      detail: (id) => byId.get(id),
      isProtected: () => false,
      isPair: () => false,
      health: health({ [spot.id]: 'unhealthy' }),
      graceSeconds: 0,
      scheduleSeconds: 300,
    })
    expect(verdict.leave.map((m) => m.instanceId)).toEqual([spot.id])
  })
})

// Attached at 0, grace 0, 30 s × 5 checks: unhealthy at the soonest after 2 failed checks (60 s),
// healthy after 150 s, given up at 300 s.
describe('judgeAgainSeconds', () => {
  const checks = { failSeconds: 60, passSeconds: 150 }
  it.each([
    [10, 0, 50],
    [60, 0, 90],
    [200, 0, 100],
    [300, 0, undefined],
    [10, 120, 110],
  ])('at %i s with a grace period of %i s: looks again in %s s', (nowSeconds, grace, expected) => {
    expect(judgeAgainSeconds(0, grace, checks, 300_000, nowSeconds * 1000)).toBe(expected)
  })
})

describe('attachedBoundMs', () => {
  const launched = anInstance({ lifecycle: 'spot', launchTime: minutesAgo(60) })
  const launchMs = launched.launchTime.getTime()
  const withSwap = (at: Date): Instance => ({ ...launched, tags: { [TAG_SWAP_ID]: swapIdAt(at) } })

  it('is the swap’s start while the member carries its id', () => {
    expect(attachedBoundMs(withSwap(minutesAgo(55)), 120, 300)).toBe(minutesAgo(55).getTime())
  })

  it('is the swap’s start a released pair’s replacement keeps (released-swap-id), past the orphan deadline too', () => {
    const released = { ...launched, tags: { [TAG_RELEASED_SWAP_ID]: swapIdAt(NOW) } }
    expect(attachedBoundMs(released, 120, 300)).toBe(NOW.getTime())
  })

  it('is the latest attach its launch allows without a swap id (grace + 2 periods)', () => {
    expect(attachedBoundMs(launched, 120, 300)).toBe(launchMs + (120 + 600) * 1000)
  })

  it('is never before the grace period its launch allows', () => {
    expect(attachedBoundMs(withSwap(minutesAgo(600)), 120, 300)).toBe(launchMs + 90_000)
  })

  // Runs that came late swap in a replacement past its orphan deadline: its deadline counts from that swap
  // (the id is a MAC-verified marker), not from the orphan deadline, or it would leave in its first checks.
  it('is a swap’s start past the orphan deadline', () => {
    expect(attachedBoundMs(withSwap(NOW), 120, 300)).toBe(NOW.getTime())
  })
})

describe('planGroup with a replacement that never served', () => {
  const members = () => {
    const [onDemand] = [anInstance()]
    const spot = joinedReplacement(60)
    return { onDemand: onDemand as Instance, spot }
  }
  const inputFor = (spot: Instance, onDemand: Instance, observation: HealthObservation | undefined) =>
    planInput([onDemand, spot], {
      groupOverrides: { trafficSources: behindTargetGroup, healthCheckGracePeriodSeconds: 0 },
      health: observation,
      config: { ...planInput([]).config, minOnDemandNumber: 1 },
    })

  it('takes it out through Auto Scaling without a decrement, and does not settle it', () => {
    const { onDemand, spot } = members()
    const plan = planGroup(
      inputFor(spot, onDemand, health({ [spot.id]: 'unhealthy', [onDemand.id]: 'healthy' })),
    )
    expect(plan.actions.filter((a) => a.kind === 'release-doomed' || a.kind === 'settle-members')).toEqual([
      expect.objectContaining({ kind: 'release-doomed', instanceId: spot.id }),
    ])
  })

  // Attached at the latest a minute ago: its checks call it healthy 150 s after the attach, in 90 s.
  it('looks at the group again when its checks decide, not at the next scheduled run', () => {
    const onDemand = anInstance()
    const spot = joinedReplacement(11)
    const plan = planGroup(
      inputFor(spot, onDemand, health({ [spot.id]: 'initial', [onDemand.id]: 'healthy' })),
    )
    expect(plan.actions.filter((a) => a.kind === 'release-doomed')).toEqual([])
    expect(plan.lookAgainSeconds).toBe(90)
  })

  it('asks for its health first', () => {
    const { onDemand, spot } = members()
    const plan = planGroup(inputFor(spot, onDemand, undefined))
    expect(plan.awaitingHealth).toEqual([spot.id])
    expect(plan.actions.filter((a) => a.kind === 'release-doomed' || a.kind === 'settle-members')).toEqual([])
  })

  it('takes it out outside the cron window too: only new work waits for the window', () => {
    const { onDemand, spot } = members()
    const outside = parseCronSchedule('3 *')
    if (outside === undefined) throw new Error('cron did not parse')
    const input = inputFor(spot, onDemand, health({ [spot.id]: 'unhealthy', [onDemand.id]: 'healthy' }))
    const plan = planGroup({ ...input, config: { ...input.config, cronSchedule: outside } })
    expect(plan.skipped).toMatch(/^outside-cron-window/)
    expect(plan.actions.filter((a) => a.kind === 'release-doomed')).toEqual([
      expect.objectContaining({ kind: 'release-doomed', instanceId: spot.id }),
    ])
  })

  it('takes it out during an instance refresh too: Auto Scaling keeps replacing unhealthy members then', () => {
    const { onDemand, spot } = members()
    const input = inputFor(spot, onDemand, health({ [spot.id]: 'unhealthy', [onDemand.id]: 'healthy' }))
    const plan = planGroup({
      ...input,
      instanceRefresh: { kind: 'read', refreshes: [{ id: 'r1', status: 'InProgress' }] },
    })
    expect(plan.skipped).toMatch(/^instance-refresh/)
    expect(plan.actions.filter((a) => a.kind === 'release-doomed')).toEqual([
      expect.objectContaining({ kind: 'release-doomed', instanceId: spot.id }),
    ])
  })

  it.each(['spot-prices', 'subnets'] as const)(
    'takes it out when a %s read failed: judging it needs neither prices nor subnets',
    (read) => {
      const { onDemand, spot } = members()
      const input = inputFor(spot, onDemand, health({ [spot.id]: 'unhealthy', [onDemand.id]: 'healthy' }))
      const failed = {
        read,
        group: input.group.name,
        subject: 'Linux/UNIX',
        error: 'InternalError: try again',
      }
      const plan = planGroup({ ...input, regionReadSkip: regionReadSkip([failed]) })
      expect(plan.skipped).toMatch(/-unreadable/)
      expect(plan.actions.filter((a) => a.kind === 'release-doomed')).toEqual([
        expect.objectContaining({ kind: 'release-doomed', instanceId: spot.id }),
      ])
    },
  )

  it('settles it once it serves', () => {
    const { onDemand, spot } = members()
    const plan = planGroup(inputFor(spot, onDemand, health({ [spot.id]: 'healthy' })))
    expect(plan.actions.filter((a) => a.kind === 'release-doomed' || a.kind === 'settle-members')).toEqual([
      expect.objectContaining({ kind: 'settle-members', instanceIds: [spot.id] }),
    ])
  })
})
