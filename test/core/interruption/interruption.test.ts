import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../../lambdas/core/config/global-config.ts'
import { isRegionCovered } from '../../../lambdas/core/config/managed.ts'
import {
  DOOMED_SWAP_DEADLINE_SECONDS,
  INTERRUPTION_RUN_DELAYS_SECONDS,
  TAG_INTERRUPTION_WARNED,
  TAG_JOINED_GROUP,
  TAG_LAUNCH_TEMPLATE_ID,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_REBALANCE_AT_RISK,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP,
  TAG_SWAP_DESIRED,
  TAG_SWAP_ID,
} from '../../../lambdas/core/constants.ts'
import {
  concernsManagedGroup,
  type InterruptionSignal,
  type InterruptionSnapshot,
} from '../../../lambdas/core/interruption/decision.ts'
import { decideInterruption, targetGroupName } from '../../../lambdas/core/interruption/interruption.ts'
import { mayReplaceAhead } from '../../../lambdas/core/interruption/leave.ts'
import type { LifecycleHook } from '../../../lambdas/core/port.ts'
import type { Group, Instance } from '../../../lambdas/core/types.ts'
import { aGroup, anInstance, GROUP_TEMPLATE_ID, memberOf, NOW } from '../../builders/world.ts'

const TERMINATING_HOOK: LifecycleHook = { name: 'drain', transition: 'autoscaling:EC2_INSTANCE_TERMINATING' }
const LAUNCHING_HOOK: LifecycleHook = { name: 'warm-up', transition: 'autoscaling:EC2_INSTANCE_LAUNCHING' }

const launchedSpot = (overrides: Partial<Instance> = {}): Instance =>
  anInstance({
    lifecycle: 'spot',
    tags: { [TAG_LAUNCHED_FOR_GROUP]: 'web', 'launched-by-autospotting': 'true' },
    ...overrides,
  })

const interruption = (
  instance: Instance,
  instanceAction: 'terminate' | 'stop' | 'hibernate' = 'terminate',
): InterruptionSignal => ({
  kind: 'spot-interruption',
  instanceId: instance.id,
  instanceAction,
})
const rebalance = (instance: Instance): InterruptionSignal => ({
  kind: 'rebalance-recommendation',
  instanceId: instance.id,
})

interface Situation {
  readonly lifecycleState?: string
  readonly groupTags?: Record<string, string>
  readonly group?: Partial<Group>
  readonly hooks?: readonly LifecycleHook[]
  readonly env?: Record<string, string>
  readonly terminationProtected?: boolean
  /** Whether replacer runs can be requested (a run-request queue); without, doomed members leave at once. */
  readonly canRequestRuns?: boolean
}

/** The instance attached to a managed group `web`, as the handler would observe it. */
const attached = (instance: Instance, situation: Situation = {}): InterruptionSnapshot => {
  const group = aGroup([memberOf(instance, { lifecycleState: situation.lifecycleState ?? 'InService' })], {
    tags: { 'spot-enabled': 'true', ...situation.groupTags },
    ...situation.group,
  })
  return {
    instance,
    memberOf: group.name,
    group,
    hooks: situation.hooks ?? [],
    terminationProtected: situation.terminationProtected ?? false,
    canRequestRuns: situation.canRequestRuns ?? false,
    config: parseGlobalConfig(situation.env ?? {}).config,
    now: NOW,
  }
}

/**
 * Launched for `web` but not attached to it (yet), from the group's template, and recorded by its partner
 * as the launch's outcome: spotswap's own launch (core/group/provenance.ts).
 */
const unattached = (instance: Instance, situation: Situation = {}): InterruptionSnapshot => {
  const partner = anInstance()
  const launch = {
    ...instance,
    tags: {
      ...instance.tags,
      [TAG_REPLACING_INSTANCE]: partner.id,
      [TAG_LAUNCH_TEMPLATE_ID]: GROUP_TEMPLATE_ID,
    },
  }
  return {
    ...attached(launch, situation),
    memberOf: undefined,
    group: aGroup([], { tags: { 'spot-enabled': 'true', ...situation.groupTags }, ...situation.group }),
    partner: {
      ...partner,
      tags: { [TAG_REPLACEMENT_ATTEMPT]: `1:${instance.id}@${NOW.toISOString()}` },
    },
  }
}

const kinds = (snapshot: InterruptionSnapshot, signal: InterruptionSignal): string[] =>
  decideInterruption(signal, snapshot).actions.map((action) => action.kind)

