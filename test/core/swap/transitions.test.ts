/**
 * Every row of the swap's state table, reached from a world that shows its situation: the row the swap
 * takes and the actions it becomes. The fixtures are keyed by situation, so a row without a test does
 * not compile.
 */
import { describe, expect, it } from 'vitest'
import {
  TAG_ECS_DRAINED,
  TAG_INTERRUPTION_WARNED,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP,
  TAG_SWAP_ID,
} from '../../../lambdas/core/constants.ts'
import type { EcsManagement } from '../../../lambdas/core/ecs/capacity-provider.ts'
import { drainStep } from '../../../lambdas/core/ecs/drain.ts'
import type { EcsTasksObservation } from '../../../lambdas/core/ecs/tasks.ts'
import type { HealthObservation } from '../../../lambdas/core/group/serving.ts'
import type { Action, SwapPair } from '../../../lambdas/core/plan/actions.ts'
import { trafficSourceKey } from '../../../lambdas/core/port.ts'
import { recoverSwaps } from '../../../lambdas/core/swap/recover.ts'
import type { RecoveryInput } from '../../../lambdas/core/swap/recovery.ts'
import {
  PAIR_TRANSITIONS,
  type PairSituation,
  SWAP_TRANSITIONS,
  type SwapSituation,
  VANISHED_TRANSITIONS,
  type VanishedSituation,
} from '../../../lambdas/core/swap/transitions.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { webProvider } from '../../builders/ecs.ts'
import { aGroup, memberOf, NOW, onDemandFleet, spotFor } from '../../builders/world.ts'

const TG = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/0123456789abcdef'
const STARTED = new Date(NOW.getTime() - 60_000)
const [P1, P2] = onDemandFleet(2) as [Instance, Instance]
const S1 = spotFor(P1, { tags: { [TAG_REPLACING_INSTANCE]: P1.id, [TAG_SWAP_ID]: 's1' } })

interface World {
  readonly desired?: number
  readonly record?: string | undefined
  readonly replacement?: Instance
  readonly extraMembers?: readonly Instance[]
  readonly protectedIds?: readonly string[]
  readonly minOnDemand?: number
  readonly held?: string
  readonly ownerChanges?: RecoveryInput['ownerChanges']
  /** The activities not read yet (the replacer's first plan of a run). */
  readonly activitiesUnread?: boolean
  readonly health?: HealthObservation
  readonly pending?: boolean
  readonly now?: Date
  readonly leavesAt?: number
  /** P1 carries an interruption warning. */
  readonly warned?: boolean
  readonly withLoadBalancer?: boolean
  /** Replacements provenance refuses (core/group/provenance.ts). */
  readonly forged?: readonly string[]
  /** Whether anything spotswap did accounts for units beyond the attached pairs. */
  readonly corroborated?: boolean
  /** spotswap's launches for the group outside it. */
  readonly launched?: readonly Instance[]
  /** A group ECS manages: its container instances' status by instance, and whether P1 carries s1's drain. */
  readonly ecs?: {
    readonly status: Readonly<Record<string, string>>
    readonly drained?: boolean
    /** Each container instance's tasks; a service's two tasks when not given. */
    readonly tasks?: Readonly<Record<string, EcsTasksObservation>>
    /** The capacity provider's managed draining: ECS drains what Auto Scaling terminates. */
    readonly managedDraining?: boolean
  }
}

const record = (phase: string, pairs: number, extra = '') =>
  `v2 id=s1 phase=${phase} owner=2 pairs=${pairs}${extra} started=${STARTED.toISOString()}`

const healthy = (state: string): HealthObservation => ({
  kind: 'read',
  health: {
    settings: new Map([[trafficSourceKey('target-group', TG), { intervalSeconds: 30, healthyThreshold: 3 }]]),
    states: new Map([[S1.id, new Map([[trafficSourceKey('target-group', TG), { state }]])]]),
  },
})

