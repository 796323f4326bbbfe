import { describe, expect, it } from 'vitest'
import {
  TAG_JOINED_GROUP,
  TAG_LAUNCH_TEMPLATE_ID,
  TAG_LAUNCHED_BY,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP,
  TAG_SWAP_ID,
} from '../../../lambdas/core/constants.ts'
import { launchProvenance } from '../../../lambdas/core/group/provenance.ts'
import type { OwnerChanges } from '../../../lambdas/core/group/scaling-activities.ts'
import { attemptTag, recordedOutcome } from '../../../lambdas/core/plan/attempts.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import {
  aGroup,
  anInstance,
  GROUP_TEMPLATE_ID,
  memberOf,
  minutesAgo,
  onDemandFleet,
  planInput,
  spotFor,
} from '../../builders/world.ts'

const recording = (partner: Instance, launch: string, template?: string): Instance => ({
  ...partner,
  tags: {
    ...partner.tags,
    [TAG_REPLACEMENT_ATTEMPT]: attemptTag(
      { attempt: 1, since: minutesAgo(10).toISOString() },
      { instanceId: launch, launchTemplateId: template },
    ),
  },
})

describe('recordedOutcome', () => {
  it.each([
    ['1:i-0123456789abcdef0@2022-05-31T22:50:00.000Z', { instanceId: 'i-0123456789abcdef0' }],
    [
      '2:i-0123456789abcdef0/lt-0fedcba9876543210@2022-05-31T22:50:00.000Z',
      { instanceId: 'i-0123456789abcdef0', launchTemplateId: 'lt-0fedcba9876543210' },
    ],
  ])('reads %s', (raw, expected) => {
    expect(recordedOutcome(raw)).toEqual({ launchTemplateId: undefined, ...expected })
  })

  it.each(['1@2022-05-31T22:50:00.000Z', '1:no-instance@2022-05-31T22:50:00.000Z', 'i-0123', undefined])(
    'records no launch in %s',
    (raw) => {
      expect(recordedOutcome(raw)).toBeUndefined()
    },
  )
})

