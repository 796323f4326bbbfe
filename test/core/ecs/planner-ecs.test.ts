/**
 * A group behind an ECS capacity provider, as the planner sees it: a protected member is ECS's statement
 * that tasks run there and is said so; a tagged group whose providers cannot be read starts nothing.
 */
import { describe, expect, it } from 'vitest'
import { TAG_ORIGINAL_MAX_SIZE, TAG_SWAP, TAG_SWAP_ID } from '../../../lambdas/core/constants.ts'
import type { EcsManagement } from '../../../lambdas/core/ecs/capacity-provider.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { launches } from '../../builders/actions.ts'
import { config, memberOf, minutesAgo, NOW, onDemandFleet, planInput, spotFor } from '../../builders/world.ts'

const MANAGED: EcsManagement = {
  kind: 'managed',
  provider: {
    name: 'cp-web',
    status: 'ACTIVE',
    groupArnOrName: 'web',
    managedTerminationProtection: true,
    managedDraining: true,
    managedScaling: true,
  },
  cluster: { kind: 'no-cluster' },
}
const UNREADABLE: EcsManagement = { kind: 'unreadable', error: 'ThrottlingException: Rate exceeded' }
const CLUSTER = 'arn:aws:ecs:us-east-1:123456789012:cluster/web'

/** A group ECS manages, managed draining off: each member ACTIVE in its cluster, running so many service tasks. */
const draining = (running: ReadonlyMap<string, number>): EcsManagement => ({
  ...MANAGED,
  provider: { ...MANAGED.provider, managedDraining: false },
  cluster: {
    kind: 'read',
    clusterArn: CLUSTER,
    containerInstances: new Map(
      [...running].map(([id, count]) => [
        id,
        { arn: `${CLUSTER}/${id}`, ec2InstanceId: id, status: 'ACTIVE', runningTasksCount: count },
      ]),
    ),
    tasks: new Map(
      [...running.keys()].map((id) => [
        id,
        { kind: 'read', tasks: [{ arn: `t-${id}`, group: 'service:web' }] },
      ]),
    ),
  },
})
const openSwap = { maxSize: 3, tags: { [TAG_ORIGINAL_MAX_SIZE]: '2', 'spotswap:swap-desired': '3/1' } }

describe('a member ECS protects while it runs tasks', () => {
  it("is kept and said to be ECS's, naming the capacity provider", () => {
    const plan = planGroup(
      planInput(onDemandFleet(1), { ecs: MANAGED, memberOverrides: { protectedFromScaleIn: true } }),
    )
    expect(launches(plan.actions)).toEqual([])
    expect(plan.instanceSkips[0]?.code).toBe('ecs-tasks-running')
    expect(plan.instanceSkips[0]?.reason).toContain('capacity provider cp-web')
    expect(plan.onDemand[0]?.code).toBe('ecs-tasks-running')
  })

  it("is the owner's protection in a group no provider protects", () => {
    const plan = planGroup(
      planInput(onDemandFleet(1), {
        ecs: { kind: 'not-managed', detail: 'no active capacity provider names the group' },
        memberOverrides: { protectedFromScaleIn: true },
      }),
    )
    expect(plan.instanceSkips[0]?.code).toBe('protected-from-scale-in')
  })

  it('is replaced as today once ECS lifted its protection (no tasks left on it)', () => {
    const plan = planGroup(planInput(onDemandFleet(1), { ecs: MANAGED }))
    expect(launches(plan.actions)).toHaveLength(1)
  })
})

describe('a drain swap in a group ECS manages', () => {
  it('takes the member running the fewest tasks first, the oldest among equals', () => {
    const fleet = onDemandFleet(3) as [Instance, Instance, Instance]
    const running = [4, 1, 1]
    const ecs = draining(new Map(fleet.map((i, n) => [i.id, running[n] ?? 0])))
    const plan = planGroup(
      planInput(fleet, {
        ecs,
        memberOverrides: { protectedFromScaleIn: true },
        config: config({ maxReplacementsInFlight: { kind: 'count', value: 1 } }),
      }),
    )
    expect(launches(plan.actions).map((a) => a.replacing)).toEqual([fleet[1].id])
  })
})

describe('a tagged group whose capacity providers could not be read', () => {
  it('starts nothing, naming the error', () => {
    const plan = planGroup(planInput(onDemandFleet(2), { ecs: UNREADABLE }))
    expect(plan.skip?.code).toBe('ecs-capacity-providers-unreadable')
    expect(plan.skipped).toContain('ThrottlingException: Rate exceeded')
    expect(launches(plan.actions)).toEqual([])
  })

  it('still closes its open swap', () => {
    const plan = planGroup(planInput(onDemandFleet(2), { ecs: UNREADABLE, groupOverrides: openSwap }))
    expect(plan.actions).toContainEqual(expect.objectContaining({ kind: 'close-swap', maxSize: 2 }))
  })
})