/** A group of two on-demand members, one swap of one pair (S1 replacing P1) from desired 2. */
const recover = (world: World) => {
  const replacement = world.replacement === undefined ? [S1] : [world.replacement]
  const all = [P1, P2, ...replacement, ...(world.extraMembers ?? [])]
  const members = all.map((i) =>
    memberOf(i, { lifecycleState: world.pending && i.lifecycle === 'spot' ? 'Pending' : 'InService' }),
  )
  const group = aGroup(members, {
    desiredCapacity: world.desired ?? 3,
    maxSize: 3,
    tags: { 'spot-enabled': 'true', ...(world.record === undefined ? {} : { [TAG_SWAP]: world.record }) },
    ...(world.withLoadBalancer === false
      ? {}
      : { trafficSources: { targetGroupArns: [TG], classicLoadBalancerNames: [], unreadable: [] } }),
  })
  const detail = new Map(all.map((i) => [i.id, i]))
  if (world.ecs?.drained) detail.set(P1.id, { ...P1, tags: { ...P1.tags, [TAG_ECS_DRAINED]: 's1' } })
  if (world.warned)
    detail.set(P1.id, { ...P1, tags: { ...P1.tags, [TAG_INTERRUPTION_WARNED]: STARTED.toISOString() } })
  const onDemandIds = new Set(all.filter((i) => i.lifecycle === 'on-demand').map((i) => i.id))
  const input: RecoveryInput = {
    group,
    spotMembers: members.filter((m) => detail.get(m.instanceId)?.lifecycle === 'spot'),
    detail: (id) => detail.get(id),
    launched: world.launched ?? [],
    isPartner: (id) => onDemandIds.has(id),
    onDemandIds,
    minOnDemand: world.minOnDemand ?? 0,
    isProtected: (id) => (world.protectedIds ?? []).includes(id),
    inService: members.filter((m) => m.lifecycleState === 'InService'),
    stillIn: (id) => all.some((i) => i.id === id),
    held: world.held,
    now: world.now ?? NOW,
    ownerChanges: world.activitiesUnread ? undefined : (world.ownerChanges ?? { kind: 'read', changes: [] }),
    health: world.health,
    graceSeconds: 300,
    leavesAt: (id) => (id === P1.id ? world.leavesAt : undefined),
    attemptOf: () => 1,
    provenanceOf: (id) =>
      (world.forged ?? []).includes(id)
        ? { ours: false, code: 'not-spot', detail: `${id} is forged` }
        : { ours: true },
    corroborates: () => world.corroborated ?? true,
    ...(world.ecs === undefined ? {} : { ecsDrain: ecsDrainIn(world, group.name, detail) }),
  }
  return recoverSwaps(input)
}

const CLUSTER = 'arn:aws:ecs:us-east-1:123456789012:cluster/web'

/** The drain steps of a group ECS manages, managed draining off, its container instances as the world says. */
const ecsDrainIn =
  (world: World, group: string, detail: ReadonlyMap<string, Instance>) =>
  (pair: SwapPair, keepsMinimum: boolean, deadlineMs: number) => {
    const containerInstances = new Map(
      Object.entries(world.ecs?.status ?? {}).map(([id, status]) => [
        id,
        { arn: `${CLUSTER}/${id}`, ec2InstanceId: id, status, runningTasksCount: 2 },
      ]),
    )
    const serviceTasks: EcsTasksObservation = {
      kind: 'read',
      tasks: [
        { arn: 't1', group: 'service:web' },
        { arn: 't2', group: 'service:web' },
      ],
    }
    const tasks = new Map(
      [...containerInstances.keys()].map((id) => [id, world.ecs?.tasks?.[id] ?? serviceTasks]),
    )
    const ecs: EcsManagement = {
      kind: 'managed',
      provider: webProvider({ groupArnOrName: group, managedDraining: world.ecs?.managedDraining ?? false }),
      cluster: { kind: 'read', clusterArn: CLUSTER, containerInstances, tasks },
    }
    const protectedIds = world.protectedIds ?? []
    return drainStep(
      {
        group,
        ecs,
        now: world.now ?? NOW,
        swapId: 's1',
        detail: (id) => detail.get(id),
        scaleInProtected: (id) => protectedIds.includes(id),
        terminationProtected: () => false,
      },
      pair,
      keepsMinimum,
      deadlineMs,
    )
  }

const kinds = (actions: readonly Action[]) =>
  actions.map((a) => (a.kind === 'complete-swap' ? `${a.kind}:${a.retire}` : a.kind))

