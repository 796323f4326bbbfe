import { describe, expect, it } from 'vitest'
import { type CronSchedule, parseCronSchedule } from '../../../lambdas/core/config/cron.ts'
import {
  TAG_ORIGINAL_MAX_SIZE,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_SWAP,
  TAG_SWAP_DESIRED,
} from '../../../lambdas/core/constants.ts'
import type { Action } from '../../../lambdas/core/plan/actions.ts'
import type { PlanInput } from '../../../lambdas/core/plan/plan-input.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import {
  formatSwapRecord,
  judgeRecord,
  maxSizeToRestore,
  readSwapRecord,
  type SwapRecord,
  stepDown,
} from '../../../lambdas/core/swap/record.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { anInstance, config, NOW, onDemandFleet, planInput, spotFor } from '../../builders/world.ts'

const recoveryKinds = (actions: readonly Action[]): string[] =>
  actions.map((a) => a.kind).filter((k) => k !== 'launch-spot' && k !== 'terminate-spot')

/** A version-1 record as the group carried it. */
const legacy = (raw: string): SwapRecord | undefined => {
  const read = readSwapRecord({ [TAG_SWAP_DESIRED]: raw })
  return read.kind === 'read' ? read.record : undefined
}

describe('readSwapRecord', () => {
  it.each([
    ['5/2', { ownerDesired: 3, pairs: 2, step: undefined, phase: 'waiting' }],
    [
      '5/2/i-0123456789abcdef0',
      { ownerDesired: 3, pairs: 2, step: 'i-0123456789abcdef0', phase: 'retiring' },
    ],
    ['0/0', { ownerDesired: 0, pairs: 0, step: undefined, phase: 'waiting' }],
  ])('reads the version-1 %s', (raw, record) =>
    expect(legacy(raw)).toMatchObject({ version: 1, id: undefined, ...record }),
  )

  it.each([
    undefined,
    '',
    '5',
    '5/',
    '-1/0',
    '5/2/1',
    '5/2/retiring',
    '5/2/i-xyz',
    'a/b',
    ' 5/2',
    '1234567890/1',
    '2/5',
  ])('rejects the version-1 %s', (raw) => {
    if (raw === undefined) expect(readSwapRecord({})).toEqual({ kind: 'none' })
    else expect(readSwapRecord({ [TAG_SWAP_DESIRED]: raw })).toMatchObject({ kind: 'unreadable', raw })
  })

  it('reads version 1 with its start and original MaxSize, which version 2 carries in the record', () => {
    const read = readSwapRecord({
      [TAG_SWAP_DESIRED]: '5/2',
      'spotswap:swap-started': '2026-01-01T00:00:00.000Z',
      [TAG_ORIGINAL_MAX_SIZE]: '4',
    })
    expect(read).toMatchObject({
      kind: 'read',
      record: { originalMaxSize: 4, startedAt: new Date('2026-01-01T00:00:00.000Z') },
    })
  })

  const v2: SwapRecord = {
    version: 2,
    id: 's1abc',
    phase: 'retiring',
    ownerDesired: 4,
    pairs: 1,
    step: 'i-0123456789abcdef0',
    originalMaxSize: 4,
    raisedMaxSize: 6,
    startedAt: new Date('2026-01-01T00:06:00.000Z'),
  }

  it('writes and reads version 2 in one tag, well under the 256 characters a tag value holds', () => {
    const raw = formatSwapRecord(v2)
    expect(raw).toBe(
      'v2 id=s1abc phase=retiring owner=4 pairs=1 step=i-0123456789abcdef0 max=4 raised=6 started=2026-01-01T00:06:00.000Z',
    )
    expect(readSwapRecord({ [TAG_SWAP]: raw })).toEqual({ kind: 'read', record: v2 })
    const largest = formatSwapRecord({
      ...v2,
      ownerDesired: 999_999_999,
      pairs: 999_999_999,
      originalMaxSize: 999_999_998,
      raisedMaxSize: 999_999_999,
      id: `s${'z'.repeat(20)}`,
    })
    expect(largest.length).toBeLessThan(256)
  })

  it.each([
    'v3 phase=waiting owner=4 pairs=1',
    'v2 phase=waiting owner=4',
    'v2 phase=sleeping owner=4 pairs=1',
    'v2 phase=retiring owner=4 pairs=1',
    'v2 phase=waiting owner=4 pairs=1 step=i-0123456789abcdef0',
    'v2 phase=waiting owner=-4 pairs=1',
    'v2 phase=waiting owner=4 pairs=1 colour=blue',
    'v2 phase=waiting owner=4 pairs=1 pairs=2',
    'v2 id=S! phase=waiting owner=4 pairs=1',
    'v2 phase=waiting owner=4 pairs=1 started=yesterday',
    'v2 phase=waiting owner=4 pairs=1 raised=6',
    'v2 phase=waiting owner=4 pairs=1 max=6 raised=6',
    'v2 phase=waiting owner=4 pairs=1 max=4 raised=x',
    // Confirmed chunks are counted only while the attach goes on, and never beyond the pairs.
    'v2 phase=waiting owner=4 pairs=21 attached=20',
    'v2 phase=attaching owner=4 pairs=21 attached=22',
    'v2 phase=attaching owner=4 pairs=21 attached=-1',
  ])('believes no malformed version 2: %s', (raw) => {
    expect(readSwapRecord({ [TAG_SWAP]: raw })).toMatchObject({ kind: 'unreadable', raw })
  })

  it('writes and reads the replacements of the confirmed chunks of an attach, and drops them at a step', () => {
    const attaching: SwapRecord = { ...v2, phase: 'attaching', step: undefined, pairs: 41, attached: 20 }
    const raw = formatSwapRecord(attaching)
    expect(raw).toContain(' attached=20 ')
    expect(readSwapRecord({ [TAG_SWAP]: raw })).toEqual({ kind: 'read', record: attaching })
    expect(formatSwapRecord(stepDown(attaching, 'i-0123456789abcdef0'))).not.toContain('attached=')
  })
})

