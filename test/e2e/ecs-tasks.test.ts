/**
 * The replacer's read of an ECS cluster's tasks against moto's ECS: one ListTasks for the whole cluster and
 * one DescribeTasks per hundred tasks, however many container instances run them, each task with the
 * container instance that hosts it, sorted back to its member by the pure core; and the drain's write,
 * UpdateContainerInstancesState, setting members DRAINING and back ACTIVE as the next read sees them.
 */
import { RunInstancesCommand } from '@aws-sdk/client-ec2'
import {
  CreateClusterCommand,
  ECSClient,
  RegisterContainerInstanceCommand,
  RegisterTaskDefinitionCommand,
  StartTaskCommand,
} from '@aws-sdk/client-ecs'
import { describe, expect, it } from 'vitest'
import type { ApiCallName } from '../../lambdas/aws/context.ts'
import { drainCandidates, tasksByInstance } from '../../lambdas/core/ecs/cluster-tasks.ts'
import { standaloneBlock } from '../../lambdas/core/ecs/tasks.ts'
import { ec2, motoRegion, required } from './support/clients.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import { loadCloud } from './support/replacer-runs.ts'
import { createNetwork, SEED_IMAGE_ID, SEED_INSTANCE_TYPE } from './support/world.ts'

const MEMBERS = 6

/** A cluster of MEMBERS container instances on EC2 instances of this account; their instance ids. */
const seedCluster = async (
  ecs: ECSClient,
  region: string,
): Promise<{ cluster: string; ids: string[]; containerInstances: string[] }> => {
  const network = await createNetwork()
  const launched = await ec2().send(
    new RunInstancesCommand({
      ImageId: SEED_IMAGE_ID,
      InstanceType: SEED_INSTANCE_TYPE,
      MinCount: MEMBERS,
      MaxCount: MEMBERS,
      SubnetId: network.subnets[0]?.id,
    }),
  )
  const ids = (launched.Instances ?? []).map((i) => required(i.InstanceId, 'instance id'))
  const created = await ecs.send(new CreateClusterCommand({ clusterName: 'web' }))
  const cluster = required(created.cluster?.clusterArn, 'cluster ARN')
  const containerInstances: string[] = []
  for (const instanceId of ids) {
    const registered = await ecs.send(
      new RegisterContainerInstanceCommand({
        cluster,
        instanceIdentityDocument: JSON.stringify({ instanceId, region }),
      }),
    )
    containerInstances.push(
      required(registered.containerInstance?.containerInstanceArn, 'container instance'),
    )
  }
  await ecs.send(
    new RegisterTaskDefinitionCommand({
      family: 'nightly-report',
      containerDefinitions: [{ name: 'report', image: 'report:1', cpu: 128, memory: 128 }],
    }),
  )
  return { cluster, ids, containerInstances }
}

describeMoto('ECS reads and drain writes against moto', (moto) => {
  freshAccountPerTest(moto)

  describe('ecsClusterTasks', () => {
    it('reads the whole cluster in one ListTasks and one DescribeTasks, each task with its container instance', {
      timeout: 60_000,
    }, async () => {
      const region = motoRegion()
      const ecs = new ECSClient({ region, maxAttempts: 1 })
      const { cluster, ids, containerInstances } = await seedCluster(ecs, region)
      // StartTask starts one task on each container instance named: 3, 2 and 1 tasks on the first three.
      for (const count of [3, 2, 1])
        await ecs.send(
          new StartTaskCommand({
            cluster,
            taskDefinition: 'nightly-report',
            containerInstances: containerInstances.slice(0, count),
          }),
        )

      const calls: ApiCallName[] = []
      const cloud = await loadCloud(region, (name) => calls.push(name))
      const listed = await cloud.ecsContainerInstances(cluster)
      expect(listed.map((ci) => ci.ec2InstanceId).sort()).toEqual([...ids].sort())
      calls.length = 0
      const tasks = await cloud.ecsClusterTasks(cluster)
      expect(calls).toEqual(['ecs:ListTasks', 'ecs:DescribeTasks'])

      expect(tasks).toHaveLength(6)
      const hosts = new Set(listed.map((ci) => ci.arn))
      expect(tasks.every((t) => hosts.has(t.containerInstanceArn ?? ''))).toBe(true)
      // Sorted back to the members: each its own tasks, standalone ones (StartTask's group).
      const byInstance = tasksByInstance({ kind: 'read', tasks }, drainCandidates(listed, new Set(ids)))
      const counts = ids.map((id) => {
        const seen = byInstance.get(id)
        return seen?.kind === 'read' ? seen.tasks.length : undefined
      })
      expect(counts).toEqual([3, 2, 1, undefined, undefined, undefined])
      expect(standaloneBlock(byInstance.get(ids[0] ?? ''))).toMatchObject({ code: 'ecs-standalone-task' })
    })
  })

  describe('setContainerInstancesState', () => {
    it('sets members DRAINING in one call, the next read sees it, and ACTIVE again gives them back', {
      timeout: 60_000,
    }, async () => {
      const region = motoRegion()
      const ecs = new ECSClient({ region, maxAttempts: 1 })
      const { cluster, ids, containerInstances } = await seedCluster(ecs, region)
      const calls: ApiCallName[] = []
      const cloud = await loadCloud(region, (name) => calls.push(name))
      const drained = containerInstances.slice(0, 2)

      const refused = await cloud.setContainerInstancesState(cluster, drained, 'DRAINING')
      expect(refused).toEqual([])
      expect(calls).toEqual(['ecs:UpdateContainerInstancesState'])
      const statusOf = async () =>
        new Map((await cloud.ecsContainerInstances(cluster)).map((ci) => [ci.ec2InstanceId, ci.status]))
      const draining = await statusOf()
      expect(ids.map((id) => draining.get(id))).toEqual([
        'DRAINING',
        'DRAINING',
        'ACTIVE',
        'ACTIVE',
        'ACTIVE',
        'ACTIVE',
      ])

      expect(await cloud.setContainerInstancesState(cluster, drained, 'ACTIVE')).toEqual([])
      const back = await statusOf()
      expect(ids.every((id) => back.get(id) === 'ACTIVE')).toBe(true)
    })
  })
})