const SWAP_FIXTURES: Record<SwapSituation, { world: World; actions: string[] }> = {
  'no-swap': { world: { record: undefined, replacement: P2, desired: 2 }, actions: [] },
  'group-held': {
    world: { record: record('waiting', 1), held: 'processes-suspended (Terminate)' },
    actions: [],
  },
  'record-unreadable': {
    world: { record: 'v2 phase=waiting owner=2' },
    actions: ['release-pair', 'close-swap'],
  },
  'record-unverified': {
    world: { record: record('waiting', 1), replacement: P2, desired: 3, corroborated: false },
    actions: ['close-swap'],
  },
  // Recorded as S1 was launched for P1, which EC2 interrupts: nothing attached, both still there.
  'launched-ahead': {
    world: {
      record: record('attaching', 1),
      desired: 2,
      replacement: P2,
      launched: [S1],
      leavesAt: NOW.getTime() + 30_000,
    },
    actions: [],
  },
  'attach-not-done': {
    world: { record: record('attaching', 1), desired: 2, replacement: P2 },
    actions: ['close-swap'],
  },
  'owner-resized': {
    world: { record: record('waiting', 1), desired: 5 },
    actions: ['release-pair', 'close-swap'],
  },
  // Nothing attached, desired the owner's 2 plus the pair: an attach, or the owner's scale-out by one.
  'activities-unread': {
    world: { record: record('attaching', 1), replacement: P2, activitiesUnread: true },
    actions: [],
  },
  'activities-unreadable': {
    world: { record: record('waiting', 1), ownerChanges: { kind: 'unreadable', error: 'Throttling' } },
    actions: [],
  },
  'owner-changed': {
    world: {
      record: record('waiting', 1),
      ownerChanges: {
        kind: 'read',
        changes: [
          { at: NOW, from: 3, to: 2, cause: '' },
          { at: NOW, from: 2, to: 3, cause: '' },
        ],
      },
    },
    actions: ['release-pair', 'close-swap'],
  },
  // Two pairs recorded, one attached (desired the owner's 2 plus 1): the other launch never joined.
  'attach-partial': {
    world: {
      record: record('attaching', 2),
      launched: [spotFor(P2, { tags: { [TAG_REPLACING_INSTANCE]: P2.id, [TAG_SWAP_ID]: 's1' } })],
    },
    actions: ['terminate-spot'],
  },
  'backfill-booting': { world: { record: record('waiting', 1), pending: true }, actions: [] },
  finishing: {
    world: { record: record('waiting', 1), health: healthy('healthy') },
    actions: ['complete-swap:partner', 'close-swap'],
  },
}

const PAIR_FIXTURES: Record<PairSituation, { world: World; actions: string[] }> = {
  'both-protected': { world: { protectedIds: [P1.id, S1.id] }, actions: [] },
  'partner-kept': {
    world: { protectedIds: [P1.id] },
    actions: ['complete-swap:replacement', 'close-swap'],
  },
  'partner-doomed-now': {
    world: { leavesAt: NOW.getTime() - 1000, health: healthy('initial') },
    actions: ['complete-swap:partner', 'close-swap'],
  },
  serving: { world: { health: healthy('healthy') }, actions: ['complete-swap:partner', 'close-swap'] },
  'not-serving-yet': { world: { health: healthy('initial') }, actions: [] },
  'health-unread': { world: { health: { kind: 'unreadable', error: 'Throttling' } }, actions: [] },
  'replacement-protected': {
    world: {
      health: healthy('unhealthy'),
      now: new Date(STARTED.getTime() + 3_600_000),
      protectedIds: [S1.id],
    },
    actions: [],
  },
  'not-serving-by-deadline': {
    world: { health: healthy('unhealthy'), now: new Date(STARTED.getTime() + 3_600_000) },
    actions: ['complete-swap:replacement', 'close-swap'],
  },
  // P1 protected by ECS in a group spotswap drains in (core/ecs/drain.ts).
  'ecs-registering': {
    world: { protectedIds: [P1.id], ecs: { status: { [P1.id]: 'ACTIVE', [S1.id]: 'REGISTERING' } } },
    actions: [],
  },
  'ecs-drain': {
    world: { protectedIds: [P1.id], ecs: { status: { [P1.id]: 'ACTIVE', [S1.id]: 'ACTIVE' } } },
    actions: ['ecs-drain'],
  },
  'ecs-draining': {
    world: {
      protectedIds: [P1.id],
      ecs: { status: { [P1.id]: 'DRAINING', [S1.id]: 'ACTIVE' }, drained: true },
    },
    actions: [],
  },
  'ecs-not-registered-by-deadline': {
    world: {
      protectedIds: [P1.id],
      ecs: { status: { [P1.id]: 'ACTIVE' } },
      now: new Date(STARTED.getTime() + 3_600_000),
    },
    actions: ['complete-swap:replacement', 'close-swap'],
  },
  'ecs-drain-stalled': {
    world: {
      protectedIds: [P1.id],
      ecs: { status: { [P1.id]: 'DRAINING', [S1.id]: 'ACTIVE' }, drained: true },
      now: new Date(STARTED.getTime() + 3_600_000),
    },
    actions: ['ecs-undrain', 'complete-swap:replacement', 'close-swap'],
  },
  'ecs-standalone-task': {
    world: {
      protectedIds: [P1.id],
      ecs: {
        status: { [P1.id]: 'ACTIVE', [S1.id]: 'ACTIVE' },
        tasks: { [P1.id]: { kind: 'read', tasks: [{ arn: 't3', group: 'family:nightly' }] } },
      },
    },
    actions: ['complete-swap:replacement', 'close-swap'],
  },
  'ecs-managed-draining': {
    world: {
      protectedIds: [P1.id],
      health: healthy('healthy'),
      ecs: { status: { [P1.id]: 'ACTIVE', [S1.id]: 'ACTIVE' }, managedDraining: true },
    },
    actions: ['complete-swap:partner', 'close-swap'],
  },
  'ecs-tasks-unread': {
    world: {
      protectedIds: [P1.id],
      ecs: {
        status: { [P1.id]: 'ACTIVE', [S1.id]: 'ACTIVE' },
        tasks: { [P1.id]: { kind: 'unreadable', error: 'Throttling' } },
      },
    },
    actions: [],
  },
}