describe('launchProvenance', () => {
  const group = aGroup([])
  const partner = anInstance()
  const launch = spotFor(partner)
  const recorded = recording(partner, launch.id)

  it('accepts a spot instance from the group template that its partner records', () => {
    expect(launchProvenance(launch, group, recorded)).toEqual({ ours: true })
  })

  it.each([
    ['not-spot', { ...launch, lifecycle: 'on-demand' as const }, recorded],
    ['joined-a-group', { ...launch, tags: { ...launch.tags, [TAG_JOINED_GROUP]: 'web' } }, recorded],
    ['outcome-not-recorded', launch, partner],
    ['outcome-not-recorded', launch, recording(partner, 'i-0000000000000dead')],
    [
      'foreign-template',
      { ...launch, tags: { ...launch.tags, [TAG_LAUNCH_TEMPLATE_ID]: 'lt-0bad' } },
      recorded,
    ],
    ['foreign-template', { ...launch, tags: { ...launch.tags, [TAG_LAUNCH_TEMPLATE_ID]: '' } }, recorded],
  ] as const)('refuses %s', (code, instance, seenPartner) => {
    expect(launchProvenance(instance, group, seenPartner)).toMatchObject({ ours: false, code })
  })

  it("tells an open swap's undecided launch from one a swap attached, and from its unattached one", () => {
    const named = { ...launch, tags: { ...launch.tags, [TAG_SWAP_ID]: 's1' } }
    // Only the scaling activities can tell whether swap s1 attached it: it waits with the swap.
    expect(launchProvenance(named, group, recorded, { undecided: 's1' })).toMatchObject({
      ours: false,
      code: 'swap-undecided',
      detail: expect.stringContaining('swap s1'),
    })
    // Another swap's id, or none undecided: attached once, and out of the group since.
    expect(launchProvenance(named, group, recorded, { undecided: 's2' })).toMatchObject({
      code: 'joined-a-group',
    })
    expect(launchProvenance(named, group, recorded)).toMatchObject({ code: 'joined-a-group' })
    // Its record shows no attach: spotswap's launch, to attach or clean up.
    expect(launchProvenance(named, group, recorded, { unattached: 's1' })).toEqual({ ours: true })
    // Attached by a confirmed attach and taken out since: the owner's, whatever swap is open.
    const joined = { ...named, tags: { ...named.tags, [TAG_JOINED_GROUP]: 'web' } }
    expect(launchProvenance(joined, group, recorded, { undecided: 's1' })).toMatchObject({
      code: 'joined-a-group',
    })
  })

  it('refuses an instance without EC2 template tag, whatever else it carries (RunInstances without one)', () => {
    const { [TAG_LAUNCH_TEMPLATE_ID]: _, ...tags } = launch.tags
    expect(launchProvenance({ ...launch, tags }, group, recorded)).toMatchObject({ code: 'foreign-template' })
  })

  it('accepts a launch made after an attempt whose answer was never recorded, not one made before it', () => {
    const pending = (since: Date): Instance => ({
      ...partner,
      tags: { [TAG_REPLACEMENT_ATTEMPT]: `1@${since.toISOString()}` },
    })
    // The run died between CreateFleet and recording its answer: the launch is still spotswap's.
    expect(launchProvenance(launch, group, pending(minutesAgo(11)))).toEqual({ ours: true })
    expect(launchProvenance(launch, group, pending(minutesAgo(9)))).toMatchObject({
      code: 'outcome-not-recorded',
    })
    // Still not an on-demand instance, nor one from another template.
    expect(
      launchProvenance({ ...launch, lifecycle: 'on-demand' }, group, pending(minutesAgo(11))),
    ).toMatchObject({ code: 'not-spot' })
  })

  it("accepts a launch-configuration group's temporary template only as the partner recorded it", () => {
    const lcGroup = aGroup([], { launchTemplate: undefined, launchConfigurationName: 'web-lc' })
    const fromTemporary = {
      ...launch,
      tags: { ...launch.tags, [TAG_LAUNCH_TEMPLATE_ID]: 'lt-00000000000000abc' },
    }
    expect(
      launchProvenance(fromTemporary, lcGroup, recording(partner, launch.id, 'lt-00000000000000abc')),
    ).toEqual({ ours: true })
    expect(
      launchProvenance(fromTemporary, lcGroup, recording(partner, launch.id, 'lt-00000000000000def')),
    ).toMatchObject({ code: 'foreign-template' })
    // Before the answer is recorded the temporary template is unknown: spot and timing decide.
    const pending = { ...partner, tags: { [TAG_REPLACEMENT_ATTEMPT]: `1@${minutesAgo(11).toISOString()}` } }
    expect(launchProvenance(fromTemporary, lcGroup, pending)).toEqual({ ours: true })
    // A recorded template counts only for launch-configuration groups.
    expect(
      launchProvenance(fromTemporary, group, recording(partner, launch.id, 'lt-00000000000000abc')),
    ).toMatchObject({ code: 'foreign-template' })
  })

  it("accepts a mixed-instances override's own template", () => {
    const mixed = aGroup([], {
      launchTemplate: undefined,
      mixedInstancesPolicy: {
        launchTemplate: { id: 'lt-0mixed', name: undefined, version: '$Latest' },
        overrideTypes: ['m5.large'],
        overrides: [{ instanceType: 'm5.large', launchTemplate: undefined, weightedCapacity: 1 }],
        overrideTemplateIds: ['lt-0override'],
        onDemandBaseCapacity: 0,
        onDemandPercentageAboveBaseCapacity: 100,
      },
    })
    for (const template of ['lt-0mixed', 'lt-0override'])
      expect(
        launchProvenance(
          { ...launch, tags: { ...launch.tags, [TAG_LAUNCH_TEMPLATE_ID]: template } },
          mixed,
          recorded,
        ),
      ).toEqual({ ours: true })
  })

  it('checks spot and the recorded outcome alone when the group is gone', () => {
    expect(launchProvenance(launch, undefined, recorded)).toEqual({ ours: true })
    expect(launchProvenance(launch, undefined, partner)).toMatchObject({ code: 'outcome-not-recorded' })
    expect(launchProvenance(launch, undefined, undefined)).toMatchObject({ code: 'partner-unseen' })
  })

  it("decides by the group's template alone once the partner is out of EC2's sight", () => {
    expect(launchProvenance(launch, group, undefined)).toEqual({ ours: true })
    const foreign = { ...launch, tags: { ...launch.tags, [TAG_LAUNCH_TEMPLATE_ID]: 'lt-0bad' } }
    expect(launchProvenance(foreign, group, undefined)).toMatchObject({ code: 'foreign-template' })
    expect(launchProvenance({ ...launch, lifecycle: 'on-demand' }, group, undefined)).toMatchObject({
      code: 'not-spot',
    })
  })
})

