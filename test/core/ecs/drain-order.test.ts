import { describe, expect, it } from 'vitest'
import type { EcsManagement } from '../../../lambdas/core/ecs/capacity-provider.ts'
import { runningTasksOf } from '../../../lambdas/core/ecs/drain-order.ts'
import { webProvider } from '../../builders/ecs.ts'

const CLUSTER = 'arn:aws:ecs:us-east-1:123456789012:cluster/web'

const managed = (running: Record<string, number>): EcsManagement => ({
  kind: 'managed',
  provider: webProvider(),
  cluster: {
    kind: 'read',
    clusterArn: CLUSTER,
    containerInstances: new Map(
      Object.entries(running).map(([id, count]) => [
        id,
        { arn: `${CLUSTER}/${id}`, ec2InstanceId: id, status: 'ACTIVE', runningTasksCount: count },
      ]),
    ),
  },
})

describe('runningTasksOf', () => {
  it('counts the tasks of each member’s container instance, none for a member not registered', () => {
    const tasks = runningTasksOf(managed({ 'i-a': 4, 'i-b': 1 }))
    expect([tasks?.('i-a'), tasks?.('i-b'), tasks?.('i-c')]).toEqual([4, 1, 0])
  })

  it.each<[string, EcsManagement | undefined]>([
    ['a group without ECS', undefined],
    ['a group no provider protects', { kind: 'not-managed', detail: 'no provider' }],
    [
      'an unreadable cluster',
      { kind: 'managed', provider: webProvider(), cluster: { kind: 'unreadable', error: 'denied' } },
    ],
  ])('leaves the order alone for %s', (_, ecs) => {
    expect(runningTasksOf(ecs)).toBeUndefined()
  })
})