const VANISHED_FIXTURES: Record<VanishedSituation, { world: World; actions: string[] }> = {
  // The record holds one pair, none is attached: its unit goes back with the oldest on-demand member.
  'member-may-leave': {
    world: { record: record('waiting', 1), replacement: P2 },
    actions: ['give-back', 'close-swap'],
  },
  'no-member-may-leave': {
    world: { record: record('waiting', 1), replacement: P2, minOnDemand: 2 },
    actions: [],
  },
}

describe('the swap state table', () => {
  it.each(SWAP_TRANSITIONS.map((row) => [row.situation, row.outcome] as const))(
    'group row %s → %s',
    (situation) => {
      const fixture = SWAP_FIXTURES[situation]
      const recovery = recover({ record: record('waiting', 1), ...fixture.world })
      expect(recovery.situation).toBe(situation)
      expect(kinds(recovery.actions)).toEqual(fixture.actions)
      if (SWAP_TRANSITIONS.find((r) => r.situation === situation)?.outcome === 'wait')
        expect(recovery.waiting).toMatch(new RegExp(`^swap waits \\(${situation}\\)`))
      expect(recovery.awaitingActivities).toBe(situation === 'activities-unread')
      // Only the activities tell whether the swap attached its launches: they wait with it.
      const undecided = situation === 'activities-unread' || situation === 'activities-unreadable'
      expect(recovery.undecidedSwapId).toBe(undecided ? 's1' : undefined)
    },
  )

  it.each(PAIR_TRANSITIONS.map((row) => [row.situation, row.outcome] as const))(
    'pair row %s → %s',
    (situation, outcome) => {
      const fixture = PAIR_FIXTURES[situation]
      const recovery = recover({ record: record('waiting', 1), ...fixture.world })
      expect(recovery.situation).toBe('finishing')
      expect(kinds(recovery.actions)).toEqual(fixture.actions)
      const named = recovery.actions.find((a) => a.kind === 'complete-swap')?.reason ?? recovery.waiting ?? ''
      expect(named).toContain(situation)
      if (outcome === 'retire-replacement-and-back-off')
        expect(recovery.actions.find((a) => a.kind === 'complete-swap')).toMatchObject({
          backOffPartnerUntil: expect.any(String),
        })
      if (outcome === 'wait') expect(recovery.awaitingHealth).toEqual([S1.id])
    },
  )

  it.each(VANISHED_TRANSITIONS.map((row) => [row.situation, row.outcome] as const))(
    'vanished-pair row %s → %s',
    (situation) => {
      const fixture = VANISHED_FIXTURES[situation]
      const recovery = recover({ ...fixture.world })
      expect(kinds(recovery.actions)).toEqual(fixture.actions)
      const named = recovery.actions.find((a) => a.kind === 'give-back')?.reason ?? recovery.waiting ?? ''
      expect(named).toContain(situation)
    },
  )

  it('closes an unconfirmed attach once the activities show the owner’s scale-out, its launch spotswap’s (chaos seed 2148)', () => {
    const recovery = recover({
      record: record('attaching', 1),
      replacement: P2,
      ownerChanges: { kind: 'read', changes: [{ at: NOW, from: 2, to: 3, cause: '' }] },
    })
    expect(recovery.situation).toBe('owner-changed')
    expect(kinds(recovery.actions)).toEqual(['close-swap'])
    expect(recovery.unattachedSwapId).toBe('s1')
    expect(recovery.awaitingActivities).toBe(false)
  })

  it('keeps a swap recorded ahead of a doomed member’s replacement, its launch spotswap’s', () => {
    const recovery = recover({
      record: record('attaching', 1),
      desired: 2,
      replacement: P2,
      launched: [{ ...S1, state: 'pending' }],
      leavesAt: NOW.getTime() + 30_000,
    })
    expect(recovery.situation).toBe('launched-ahead')
    expect(recovery.open).toBe(true)
    expect(recovery.unattachedSwapId).toBe('s1')
    expect(recovery.launchedAhead?.id).toBe('s1')
  })

  it('keeps a swap recorded ahead within a notice of its start while the interruption is unconfirmed', () => {
    const recovery = recover({
      record: record('attaching', 1),
      desired: 2,
      replacement: P2,
      launched: [S1],
      warned: true,
    })
    expect(recovery.situation).toBe('launched-ahead')
  })

  it.each<[string, readonly Instance[]]>([
    ['one is launched (a run cut short before the other)', [S1]],
    [
      'one stands, the other’s member not interrupted',
      [S1, spotFor(P2, { tags: { [TAG_REPLACING_INSTANCE]: P2.id, [TAG_SWAP_ID]: 's1' } })],
    ],
  ])('keeps a swap recorded ahead of two doomed members’ replacements while %s', (_, launched) => {
    const recovery = recover({
      record: record('attaching', 2),
      desired: 2,
      replacement: P2,
      launched,
      leavesAt: NOW.getTime() + 30_000,
    })
    expect(recovery.situation).toBe('launched-ahead')
    expect(recovery.launchedAhead?.pairs).toBe(2)
    expect(kinds(recovery.actions)).toEqual([])
  })

  const SOON = NOW.getTime() + 30_000
  it.each<[string, World]>([
    [
      'its partner is not doomed a notice after it started',
      { launched: [S1], now: new Date(NOW.getTime() + 61_000) },
    ],
    [
      'no launch carries its id',
      { launched: [{ ...S1, tags: { [TAG_REPLACING_INSTANCE]: P1.id } }], leavesAt: SOON },
    ],
    ['its launch is terminated', { launched: [{ ...S1, state: 'terminated' }], leavesAt: SOON }],
    [
      'more launches carry its id than it holds pairs',
      { launched: [S1, { ...S1, id: 'i-0000000000000a0a1' }], leavesAt: SOON },
    ],
    [
      'it raised MaxSize',
      { launched: [S1], leavesAt: SOON, record: record('attaching', 1, ' max=2 raised=3') },
    ],
    ['its partner was never warned, within a notice of its start', { launched: [S1] }],
  ])('closes a swap recorded ahead without giving anything back once %s', (_, world) => {
    const recovery = recover({ record: record('attaching', 1), desired: 2, replacement: P2, ...world })
    expect(recovery.situation).not.toBe('launched-ahead')
    expect(recovery.launchedAhead).toBeUndefined()
    expect(kinds(recovery.actions).filter((k) => k !== 'close-swap')).toEqual([])
  })

  it('holds a pair the owner protected while the other pairs finish (chaos seed 455)', () => {
    // Before, a protected replacement made every later pair wait too: their units stayed past the
    // deadline, the group above its owner's size until the owner resized it (invariant 4).
    const S2 = spotFor(P2, { tags: { [TAG_REPLACING_INSTANCE]: P2.id, [TAG_SWAP_ID]: 's1' } })
    const tg = trafficSourceKey('target-group', TG)
    const recovery = recover({
      record: record('waiting', 2),
      desired: 4,
      extraMembers: [S2],
      protectedIds: [S1.id],
      now: new Date(STARTED.getTime() + 3_600_000),
      health: {
        kind: 'read',
        health: {
          settings: new Map([[tg, { intervalSeconds: 30, healthyThreshold: 3 }]]),
          states: new Map([
            [S1.id, new Map([[tg, { state: 'unhealthy' }]])],
            [S2.id, new Map([[tg, { state: 'healthy' }]])],
          ]),
        },
      },
    })
    expect(kinds(recovery.actions)).toEqual(['complete-swap:partner'])
    expect(recovery.actions[0]).toMatchObject({ pair: { spotInstanceId: S2.id, onDemandInstanceId: P2.id } })
    expect(recovery.waiting).toContain('held (replacement-protected)')
    expect(recovery.awaitingHealth).toEqual([])
  })

  it('announces each step in the record before it, one pair fewer each, phase retiring', () => {
    const recovery = recover({ record: record('waiting', 1), health: healthy('healthy') })
    expect(recovery.actions[0]).toMatchObject({
      kind: 'complete-swap',
      record: `v2 id=s1 phase=retiring owner=2 pairs=0 step=${P1.id} started=${STARTED.toISOString()}`,
    })
  })

  it('releases a pair attached by another swap than the open one', () => {
    const other = spotFor(P2, { tags: { [TAG_REPLACING_INSTANCE]: P2.id, [TAG_SWAP_ID]: 's0' } })
    const recovery = recover({
      record: record('waiting', 1),
      extraMembers: [other],
      desired: 4,
      health: healthy('initial'),
    })
    expect(recovery.actions).toContainEqual(
      expect.objectContaining({
        kind: 'release-pair',
        pair: { spotInstanceId: other.id, onDemandInstanceId: P2.id },
      }),
    )
  })

  it('never retires a doomed partner early while its deadline is ahead and the replacement does not serve', () => {
    const recovery = recover({
      record: record('waiting', 1),
      leavesAt: NOW.getTime() + 60_000,
      health: healthy('initial'),
    })
    expect(recovery.actions).toEqual([])
    // Looked at again no later than its deadline.
    expect(recovery.lookAgainSeconds).toBeLessThanOrEqual(60)
  })
})