describe('planGroup with instances tagged as spotswap launches', () => {
  /** An on-demand instance someone tagged with everything spotswap writes, and recorded on its partner. */
  const forgedFor = (partner: Instance, launchTime: Date): Instance =>
    anInstance({
      launchTime,
      tags: {
        [TAG_LAUNCHED_BY]: 'true',
        [TAG_LAUNCHED_FOR_GROUP]: 'web',
        [TAG_REPLACING_INSTANCE]: partner.id,
        [TAG_LAUNCH_TEMPLATE_ID]: GROUP_TEMPLATE_ID,
      },
    })

  it.each([
    ['ready to be attached', minutesAgo(6)],
    ['past the orphan deadline', minutesAgo(60)],
  ])('neither attaches nor terminates a forged on-demand instance %s, and reports it', (_, launchTime) => {
    const fleet = onDemandFleet(2)
    const forged = forgedFor(fleet[0] as Instance, launchTime)
    const plan = planGroup(planInput(fleet, { launched: [forged] }))
    const named = plan.actions.filter((a) => JSON.stringify(a).includes(forged.id))
    expect(named).toEqual([])
    expect(plan.untrusted).toEqual([expect.objectContaining({ instanceId: forged.id, code: 'not-spot' })])
    expect(plan.instanceSkips).toContainEqual({
      instanceId: forged.id,
      code: 'not-spotswaps-launch',
      reason: expect.stringMatching(/^not-spotswaps-launch \(not-spot\)/),
    })
  })

  it('neither attaches nor terminates a spot instance launched from another template', () => {
    const fleet = onDemandFleet(2)
    const foreign = spotFor(fleet[0] as Instance, {
      launchTime: minutesAgo(6),
      tags: { ...spotFor(fleet[0] as Instance).tags, [TAG_LAUNCH_TEMPLATE_ID]: 'lt-0attacker' },
    })
    const plan = planGroup(planInput(fleet, { launched: [foreign] }))
    expect(plan.actions.filter((a) => JSON.stringify(a).includes(foreign.id))).toEqual([])
    expect(plan.untrusted?.map((u) => u.code)).toEqual(['foreign-template'])
  })

  it('does not terminate a former member a person detached, even with its partner gone', () => {
    const fleet = onDemandFleet(1)
    const gone = anInstance({ state: 'terminated' })
    const detached = spotFor(gone, {
      launchTime: minutesAgo(120),
      tags: { ...spotFor(gone).tags, [TAG_JOINED_GROUP]: 'web' },
    })
    const plan = planGroup(planInput(fleet, { launched: [detached], others: [gone] }))
    expect(plan.actions.filter((a) => a.kind === 'terminate-spot')).toEqual([])
    expect(plan.untrusted?.map((u) => u.code)).toEqual(['joined-a-group'])
  })

  /**
   * A swap of one pair (s1) recorded as `attaching`: its launch, outside the group, carries the swap's id.
   * `desired` tells whether the attach happened (owner + 1) or not (the owner's).
   */
  const attachingSwap = (options: {
    readonly members: number
    readonly owner: number
    readonly desired: number
    readonly launchedMinutesAgo: number
    /** The partner records the launch as its attempt's outcome. */
    readonly recorded: boolean
    /** What the scaling activities said; read with no owner's change unless given. */
    readonly ownerChanges?: OwnerChanges
  }) => {
    const fleet = onDemandFleet(options.members)
    const partner = fleet[0] as Instance
    const launch = spotFor(partner, {
      launchTime: minutesAgo(options.launchedMinutesAgo),
      tags: { ...spotFor(partner).tags, [TAG_SWAP_ID]: 's1' },
    })
    const started = minutesAgo(Math.max(1, options.launchedMinutesAgo - 20))
    const plan = planGroup(
      planInput([...fleet], {
        launched: [launch],
        ...(options.recorded ? { others: [recording(partner, launch.id)] } : {}),
        groupOverrides: {
          desiredCapacity: options.desired,
          maxSize: options.desired,
          tags: {
            'spot-enabled': 'true',
            [TAG_SWAP]: `v2 id=s1 phase=attaching owner=${options.owner} pairs=1 started=${started.toISOString()}`,
          },
        },
        ownerChanges: options.ownerChanges ?? { kind: 'read', changes: [] },
      }),
    )
    return { plan, partner, launch }
  }

  // Chaos seeds 5813, 6442, 6950: the run that attached it died before writing TAG_JOINED_GROUP, and the
  // owner took the replacement out (keeping it) before the next run. Its swap id says it was attached.
  it('does not terminate a launch outside the group that a swap named, once the swap shows its attach', () => {
    // desired 3 = the owner's 2 + the attached pair: the attach happened; the pair vanished. The group
    // holds the owner's two and the backfill Auto Scaling launched when the replacement was taken out.
    const { plan, launch } = attachingSwap({
      members: 3,
      owner: 2,
      desired: 3,
      launchedMinutesAgo: 60,
      recorded: false,
    })
    expect(plan.actions.filter((a) => JSON.stringify(a).includes(launch.id))).toEqual([])
    expect(plan.actions.map((a) => a.kind)).toContain('give-back')
    expect(plan.untrusted).toEqual([
      expect.objectContaining({ instanceId: launch.id, code: 'joined-a-group' }),
    ])
  })

  /** The attach failed and the owner scaled out by one meanwhile: desired reads as owner + pairs. */
  const ownerScaledOut = (ownerChanges?: OwnerChanges) => {
    const swap = attachingSwap({
      members: 3,
      owner: 3,
      desired: 4,
      launchedMinutesAgo: 3,
      recorded: true,
      ...(ownerChanges === undefined ? {} : { ownerChanges }),
    })
    const { plan, partner, launch } = swap
    // The launch is left alone until the swap is judged, and its partner gets no second one.
    expect(plan.actions.filter((a) => a.kind === 'launch-spot' && a.replacing === partner.id)).toEqual([])
    expect(plan.actions.filter((a) => JSON.stringify(a).includes(launch.id))).toEqual([])
    return swap
  }

  // Chaos seed 1458.
  it('launches no second replacement for the partner of a launch an open swap may have attached', () => {
    const { plan, partner } = ownerScaledOut()
    expect(plan.onDemand.find((s) => s.instanceId === partner.id)?.code).toBe('swap-open')
  })

  it('holds the partner of a launch that waits for the activities, and reports the launch as waiting', () => {
    const { plan, launch } = ownerScaledOut({ kind: 'unreadable', error: 'Throttling: Rate exceeded' })
    expect(plan.untrusted).toBeUndefined()
    expect(plan.instanceSkips).toContainEqual(
      expect.objectContaining({ instanceId: launch.id, code: 'swap-waits' }),
    )
  })

  it('unnames and may clean up the launches of a swap whose attach never happened', () => {
    // desired is the owner's 2: the attach never happened (the run died before it).
    const { plan, launch } = attachingSwap({
      members: 2,
      owner: 2,
      desired: 2,
      launchedMinutesAgo: 60,
      recorded: true,
    })
    expect(plan.untrusted).toBeUndefined()
    expect(plan.actions).toContainEqual(expect.objectContaining({ kind: 'close-swap', unname: [launch.id] }))
    // An hour old: past its orphan deadline, so it goes.
    expect(plan.actions).toContainEqual(
      expect.objectContaining({ kind: 'terminate-spot', instanceId: launch.id }),
    )
  })

  it('counts a member as the group, whoever launched it', () => {
    const fleet = onDemandFleet(2)
    const forged = forgedFor(fleet[0] as Instance, minutesAgo(600))
    const input = planInput([...fleet, forged])
    expect(input.group.members).toContainEqual(memberOf(forged))
    expect(planGroup(input).untrusted).toBeUndefined()
  })
})

