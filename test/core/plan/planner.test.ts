import { describe, expect, it, vi } from 'vitest'
import type { CronSchedule } from '../../../lambdas/core/config/cron.ts'
import { parseCronSchedule } from '../../../lambdas/core/config/cron.ts'
import {
  TAG_LAUNCH_TEMPLATE_ID,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_ORIGINAL_MAX_SIZE,
  TAG_REBALANCE_AT_RISK,
  TAG_REPLACED_TYPE,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
} from '../../../lambdas/core/constants.ts'
import type { Action } from '../../../lambdas/core/plan/actions.ts'
import { clientToken } from '../../../lambdas/core/plan/attempts.ts'
import { type PlanInput, planGroup } from '../../../lambdas/core/plan/planner.ts'
import { type Instance, NO_TRAFFIC_SOURCES } from '../../../lambdas/core/types.ts'
import { launches, swaps } from '../../builders/actions.ts'
import {
  anInstance,
  config,
  GROUP_TEMPLATE_ID,
  memberOf,
  minutesAgo,
  NOW,
  onDemandFleet,
  planInput,
  spotFor,
} from '../../builders/world.ts'

/** The in-flight budget of a group behind load balancers, set on a group without them. */
const QUARTER = { kind: 'percent', value: 25 } as const

const BEHIND_TARGET_GROUP = {
  ...NO_TRAFFIC_SOURCES,
  targetGroupArns: ['arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/0123456789abcdef'],
}

const kinds = (actions: readonly Action[]): string[] => actions.map((a) => a.kind)

const cron = (raw: string): CronSchedule => parseCronSchedule(raw) as CronSchedule