describe('an owner change in the swap’s own second', () => {
  const at = (ms: number) => new Date(STARTED.getTime() + ms)
  it('is the state the swap began from when it leads to the desired capacity recorded as the owner’s', () => {
    const recovery = recover({
      record: record('waiting', 1),
      health: healthy('healthy'),
      ownerChanges: { kind: 'read', changes: [{ at: at(0), from: 1, to: 2, cause: '' }] },
    })
    expect(recovery.situation).toBe('finishing')
  })

  it('is a change since the swap started when it leads elsewhere, or comes a second later', () => {
    for (const change of [
      { at: at(0), from: 2, to: 1, cause: '' },
      { at: at(1000), from: 1, to: 2, cause: '' },
    ]) {
      const recovery = recover({
        record: record('waiting', 1),
        health: healthy('healthy'),
        ownerChanges: { kind: 'read', changes: [change] },
      })
      expect(recovery.situation).toBe('owner-changed')
    }
  })
})

describe('a replacement the owner protected', () => {
  it('is not written to when its swap is released: the record goes, and with it the pair', () => {
    const recovery = recover({ record: record('waiting', 1), desired: 5, protectedIds: [S1.id] })
    expect(recovery.situation).toBe('owner-resized')
    expect(kinds(recovery.actions)).toEqual(['close-swap'])
  })

  it('is no pair once no record names its swap', () => {
    const recovery = recover({ record: undefined, protectedIds: [S1.id] })
    expect(recovery.situation).toBe('no-swap')
    expect(recovery.actions).toEqual([])
  })

  it('keeps its partner from a second replacement when the record cannot be read', () => {
    const recovery = recover({ record: 'v2 phase=waiting owner=2', protectedIds: [S1.id] })
    expect(recovery.situation).toBe('record-unreadable')
    expect(kinds(recovery.actions)).toEqual(['close-swap'])
    expect([...recovery.halfDonePartners]).toEqual([P1.id])
  })
})

describe('a swap whose unit the owner took back', () => {
  const released = (desired: number) => {
    const recovery = recover({ record: record('waiting', 1), desired })
    expect(recovery.situation).toBe('owner-resized')
    const release = recovery.actions.find((a) => a.kind === 'release-pair')
    if (release?.kind !== 'release-pair') throw new Error('no release-pair')
    return release
  }

  it('backs its partner off when desired fell to the owner’s figure or below (a scale-in undid the attach)', () => {
    for (const desired of [2, 1]) {
      const release = released(desired)
      expect(Date.parse(release.backOffPartnerUntil ?? '')).toBeGreaterThan(NOW.getTime())
      expect(release.reason).toContain("the partner's next replacement waits until")
    }
  })

  it('does not when the owner scaled out: its figure stands and the next swap may follow', () => {
    expect(released(5).backOffPartnerUntil).toBeUndefined()
  })
})