describe('planGroup settling members of a closed swap', () => {
  const settled = (input: ReturnType<typeof planInput>) =>
    planGroup(input).actions.flatMap((a) => (a.kind === 'settle-members' ? a.instanceIds : []))

  it('records membership and drops the launch tags of a replacement whose partner was retired', () => {
    const fleet = onDemandFleet(1)
    const retired = anInstance({ state: 'terminated' })
    const joined = spotFor(retired, { launchTime: minutesAgo(120) })
    expect(settled(planInput([...fleet, joined]))).toEqual([joined.id])
  })

  it('leaves a pair of an open swap, a protected member and a skipped group alone', () => {
    const fleet = onDemandFleet(2)
    const partner = fleet[0] as Instance
    const halfDone = spotFor(partner, { launchTime: minutesAgo(30) })
    expect(settled(planInput([...fleet, halfDone]))).toEqual([])
    const retired = anInstance({ state: 'terminated' })
    const joined = spotFor(retired, { launchTime: minutesAgo(120) })
    expect(settled(planInput([...fleet, joined], { terminationProtected: new Set([joined.id]) }))).toEqual([])
    expect(
      settled(planInput([...fleet, joined], { groupOverrides: { suspendedProcesses: ['Launch'] } })),
    ).toEqual([])
  })

  it('does not settle an on-demand member that carries no launch tags', () => {
    expect(settled(planInput(onDemandFleet(2)))).toEqual([])
  })
})