describe('decideInterruption', () => {
  describe('interruption warning for an attached spot member', () => {
    it.each([
      // configured action, hooks, instance-action, expected actions
      ['auto', [], 'terminate', ['untag-instance', 'terminate-in-group']],
      ['auto', [TERMINATING_HOOK], 'terminate', ['untag-instance', 'terminate-in-group']],
      ['auto', [LAUNCHING_HOOK], 'terminate', ['untag-instance', 'terminate-in-group']],
      ['auto', [], 'stop', ['untag-instance', 'terminate-in-group']],
      ['auto', [], 'hibernate', ['untag-instance', 'terminate-in-group']],
      ['auto', [TERMINATING_HOOK], 'stop', ['untag-instance', 'terminate-in-group']],
      ['detach', [TERMINATING_HOOK], 'terminate', ['untag-instance', 'detach']],
      ['detach', [], 'stop', ['untag-instance', 'terminate-in-group']],
      ['terminate', [], 'terminate', ['untag-instance', 'terminate-in-group']],
      ['terminate', [], 'hibernate', ['untag-instance', 'terminate-in-group']],
    ] as const)('%s with hooks %j and instance-action %s: %j', (action, hooks, instanceAction, expected) => {
      const instance = launchedSpot()
      const snapshot = attached(instance, {
        hooks,
        groupTags: { autospotting_termination_notification_action: action },
      })
      expect(kinds(snapshot, interruption(instance, instanceAction))).toEqual(expected)
    })

    it('does not decrement desired capacity and names the group for group-level calls', () => {
      const instance = launchedSpot()
      const decision = decideInterruption(interruption(instance), attached(instance))
      expect(decision).toMatchObject({ outcome: 'act', reason: 'interrupted-member', group: 'web' })
      expect(decision.actions).toEqual([
        { kind: 'untag-instance', instanceId: instance.id, keys: [TAG_LAUNCHED_FOR_GROUP] },
        { kind: 'terminate-in-group', instanceId: instance.id, group: 'web', decrement: false },
      ])
      expect(decision.detail).toContain('without decrementing desired capacity')
    })

    it.each(['detach', 'terminate'])(
      'decrements (%s) when the member is a replacement whose on-demand partner is still in service: the swap never finished',
      (action) => {
        const partner = anInstance()
        const instance = launchedSpot({
          tags: { [TAG_LAUNCHED_FOR_GROUP]: 'web', 'launched-for-replacing-instance': partner.id },
        })
        const snapshot = attached(instance, {
          env: { TERMINATION_NOTIFICATION_ACTION: action },
          groupTags: { 'spotswap:swap-desired': '3/1' },
        })
        const group = { ...(snapshot.group as NonNullable<typeof snapshot.group>) }
        const withPartner = {
          ...snapshot,
          group: { ...group, desiredCapacity: 3, members: [...group.members, memberOf(partner)] },
        }
        const decision = decideInterruption(interruption(instance), withPartner)
        expect(
          decision.actions.find((a) => a.kind === action || a.kind === 'terminate-in-group'),
        ).toMatchObject({
          decrement: true,
        })
        expect(decision.detail).toContain(`the other side of its pair, ${partner.id}, is in service`)
      },
    )

    it.each([
      // what, record, desired capacity, records written ahead, decrement
      [
        'a swap not yet retiring: one pair and one unit fewer, ahead of it',
        '6/2',
        6,
        ['v2 phase=retiring owner=4 pairs=1 step=<instance>'],
        true,
      ],
      [
        'retirements under way: the same',
        '5/1/i-0000000000000abcd',
        5,
        ['v2 phase=retiring owner=4 pairs=0 step=<instance>'],
        true,
      ],
      [
        'a retirement announced but not done (its partner still in): that step undone first',
        '4/0/<partner>',
        5,
        ['v2 phase=retiring owner=4 pairs=0 step=<instance>'],
        true,
      ],
      [
        'a version-2 record of another swap (the member is not its replacement)',
        'v2 id=s2 phase=waiting owner=4 pairs=2 started=2026-01-01T00:00:00.000Z',
        6,
        [],
        false,
      ],
      [
        'a version-2 record, waiting for its replacements to serve',
        'v2 id=s1 phase=waiting owner=4 pairs=2 started=2026-01-01T00:00:00.000Z',
        6,
        ['v2 id=s1 phase=retiring owner=4 pairs=1 step=<instance> started=2026-01-01T00:00:00.000Z'],
        true,
      ],
      ['a record the owner scaled out since (desired 7, not 6)', '6/2', 7, [], false],
      ['a record the owner scaled in since (desired 5, not 6)', '6/2', 5, [], false],
      ['no swap record on the group (the +1 cannot be told from the owner’s)', undefined, 2, [], false],
    ] as const)('with a half-done partner and %s', (_, record, desiredCapacity, written, decrement) => {
      const partner = anInstance()
      const instance = launchedSpot({
        tags: {
          [TAG_LAUNCHED_FOR_GROUP]: 'web',
          'launched-for-replacing-instance': partner.id,
          'spotswap:swap-id': 's1',
        },
      })
      const snapshot = attached(instance, {
        groupTags:
          record === undefined
            ? {}
            : {
                [record.startsWith('v2') ? TAG_SWAP : 'spotswap:swap-desired']: record.replace(
                  '<partner>',
                  partner.id,
                ),
              },
      })
      const group = snapshot.group as NonNullable<typeof snapshot.group>
      const withPartner = {
        ...snapshot,
        group: { ...group, desiredCapacity, members: [...group.members, memberOf(partner)] },
      }
      const actions = decideInterruption(interruption(instance), withPartner).actions
      const records = actions.flatMap((a) => (a.kind === 'record-swap' ? [a.tags[TAG_SWAP]] : []))
      expect(records).toEqual(written.map((r) => r.replace('<instance>', instance.id)))
      // Written before the instance leaves, never after.
      const leaves = actions.findIndex((a) => a.kind === 'terminate-in-group')
      if (written.length > 0) expect(actions.findIndex((a) => a.kind === 'record-swap')).toBeLessThan(leaves)
      expect(actions[leaves]).toMatchObject({ decrement })
    })

    it('takes the action from TERMINATION_NOTIFICATION_ACTION when the group has no tag', () => {
      const instance = launchedSpot()
      const snapshot = attached(instance, { env: { TERMINATION_NOTIFICATION_ACTION: 'terminate' } })
      expect(kinds(snapshot, interruption(instance))).toEqual(['untag-instance', 'terminate-in-group'])
    })

    it('lets the group tag override the environment', () => {
      const instance = launchedSpot()
      const snapshot = attached(instance, {
        env: { TERMINATION_NOTIFICATION_ACTION: 'terminate' },
        groupTags: { autospotting_termination_notification_action: 'detach' },
      })
      expect(kinds(snapshot, interruption(instance))).toEqual(['untag-instance', 'detach'])
    })

    it('uses the default for an invalid tag value and reports it', () => {
      const instance = launchedSpot()
      const decision = decideInterruption(
        interruption(instance),
        attached(instance, {
          hooks: [TERMINATING_HOOK],
          groupTags: { autospotting_termination_notification_action: 'explode' },
        }),
      )
      expect(decision.actions.map((a) => a.kind)).toEqual(['untag-instance', 'terminate-in-group'])
      expect(decision.configErrors).toEqual([
        expect.objectContaining({
          name: 'autospotting_termination_notification_action',
          value: 'explode',
          group: 'web',
        }),
      ])
    })

    it('does not untag a spot member spotswap did not launch (e.g. the group launched it itself)', () => {
      const instance = anInstance({ lifecycle: 'spot' })
      expect(kinds(attached(instance), interruption(instance))).toEqual(['terminate-in-group'])
    })

    it('still moves a member out when EC2 already stopped it (late event), so nothing stopped stays behind', () => {
      const instance = launchedSpot({ state: 'stopped' })
      expect(kinds(attached(instance), interruption(instance, 'stop'))).toEqual([
        'untag-instance',
        'terminate-in-group',
      ])
    })

    it('goes by the group the instance is attached to, not the one its tag names', () => {
      const instance = launchedSpot({ tags: { [TAG_LAUNCHED_FOR_GROUP]: 'other' } })
      expect(decideInterruption(interruption(instance), attached(instance))).toMatchObject({
        outcome: 'act',
        group: 'web',
      })
    })
  })

  describe('a group with Capacity Rebalancing on (Auto Scaling replaces its spot members itself)', () => {
    it.each([
      ['an interruption warning', (i: Instance) => interruption(i)],
      ['a rebalance recommendation', (i: Instance) => rebalance(i)],
    ])('leaves the member alone on %s, saying why', (_, signal) => {
      const instance = launchedSpot()
      const snapshot = attached(instance, { canRequestRuns: true, group: { capacityRebalance: true } })
      const decision = decideInterruption(signal(instance), snapshot)
      expect(decision).toMatchObject({ outcome: 'skip', reason: 'capacity-rebalance-group', actions: [] })
      expect(concernsManagedGroup(decision)).toBe(true)
    })

    it('still terminates an instance launched for it that was never attached', () => {
      const instance = launchedSpot()
      const snapshot = unattached(instance, { group: { capacityRebalance: true } })
      expect(decideInterruption(interruption(instance), snapshot).actions).toEqual([
        { kind: 'terminate-instance', instanceId: instance.id },
      ])
    })
  })

  describe('the deadline of a member replaced ahead (the handler reminding itself)', () => {
    const deadline = (instance: Instance): InterruptionSignal => ({
      kind: 'spot-interruption',
      instanceId: instance.id,
      instanceAction: 'terminate',
      deadline: true,
    })
    const warned = () => launchedSpot({ tags: { [TAG_INTERRUPTION_WARNED]: NOW.toISOString() } })

    it('makes a member still in its group leave now, without replacing it ahead again', () => {
      const instance = warned()
      const decision = decideInterruption(deadline(instance), attached(instance, { canRequestRuns: true }))
      expect(decision).toMatchObject({ outcome: 'act', reason: 'interrupted-member' })
      expect(decision.actions).toEqual([
        { kind: 'terminate-in-group', instanceId: instance.id, group: 'web', decrement: false },
      ])
      expect(decision.detail).toContain('deadline of a member replaced ahead')
    })

    it('takes the unit of its attached replacement with it, announced in the swap record first', () => {
      const instance = warned()
      const replacement = launchedSpot({ tags: { [TAG_REPLACING_INSTANCE]: instance.id } })
      const snapshot = attached(instance, { canRequestRuns: true, groupTags: { [TAG_SWAP_DESIRED]: '3/1' } })
      const group = snapshot.group as Group
      const withPair: InterruptionSnapshot = {
        ...snapshot,
        replacementOf: replacement.id,
        group: { ...group, desiredCapacity: 3, members: [...group.members, memberOf(replacement)] },
      }
      const decision = decideInterruption(deadline(instance), withPair)
      expect(decision.actions).toEqual([
        {
          kind: 'record-swap',
          instanceId: instance.id,
          group: 'web',
          tags: { [TAG_SWAP]: `v2 phase=retiring owner=2 pairs=0 step=${instance.id}` },
        },
        { kind: 'terminate-in-group', instanceId: instance.id, group: 'web', decrement: true },
      ])
    })

    it('takes the unit too when the member was once a replacement itself (its tag names a gone partner)', () => {
      const instance = launchedSpot({
        tags: {
          [TAG_INTERRUPTION_WARNED]: NOW.toISOString(),
          [TAG_REPLACING_INSTANCE]: 'i-0000000000000dead',
        },
      })
      const replacement = launchedSpot({ tags: { [TAG_REPLACING_INSTANCE]: instance.id } })
      const snapshot = attached(instance, { groupTags: { [TAG_SWAP_DESIRED]: '3/1' } })
      const group = snapshot.group as Group
      const decision = decideInterruption(deadline(instance), {
        ...snapshot,
        replacementOf: replacement.id,
        group: { ...group, desiredCapacity: 3, members: [...group.members, memberOf(replacement)] },
      })
      expect(decision.actions.at(-1)).toEqual({
        kind: 'terminate-in-group',
        instanceId: instance.id,
        group: 'web',
        decrement: true,
      })
    })

    it('leaves the unit to the group when desired capacity is not what the swap record says', () => {
      const instance = warned()
      const replacement = launchedSpot({ tags: { [TAG_REPLACING_INSTANCE]: instance.id } })
      const snapshot = attached(instance, { groupTags: { [TAG_SWAP_DESIRED]: '3/1' } })
      const group = snapshot.group as Group
      const resized: InterruptionSnapshot = {
        ...snapshot,
        replacementOf: replacement.id,
        group: { ...group, desiredCapacity: 5, members: [...group.members, memberOf(replacement)] },
      }
      const decision = decideInterruption(deadline(instance), resized)
      expect(decision.actions).toEqual([
        { kind: 'terminate-in-group', instanceId: instance.id, group: 'web', decrement: false },
      ])
    })

    it('does nothing for a member that already left', () => {
      const instance = warned()
      const gone = decideInterruption(
        deadline(instance),
        attached(instance, { lifecycleState: 'Terminating' }),
      )
      expect(gone).toMatchObject({ outcome: 'skip', reason: 'already-leaving-group', actions: [] })
    })
  })

  describe('interruption warning for an attached spot member, when replacer runs can be requested', () => {
    const replaceable = (instance: Instance, situation: Situation = {}) =>
      attached(instance, { canRequestRuns: true, ...situation })

    it('replaces it ahead by default: marks it and requests runs, detaching only if the request fails', () => {
      const instance = launchedSpot()
      const decision = decideInterruption(interruption(instance), replaceable(instance))
      expect(decision).toMatchObject({ outcome: 'act', reason: 'interrupted-member', group: 'web' })
      expect(decision.actions).toEqual([
        { kind: 'untag-instance', instanceId: instance.id, keys: [TAG_LAUNCHED_FOR_GROUP] },
        {
          kind: 'mark-interrupted',
          instanceId: instance.id,
          group: 'web',
          tags: { [TAG_INTERRUPTION_WARNED]: NOW.toISOString() },
        },
        {
          kind: 'request-runs',
          instanceId: instance.id,
          group: 'web',
          delaysSeconds: INTERRUPTION_RUN_DELAYS_SECONDS,
          // NOW is the warning's time: the reminder comes at the deadline.
          deadlineInSeconds: DOOMED_SWAP_DEADLINE_SECONDS,
          otherwise: { kind: 'terminate-in-group', instanceId: instance.id, group: 'web', decrement: false },
        },
      ])
    })

    it.each([
      // configured action, hooks, instance-action, expected actions
      ['auto', [], 'terminate', ['untag-instance', 'mark-interrupted', 'request-runs']],
      ['replace', [], 'terminate', ['untag-instance', 'mark-interrupted', 'request-runs']],
      ['replace', [TERMINATING_HOOK], 'terminate', ['untag-instance', 'mark-interrupted', 'request-runs']],
      ['auto', [TERMINATING_HOOK], 'terminate', ['untag-instance', 'terminate-in-group']],
      ['auto', [], 'stop', ['untag-instance', 'terminate-in-group']],
      ['replace', [], 'hibernate', ['untag-instance', 'terminate-in-group']],
      ['detach', [], 'terminate', ['untag-instance', 'detach']],
      ['terminate', [], 'terminate', ['untag-instance', 'terminate-in-group']],
    ] as const)('%s with hooks %j and instance-action %s: %j', (action, hooks, instanceAction, expected) => {
      const instance = launchedSpot()
      const snapshot = replaceable(instance, {
        hooks,
        groupTags: { autospotting_termination_notification_action: action },
      })
      expect(kinds(snapshot, interruption(instance, instanceAction))).toEqual(expected)
    })

    it.each([
      [
        'the time EC2 gave the warning',
        { warnedAt: new Date('2022-05-31T22:59:30Z') },
        {},
        '2022-05-31T22:59:30.000Z',
      ],
      ['the time of this delivery when the event has none', {}, {}, NOW.toISOString()],
      [
        'the first warning on a second delivery',
        { warnedAt: new Date('2022-05-31T22:59:50Z') },
        { [TAG_INTERRUPTION_WARNED]: '2022-05-31T22:59:00.000Z' },
        '2022-05-31T22:59:00.000Z',
      ],
    ])('stamps %s', (_, signalTime, tags, expected) => {
      const instance = launchedSpot({ tags: { [TAG_LAUNCHED_FOR_GROUP]: 'web', ...tags } })
      const decision = decideInterruption({ ...interruption(instance), ...signalTime }, replaceable(instance))
      expect(decision.actions.find((a) => a.kind === 'mark-interrupted')).toMatchObject({
        tags: { [TAG_INTERRUPTION_WARNED]: expected },
      })
    })

    it('terminates it in its group without replacing ahead when no run can be requested (no run-request queue)', () => {
      const instance = launchedSpot()
      expect(kinds(attached(instance, { canRequestRuns: false }), interruption(instance))).toEqual([
        'untag-instance',
        'terminate-in-group',
      ])
    })

    it('lets a member protected from API termination leave at once: the replacer could not retire it', () => {
      const instance = launchedSpot()
      expect(kinds(replaceable(instance, { terminationProtected: true }), interruption(instance))).toEqual([
        'untag-instance',
        'terminate-in-group',
      ])
    })

    it('lets a member protected from scale-in leave at once: the replacer could not retire it', () => {
      const instance = launchedSpot()
      const snapshot = replaceable(instance)
      const group = snapshot.group as Group
      const protectedMember = {
        ...snapshot,
        group: { ...group, members: group.members.map((m) => ({ ...m, protectedFromScaleIn: true })) },
      }
      expect(kinds(protectedMember, interruption(instance))).toEqual(['untag-instance', 'terminate-in-group'])
    })

    it.each([
      // what, swap record, desired capacity, expected actions after the untag
      [
        'leaves with a decrement, as before, while the swap record matches desired',
        '3/1',
        3,
        [{ kind: 'terminate-in-group', decrement: true }],
      ],
      [
        'is replaced ahead when the owner resized the group since the swap',
        '3/1',
        4,
        [{ kind: 'mark-interrupted' }, { kind: 'request-runs' }],
      ],
      [
        'is replaced ahead when the group has no swap record',
        undefined,
        3,
        [{ kind: 'mark-interrupted' }, { kind: 'request-runs' }],
      ],
    ] as const)(
      'a replacement whose on-demand partner is still in service %s',
      (_, record, desired, expected) => {
        const partner = anInstance()
        const instance = launchedSpot({
          tags: { [TAG_LAUNCHED_FOR_GROUP]: 'web', 'launched-for-replacing-instance': partner.id },
        })
        const snapshot = replaceable(instance, {
          groupTags: record === undefined ? {} : { 'spotswap:swap-desired': record },
        })
        const group = snapshot.group as Group
        const withPartner = {
          ...snapshot,
          group: { ...group, desiredCapacity: desired, members: [...group.members, memberOf(partner)] },
        }
        const actions = decideInterruption(interruption(instance), withPartner).actions
        expect(actions.filter((a) => a.kind !== 'untag-instance' && a.kind !== 'record-swap')).toMatchObject(
          expected,
        )
      },
    )

    // Chaos seed 5226: a swap of 23 pairs attached its first chunk of 20 and the run died before the
    // record said so; the record (23 pairs) then never matched desired (owner + 20), and an interrupted
    // replacement left without its decrement, its unit held until a replacer run gave it back.
    describe('a replacement of a swap whose later attach chunk never joined', () => {
      const started = new Date(NOW.getTime() - 120_000)
      // As the replacer writes it at its attach (core/swap/record.ts formatSwapRecord).
      const record = `v2 id=s1 phase=attaching owner=2 pairs=3 max=2 raised=5 started=${started.toISOString()}`
      const decide = (ownerChanges: InterruptionSnapshot['ownerChanges']) => {
        const partner = anInstance()
        const instance = launchedSpot({
          tags: { [TAG_REPLACING_INSTANCE]: partner.id, [TAG_SWAP_ID]: 's1' },
        })
        const snapshot = replaceable(instance, { groupTags: { [TAG_SWAP]: record } })
        const group = snapshot.group as Group
        return decideInterruption(interruption(instance), {
          ...snapshot,
          group: { ...group, desiredCapacity: 4, members: [...group.members, memberOf(partner)] },
          ...(ownerChanges === undefined ? {} : { ownerChanges }),
        }).actions
      }
      const change = {
        at: NOW,
        from: 4,
        to: 5,
        cause: 'a user request ... changing the desired capacity from 4 to 5',
      }

      it('leaves with a decrement once the scaling activities show no one else changed desired capacity', () => {
        const actions = decide({ kind: 'read', changes: [] })
        expect(actions).toContainEqual(
          expect.objectContaining({ kind: 'terminate-in-group', decrement: true }),
        )
        // Still at its attach, one pair fewer: the replacer keeps its proof that the rest never joined.
        const written = actions.find((a) => a.kind === 'record-swap')
        expect(written).toMatchObject({ tags: { [TAG_SWAP]: expect.stringContaining('phase=attaching') } })
        expect(written).toMatchObject({ tags: { [TAG_SWAP]: expect.stringContaining('pairs=2') } })
      })

      it.each([
        ['the activities are not read', undefined],
        ['the activities could not be read', { kind: 'unreadable', error: 'Throttling' } as const],
        ['the activities show an owner’s change', { kind: 'read', changes: [change] } as const],
      ])('leaves without a decrement when %s', (_, ownerChanges) => {
        const actions = decide(ownerChanges)
        expect(actions.some((a) => a.kind === 'record-swap')).toBe(false)
        expect(actions.some((a) => 'decrement' in a && a.decrement)).toBe(false)
      })
    })

    it('treats a rebalance recommendation configured to detach as before: it is no interruption yet', () => {
      const instance = launchedSpot()
      const snapshot = replaceable(instance, { groupTags: { autospotting_rebalance_action: 'detach' } })
      expect(kinds(snapshot, rebalance(instance))).toEqual(['untag-instance', 'terminate-in-group'])
    })
  })

  describe('mayReplaceAhead (whether termination protection is worth reading)', () => {
    it.each([
      ['auto', [], 'spot', true],
      ['auto', [TERMINATING_HOOK], 'spot', false],
      ['replace', [TERMINATING_HOOK], 'spot', true],
      ['detach', [], 'spot', false],
      ['auto', [], 'on-demand', false],
    ] as const)('%s with hooks %j for a %s member: %s', (action, hooks, lifecycle, expected) => {
      const instance = launchedSpot({ lifecycle })
      const snapshot = attached(instance, {
        groupTags: { autospotting_termination_notification_action: action },
      })
      expect(mayReplaceAhead(instance, snapshot.group as Group, hooks, snapshot.config)).toBe(expected)
    })
  })

  describe('rebalance recommendation for an attached spot member', () => {
    it('requests a replacement by default, stamping the time', () => {
      const instance = launchedSpot()
      const decision = decideInterruption(rebalance(instance), attached(instance))
      expect(decision).toMatchObject({ outcome: 'act', reason: 'at-risk-member', group: 'web' })
      expect(decision.actions).toEqual([
        {
          kind: 'request-replacement',
          instanceId: instance.id,
          group: 'web',
          tags: { [TAG_REBALANCE_AT_RISK]: NOW.toISOString() },
        },
      ])
    })

    it.each([
      // rebalance action, termination action, hooks, expected
      ['detach', 'auto', [], ['untag-instance', 'terminate-in-group']],
      ['detach', 'auto', [TERMINATING_HOOK], ['untag-instance', 'terminate-in-group']],
      ['detach', 'terminate', [], ['untag-instance', 'terminate-in-group']],
      ['detach', 'detach', [TERMINATING_HOOK], ['untag-instance', 'terminate-in-group']],
    ] as const)(
      '%s (termination action %s, hooks %j) acts as on an interruption: %j',
      (action, termination, hooks, expected) => {
        const instance = launchedSpot()
        const snapshot = attached(instance, {
          hooks,
          groupTags: {
            autospotting_rebalance_action: action,
            autospotting_termination_notification_action: termination,
          },
        })
        expect(kinds(snapshot, rebalance(instance))).toEqual(expected)
      },
    )

    it('does nothing when configured to ignore', () => {
      const instance = launchedSpot()
      const decision = decideInterruption(
        rebalance(instance),
        attached(instance, { env: { REBALANCE_ACTION: 'ignore' } }),
      )
      expect(decision).toMatchObject({ outcome: 'skip', reason: 'rebalance-ignored', actions: [] })
    })

    it('does not request a second replacement for the same instance', () => {
      const instance = launchedSpot({
        tags: { [TAG_LAUNCHED_FOR_GROUP]: 'web', [TAG_REBALANCE_AT_RISK]: '2022-05-31T22:00:00.000Z' },
      })
      const decision = decideInterruption(rebalance(instance), attached(instance))
      expect(decision).toMatchObject({ outcome: 'skip', reason: 'replacement-already-requested' })
      expect(decision.detail).toContain('2022-05-31T22:00:00.000Z')
    })

    it('acts on an interruption even after a replacement was requested', () => {
      const instance = launchedSpot({
        tags: { [TAG_LAUNCHED_FOR_GROUP]: 'web', [TAG_REBALANCE_AT_RISK]: '2022-05-31T22:00:00.000Z' },
      })
      expect(kinds(attached(instance), interruption(instance))).toEqual([
        'untag-instance',
        'terminate-in-group',
      ])
    })
  })

  describe('a spot instance launched for a group but not attached', () => {
    it.each([
      ['interruption', 'replace', (i: Instance) => interruption(i)],
      ['interruption (stop)', 'ignore', (i: Instance) => interruption(i, 'stop')],
      ['rebalance', 'replace', rebalance],
      ['rebalance', 'detach', rebalance],
    ] as const)('%s with rebalance action %s: terminates it and nothing else', (_event, action, signal) => {
      const instance = launchedSpot()
      const decision = decideInterruption(
        signal(instance),
        unattached(instance, { groupTags: { autospotting_rebalance_action: action } }),
      )
      expect(decision).toMatchObject({ outcome: 'act', reason: 'unattached-launched-instance', group: 'web' })
      expect(decision.actions).toEqual([{ kind: 'terminate-instance', instanceId: instance.id }])
    })

    it.each([
      ['a member its owner detached', { [TAG_JOINED_GROUP]: 'web' }, {}, 'joined-a-group'],
      ['one from another template', { [TAG_LAUNCH_TEMPLATE_ID]: 'lt-0other' }, {}, 'foreign-template'],
    ])('never terminates %s: it is not spotswap’s launch', (_, tags, fields, code) => {
      const instance = launchedSpot(fields)
      const snapshot = unattached(instance)
      const own = snapshot.instance as Instance
      const decision = decideInterruption(rebalance(instance), {
        ...snapshot,
        instance: { ...own, tags: { ...own.tags, ...tags } },
      })
      expect(decision).toMatchObject({ outcome: 'skip', reason: 'not-spotswaps-launch', actions: [] })
      expect(decision.detail).toContain(code)
    })

    it('leaves it alone on a rebalance recommendation when configured to ignore', () => {
      const instance = launchedSpot()
      const snapshot = unattached(instance, { groupTags: { autospotting_rebalance_action: 'ignore' } })
      expect(decideInterruption(rebalance(instance), snapshot)).toMatchObject({
        outcome: 'skip',
        reason: 'rebalance-ignored',
      })
    })
  })

  describe('instances that are not spotswap’s to touch', () => {
    it.each([
      ['an untagged group (opt-in)', {}, { 'spot-enabled': 'true' }, {}],
      ['a group tagged spot-enabled=false', { 'spot-enabled': 'false' }, {}, {}],
      [
        'a group missing one of several filters',
        { team: 'web' },
        {},
        { TAG_FILTERS: 'spot-enabled=true,team=api' },
      ],
      [
        'a group opted out (opt-out mode)',
        { 'spot-enabled': 'false' },
        {},
        { TAG_FILTERING_MODE: 'opt-out' },
      ],
    ])('skips a member of %s', (_name, tags, removed, env) => {
      const instance = launchedSpot()
      const base = attached(instance, { env })
      const groupTags = Object.fromEntries(
        Object.entries({ ...base.group?.tags, ...tags }).filter(([k]) => !(k in removed)),
      )
      const snapshot = { ...base, group: aGroup(base.group?.members ?? [], { tags: groupTags }) }
      for (const signal of [interruption(instance), rebalance(instance)]) {
        expect(decideInterruption(signal, snapshot)).toMatchObject({
          outcome: 'skip',
          reason: 'group-not-managed',
          group: 'web',
          actions: [],
        })
      }
    })

    it('acts on an untagged group in opt-out mode', () => {
      const instance = launchedSpot()
      const base = attached(instance, { env: { TAG_FILTERING_MODE: 'opt-out' } })
      const snapshot = { ...base, group: aGroup(base.group?.members ?? [], { tags: {} }) }
      expect(decideInterruption(interruption(instance), snapshot).outcome).toBe('act')
    })

    it('skips an instance whose group is not among the managed groups (untagged or deleted)', () => {
      const instance = launchedSpot()
      const snapshot = { ...attached(instance), group: undefined }
      expect(decideInterruption(interruption(instance), snapshot)).toMatchObject({
        outcome: 'skip',
        reason: 'group-not-managed',
      })
    })

    it('skips an instance that is in no group and was not launched for one', () => {
      const instance = anInstance({ lifecycle: 'spot' })
      const snapshot = { ...attached(instance), memberOf: undefined, group: undefined }
      expect(decideInterruption(interruption(instance), snapshot)).toMatchObject({
        outcome: 'skip',
        reason: 'no-group',
        group: undefined,
      })
    })

    it('skips an on-demand instance', () => {
      const instance = anInstance({ lifecycle: 'on-demand' })
      expect(decideInterruption(interruption(instance), attached(instance))).toMatchObject({
        outcome: 'skip',
        reason: 'not-spot',
      })
    })

    it('skips a group that is being deleted', () => {
      const instance = launchedSpot()
      const snapshot = attached(instance, { group: { status: 'Delete in progress' } })
      expect(decideInterruption(interruption(instance), snapshot)).toMatchObject({
        outcome: 'skip',
        reason: 'group-deleting',
      })
    })
  })

  describe('duplicate and late events are harmless no-ops', () => {
    it.each(['shutting-down', 'terminated'] as const)('an instance already %s', (state) => {
      const instance = launchedSpot({ state })
      expect(decideInterruption(interruption(instance), attached(instance))).toMatchObject({
        outcome: 'skip',
        reason: 'instance-gone',
      })
    })

    it('an instance EC2 no longer knows', () => {
      const instance = launchedSpot()
      const snapshot = { ...attached(instance), instance: undefined }
      expect(decideInterruption(interruption(instance), snapshot)).toMatchObject({
        outcome: 'skip',
        reason: 'instance-gone',
      })
    })

    it.each([
      'Terminating',
      'Terminating:Wait',
      'Terminating:Proceed',
      'Terminated',
      'Detaching',
      'Detached',
    ])('a member already %s', (lifecycleState) => {
      const instance = launchedSpot()
      for (const signal of [interruption(instance), rebalance(instance)]) {
        const decision = decideInterruption(signal, attached(instance, { lifecycleState }))
        expect(decision).toMatchObject({ outcome: 'skip', reason: 'already-leaving-group', actions: [] })
        expect(decision.detail).toContain(lifecycleState)
      }
    })

    it('a member the group no longer lists', () => {
      const instance = launchedSpot()
      const base = attached(instance)
      const snapshot = { ...base, group: aGroup([], { tags: base.group?.tags ?? {} }) }
      expect(decideInterruption(interruption(instance), snapshot)).toMatchObject({
        outcome: 'skip',
        reason: 'already-leaving-group',
      })
    })

    it('an instance we already detached and untagged', () => {
      const instance = anInstance({ lifecycle: 'spot', tags: { 'launched-by-autospotting': 'true' } })
      const snapshot = { ...attached(instance), memberOf: undefined, group: undefined }
      expect(decideInterruption(interruption(instance), snapshot)).toMatchObject({
        outcome: 'skip',
        reason: 'no-group',
      })
    })

    it.each(['Standby', 'Pending', 'Pending:Wait'])('but a member %s is still acted on', (lifecycleState) => {
      const instance = launchedSpot()
      expect(decideInterruption(interruption(instance), attached(instance, { lifecycleState })).outcome).toBe(
        'act',
      )
    })
  })

  it('always untags before the instance leaves its group, acts on that instance only, and leaves at most once', () => {
    const signals = fc.constantFrom(
      'interrupt-terminate',
      'interrupt-stop',
      'interrupt-hibernate',
      'rebalance',
    )
    fc.assert(
      fc.property(
        signals,
        fc.constantFrom('auto', 'detach', 'terminate'),
        fc.constantFrom('replace', 'detach', 'ignore'),
        fc.boolean(),
        fc.boolean(),
        (signalName, termination, rebalanceAction, hasHook, isAttached) => {
          const instance = launchedSpot()
          const situation = {
            hooks: hasHook ? [TERMINATING_HOOK] : [],
            groupTags: {
              autospotting_termination_notification_action: termination,
              autospotting_rebalance_action: rebalanceAction,
            },
          }
          const snapshot = isAttached ? attached(instance, situation) : unattached(instance, situation)
          const signal =
            signalName === 'rebalance'
              ? rebalance(instance)
              : interruption(instance, signalName.replace('interrupt-', '') as 'stop')
          const actions = decideInterruption(signal, snapshot).actions.map((a) => a.kind)
          const leaving = actions.filter((kind) => kind === 'detach' || kind === 'terminate-in-group')
          expect(leaving.length).toBeLessThanOrEqual(1)
          if (leaving.length === 1) expect(actions[0]).toBe('untag-instance')
          for (const action of decideInterruption(signal, snapshot).actions)
            expect(action.instanceId).toBe(instance.id)
        },
      ),
    )
  })
})

