import { describe, expect, it } from 'vitest'
import { parseCronSchedule } from '../../../lambdas/core/config/cron.ts'
import {
  TAG_INTERRUPTION_WARNED,
  TAG_NO_SPOT_CAPACITY_UNTIL,
  TAG_REPLACED_TYPE,
  TAG_SWAP_ID,
} from '../../../lambdas/core/constants.ts'
import type { SpotRequestStatus } from '../../../lambdas/core/interruption/confirmation.ts'
import type { Action } from '../../../lambdas/core/plan/actions.ts'
import type { PlanInput } from '../../../lambdas/core/plan/plan-input.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import { regionReadSkip } from '../../../lambdas/core/region/region-reads.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { launches, swaps } from '../../builders/actions.ts'
import {
  anInstance,
  config,
  minutesAgo,
  NOW,
  onDemandFleet,
  planInput,
  spotFor,
} from '../../builders/world.ts'

const FAILED = { group: 'web', subject: 'Linux/UNIX', error: 'Throttling: Rate exceeded' }

const released = (actions: readonly Action[]): string[] =>
  actions.flatMap((a) => (a.kind === 'release-doomed' ? [a.instanceId] : []))

/** Plans with EC2 confirming every tagged member's interruption (its Spot request is marked-for-termination). */
const planWarned = (input: PlanInput) => {
  const codes = new Map<string, SpotRequestStatus>()
  for (const instance of input.instances.values())
    if (instance.tags[TAG_INTERRUPTION_WARNED] !== undefined)
      codes.set(instance.id, { code: 'marked-for-termination' })
  return planGroup({ ...input, interruptions: { kind: 'read', codes } })
}

/** A spot member the interruption handler marked: EC2 takes it in two minutes. */
const doomedMember = (overrides: Partial<Instance> = {}): Instance =>
  anInstance({
    lifecycle: 'spot',
    type: 'm5a.large',
    zone: 'us-east-1b',
    subnetId: 'subnet-b',
    tags: { [TAG_REPLACED_TYPE]: 'm5.large', [TAG_INTERRUPTION_WARNED]: NOW.toISOString() },
    ...overrides,
  })

/** A replacement launched a minute ago: too young for any grace period, old enough for a doomed partner. */
const replacementOf = (partner: Instance, overrides: Partial<Instance> = {}): Instance =>
  spotFor(partner, { type: 'm5.large', launchTime: minutesAgo(1), ...overrides })