describe('planGroup with a swap record and pairs that are not spotswap launches', () => {
  it('retires no partner for a member someone tagged as its replacement, and reports it', () => {
    const fleet = onDemandFleet(2)
    const partner = fleet[0] as Instance
    const started = minutesAgo(20)
    // Attached by a person with every tag a swap writes, from another template.
    const planted = spotFor(partner, {
      tags: { ...spotFor(partner).tags, [TAG_LAUNCH_TEMPLATE_ID]: 'lt-0planted', [TAG_SWAP_ID]: 's1' },
    })
    const plan = planGroup(
      planInput([...fleet, planted], {
        groupOverrides: {
          desiredCapacity: 3,
          tags: { [TAG_SWAP]: `v2 id=s1 phase=waiting owner=2 pairs=1 started=${started.toISOString()}` },
        },
        ownerChanges: { kind: 'read', changes: [] },
      }),
    )
    expect(plan.actions.filter((a) => a.kind === 'complete-swap' || a.kind === 'give-back')).toEqual([])
    expect(plan.untrusted).toContainEqual(
      expect.objectContaining({ instanceId: planted.id, code: 'foreign-template' }),
    )
  })
})

describe('planGroup with a swap record whose only pair in view is a launch outside the group', () => {
  const started = minutesAgo(20)
  const forgedRecord = `v2 id=s1 phase=waiting owner=2 pairs=1 started=${started.toISOString()}`
  const planWith = (launch: Instance) => {
    const fleet = onDemandFleet(3)
    return planGroup(
      planInput(fleet, {
        launched: [launch],
        groupOverrides: { desiredCapacity: 3, tags: { [TAG_SWAP]: forgedRecord } },
        ownerChanges: { kind: 'read', changes: [] },
      }),
    )
  }

  it('gives back no unit when that launch, carrying the swap’s id, is not spotswap’s (a forged record)', () => {
    const partner = anInstance()
    const planted = spotFor(partner, {
      tags: { ...spotFor(partner).tags, [TAG_LAUNCH_TEMPLATE_ID]: 'lt-0planted', [TAG_SWAP_ID]: 's1' },
    })
    const actions = planWith(planted).actions
    expect(actions.filter((a) => a.kind === 'give-back' || a.kind === 'complete-swap')).toEqual([])
  })

  it('gives the unit back when nothing in view speaks against the record', () => {
    const actions = planWith(spotFor(anInstance())).actions
    expect(actions.filter((a) => a.kind === 'give-back')).toHaveLength(1)
  })
})