describe('how a member leaves (through Auto Scaling, so termination hooks and draining run)', () => {
  it('never terminates a member with TerminateInstances, and detaches only when the owner asks and EC2 ends it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('terminate', 'stop', 'hibernate', 'rebalance'),
        fc.constantFrom('auto', 'detach', 'terminate', 'replace'),
        fc.constantFrom('replace', 'detach'),
        fc.boolean(),
        fc.boolean(),
        (signalName, termination, rebalanceAction, hasHook, canRequestRuns) => {
          const instance = launchedSpot()
          const snapshot = attached(instance, {
            hooks: hasHook ? [TERMINATING_HOOK] : [],
            canRequestRuns,
            groupTags: {
              autospotting_termination_notification_action: termination,
              autospotting_rebalance_action: rebalanceAction,
            },
          })
          const signal =
            signalName === 'rebalance' ? rebalance(instance) : interruption(instance, signalName as 'stop')
          const actions = decideInterruption(signal, snapshot).actions
          const fallbacks = actions.flatMap((a) => (a.kind === 'request-runs' ? [a.otherwise] : []))
          const kinds = [...actions, ...fallbacks].map((a) => a.kind)
          expect(kinds).not.toContain('terminate-instance')
          const ec2EndsIt = signalName === 'terminate'
          if (kinds.includes('detach')) expect([termination, ec2EndsIt]).toEqual(['detach', true])
        },
      ),
    )
  })

  it.each([
    ['a rebalance recommendation with REBALANCE_ACTION=detach', 'auto', 'rebalance'],
    ['an interruption EC2 will stop the instance for', 'detach', 'stop'],
    ['an interruption EC2 will hibernate the instance for', 'auto', 'hibernate'],
  ] as const)(
    '%s: TerminateInstanceInAutoScalingGroup without a decrement, so the group backfills',
    (_what, termination, signalName) => {
      const instance = launchedSpot()
      const snapshot = attached(instance, {
        groupTags: {
          autospotting_termination_notification_action: termination,
          autospotting_rebalance_action: 'detach',
        },
      })
      const signal = signalName === 'rebalance' ? rebalance(instance) : interruption(instance, signalName)
      expect(decideInterruption(signal, snapshot).actions).toEqual([
        { kind: 'untag-instance', instanceId: instance.id, keys: [TAG_LAUNCHED_FOR_GROUP] },
        { kind: 'terminate-in-group', instanceId: instance.id, group: 'web', decrement: false },
      ])
    },
  )
})