describe('maxSizeToRestore', () => {
  const raisedFrom4To6: SwapRecord = {
    version: 2,
    id: 's1abc',
    phase: 'waiting',
    ownerDesired: 4,
    pairs: 2,
    step: undefined,
    originalMaxSize: 4,
    raisedMaxSize: 6,
    startedAt: new Date('2026-01-01T00:06:00.000Z'),
  }
  const beforeRaised: SwapRecord = { ...raisedFrom4To6, raisedMaxSize: undefined }
  // Carried on a raise an earlier close held at 5 (the owner's desired then), and raised it to 7.
  const fromHeld: SwapRecord = { ...raisedFrom4To6, raisedMaxSize: 7, heldMaxSize: 5 }

  it.each([
    ['MaxSize still the raise: put back', raisedFrom4To6, 6, 4],
    ['the owner raised MaxSize since: theirs stands', raisedFrom4To6, 10, undefined],
    ['the owner lowered MaxSize since: theirs stands', raisedFrom4To6, 5, undefined],
    ['the raise never happened: nothing to put back', raisedFrom4To6, 4, undefined],
    [
      'no raise recorded',
      { ...raisedFrom4To6, originalMaxSize: undefined, raisedMaxSize: undefined },
      6,
      undefined,
    ],
    ['written before `raised`: within what its pairs explain', beforeRaised, 6, 4],
    ['written before `raised`: above what its pairs explain', beforeRaised, 10, undefined],
    ['written before `raised`: not above the original', beforeRaised, 4, undefined],
    ['carried on a held raise, MaxSize its own raise: put back', fromHeld, 7, 4],
    [
      'carried on a held raise, its own raise never happened: put back (held again by the close)',
      fromHeld,
      5,
      4,
    ],
    ['carried on a held raise, the owner changed MaxSize since: theirs stands', fromHeld, 6, undefined],
  ] as const)('%s', (_, record, maxSizeNow, expected) => {
    expect(maxSizeToRestore(record, maxSizeNow)).toBe(expected)
  })

  it('writes and reads `held` back, and refuses one outside max..raised', () => {
    const written = formatSwapRecord(fromHeld)
    expect(written).toContain('max=4 raised=7 held=5')
    expect(readSwapRecord({ [TAG_SWAP]: written })).toEqual({ kind: 'read', record: fromHeld })
    for (const bad of [
      written.replace('held=5', 'held=4'),
      written.replace('held=5', 'held=7'),
      written.replace('held=5', 'held=x'),
      written.replace(' raised=7', ''),
    ])
      expect(readSwapRecord({ [TAG_SWAP]: bad })).toMatchObject({ kind: 'unreadable', raw: bad })
  })
})

