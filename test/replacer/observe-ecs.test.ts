/**
 * What the replacer reads of ECS: nothing without a tagged group; the providers, then for each provider
 * that protects a tagged group its cluster and that cluster's container instances, once per cluster, and
 * the cluster's tasks in one read whatever its size; a read that fails stays an observation of the groups
 * it concerns.
 */
import { describe, expect, it } from 'vitest'
import { TAG_ECS_MANAGED } from '../../lambdas/core/ecs/capacity-provider.ts'
import type { EcsTasksObservation } from '../../lambdas/core/ecs/tasks.ts'
import { readEcsProviders } from '../../lambdas/replacer/observe-ecs.ts'
import { aGroup, anInstance, memberOf } from '../builders/world.ts'
import { awsError, FakeCloud } from '../fakes/fake-cloud.ts'

const CLUSTER = 'arn:aws:ecs:us-east-1:123456789012:cluster/tasks'
const tagged = (name: string) => aGroup([], { name, tags: { 'spot-enabled': 'true', [TAG_ECS_MANAGED]: '' } })

const cloudWith = (): FakeCloud => {
  const cloud = new FakeCloud()
  for (const [name, protection] of [
    ['tasks', true],
    ['jobs', true],
    ['loose', false],
  ] as const)
    cloud.capacityProviders.push({
      name: `cp-${name}`,
      status: 'ACTIVE',
      groupArnOrName: name,
      managedTerminationProtection: protection,
      managedDraining: false,
      managedScaling: true,
    })
  // Two providers in one cluster, as ECS allows: its container instances are read once.
  cloud.clusters.push({ arn: CLUSTER, name: 'tasks', capacityProviders: ['cp-tasks', 'cp-jobs', 'FARGATE'] })
  cloud.registerContainerInstance(CLUSTER, 'i-0000000000000aaa1', 2)
  return cloud
}

const methods = (cloud: FakeCloud) => cloud.calls.map((c) => c.method)

describe('readEcsProviders', () => {
  it('reads nothing in a region without a tagged group', async () => {
    const cloud = cloudWith()
    expect(await readEcsProviders(cloud, [aGroup([], { name: 'web' })])).toBeUndefined()
    expect(cloud.calls).toEqual([])
  })

  it("reads each protecting provider's cluster once, and its container instances by EC2 instance", async () => {
    const cloud = cloudWith()
    const observation = await readEcsProviders(cloud, [tagged('tasks'), tagged('jobs'), tagged('loose')])
    expect(methods(cloud)).toEqual(['ecsCapacityProviders', 'ecsClusters', 'ecsContainerInstances'])
    if (observation?.kind !== 'read') throw new Error('expected a read')
    const tasks = observation.clusters?.get('cp-tasks')
    expect(tasks).toMatchObject({ kind: 'read', clusterArn: CLUSTER })
    expect(tasks?.kind === 'read' && tasks.containerInstances.get('i-0000000000000aaa1')).toMatchObject({
      status: 'ACTIVE',
      runningTasksCount: 2,
    })
    expect(observation.clusters?.get('cp-jobs')).toBe(tasks)
    // Managed termination protection off: its members' protection is the owner's, nothing more is read.
    expect(observation.clusters?.has('cp-loose')).toBe(false)
  })

  it('says a protecting provider has no cluster when none names it', async () => {
    const cloud = cloudWith()
    cloud.clusters.length = 0
    const observation = await readEcsProviders(cloud, [tagged('tasks')])
    expect(observation?.kind === 'read' && observation.clusters?.get('cp-tasks')).toEqual({
      kind: 'no-cluster',
    })
    expect(methods(cloud)).not.toContain('ecsContainerInstances')
  })

  it.each([
    ['ecsClusters', 'AccessDeniedException: not authorized'],
    ['ecsContainerInstances', 'AccessDeniedException: not authorized'],
  ] as const)(
    'keeps a failed %s as the unreadable cluster of the groups it concerns',
    async (method, error) => {
      const cloud = cloudWith()
      cloud.failNext(method, awsError('AccessDeniedException', 400, 'not authorized'))
      const observation = await readEcsProviders(cloud, [tagged('tasks')])
      expect(observation?.kind).toBe('read')
      expect(observation?.kind === 'read' && observation.clusters?.get('cp-tasks')).toEqual({
        kind: 'unreadable',
        error,
      })
    },
  )

  describe("a cluster's tasks", () => {
    const SIZE = 12
    /** `tasks` with SIZE protected members, each running `perInstance` service tasks. */
    const busyCluster = (perInstance: number) => {
      const cloud = cloudWith()
      const members = Array.from({ length: SIZE }, () =>
        memberOf(anInstance(), { protectedFromScaleIn: true }),
      )
      for (const m of members) cloud.registerContainerInstance(CLUSTER, m.instanceId, perInstance)
      const group = aGroup(members, {
        name: 'tasks',
        tags: { 'spot-enabled': 'true', [TAG_ECS_MANAGED]: '' },
      })
      return { cloud, members, group }
    }
    const tasksOf = (observation: Awaited<ReturnType<typeof readEcsProviders>>) => {
      const cluster = observation?.kind === 'read' ? observation.clusters?.get('cp-tasks') : undefined
      if (cluster?.kind !== 'read') throw new Error('expected the cluster read')
      return cluster.tasks ?? new Map<string, EcsTasksObservation>()
    }

    it('reads them once for the cluster, not once per container instance', async () => {
      const { cloud, members, group } = busyCluster(3)
      cloud.runStandaloneTask(members[4]?.instanceId ?? '', 'nightly')
      const tasks = tasksOf(await readEcsProviders(cloud, [group]))
      expect(methods(cloud)).toEqual([
        'ecsCapacityProviders',
        'ecsClusters',
        'ecsContainerInstances',
        'ecsClusterTasks',
      ])
      expect(tasks.size).toBe(SIZE)
      const standalone = members.filter((m) => {
        const seen = tasks.get(m.instanceId)
        return seen?.kind === 'read' && seen.tasks.some((t) => t.group === 'family:nightly')
      })
      expect(standalone).toEqual([members[4]])
      // The container instance outside the group (cloudWith's i-…aaa1) is not asked for.
      expect(tasks.has('i-0000000000000aaa1')).toBe(false)
    })

    it('leaves every member of the cluster unreadable when the read fails', async () => {
      const { cloud, members, group } = busyCluster(2)
      cloud.failNext('ecsClusterTasks', awsError('ThrottlingException', 400, 'Rate exceeded'))
      const tasks = tasksOf(await readEcsProviders(cloud, [group]))
      expect(members.map((m) => tasks.get(m.instanceId))).toEqual(
        members.map(() => ({ kind: 'unreadable', error: 'ThrottlingException: Rate exceeded' })),
      )
    })

    it('reads no task when no member runs one', async () => {
      const { cloud, group } = busyCluster(0)
      tasksOf(await readEcsProviders(cloud, [group]))
      expect(methods(cloud)).not.toContain('ecsClusterTasks')
    })
  })
})