describe('a closed swap whose replacement is protected from scale-in', () => {
  const [P1, P2] = onDemandFleet(2) as [Instance, Instance]
  const S1 = spotFor(P1, { tags: { ...spotFor(P1).tags, [TAG_SWAP_ID]: 's1' } })
  const started = new Date(NOW.getTime() - 60_000).toISOString()
  const inCluster = (ids: readonly string[]) => draining(new Map(ids.map((id) => [id, 2])))
  // Desired capacity changed under the swap (managed scaling's figure): the swap closes, nothing retired.
  const closed = (ecs: EcsManagement, terminationProtected: ReadonlySet<string> = new Set()) =>
    planGroup(
      planInput([P1, P2, S1], {
        ecs,
        terminationProtected,
        memberOverrides: { protectedFromScaleIn: true },
        groupOverrides: {
          desiredCapacity: 5,
          maxSize: 6,
          tags: { [TAG_SWAP]: `v2 id=s1 phase=waiting owner=2 pairs=1 max=2 started=${started}` },
        },
      }),
    )
  const released = (plan: ReturnType<typeof planGroup>) =>
    plan.actions.filter((a) => a.kind === 'release-pair').map((a) => a.pair.spotInstanceId)

  it('is released when the protection is ECS’s: its pair tags go, so its partner is replaced again', () => {
    const plan = closed(inCluster([P1.id, P2.id, S1.id]))
    expect(plan.actions).toContainEqual(expect.objectContaining({ kind: 'close-swap' }))
    expect(released(plan)).toEqual([S1.id])
  })

  it.each([
    ['it is also protected against API termination', inCluster([P1.id, P2.id, S1.id]), new Set([S1.id])],
    ['it is not registered in the cluster', inCluster([P1.id, P2.id]), new Set<string>()],
    [
      'no capacity provider protects the group',
      { kind: 'not-managed', detail: 'none' } as const,
      new Set<string>(),
    ],
  ])('is not written to when %s (the owner’s protection)', (_, ecs, terminationProtected) => {
    const plan = closed(ecs, terminationProtected)
    expect(plan.actions).toContainEqual(expect.objectContaining({ kind: 'close-swap' }))
    expect(released(plan)).toEqual([])
  })
})

describe('a launched replacement whose partner ECS may protect, a read failing this run', () => {
  const [P] = onDemandFleet(1) as [Instance]
  const tasksUnreadable = (): EcsManagement => {
    const ecs = draining(new Map([[P.id, 2]]))
    if (ecs.kind !== 'managed' || ecs.cluster.kind !== 'read') throw new Error('unreachable')
    return {
      ...ecs,
      cluster: { ...ecs.cluster, tasks: new Map([[P.id, { kind: 'unreadable', error: 'Unavailable' }]]) },
    }
  }
  const clusterUnreadable: EcsManagement = {
    ...MANAGED,
    provider: { ...MANAGED.provider, managedDraining: false },
    cluster: { kind: 'unreadable', error: 'Unavailable' },
  }
  const S = spotFor(P, { launchTime: minutesAgo(6) })
  const planned = (ecs: EcsManagement, launchedMinutesAgo = 6, terminationProtected = new Set<string>()) =>
    planGroup(
      planInput([P], {
        ecs,
        terminationProtected,
        launched: [{ ...S, launchTime: minutesAgo(launchedMinutesAgo) }],
        memberOverrides: { protectedFromScaleIn: true },
      }),
    )
  const terminated = (plan: ReturnType<typeof planGroup>) =>
    plan.actions.filter((a) => a.kind === 'terminate-spot').map((a) => a.reason)

  it.each([
    ['its tasks could not be read', tasksUnreadable(), 'its tasks could not be read (Unavailable)'],
    ['its cluster could not be read', clusterUnreadable, 'its cluster could not be read (Unavailable)'],
    ['the capacity providers could not be read', UNREADABLE, 'the capacity providers could not be read'],
  ])('keeps it, attaching nothing, when %s: the next run reads again', (_, ecs, why) => {
    const plan = planned(ecs)
    expect(terminated(plan)).toEqual([])
    expect(plan.actions.filter((a) => a.kind === 'swap')).toEqual([])
    expect(plan.instanceSkips).toContainEqual(
      expect.objectContaining({ instanceId: S.id, code: 'swap-waits', reason: expect.stringContaining(why) }),
    )
  })

  it('terminates it past its orphan deadline, as any replacement not attached in time', () => {
    expect(terminated(planned(clusterUnreadable, 60))).toHaveLength(1)
  })

  it('terminates it when the partner is also protected against API termination (the owner’s)', () => {
    expect(terminated(planned(tasksUnreadable(), 6, new Set([P.id])))).toEqual([
      expect.stringMatching(/^partner-protected/),
    ])
  })
})

describe('an open swap whose partner ECS may protect, its cluster unreadable this run', () => {
  const [P1, P2] = onDemandFleet(2) as [Instance, Instance]
  const S1 = spotFor(P1, { tags: { ...spotFor(P1).tags, [TAG_SWAP_ID]: 's1' } })
  const clusterUnreadable: EcsManagement = {
    ...MANAGED,
    provider: { ...MANAGED.provider, managedDraining: false },
    cluster: { kind: 'unreadable', error: 'Unavailable' },
  }
  const planned = (startedMinutesAgo: number) =>
    planGroup(
      planInput([P1, P2, S1], {
        ecs: clusterUnreadable,
        groupOverrides: {
          desiredCapacity: 3,
          maxSize: 3,
          members: [
            memberOf(P1, { protectedFromScaleIn: true }),
            memberOf(P2, { protectedFromScaleIn: true }),
            memberOf(S1),
          ],
          tags: {
            [TAG_SWAP]: `v2 id=s1 phase=waiting owner=2 pairs=1 max=2 started=${minutesAgo(startedMinutesAgo).toISOString()}`,
          },
        },
      }),
    )
  const completions = (plan: ReturnType<typeof planGroup>) =>
    plan.actions.filter((a) => a.kind === 'complete-swap').map((a) => a.retire)

  it('keeps the pair waiting: its attached replacement is not retired for a failed read', () => {
    const plan = planned(2)
    expect(completions(plan)).toEqual([])
    expect(plan.actions.filter((a) => a.kind === 'close-swap')).toEqual([])
  })

  it('retires the replacement past the drain deadline, the partner kept as protected', () => {
    expect(completions(planned(24 * 60))).toEqual(['replacement'])
  })
})