describe('concernsManagedGroup', () => {
  it.each([
    ['an action', (i: Instance) => attached(i), true],
    ['a member already leaving', (i: Instance) => attached(i, { lifecycleState: 'Terminating' }), true],
    ['an unmanaged group', (i: Instance) => ({ ...attached(i), group: undefined }), false],
    ['an instance gone', (i: Instance) => ({ ...attached(i), instance: undefined }), false],
  ])('is %s → %s', (_name, snapshot, expected) => {
    const instance = launchedSpot()
    expect(concernsManagedGroup(decideInterruption(interruption(instance), snapshot(instance)))).toBe(
      expected,
    )
  })
})

describe('targetGroupName', () => {
  it('prefers the group the instance is attached to over its launched-for-asg tag', () => {
    expect(targetGroupName(launchedSpot(), 'api')).toBe('api')
    expect(targetGroupName(launchedSpot(), undefined)).toBe('web')
    expect(targetGroupName(anInstance(), undefined)).toBeUndefined()
    expect(targetGroupName(undefined, undefined)).toBeUndefined()
  })
})

describe('isRegionCovered', () => {
  it.each([
    [[], 'eu-west-1', true],
    [['us-east-1'], 'us-east-1', true],
    [['us-east-1'], 'us-west-2', false],
    [['us-*', 'eu-west-?'], 'eu-west-3', true],
    [['us-*'], 'ap-south-1', false],
  ])('REGIONS %j includes %s: %s', (regions, region, expected) => {
    expect(isRegionCovered(region, { regions })).toBe(expected)
  })
})

