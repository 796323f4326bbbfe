/**
 * One read of a cluster's tasks, told apart by the container instance that hosts each: a member sees its
 * own tasks only (not another capacity provider's, not Fargate's), whichever ARN format names its container
 * instance, and a read that failed leaves every asked member unreadable.
 */
import { describe, expect, it } from 'vitest'
import type { EcsContainerInstance } from '../../../lambdas/core/ecs/cluster.ts'
import {
  containerInstanceId,
  drainCandidates,
  tasksByInstance,
} from '../../../lambdas/core/ecs/cluster-tasks.ts'
import { standaloneBlock } from '../../../lambdas/core/ecs/tasks.ts'

const PREFIX = 'arn:aws:ecs:us-east-1:123456789012'
const ci = (n: number, overrides: Partial<EcsContainerInstance> = {}): EcsContainerInstance => ({
  arn: `${PREFIX}:container-instance/web/ci${n}`,
  ec2InstanceId: `i-${n}`,
  status: 'ACTIVE',
  runningTasksCount: 1,
  ...overrides,
})
const task = (name: string, group: string, containerInstanceArn: string | undefined) => ({
  arn: `${PREFIX}:task/web/${name}`,
  group,
  containerInstanceArn,
})

describe('drainCandidates', () => {
  it('asks only for ACTIVE container instances that run tasks on a protected member', () => {
    const listed = [
      ci(1),
      ci(2, { status: 'DRAINING' }),
      ci(3, { runningTasksCount: 0 }),
      ci(4),
      ci(5, { ec2InstanceId: 'i-other' }),
    ]
    expect(
      drainCandidates(listed, new Set(['i-1', 'i-2', 'i-3', 'i-4'])).map((c) => c.ec2InstanceId),
    ).toEqual(['i-1', 'i-4'])
  })
})

describe('tasksByInstance', () => {
  it("gives each member its own tasks, never another container instance's or a Fargate task", () => {
    const read = {
      kind: 'read',
      tasks: [
        task('a', 'service:web', ci(1).arn),
        task('b', 'family:nightly', ci(9).arn),
        task('c', 'family:batch', undefined),
        task('d', 'service:web', ci(2).arn),
        task('e', 'service:api', ci(1).arn),
      ],
    } as const
    const byInstance = tasksByInstance(read, [ci(1), ci(2), ci(3)])
    expect(byInstance.get('i-1')).toEqual({ kind: 'read', tasks: [read.tasks[0], read.tasks[4]] })
    expect(byInstance.get('i-2')).toEqual({ kind: 'read', tasks: [read.tasks[3]] })
    // Its tasks stopped since ECS counted them: nothing of it stands in the way.
    expect(byInstance.get('i-3')).toEqual({ kind: 'read', tasks: [] })
    // The standalone tasks elsewhere (ci9, Fargate) keep no member.
    expect([1, 2, 3].map((n) => standaloneBlock(byInstance.get(`i-${n}`)))).toEqual([
      undefined,
      undefined,
      undefined,
    ])
  })

  it('matches a container instance named in the old ARN format', () => {
    const old = `${PREFIX}:container-instance/ci1`
    expect(containerInstanceId(old)).toBe('ci1')
    const byInstance = tasksByInstance({ kind: 'read', tasks: [task('a', 'family:nightly', old)] }, [ci(1)])
    expect(standaloneBlock(byInstance.get('i-1'))).toMatchObject({ code: 'ecs-standalone-task' })
  })

  it('leaves every asked member unreadable when the cluster read failed', () => {
    const byInstance = tasksByInstance({ kind: 'unreadable', error: 'ThrottlingException: slow down' }, [
      ci(1),
      ci(2),
    ])
    expect([...byInstance]).toEqual([
      ['i-1', { kind: 'unreadable', error: 'ThrottlingException: slow down' }],
      ['i-2', { kind: 'unreadable', error: 'ThrottlingException: slow down' }],
    ])
    expect(standaloneBlock(byInstance.get('i-2'))).toMatchObject({ code: 'ecs-tasks-unreadable' })
  })
})