describe('planGroup', () => {
  it('starts a spot replacement for the oldest on-demand instance of a 3-instance group', () => {
    const fleet = onDemandFleet(3)
    const plan = planGroup(planInput(fleet, { config: config({ maxReplacementsInFlight: QUARTER }) }))
    const started = launches(plan.actions)
    // 25% of 3 rounds up to one replacement in flight.
    expect(started).toHaveLength(1)
    expect(started[0]?.replacing).toBe(fleet[0]?.id)
    expect(started[0]?.overrides.every((o) => o.subnetId === 'subnet-a' && o.zone === 'us-east-1a')).toBe(
      true,
    )
  })

  it('keeps the newest on-demand instance when min_on_demand_number is 1', () => {
    const fleet = onDemandFleet(3)
    const plan = planGroup(
      planInput(fleet, {
        config: config({ minOnDemandNumber: 1, maxReplacementsInFlight: { kind: 'count', value: 10 } }),
      }),
    )
    expect(launches(plan.actions).map((a) => a.replacing)).toEqual([fleet[0]?.id, fleet[1]?.id])
  })

  it('replaces a 20-instance group behind a load balancer a quarter at a time by default', () => {
    const plan = planGroup(
      planInput(onDemandFleet(20), { groupOverrides: { trafficSources: BEHIND_TARGET_GROUP } }),
    )
    expect(launches(plan.actions)).toHaveLength(5)
  })

  it('replaces a 20-instance group without load balancers at once by default', () => {
    const plan = planGroup(planInput(onDemandFleet(20)))
    expect(launches(plan.actions)).toHaveLength(20)
  })

  it('never offers a burstable type for m5.large even though t3.large is the cheapest by vCPU and memory', () => {
    const plan = planGroup(planInput(onDemandFleet(1)))
    const types = launches(plan.actions)[0]?.overrides.map((o) => o.instanceType) ?? []
    expect(types.length).toBeGreaterThan(0)
    expect(types.some((t) => t.startsWith('t'))).toBe(false)
  })

  it('tags the launch for the group, the replaced instance and its type, and copies non-aws tags', () => {
    const [original] = onDemandFleet(1) as [Instance]
    const tagged = { ...original, tags: { team: 'web', 'aws:autoscaling:groupName': 'web' } }
    const plan = planGroup(planInput([tagged], { groupOverrides: { propagatedTags: { env: 'prod' } } }))
    expect(launches(plan.actions)[0]?.tags).toEqual({
      team: 'web',
      env: 'prod',
      'launched-by-autospotting': 'true',
      'launched-for-asg': 'web',
      'launched-for-replacing-instance': original.id,
      [TAG_REPLACED_TYPE]: 'm5.large',
    })
  })

  it('uses a client token from the replaced instance and its attempt, recorded on the instance', () => {
    const [original] = onDemandFleet(1) as [Instance]
    const [first] = launches(planGroup(planInput([original])).actions)
    expect(first).toMatchObject({ attempt: 1, clientToken: clientToken(original.id, 1) })
    // Two overlapping runs see the same attempt, so they send the same token: EC2 launches once.
    const [again] = launches(planGroup(planInput([original], { now: minutesAgo(-7) })).actions)
    expect(again?.clientToken).toBe(first?.clientToken)
    // After an attempt that ended (EC2 answered) without a swap, the next one gets a new token.
    const retried = {
      ...original,
      tags: { 'spotswap:replacement-attempt': `1:i-0123456789abcdef0@${minutesAgo(5).toISOString()}` },
    }
    const [next] = launches(planGroup(planInput([retried])).actions)
    expect(next).toMatchObject({ attempt: 2, clientToken: clientToken(original.id, 2) })
    expect(next?.tags['spotswap:replacement-attempt']).toBeUndefined()
  })

  it.each([
    ['EC2 has not answered yet', '1'],
    [
      'EC2 answered a moment ago (its instance not yet seen)',
      `1:i-0123456789abcdef0@${minutesAgo(0.1).toISOString()}`,
    ],
  ])('makes an attempt again, with its token, when %s: an overlapping run may be launching it', (_, tag) => {
    const [original] = onDemandFleet(1) as [Instance]
    const inFlight = { ...original, tags: { 'spotswap:replacement-attempt': tag } }
    const [again] = launches(planGroup(planInput([inFlight])).actions)
    expect(again).toMatchObject({ attempt: 1, clientToken: clientToken(original.id, 1) })
  })

  it('does not launch a second replacement for an instance that already has one warming up', () => {
    const fleet = onDemandFleet(1)
    const pending = spotFor(fleet[0] as Instance, { launchTime: minutesAgo(1) })
    const plan = planGroup(planInput(fleet, { launched: [pending] }))
    expect(launches(plan.actions)).toHaveLength(0)
    expect(plan.instanceSkips[0]?.reason).toMatch(/^warming-up/)
  })

  it('swaps a spot instance that has run for the grace period, raising MaxSize when the group is full', () => {
    const fleet = onDemandFleet(2)
    const ready = spotFor(fleet[0] as Instance, { launchTime: minutesAgo(6) })
    const plan = planGroup(planInput(fleet, { launched: [ready], groupOverrides: { maxSize: 2 } }))
    const [swap] = swaps(plan.actions)
    expect(swap?.pairs).toEqual([{ spotInstanceId: ready.id, onDemandInstanceId: fleet[0]?.id }])
    expect(swap?.originalMaxSize).toBe(2)
    expect(swap?.raiseMaxSizeTo).toBe(3)
  })

  it('does not raise MaxSize when there is room', () => {
    const fleet = onDemandFleet(2)
    const ready = spotFor(fleet[0] as Instance, { launchTime: minutesAgo(6) })
    const plan = planGroup(planInput(fleet, { launched: [ready] }))
    expect(swaps(plan.actions)[0]?.raiseMaxSizeTo).toBeUndefined()
  })

  it('honours GRACE_PERIOD over the group health check grace period', () => {
    const fleet = onDemandFleet(1)
    const spot = spotFor(fleet[0] as Instance, { launchTime: minutesAgo(6) })
    const plan = planGroup(
      planInput(fleet, { launched: [spot], config: config({ gracePeriodSeconds: 600 }) }),
    )
    expect(swaps(plan.actions)).toHaveLength(0)
  })

  it('does not swap a spot instance that is still pending', () => {
    const fleet = onDemandFleet(1)
    const spot = spotFor(fleet[0] as Instance, { launchTime: minutesAgo(6), state: 'pending' })
    expect(swaps(planGroup(planInput(fleet, { launched: [spot] })).actions)).toHaveLength(0)
  })

  // A partner that left the group is still seen (terminated ones for a while): it records the launch.
  const gonePartner = anInstance({ state: 'terminated' })
  it.each([
    ['partner-gone', (_fleet: Instance[]) => spotFor(gonePartner)],
    [
      'not-attachable-in-time',
      (fleet: Instance[]) => spotFor(fleet[0] as Instance, { launchTime: minutesAgo(21), state: 'pending' }),
    ],
  ])('terminates a launched spot instance: %s', (reason, make) => {
    const fleet = onDemandFleet(2)
    const stray = make(fleet)
    const plan = planGroup(planInput(fleet, { launched: [stray], others: [gonePartner] }))
    const terminated = plan.actions.filter((a) => a.kind === 'terminate-spot')
    expect(terminated).toEqual([
      expect.objectContaining({ instanceId: stray.id, reason: expect.stringMatching(`^${reason}`) }),
    ])
  })

  it('leaves alone a second spot instance its partner does not record, and reports it', () => {
    const fleet = onDemandFleet(1)
    const recorded = spotFor(fleet[0] as Instance, { launchTime: minutesAgo(2) })
    const other = spotFor(fleet[0] as Instance, { launchTime: minutesAgo(3) })
    const plan = planGroup(planInput(fleet, { launched: [other, recorded] }))
    expect(plan.actions).toEqual([])
    expect(plan.instanceSkips).toContainEqual({
      instanceId: other.id,
      code: 'not-spotswaps-launch',
      reason: expect.stringMatching(/^not-spotswaps-launch \(outcome-not-recorded\)/),
    })
  })

  it('terminates replacements no longer needed after the on-demand minimum was raised', () => {
    const fleet = onDemandFleet(2)
    const spot = spotFor(fleet[0] as Instance, { launchTime: minutesAgo(2) })
    const plan = planGroup(planInput(fleet, { launched: [spot], config: config({ minOnDemandNumber: 2 }) }))
    expect(plan.actions).toEqual([
      expect.objectContaining({ kind: 'terminate-spot', reason: expect.stringMatching(/^not-needed/) }),
    ])
  })

  it('completes a swap a crashed run left half-done by retiring the on-demand partner', () => {
    const fleet = onDemandFleet(2)
    const attached = spotFor(fleet[0] as Instance)
    const input = planInput([...fleet, attached], {
      groupOverrides: {
        desiredCapacity: 3,
        maxSize: 3,
        tags: { [TAG_ORIGINAL_MAX_SIZE]: '2', 'spotswap:swap-desired': '3/1' },
      },
    })
    const plan = planGroup(input)
    expect(plan.actions).toContainEqual(
      expect.objectContaining({
        kind: 'complete-swap',
        retire: 'partner',
        pair: { spotInstanceId: attached.id, onDemandInstanceId: fleet[0]?.id },
      }),
    )
    // The record of the retirement first, MaxSize back (to desired once the partner is gone) last.
    expect(kinds(plan.actions).filter((k) => k !== 'launch-spot')).toEqual(['complete-swap', 'close-swap'])
    expect(plan.actions).toContainEqual(
      // A version-1 record is read, and the step written as version 2.
      expect.objectContaining({
        kind: 'complete-swap',
        record: `v2 phase=retiring owner=2 pairs=0 step=${fleet[0]?.id} max=2`,
      }),
    )
    expect(plan.actions).toContainEqual(expect.objectContaining({ kind: 'close-swap', maxSize: 2 }))
  })

  it('retires the extra spot instead when retiring the partner would break the on-demand minimum', () => {
    const fleet = onDemandFleet(1)
    const attached = spotFor(fleet[0] as Instance)
    const plan = planGroup(
      planInput([...fleet, attached], {
        config: config({ minOnDemandNumber: 1 }),
        groupOverrides: { tags: { 'spotswap:swap-desired': '2/1' } },
      }),
    )
    expect(plan.actions).toContainEqual(
      expect.objectContaining({ kind: 'complete-swap', retire: 'replacement' }),
    )
  })

  it('starts the next swap in the run that closes the last one, sized after the close', () => {
    const fleet = onDemandFleet(2)
    const [first, second] = fleet as [Instance, Instance]
    const attachedOne = spotFor(first, { tags: { ...spotFor(first).tags, 'spotswap:swap-id': 's1' } })
    const waiting = spotFor(second, { launchTime: minutesAgo(6) })
    const plan = planGroup(
      planInput([...fleet, attachedOne], {
        launched: [waiting],
        groupOverrides: {
          desiredCapacity: 3,
          maxSize: 3,
          tags: {
            'spotswap:swap': `v2 id=s1 phase=waiting owner=2 pairs=1 max=2 started=${minutesAgo(2).toISOString()}`,
          },
        },
        ownerChanges: { kind: 'read', changes: [] },
      }),
    )
    expect(kinds(plan.actions).filter((k) => k !== 'launch-spot')).toEqual([
      'complete-swap',
      'close-swap',
      'swap',
    ])
    // After the close: desired 2 (the owner's), MaxSize back at 2; the new swap raises it to 3 again.
    expect(swaps(plan.actions)[0]).toMatchObject({
      pairs: [{ spotInstanceId: waiting.id, onDemandInstanceId: second.id }],
      originalMaxSize: 2,
      raiseMaxSizeTo: 3,
      swapRecord: expect.stringMatching(/ phase=attaching owner=2 pairs=1 max=2 /),
    })
  })

  it('starts no new swap until the record of the last one is gone: this run restores MaxSize, the next swaps', () => {
    const fleet = onDemandFleet(2)
    const ready = spotFor(fleet[0] as Instance, { launchTime: minutesAgo(6) })
    const withRecord = planGroup(
      planInput(fleet, {
        launched: [ready],
        groupOverrides: { maxSize: 3, tags: { [TAG_ORIGINAL_MAX_SIZE]: '2' } },
        config: config({ maxReplacementsInFlight: QUARTER }),
      }),
    )
    expect(kinds(withRecord.actions)).toEqual(['close-swap'])
    const next = planGroup(planInput(fleet, { launched: [ready], groupOverrides: { maxSize: 2 } }))
    expect(swaps(next.actions)[0]).toMatchObject({
      originalMaxSize: 2,
      raiseMaxSizeTo: 3,
      swapId: 'srcrrw0',
      swapRecord:
        'v2 id=srcrrw0 phase=attaching owner=2 pairs=1 max=2 raised=3 started=2022-05-31T23:00:00.000Z',
      attachedRecord:
        'v2 id=srcrrw0 phase=waiting owner=2 pairs=1 max=2 raised=3 started=2022-05-31T23:00:00.000Z',
    })
  })

  it('starts no swap while the group has fewer instances in service than desired (a backfill booting)', () => {
    const fleet = onDemandFleet(2)
    const ready = spotFor(fleet[0] as Instance, { launchTime: minutesAgo(6) })
    const plan = planGroup(planInput(fleet, { launched: [ready], groupOverrides: { desiredCapacity: 3 } }))
    expect(swaps(plan.actions)).toEqual([])
  })

  it('terminates an unattachable replacement in the last run before the orphan deadline', () => {
    const fleet = onDemandFleet(1)
    // grace 300 s + 3 periods of 300 s = 1200 s deadline; at 910 s the next run (1210 s) would be too late.
    const stuck = spotFor(fleet[0] as Instance, {
      launchTime: new Date(NOW.getTime() - 910_000),
      state: 'pending',
    })
    const plan = planGroup(planInput(fleet, { launched: [stuck] }))
    expect(plan.actions).toEqual([expect.objectContaining({ kind: 'terminate-spot', instanceId: stuck.id })])
  })

  it('swaps a replacement launched seconds after the run that started it, at the run one grace period later', () => {
    const fleet = onDemandFleet(1)
    const ready = spotFor(fleet[0] as Instance, { launchTime: new Date(NOW.getTime() - 297_000) })
    expect(swaps(planGroup(planInput(fleet, { launched: [ready] })).actions)).toHaveLength(1)
  })

  describe('a swap an earlier run left half done', () => {
    const halfDone = (tags: Record<string, string>, overrides: Partial<PlanInput> = {}, desired = 3) => {
      const fleet = onDemandFleet(2)
      const attached = spotFor(fleet[0] as Instance)
      const input = planInput([...fleet, attached], {
        ...overrides,
        groupOverrides: { desiredCapacity: desired, tags },
      })
      return { plan: planGroup(input), fleet, attached }
    }

    it('releases the pair instead of retiring anything when the owner resized the group meanwhile', () => {
      const { plan, attached } = halfDone({ 'spotswap:swap-desired': '3/1' }, {}, 5)
      expect(plan.actions).toContainEqual(
        expect.objectContaining({
          kind: 'release-pair',
          pair: expect.objectContaining({ spotInstanceId: attached.id }),
        }),
      )
    })

    it('retires the replacement when the owner protected the partner meanwhile', () => {
      const fleet = onDemandFleet(2)
      const attached = spotFor(fleet[0] as Instance)
      const input = planInput([...fleet, attached], {
        groupOverrides: { desiredCapacity: 3, tags: { 'spotswap:swap-desired': '3/1' } },
        terminationProtected: new Set([fleet[0]?.id as string]),
      })
      expect(planGroup(input).actions).toContainEqual(
        expect.objectContaining({ kind: 'complete-swap', retire: 'replacement' }),
      )
    })

    it('launches no second replacement for its partner, and leaves alone one its partner does not record', () => {
      const fleet = onDemandFleet(2)
      const attached = spotFor(fleet[0] as Instance)
      const duplicate = spotFor(fleet[0] as Instance, { launchTime: minutesAgo(1) })
      const partner = {
        ...(fleet[0] as Instance),
        tags: { [TAG_REPLACEMENT_ATTEMPT]: `1:${attached.id}@${minutesAgo(10).toISOString()}` },
      }
      const plan = planGroup(
        planInput([partner, fleet[1] as Instance, attached], {
          launched: [duplicate],
          config: config({ maxReplacementsInFlight: { kind: 'count', value: 10 } }),
          groupOverrides: { desiredCapacity: 3, tags: { 'spotswap:swap-desired': '3/1' } },
        }),
      )
      expect(launches(plan.actions).map((a) => a.replacing)).not.toContain(fleet[0]?.id)
      expect(plan.actions.filter((a) => a.kind === 'terminate-spot')).toEqual([])
      expect(plan.untrusted).toEqual([
        expect.objectContaining({ instanceId: duplicate.id, code: 'outcome-not-recorded' }),
      ])
    })

    it('waits while the attached replacement is still Pending: no retirement, no restore, no second launch', () => {
      const fleet = onDemandFleet(2)
      const attached = spotFor(fleet[0] as Instance)
      const input = planInput([...fleet, attached], {
        groupOverrides: {
          desiredCapacity: 3,
          tags: { [TAG_ORIGINAL_MAX_SIZE]: '2', 'spotswap:swap-desired': '3/1' },
        },
      })
      const members = input.group.members.map((m) =>
        m.instanceId === attached.id ? { ...m, lifecycleState: 'Pending' } : m,
      )
      const plan = planGroup({ ...input, group: { ...input.group, members } })
      expect(kinds(plan.actions).filter((k) => k !== 'launch-spot')).toEqual([])
      expect(launches(plan.actions).map((a) => a.replacing)).not.toContain(fleet[0]?.id)
    })

    it('leaves the record of a skipped group alone', () => {
      const plan = planGroup(
        planInput(onDemandFleet(2), {
          stackStatus: 'UPDATE_IN_PROGRESS',
          groupOverrides: {
            maxSize: 3,
            tags: { [TAG_ORIGINAL_MAX_SIZE]: '2', 'spotswap:swap-desired': '3/1' },
          },
        }),
      )
      expect(plan.actions).toEqual([])
    })

    it('counts a partner it retires now as gone when deciding how many more to replace', () => {
      const fleet = onDemandFleet(3)
      const attached = spotFor(fleet[0] as Instance)
      const plan = planGroup(
        planInput([...fleet, attached], {
          config: config({ minOnDemandNumber: 1, maxReplacementsInFlight: { kind: 'count', value: 10 } }),
          groupOverrides: { desiredCapacity: 4, tags: { 'spotswap:swap-desired': '4/1' } },
        }),
      )
      // 3 on-demand, 1 retired now, minimum 1: one more replacement, not two.
      expect(launches(plan.actions)).toHaveLength(1)
    })

    it('finishes the record once no pair is left, never putting MaxSize below desired', () => {
      const fleet = onDemandFleet(4)
      const plan = planGroup(
        planInput(fleet, {
          groupOverrides: {
            maxSize: 5,
            tags: { [TAG_ORIGINAL_MAX_SIZE]: '3', 'spotswap:swap-desired': '5/1' },
          },
        }),
      )
      expect(plan.actions).toContainEqual(expect.objectContaining({ kind: 'close-swap', maxSize: 4 }))
    })
  })

  it('terminates a ready replacement whose partner the owner protected since it was launched', () => {
    const fleet = onDemandFleet(1)
    const ready = spotFor(fleet[0] as Instance, { launchTime: minutesAgo(6) })
    const plan = planGroup(
      planInput(fleet, { launched: [ready], memberOverrides: { protectedFromScaleIn: true } }),
    )
    expect(swaps(plan.actions)).toEqual([])
    expect(plan.actions).toContainEqual(
      expect.objectContaining({
        kind: 'terminate-spot',
        instanceId: ready.id,
        reason: expect.stringMatching(/^partner-protected/),
      }),
    )
  })

  it('restores a MaxSize recorded by an earlier run once desired fits again', () => {
    const fleet = onDemandFleet(2)
    const plan = planGroup(
      planInput(fleet, { groupOverrides: { maxSize: 3, tags: { [TAG_ORIGINAL_MAX_SIZE]: '2' } } }),
    )
    expect(plan.actions).toContainEqual(expect.objectContaining({ kind: 'close-swap', maxSize: 2 }))
  })

  it.each([
    ['desired-capacity-zero', { groupOverrides: { desiredCapacity: 0 } }],
    ['cloudformation-stack-in-progress', { stackStatus: 'UPDATE_IN_PROGRESS' }],
    ['processes-suspended', { groupOverrides: { suspendedProcesses: ['Launch'] } }],
    ['processes-suspended', { groupOverrides: { suspendedProcesses: ['Terminate'] } }],
    [
      'outside-cron-window',
      { config: config({ cronSchedule: cron('9-17 1-5'), cronTimezone: 'Europe/Berlin' }) },
    ],
    ['group-being-deleted', { groupOverrides: { status: 'Delete in progress' } }],
  ] as const)('skips the group with reason %s', (reason, overrides) => {
    const plan = planGroup(planInput(onDemandFleet(2), overrides))
    expect(plan.skipped).toMatch(new RegExp(`^${reason}`))
    expect(launches(plan.actions)).toHaveLength(0)
  })

  it('still cleans up orphans of a skipped group', () => {
    const fleet = onDemandFleet(1)
    const stray = spotFor(gonePartner)
    const plan = planGroup(
      planInput(fleet, {
        launched: [stray],
        others: [gonePartner],
        groupOverrides: { suspendedProcesses: ['Launch'] },
      }),
    )
    expect(kinds(plan.actions)).toEqual(['terminate-spot'])
  })

  it.each([
    ['protected-from-scale-in', { memberOverrides: { protectedFromScaleIn: true } }],
    ['missing-on-demand-price', { onDemandPrices: new Map() }],
    ['no-compatible-spot-type', { spotPrices: new Map() }],
  ] as const)('skips an instance: %s', (reason, overrides) => {
    const plan = planGroup(planInput(onDemandFleet(1), overrides))
    expect(launches(plan.actions)).toHaveLength(0)
    expect(plan.instanceSkips[0]?.reason).toMatch(new RegExp(`^${reason}`))
  })

  it.each([
    ['skips', minutesAgo(-10), 0],
    ['replaces again', minutesAgo(1), 1],
  ])('%s an instance whose spot-capacity backoff ends at %s', (_, until, expected) => {
    const [original] = onDemandFleet(1) as [Instance]
    const tagged = { ...original, tags: { 'spotswap:no-spot-capacity-until': until.toISOString() } }
    const plan = planGroup(planInput([tagged]))
    expect(launches(plan.actions)).toHaveLength(expected)
    expect(launches(plan.actions)[0]?.tags['spotswap:no-spot-capacity-until']).toBeUndefined()
  })

  it.each([
    [1, 5],
    [2, 10],
    [3, 20],
    [4, 30],
    [9, 30],
  ])('backs off attempt %i for %i minutes if it finds no spot capacity', (attempt, minutes) => {
    const [instance] = onDemandFleet(1) as [Instance]
    const ended: Record<string, string> =
      attempt === 1
        ? {}
        : { 'spotswap:replacement-attempt': `${attempt - 1}:no-instance@${minutesAgo(5).toISOString()}` }
    const [launch] = launches(
      planGroup(planInput([{ ...instance, tags: ended }], { config: config({ minOnDemandNumber: 0 }) }))
        .actions,
    )
    expect(launch?.attempt).toBe(attempt)
    expect(launch?.capacityBackoffUntil).toBe(new Date(NOW.getTime() + minutes * 60_000).toISOString())
  })

  it('skips an instance with API termination protection and replaces the next one instead', () => {
    const fleet = onDemandFleet(2)
    const plan = planGroup(planInput(fleet, { terminationProtected: new Set([fleet[0]?.id as string]) }))
    expect(launches(plan.actions).map((a) => a.replacing)).toEqual([fleet[1]?.id])
    expect(plan.instanceSkips[0]).toEqual({
      instanceId: fleet[0]?.id,
      code: 'api-termination-protection',
      reason: 'api-termination-protection',
    })
  })

  it('explains which filters rejected the candidates when none is compatible', () => {
    const plan = planGroup(
      planInput(onDemandFleet(1), { config: config({ allowedInstanceTypes: ['x9.*'] }) }),
    )
    expect(plan.instanceSkips[0]?.rejectedBy?.['allow-list']).toBeGreaterThan(0)
  })

  it('spreads a group over pools: no pool above a third when others exist', () => {
    const fleet = onDemandFleet(6).map((i) => ({ ...i, zone: 'us-east-1a' }))
    const plan = planGroup(
      planInput(fleet, { config: config({ maxReplacementsInFlight: { kind: 'count', value: 6 } }) }),
    )
    const firstChoices = launches(plan.actions).map((a) => a.overrides[0]?.instanceType)
    const counts = new Map<string, number>()
    for (const type of firstChoices) counts.set(type ?? '', (counts.get(type ?? '') ?? 0) + 1)
    expect(firstChoices).toHaveLength(6)
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(2)
  })

  it('puts every replacement in the cheapest pool when diversification is off (maxPoolShare 1)', () => {
    const fleet = onDemandFleet(6).map((i) => ({ ...i, zone: 'us-east-1a' }))
    const plan = planGroup(
      planInput(fleet, {
        maxPoolShare: 1,
        config: config({ maxReplacementsInFlight: { kind: 'count', value: 6 } }),
      }),
    )
    expect(new Set(launches(plan.actions).map((a) => a.overrides[0]?.instanceType)).size).toBe(1)
  })

  it('uses the MixedInstancesPolicy on-demand base and override types', () => {
    const fleet = onDemandFleet(4)
    const plan = planGroup(
      planInput(fleet, {
        config: config({ maxReplacementsInFlight: { kind: 'count', value: 10 } }),
        groupOverrides: {
          launchTemplate: undefined,
          mixedInstancesPolicy: {
            launchTemplate: { id: 'lt-9', name: undefined, version: '1' },
            overrideTypes: ['m5.large', 'm5a.large'],
            overrides: [
              { instanceType: 'm5.large', launchTemplate: undefined, weightedCapacity: 1 },
              { instanceType: 'm5a.large', launchTemplate: undefined, weightedCapacity: 1 },
            ],
            onDemandBaseCapacity: 1,
            onDemandPercentageAboveBaseCapacity: 50,
          },
        },
      }),
    )
    // base 1 + 50% of the 3 above base, rounded up = 3 on-demand kept: one replacement.
    expect(plan.figures.minOnDemand).toBe(3)
    const [launch] = launches(plan.actions)
    expect(launch?.launchTemplate?.id).toBe('lt-9')
    expect(launch?.overrides.every((o) => ['m5.large', 'm5a.large'].includes(o.instanceType))).toBe(true)
  })

  it('reports hourly savings against the replaced type', () => {
    const [original] = onDemandFleet(1) as [Instance]
    const spot = anInstance({
      lifecycle: 'spot',
      type: 'm5a.large',
      tags: { [TAG_REPLACED_TYPE]: 'm5.large' },
    })
    const input = planInput([spot], { spotPrices: new Map([['us-east-1a', new Map([['m5a.large', 0.03]])]]) })
    const plan = planGroup({ ...input, group: { ...input.group, members: [memberOf(spot)] } })
    expect(plan.figures).toMatchObject({ spot: 1, onDemand: 0, hourlySavingsUsd: 0.066, hourlyCostUsd: 0.03 })
    expect(original.type).toBe('m5.large')
  })

  it('is a pure function of its input (same input, same plan), whatever the clock says', () => {
    const input = planInput(onDemandFleet(4))
    // The two calls a day apart on the wall clock: a plan that read Date.now would differ.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(new Date('2030-01-01T00:00:00Z'))
      const first = planGroup(input)
      vi.setSystemTime(new Date('2030-01-02T00:00:00Z'))
      expect(planGroup(input)).toEqual(first)
    } finally {
      vi.useRealTimers()
    }
    expect(NOW.toISOString()).toBe('2022-05-31T23:00:00.000Z')
  })

  describe('spot members flagged at risk by a rebalance recommendation', () => {
    const atRiskMember = (overrides: Partial<Instance> = {}) =>
      anInstance({
        lifecycle: 'spot',
        type: 'm5a.large',
        zone: 'us-east-1b',
        tags: { [TAG_REPLACED_TYPE]: 'm5.large', [TAG_REBALANCE_AT_RISK]: NOW.toISOString(), team: 'web' },
        ...overrides,
      })

    it('launches a replacement in another pool, measured against the replaced on-demand type', () => {
      const member = atRiskMember()
      const plan = planGroup(planInput([member], { config: config({ minOnDemandNumber: 0 }) }))
      const [launch] = launches(plan.actions)
      expect(launch?.replacing).toBe(member.id)
      expect(launch?.overrides.some((o) => o.instanceType === 'm5a.large' && o.zone === 'us-east-1b')).toBe(
        false,
      )
      expect(launch?.tags[TAG_REPLACED_TYPE]).toBe('m5.large')
      expect(launch?.tags[TAG_REBALANCE_AT_RISK]).toBeUndefined()
      expect(launch?.tags.team).toBe('web')
    })

    it('replaces an at-risk member even when the on-demand minimum leaves no on-demand to replace', () => {
      const [onDemand] = onDemandFleet(1) as [Instance]
      const member = atRiskMember()
      const plan = planGroup(planInput([onDemand, member], { config: config({ minOnDemandNumber: 1 }) }))
      expect(launches(plan.actions).map((a) => a.replacing)).toEqual([member.id])
    })

    it('swaps the ready replacement in and retires the at-risk member', () => {
      const member = atRiskMember()
      const replacement = anInstance({
        lifecycle: 'spot',
        zone: 'us-east-1b',
        launchTime: minutesAgo(6),
        tags: {
          [TAG_LAUNCH_TEMPLATE_ID]: GROUP_TEMPLATE_ID,
          [TAG_LAUNCHED_FOR_GROUP]: 'web',
          [TAG_REPLACING_INSTANCE]: member.id,
        },
      })
      const plan = planGroup(planInput([member], { launched: [replacement] }))
      expect(swaps(plan.actions)[0]?.pairs).toEqual([
        { spotInstanceId: replacement.id, onDemandInstanceId: member.id },
      ])
    })
  })
})

