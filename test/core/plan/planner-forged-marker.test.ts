import { describe, expect, it } from 'vitest'
import { parseCronSchedule } from '../../../lambdas/core/config/cron.ts'
import { TAG_INTERRUPTION_WARNED, TAG_REPLACED_TYPE } from '../../../lambdas/core/constants.ts'
import type { InterruptionStatuses } from '../../../lambdas/core/interruption/confirmation.ts'
import type { Action } from '../../../lambdas/core/plan/actions.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { launches, swaps } from '../../builders/actions.ts'
import { anInstance, config, minutesAgo, NOW, planInput, spotFor } from '../../builders/world.ts'

/** A spot member someone tagged as warned: long ago (past the swap deadline) or just now. */
const taggedMember = (warnedAt: Date): Instance =>
  anInstance({
    lifecycle: 'spot',
    type: 'm5a.large',
    zone: 'us-east-1b',
    subnetId: 'subnet-b',
    tags: { [TAG_REPLACED_TYPE]: 'm5.large', [TAG_INTERRUPTION_WARNED]: warnedAt.toISOString() },
  })

const fulfilled = (...ids: string[]): InterruptionStatuses => ({
  kind: 'read',
  codes: new Map(ids.map((id) => [id, { code: 'fulfilled' }])),
})

/** Anything that would make the member leave or be replaced. */
const touching = (actions: readonly Action[], id: string): Action[] =>
  actions.filter(
    (a) =>
      (a.kind === 'release-doomed' && a.instanceId === id) ||
      (a.kind === 'launch-spot' && a.replacing === id) ||
      (a.kind === 'swap' && a.pairs.some((p) => p.onDemandInstanceId === id)),
  )

describe('planGroup with a member tagged as warned that EC2 does not confirm', () => {
  it.each([
    ['long ago', minutesAgo(60)],
    ['just now', NOW],
  ])('neither releases nor replaces a member tagged %s whose Spot request is fulfilled', (_, at) => {
    const member = taggedMember(at)
    const plan = planGroup(
      planInput([member], { config: config({ minOnDemandNumber: 0 }), interruptions: fulfilled(member.id) }),
    )
    expect(touching(plan.actions, member.id)).toEqual([])
    expect(plan.instanceSkips).toEqual([
      expect.objectContaining({
        instanceId: member.id,
        code: 'untrusted-marker',
        reason: expect.stringContaining('fulfilled'),
      }),
    ])
  })

  it('does not release it when its group is skipped either (outside the cron window)', () => {
    const member = taggedMember(minutesAgo(60))
    const outside = parseCronSchedule('3 *')
    if (outside === undefined) throw new Error('cron did not parse')
    const plan = planGroup(
      planInput([member], { config: config({ cronSchedule: outside }), interruptions: fulfilled(member.id) }),
    )
    expect(plan.skipped).toMatch(/^outside-cron-window/)
    expect(plan.actions).toEqual([])
  })

  it('does not swap out a member whose replacement runs beside it on a forged tag', () => {
    const member = taggedMember(NOW)
    const replacement = spotFor(member, { type: 'm5.large', launchTime: minutesAgo(1) })
    const plan = planGroup(
      planInput([member], { launched: [replacement], interruptions: fulfilled(member.id) }),
    )
    expect(swaps(plan.actions)).toEqual([])
    expect(launches(plan.actions)).toEqual([])
  })

  it('holds back only the doomed-handling when the statuses cannot be read: nothing leaves, said as unverified', () => {
    const member = taggedMember(minutesAgo(60))
    const plan = planGroup(
      planInput([member], {
        config: config({ minOnDemandNumber: 0 }),
        interruptions: { kind: 'unreadable', error: 'Throttling: Rate exceeded' },
      }),
    )
    expect(touching(plan.actions, member.id)).toEqual([])
    expect(plan.instanceSkips).toEqual([
      expect.objectContaining({ instanceId: member.id, code: 'marker-unverified' }),
    ])
  })

  it('treats a member tagged but never asked about as not doomed', () => {
    const member = taggedMember(minutesAgo(60))
    const plan = planGroup(planInput([member], { config: config({ minOnDemandNumber: 0 }) }))
    expect(touching(plan.actions, member.id)).toEqual([])
  })

  it('still releases a member EC2 confirms (marked-for-termination) once it is too late to swap', () => {
    const member = taggedMember(minutesAgo(2))
    const plan = planGroup(
      planInput([member], {
        config: config({ minOnDemandNumber: 0 }),
        interruptions: { kind: 'read', codes: new Map([[member.id, { code: 'marked-for-termination' }]]) },
      }),
    )
    expect(plan.actions.filter((a) => a.kind === 'release-doomed').map((a) => a.instanceId)).toEqual([
      member.id,
    ])
    expect(plan.instanceSkips.filter((s) => s.code === 'untrusted-marker')).toEqual([])
  })
})

describe('planGroup with a confirmed member whose tag gives another time than EC2', () => {
  const marked = (id: string, at: Date): InterruptionStatuses => ({
    kind: 'read',
    codes: new Map([[id, { code: 'marked-for-termination', updatedAtMs: at.getTime() }]]),
  })
  const released = (actions: readonly Action[]): string[] =>
    actions.flatMap((a) => (a.kind === 'release-doomed' ? [a.instanceId] : []))

  it("releases it by EC2's warning time when the tag was rewritten to a later one", () => {
    const member = taggedMember(NOW)
    const plan = planGroup(
      planInput([member], {
        config: config({ minOnDemandNumber: 0 }),
        interruptions: marked(member.id, minutesAgo(2)),
      }),
    )
    expect(released(plan.actions)).toEqual([member.id])
  })

  it("keeps swapping by EC2's warning time when the tag was rewritten to an earlier one", () => {
    const member = taggedMember(minutesAgo(60))
    const plan = planGroup(
      planInput([member], {
        config: config({ minOnDemandNumber: 0 }),
        interruptions: marked(member.id, NOW),
      }),
    )
    expect(released(plan.actions)).toEqual([])
  })

  it('falls back on the tag when EC2 gives no time', () => {
    const member = taggedMember(minutesAgo(2))
    const plan = planGroup(
      planInput([member], {
        config: config({ minOnDemandNumber: 0 }),
        interruptions: { kind: 'read', codes: new Map([[member.id, { code: 'marked-for-termination' }]]) },
      }),
    )
    expect(released(plan.actions)).toEqual([member.id])
  })
})