describe('judgeRecord', () => {
  // A swap of 2 pairs (partners P1, P2) from desired 4: 6/2 before the attach; 5/1/P1 before retiring P1,
  // 4/0/P2 before retiring P2. S1 is P1's replacement.
  const P1 = 'i-00000000000000a1'
  const P2 = 'i-00000000000000a2'
  const S1 = 'i-00000000000000b1'
  const record = (raw: string): SwapRecord =>
    legacy(raw.replace('P1', P1).replace('P2', P2).replace('S1', S1)) as SwapRecord

  it.each([
    ['attached, nothing retired yet', '6/2', 6, 2, [], '6/2', 0],
    ['P1 announced, still in: not retired', '5/1/P1', 6, 2, [P1], '6/2/P1', 0],
    ['P1 retired', '5/1/P1', 5, 1, [], '5/1/P1', 0],
    ['P2 announced, still in: not retired', '4/0/P2', 5, 1, [P2], '5/1/P2', 0],
    ['every partner retired', '4/0/P2', 4, 0, [], '4/0/P2', 0],
    ['the interruption handler took S1 away, recorded ahead', '5/1/S1', 5, 1, [], '5/1/S1', 0],
    // A pair vanished without its decrement (Auto Scaling backfilled it): its unit is still held, if the
    // scaling activities show no one else's change (an owner's scale-in and out would look the same).
    ['a pair vanished before any retirement', '6/2', 6, 1, [], '6/2', 1],
    ['both pairs vanished', '6/2', 6, 0, [], '6/2', 2],
    ['a replacement vanished after P1 was retired', '5/1/P1', 5, 0, [], '5/1/P1', 1],
    ['P1 announced, still in; S1 gone without its decrement', '5/1/P1', 6, 1, [P1], '6/2/P1', 1],
    // The announced instance left another way (EC2 took it) before the step's decrement; P1 retired and
    // the owner raising desired by one looks the same, and only the scaling activities tell them apart.
    ['S1 announced by the handler, which then failed; EC2 took S1 anyway', '5/1/S1', 6, 1, [], '6/2/S1', 1],
    ['P1 announced, the retirement failed; EC2 took P1 (a doomed partner)', '5/1/P1', 6, 1, [], '6/2/P1', 1],
  ] as const)(
    '%s (record %s, desired %i, %i half-done): as %s, %i vanished',
    (_, raw, desired, halfDone, stillIn, now, vanished) => {
      const judged = judgeRecord(record(raw), desired, halfDone, (id) =>
        (stillIn as readonly string[]).includes(id),
      )
      expect(judged).toEqual({ ours: true, record: record(now), vanished })
    },
  )

  it.each([
    ['the attach never happened', '6/2', 4, 0, []],
    ['the owner scaled in by one and Auto Scaling took a partner', '6/2', 5, 1, []],
    ['the owner raised desired meanwhile', '6/2', 8, 2, []],
    ['P1 announced, not retired; the owner scaled in by one and Auto Scaling took P2', '5/1/P1', 5, 1, [P1]],
    ['the owner lowered desired by one after P1 and a partner went', '5/1/P1', 4, 0, []],
    ['the owner raised desired by two during the retirements', '5/1/P1', 7, 1, []],
    ['more half-done pairs than the record counts', '5/1/P1', 5, 2, []],
  ] as const)(
    'someone else: %s (record %s, desired %i, %i half-done)',
    (_, raw, desired, halfDone, stillIn) => {
      const judged = judgeRecord(record(raw), desired, halfDone, (id) =>
        (stillIn as readonly string[]).includes(id),
      )
      expect(judged.ours).toBe(false)
    },
  )
})