describe('an interrupted replacement on a stale swap record that holds no pair', () => {
  it.each([
    ['waiting', 'v2 id=s1 phase=waiting owner=4 pairs=0 started=2026-01-01T00:00:00.000Z'],
    ['after its last step', 'v2 id=s1 phase=retiring owner=4 pairs=0 step=i-0000000000000abcd'],
  ])('leaves without a decrement (%s), so desired capacity never drops below the owner’s', (_, record) => {
    const partner = anInstance()
    const instance = launchedSpot({
      tags: {
        [TAG_LAUNCHED_FOR_GROUP]: 'web',
        [TAG_REPLACING_INSTANCE]: partner.id,
        'spotswap:swap-id': 's1',
      },
    })
    const snapshot = attached(instance, {
      env: { TERMINATION_NOTIFICATION_ACTION: 'terminate' },
      groupTags: { [TAG_SWAP]: record },
    })
    const group = snapshot.group as NonNullable<typeof snapshot.group>
    // Desired is the owner's own figure: the record holds no unit a decrement could give back.
    const withPartner = {
      ...snapshot,
      group: { ...group, desiredCapacity: 4, members: [...group.members, memberOf(partner)] },
    }
    const actions = decideInterruption(interruption(instance), withPartner).actions
    expect(actions.filter((a) => a.kind === 'record-swap')).toEqual([])
    expect(actions.find((a) => a.kind === 'terminate-in-group')).toMatchObject({ decrement: false })
  })
})