describe('planGroup with a member EC2 will interrupt (replaced ahead)', () => {
  it('launches its replacement into another pool at once, asking the executor to release it if none starts', () => {
    const member = doomedMember()
    const plan = planWarned(planInput([member], { config: config({ minOnDemandNumber: 0 }) }))
    const [launch] = launches(plan.actions)
    expect(launch).toMatchObject({ replacing: member.id, releaseIfNotLaunched: true })
    expect(launch?.overrides.some((o) => o.instanceType === 'm5a.large' && o.zone === 'us-east-1b')).toBe(
      false,
    )
    expect(launch?.tags[TAG_INTERRUPTION_WARNED]).toBeUndefined()
    expect(launch?.reason).toContain('interrupted in two minutes')
  })

  it('does not copy the swap id that attached the member onto its replacement (it would read as attached)', () => {
    const member = doomedMember({
      tags: {
        [TAG_REPLACED_TYPE]: 'm5.large',
        [TAG_INTERRUPTION_WARNED]: NOW.toISOString(),
        [TAG_SWAP_ID]: 's1',
      },
    })
    const plan = planWarned(planInput([member], { config: config({ minOnDemandNumber: 0 }) }))
    const [launch] = launches(plan.actions)
    expect(launch?.replacing).toBe(member.id)
    expect(launch?.tags[TAG_SWAP_ID]).toBeUndefined()
  })

  it('replaces it outside the in-flight budget and before the on-demand instances', () => {
    const fleet = onDemandFleet(3)
    const member = doomedMember()
    const plan = planWarned(
      planInput([...fleet, member], {
        config: config({ maxReplacementsInFlight: { kind: 'count', value: 1 } }),
      }),
    )
    expect(launches(plan.actions).map((l) => l.replacing)).toEqual([member.id, fleet[0]?.id])
    expect(launches(plan.actions).map((l) => l.releaseIfNotLaunched)).toEqual([true, false])
  })

  it('tries again despite the capacity back-off of an earlier attempt: the capacity goes either way', () => {
    const member = doomedMember({
      tags: {
        [TAG_REPLACED_TYPE]: 'm5.large',
        [TAG_INTERRUPTION_WARNED]: NOW.toISOString(),
        [TAG_NO_SPOT_CAPACITY_UNTIL]: new Date(NOW.getTime() + 20 * 60_000).toISOString(),
      },
    })
    const plan = planWarned(planInput([member], { config: config({ minOnDemandNumber: 0 }) }))
    expect(launches(plan.actions).map((l) => l.replacing)).toEqual([member.id])
  })

  it('swaps its replacement in as soon as it runs, without waiting for the grace period', () => {
    const member = doomedMember()
    const replacement = replacementOf(member)
    const plan = planWarned(planInput([member], { launched: [replacement] }))
    expect(swaps(plan.actions)[0]?.pairs).toEqual([
      { spotInstanceId: replacement.id, onDemandInstanceId: member.id },
    ])
  })

  it('neither swaps nor launches once the interruption is too close, and lets the member leave instead', () => {
    const warnedLongAgo = {
      [TAG_REPLACED_TYPE]: 'm5.large',
      [TAG_INTERRUPTION_WARNED]: minutesAgo(2).toISOString(),
    }
    const member = doomedMember({ tags: warnedLongAgo })
    const replacement = replacementOf(member)
    const late = planWarned(planInput([member], { launched: [replacement] }))
    expect(swaps(late.actions)).toEqual([])
    expect(released(late.actions)).toEqual([member.id])
    const alone = planWarned(planInput([member], { config: config({ minOnDemandNumber: 0 }) }))
    expect(launches(alone.actions)).toEqual([])
    expect(released(alone.actions)).toEqual([member.id])
  })

  it('waits while its replacement is still pending, launching no second one', () => {
    const member = doomedMember()
    const replacement = replacementOf(member, { state: 'pending' })
    const plan = planWarned(planInput([member], { launched: [replacement] }))
    expect(plan.actions).toEqual([])
    expect(plan.instanceSkips).toEqual([
      expect.objectContaining({ instanceId: replacement.id, reason: expect.stringMatching(/^warming-up/) }),
    ])
  })

  it('still waits the grace period for the replacement of an ordinary on-demand member', () => {
    const [onDemand] = onDemandFleet(1) as [Instance]
    const replacement = replacementOf(onDemand)
    expect(swaps(planWarned(planInput([onDemand], { launched: [replacement] })).actions)).toEqual([])
  })

  it('releases it when no other pool is compatible, so the group backfills now rather than when EC2 takes it', () => {
    const member = doomedMember({ type: 'm5.large', tags: { [TAG_INTERRUPTION_WARNED]: NOW.toISOString() } })
    const plan = planWarned(
      planInput([member], { config: config({ minOnDemandNumber: 0, allowedInstanceTypes: ['m5.large'] }) }),
    )
    expect(launches(plan.actions)).toEqual([])
    expect(released(plan.actions)).toEqual([member.id])
  })

  it('releases it when the group has no launch template to launch from', () => {
    const member = doomedMember()
    const plan = planWarned(
      planInput([member], {
        config: config({ minOnDemandNumber: 0 }),
        groupOverrides: { launchTemplate: undefined },
      }),
    )
    expect(released(plan.actions)).toEqual([member.id])
  })

  it('releases it when the group is not acted on now (outside the cron window)', () => {
    const member = doomedMember()
    const outside = parseCronSchedule('3 *')
    if (outside === undefined) throw new Error('cron did not parse')
    const plan = planWarned(planInput([member], { config: config({ cronSchedule: outside }) }))
    expect(plan.skipped).toMatch(/^outside-cron-window/)
    expect(released(plan.actions)).toEqual([member.id])
  })

  it.each([
    ['launch-hooks-unreadable', { lifecycleHooksUnreadable: 'Throttling: Rate exceeded' }],
    ['spot-prices-unreadable', { regionReadSkip: regionReadSkip([{ ...FAILED, read: 'spot-prices' }]) }],
    ['subnets-unreadable', { regionReadSkip: regionReadSkip([{ ...FAILED, read: 'subnets' }]) }],
  ] as const)(
    'keeps it while a read failed this run (%s: its next requested run reads again), until it is too late',
    (code, unreadable) => {
      const member = doomedMember()
      const plan = planWarned(planInput([member], unreadable))
      expect(plan.skip?.code).toBe(code)
      expect(released(plan.actions)).toEqual([])
      const late = doomedMember({ tags: { [TAG_INTERRUPTION_WARNED]: minutesAgo(2).toISOString() } })
      expect(released(planWarned(planInput([late], unreadable)).actions)).toEqual([late.id])
    },
  )

  it.each([
    ['protected from scale-in', { memberOverrides: { protectedFromScaleIn: true } }],
    ['protected from API termination', {}],
  ] as const)('never touches it when it is %s: EC2 takes it and the group backfills', (_, overrides) => {
    const member = doomedMember()
    const plan = planWarned(
      planInput([member], {
        config: config({ minOnDemandNumber: 0 }),
        terminationProtected: 'memberOverrides' in overrides ? new Set() : new Set([member.id]),
        ...overrides,
      }),
    )
    expect(plan.actions).toEqual([])
  })

  it('does not count the pending replacement of a doomed member against the budget of others', () => {
    const fleet = onDemandFleet(4)
    const member = doomedMember()
    const replacement = replacementOf(member, { state: 'pending' })
    const plan = planWarned(
      planInput([...fleet, member], {
        launched: [replacement],
        config: config({ maxReplacementsInFlight: { kind: 'count', value: 1 } }),
      }),
    )
    expect(launches(plan.actions).map((l) => l.replacing)).toEqual([fleet[0]?.id])
  })
})
