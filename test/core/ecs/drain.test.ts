/**
 * The drain swap's pure parts: which member a drain swap may take, and which drained members are set
 * ACTIVE again once no swap holds them.
 */
import { describe, expect, it } from 'vitest'
import { TAG_ECS_DRAINED } from '../../../lambdas/core/constants.ts'
import type { EcsManagement } from '../../../lambdas/core/ecs/capacity-provider.ts'
import { type DrainInput, isDrainable, undrainLeftovers } from '../../../lambdas/core/ecs/drain.ts'
import type { EcsTasksObservation } from '../../../lambdas/core/ecs/tasks.ts'
import type { GroupMember, Instance } from '../../../lambdas/core/types.ts'
import { webProvider } from '../../builders/ecs.ts'
import { memberOf, NOW, onDemandFleet } from '../../builders/world.ts'

const CLUSTER = 'arn:aws:ecs:us-east-1:123456789012:cluster/web'
const [A, B] = onDemandFleet(2) as [Instance, Instance]

const SERVICE_TASK: EcsTasksObservation = { kind: 'read', tasks: [{ arn: 't1', group: 'service:web' }] }

const managed = (
  status: Record<string, string>,
  managedDraining = false,
  tasks: Record<string, EcsTasksObservation> = {},
): EcsManagement => ({
  kind: 'managed',
  provider: webProvider({ managedDraining }),
  cluster: {
    kind: 'read',
    clusterArn: CLUSTER,
    containerInstances: new Map(
      Object.entries(status).map(([id, s]) => [
        id,
        { arn: `${CLUSTER}/${id}`, ec2InstanceId: id, status: s, runningTasksCount: 1 },
      ]),
    ),
    tasks: new Map(Object.keys(status).map((id) => [id, tasks[id] ?? SERVICE_TASK])),
  },
})

const protectedMember = (i: Instance): GroupMember => ({ ...memberOf(i), protectedFromScaleIn: true })

describe('isDrainable', () => {
  it.each([
    ['its container instance ACTIVE, managed draining off', managed({ [A.id]: 'ACTIVE' }), true],
    // ECS drains it itself once Auto Scaling terminates it: the swap retires it without a drain of its own.
    ['managed draining on', managed({ [A.id]: 'ACTIVE' }, true), true],
    ['already DRAINING', managed({ [A.id]: 'DRAINING' }), false],
    ['no container instance', managed({}), false],
    [
      'a standalone task running',
      managed({ [A.id]: 'ACTIVE' }, false, {
        [A.id]: { kind: 'read', tasks: [SERVICE_TASK.tasks[0], { arn: 't2', group: 'family:nightly' }] },
      } as Record<string, EcsTasksObservation>),
      false,
    ],
    [
      'its tasks unreadable',
      managed({ [A.id]: 'ACTIVE' }, false, { [A.id]: { kind: 'unreadable', error: 'AccessDenied' } }),
      false,
    ],
    [
      'its cluster unreadable',
      { ...managed({}), cluster: { kind: 'unreadable', error: 'x' } } as EcsManagement,
      false,
    ],
  ])('a protected member with %s: %s', (_, ecs, expected) => {
    expect(isDrainable(ecs, protectedMember(A))).toBe(expected)
  })

  it('never an unprotected member: nothing to drain it for', () => {
    expect(isDrainable(managed({ [A.id]: 'ACTIVE' }), memberOf(A))).toBe(false)
  })
})

describe('undrainLeftovers', () => {
  const input = (ecs: EcsManagement, marked: readonly string[]): DrainInput => ({
    group: 'web',
    ecs,
    now: NOW,
    swapId: undefined,
    detail: (id) => {
      const instance = id === A.id ? A : id === B.id ? B : undefined
      return instance && marked.includes(id)
        ? { ...instance, tags: { ...instance.tags, [TAG_ECS_DRAINED]: 's1' } }
        : instance
    },
    scaleInProtected: () => true,
    terminationProtected: () => false,
  })

  it('sets ACTIVE again a member spotswap drained that no open pair holds', () => {
    const ecs = managed({ [A.id]: 'DRAINING', [B.id]: 'DRAINING' })
    const actions = undrainLeftovers(input(ecs, [A.id, B.id]), [memberOf(A), memberOf(B)], new Set([B.id]))
    expect(actions).toEqual([
      expect.objectContaining({
        kind: 'ecs-undrain',
        instanceId: A.id,
        containerInstanceArn: `${CLUSTER}/${A.id}`,
      }),
    ])
  })

  it('leaves alone a member someone else drained (no marker) and one already ACTIVE', () => {
    const ecs = managed({ [A.id]: 'DRAINING', [B.id]: 'ACTIVE' })
    expect(undrainLeftovers(input(ecs, [B.id]), [memberOf(A), memberOf(B)], new Set())).toEqual([])
  })
})