describe('planGroup: a look when a replacement’s grace period ends before the next run', () => {
  const lookFor = (grace: number, replacementAgeMinutes?: number): number | undefined => {
    const fleet = onDemandFleet(4)
    const launched =
      replacementAgeMinutes === undefined
        ? []
        : [spotFor(fleet[0] as Instance, { launchTime: minutesAgo(replacementAgeMinutes) })]
    return planGroup(planInput(fleet, { launched, groupOverrides: { healthCheckGracePeriodSeconds: grace } }))
      .lookAgainSeconds
  }

  it('asks for one at the end of a new launch’s grace period, less the launch’s slack', () => {
    expect(lookFor(60)).toBe(30)
    expect(lookFor(120)).toBe(90)
    expect(lookFor(300)).toBe(270)
  })

  it('asks for one when a replacement still warming up will be ready before the next run', () => {
    // Launched 1 min ago with a 3-minute grace period: ready in 2 min less the slack.
    expect(lookFor(180, 1)).toBe(90)
  })

  it('leaves it to the scheduled run when that comes first, or saves less than a health poll', () => {
    expect(lookFor(600)).toBeUndefined()
    // Ready 300 s from now: the scheduled run, at most 300 s away, looks as soon.
    expect(lookFor(330)).toBeUndefined()
  })
})