describe('finishing a swap an earlier run left', () => {
  it('believes its record when the owner lowered MaxSize below the figure it records (chaos seed 6314)', () => {
    // The swap raised MaxSize 8 -> 10 for its two pairs; the owner has set 7 since (a scheduled action):
    // desired 6 stands, so the record is still the swap's. It retires both partners and leaves MaxSize
    // as the owner set it, rather than releasing the pairs and keeping the owner's desired two above.
    const fleet = onDemandFleet(4) as [Instance, Instance, Instance, Instance]
    const started = new Date(NOW.getTime() - 10 * 60_000).toISOString()
    const replacements = fleet.slice(0, 2).map((partner) =>
      spotFor(partner, {
        launchTime: new Date(NOW.getTime() - 12 * 60_000),
        tags: { ...spotFor(partner).tags, 'spotswap:swap-id': 's1', 'spotswap:joined-group': 'web' },
      }),
    )
    const plan = planGroup(
      planInput([...fleet, ...replacements], {
        groupOverrides: {
          desiredCapacity: 6,
          maxSize: 7,
          healthCheckGracePeriodSeconds: 0,
          tags: { [TAG_SWAP]: `v2 id=s1 phase=waiting owner=4 pairs=2 max=8 raised=10 started=${started}` },
        },
        ownerChanges: { kind: 'read', changes: [] },
      }),
    )
    expect(plan.actions.filter((a) => a.kind === 'release-pair')).toEqual([])
    expect(
      plan.actions.flatMap((a) =>
        a.kind === 'complete-swap' ? [[a.retire, a.pair.onDemandInstanceId]] : [],
      ),
    ).toEqual([
      ['partner', fleet[0].id],
      ['partner', fleet[1].id],
    ])
    expect(plan.actions.filter((a) => a.kind === 'close-swap')).not.toContainEqual(
      expect.objectContaining({ maxSize: expect.any(Number) }),
    )
  })

  it('releases both pairs when a scale-in took one partner of a two-pair swap (the owner lowered desired)', () => {
    const fleet = onDemandFleet(3)
    const [first, second] = fleet as [Instance, Instance, Instance]
    const s1 = spotFor(first)
    const s2 = spotFor(second)
    // Swap from desired 3 left 5/2; the owner set 4 and Auto Scaling terminated `first`.
    const plan = planGroup(
      planInput([second, fleet[2] as Instance, s1, s2], {
        groupOverrides: { desiredCapacity: 4, maxSize: 5, tags: { [TAG_SWAP_DESIRED]: '5/2' } },
      }),
    )
    expect(plan.actions.filter((a) => a.kind !== 'launch-spot')).toEqual([
      expect.objectContaining({
        kind: 'release-pair',
        pair: expect.objectContaining({ spotInstanceId: s2.id }),
      }),
      // Released with the pairs: the record would otherwise count them as still held.
      expect.objectContaining({ kind: 'close-swap' }),
    ])
  })

  it('finishes a move to a cheaper pool a crashed run left: retires the spot member it moves', () => {
    // Its attempt tag records the replacement (planInput records it, as the launch did).
    const moving = anInstance({ lifecycle: 'spot' })
    const other = anInstance({ lifecycle: 'spot' })
    const replacement = spotFor(moving)
    const plan = planGroup(
      planInput([moving, other, replacement], {
        groupOverrides: { desiredCapacity: 3, maxSize: 3, tags: { [TAG_SWAP_DESIRED]: '3/1' } },
      }),
    )
    expect(plan.actions.filter((a) => a.kind === 'complete-swap')).toEqual([
      expect.objectContaining({
        retire: 'partner',
        pair: { spotInstanceId: replacement.id, onDemandInstanceId: moving.id },
      }),
    ])
  })

  describe('a pair that vanished without its decrement', () => {
    // Swap from desired 3 left 4/1 after retiring one partner; its replacement was interrupted while the
    // interruption handler could not act, and the group backfilled it: desired 4 still holds its unit.
    // The vanished replacement's partner still records it: what accounts for the unit the record holds.
    const [first, ...rest] = onDemandFleet(4) as [Instance, ...Instance[]]
    const gone = `1:i-0000000000000beef@${NOW.toISOString()}`
    const fleet = [
      first,
      { ...(rest[0] as Instance), tags: { [TAG_REPLACEMENT_ATTEMPT]: gone } },
      ...rest.slice(1),
    ]
    const vanished = (
      overrides: Parameters<typeof planInput>[1] = {},
      instances: readonly Instance[] = fleet,
    ) =>
      planGroup(
        planInput(instances, {
          groupOverrides: {
            desiredCapacity: 4,
            maxSize: 4,
            tags: { [TAG_SWAP_DESIRED]: '4/1/i-0000000000000abcd', [TAG_ORIGINAL_MAX_SIZE]: '3' },
          },
          ownerChanges: { kind: 'read', changes: [] },
          ...overrides,
        }),
      )

    it('gives its unit back with the oldest on-demand member, announced, then restores MaxSize', () => {
      const oldest = fleet[0]?.id
      const plan = vanished()
      expect(plan.actions.filter((a) => a.kind !== 'launch-spot')).toEqual([
        expect.objectContaining({
          kind: 'give-back',
          instanceId: oldest,
          record: `v2 phase=retiring owner=3 pairs=0 step=${oldest} max=3`,
        }),
        expect.objectContaining({ kind: 'close-swap', maxSize: 3 }),
      ])
      // The member given back gets no replacement of its own in the same plan.
      const replaced = plan.actions.flatMap((a) => (a.kind === 'launch-spot' ? [a.replacing] : []))
      expect(replaced.length).toBeGreaterThan(0)
      expect(replaced).not.toContain(oldest)
    })

    it('passes over a protected member and keeps the on-demand minimum', () => {
      const plan = vanished({
        terminationProtected: new Set([fleet[0]?.id ?? '']),
        config: config({ minOnDemandNumber: 2 }),
      })
      expect(plan.actions.filter((a) => a.kind === 'give-back')).toEqual([
        expect.objectContaining({ instanceId: fleet[1]?.id }),
      ])
    })

    it('gives the unit back when nothing in view speaks either way (both sides of the pair left)', () => {
      // Both sides leave through Auto Scaling and out of view within the hour; refusing would leave the
      // group one above its owner's size for good. A planted pair is refused (test/core/group/provenance.test.ts).
      const plan = vanished({}, onDemandFleet(4))
      expect(plan.actions.filter((a) => a.kind === 'give-back')).toHaveLength(1)
    })

    it('never raises MaxSize to what a record names', () => {
      const plan = vanished({
        groupOverrides: {
          desiredCapacity: 4,
          maxSize: 4,
          tags: { [TAG_SWAP]: `v2 phase=waiting owner=3 pairs=1 max=40 started=${NOW.toISOString()}` },
        },
      })
      expect(plan.actions.filter((a) => a.kind !== 'launch-spot')).toEqual([
        expect.objectContaining({ kind: 'close-swap', maxSize: undefined }),
      ])
    })

    it('waits when no member may leave', () => {
      const plan = vanished({ config: config({ minOnDemandNumber: 4 }) })
      expect(recoveryKinds(plan.actions)).toEqual([])
      expect(plan.instanceSkips).toContainEqual({
        instanceId: 'web',
        code: 'swap-waits',
        reason: expect.stringMatching(/^swap waits \(no-member-may-leave\)/),
      })
    })

    it('leaves the unit when the owner changed desired capacity since the swap started', () => {
      const plan = vanished({
        ownerChanges: {
          kind: 'read',
          changes: [
            { at: NOW, from: 4, to: 3, cause: '' },
            { at: NOW, from: 3, to: 4, cause: '' },
          ],
        },
      })
      expect(plan.actions.filter((a) => a.kind !== 'launch-spot')).toEqual([
        expect.objectContaining({
          kind: 'close-swap',
          maxSize: 4,
          reason: expect.stringContaining('swap closed (owner-changed)'),
        }),
      ])
    })
  })

  it('retires neither side while the owner protects both, and holds that pair alone', () => {
    const fleet = onDemandFleet(2)
    const s1 = spotFor(fleet[0] as Instance)
    const plan = planGroup(
      planInput([...fleet, s1], {
        groupOverrides: { desiredCapacity: 3, tags: { [TAG_SWAP_DESIRED]: '3/1' } },
        terminationProtected: new Set([fleet[0]?.id as string, s1.id]),
      }),
    )
    expect(recoveryKinds(plan.actions)).toEqual([])
    expect(plan.instanceSkips).toContainEqual({
      instanceId: s1.id,
      code: 'swap-waits',
      reason:
        'held (both-protected): the owner protected both sides of the pair: it keeps its unit until they lift a protection; the other pairs finish',
    })
  })

  it('waits to retire a partner while a backfill is still booting (in service below desired)', () => {
    const fleet = onDemandFleet(3)
    const s1 = spotFor(fleet[0] as Instance)
    // Desired 5 = 4 (owner) + 1 (swap); a spot member was interrupted and its backfill is not yet in.
    const plan = planGroup(
      planInput([...fleet, s1], {
        groupOverrides: { desiredCapacity: 5, maxSize: 5, tags: { [TAG_SWAP_DESIRED]: '5/1' } },
      }),
    )
    expect(recoveryKinds(plan.actions)).toEqual([])
    expect(plan.instanceSkips).toContainEqual({
      instanceId: s1.id,
      code: 'swap-waits',
      reason: 'swap waits (backfill-booting): 4 in service of desired 5',
    })
  })

  it('asks for the scaling activities while a backfill boots, and waits once they show no change', () => {
    const fleet = onDemandFleet(3)
    const s1 = spotFor(fleet[0] as Instance)
    const input = (ownerChanges: PlanInput['ownerChanges']) =>
      planInput([...fleet, s1], {
        groupOverrides: { desiredCapacity: 5, maxSize: 5, tags: { [TAG_SWAP_DESIRED]: '5/1' } },
        ownerChanges,
      })
    // An owner's scale-out still booting reads the same: the activities tell, in this run.
    expect(planGroup(input(undefined)).awaitingActivities).toBe(true)
    expect(planGroup(input({ kind: 'read', changes: [] })).awaitingActivities).toBeUndefined()
  })

  it('closes the swap in the same run when the activities show the owner scaled while it boots', () => {
    const fleet = onDemandFleet(3)
    const s1 = spotFor(fleet[0] as Instance)
    const plan = planGroup(
      planInput([...fleet, s1], {
        groupOverrides: { desiredCapacity: 5, maxSize: 5, tags: { [TAG_SWAP_DESIRED]: '5/1' } },
        ownerChanges: { kind: 'read', changes: [{ at: NOW, from: 3, to: 5, cause: '' }] },
      }),
    )
    expect(recoveryKinds(plan.actions)).toContain('close-swap')
  })

  it('finishes outside the cron window: finishing a swap is not a new change', () => {
    const fleet = onDemandFleet(2)
    const s1 = spotFor(fleet[0] as Instance)
    const plan = planGroup(
      planInput([...fleet, s1], {
        config: config({
          cronSchedule: parseCronSchedule('9-17 1-5') as CronSchedule,
          cronTimezone: 'Europe/Berlin',
        }),
        groupOverrides: { desiredCapacity: 3, tags: { [TAG_SWAP_DESIRED]: '3/1' } },
      }),
    )
    expect(plan.skipped).toMatch(/^outside-cron-window/)
    expect(recoveryKinds(plan.actions)).toEqual(['complete-swap', 'close-swap'])
  })

  describe('with the group’s scaling activities since the swap started', () => {
    // A swap from desired 2 attached S1 (record 3/1) and stopped before retiring its partner.
    const fleet = onDemandFleet(2)
    const s1 = spotFor(fleet[0] as Instance)
    const halfDone = (ownerChanges: PlanInput['ownerChanges']) =>
      planGroup(
        planInput([...fleet, s1], {
          groupOverrides: { desiredCapacity: 3, maxSize: 3, tags: { [TAG_SWAP_DESIRED]: '3/1' } },
          ownerChanges,
        }),
      )
    const change = (from: number, to: number) => ({ at: NOW, from, to, cause: `from ${from} to ${to}` })

    it('retires the partner when they show no change of desired capacity', () => {
      const plan = halfDone({ kind: 'read', changes: [] })
      expect(plan.actions.filter((a) => a.kind === 'complete-swap')).toEqual([
        expect.objectContaining({
          retire: 'partner',
          record: `v2 phase=retiring owner=2 pairs=0 step=${fleet[0]?.id}`,
        }),
      ])
    })

    it('releases the pair when the owner scaled in and out again, though desired is as the swap left it', () => {
      const plan = halfDone({ kind: 'read', changes: [change(3, 1), change(1, 3)] })
      expect(plan.actions.filter((a) => a.kind === 'release-pair' || a.kind === 'close-swap')).toEqual([
        expect.objectContaining({
          kind: 'release-pair',
          reason: expect.stringContaining(
            `desired capacity was changed from 1 to 3 at ${NOW.toISOString()}, after the swap started`,
          ),
        }),
        expect.objectContaining({ kind: 'close-swap' }),
      ])
    })

    it('waits, retiring nothing, when they could not be read', () => {
      const plan = halfDone({ kind: 'unreadable', error: 'Throttling: Rate exceeded' })
      expect(recoveryKinds(plan.actions)).toEqual([])
      expect(plan.instanceSkips).toContainEqual({
        instanceId: s1.id,
        code: 'swap-waits',
        reason:
          "swap waits (activities-unreadable): the group's scaling activities could not be read (Throttling: Rate exceeded)",
      })
    })
  })
})
