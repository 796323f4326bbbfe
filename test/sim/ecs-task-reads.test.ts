/**
 * What reading an ECS cluster's tasks costs, counted as the simulated SDK answers the real adapter: one
 * ListTasks page per hundred tasks of the cluster and one DescribeTasks per hundred, however many container
 * instances run them; and the simulated ECS answers ListTasks and DescribeTasks as ECS does.
 */
import { describe, expect, it } from 'vitest'
import type { EcsTasksObservation } from '../../lambdas/core/ecs/tasks.ts'
import { readEcsProviders } from '../../lambdas/replacer/observe-ecs.ts'
import { simClients } from '../../tools/sim/sdk/clients.ts'
import { group, REGION, rawScenario, testWorld } from './support.ts'

/** `web`: `members` busy members, 4 task slots each, a service of `serviceTasks`, one standalone task. */
const cluster = (members: number, serviceTasks: number) =>
  testWorld(
    rawScenario([
      group('web', {
        min: 0,
        max: members + 4,
        desired: members,
        protectedFromScaleIn: 1,
        ecs: {
          managedDraining: false,
          slotsPerInstance: 4,
          services: [{ name: 'api', desiredCount: serviceTasks }],
        },
      }),
    ]),
  )

const ecsCalls = (sim: ReturnType<typeof testWorld>) =>
  Object.fromEntries([...sim.world.counter.total].filter(([name]) => name.startsWith('ecs:')))

describe("a replacer run's read of an ECS cluster's tasks", () => {
  it.each([
    [8, 23, 1],
    [12, 40, 1],
    [30, 110, 2],
  ])(
    '%i container instances, %i service tasks and a standalone one: %i ListTasks page(s) and as many DescribeTasks',
    async (members, serviceTasks, hundreds) => {
      const sim = cluster(members, serviceTasks)
      const tasks = serviceTasks + 1
      expect(sim.region.ecsClusters.get('web')?.tasks.size).toBe(tasks)
      const cloud = sim.cloud()
      const groups = await cloud.describeGroups({ tagKey: undefined, tagValues: [] })
      expect(groups.flatMap((g) => g.members).filter((m) => m.protectedFromScaleIn)).toHaveLength(members)
      const observation = await readEcsProviders(cloud, groups)

      expect(ecsCalls(sim)).toEqual({
        'ecs:DescribeCapacityProviders': 1,
        'ecs:ListClusters': 1,
        'ecs:DescribeClusters': 1,
        'ecs:ListContainerInstances': 1,
        'ecs:DescribeContainerInstances': 1,
        'ecs:ListTasks': Math.ceil(tasks / 100),
        'ecs:DescribeTasks': Math.ceil(tasks / 100),
      })
      expect(Math.ceil(tasks / 100)).toBe(hundreds)
      const read = observation?.kind === 'read' ? observation.clusters?.get('web-capacity') : undefined
      if (read?.kind !== 'read') throw new Error('expected the cluster read')
      // Every member's tasks are known, the standalone one on the first member only.
      const seen = [...(read.tasks ?? new Map<string, EcsTasksObservation>()).values()].map((o) =>
        o.kind === 'read' ? o.tasks.filter((t) => !t.group.startsWith('service:')).length : -1,
      )
      expect(seen).toHaveLength(members)
      expect(seen.reduce((sum, n) => sum + n, 0)).toBe(1)
    },
  )

  it('describes a task with the container instance that hosts it, and refuses more than a hundred', async () => {
    const sim = cluster(30, 110)
    const { ecs } = simClients(sim.world, REGION, {
      id: 1,
      actor: 'replacer',
      region: REGION,
      crashed: false,
      failedCalls: 0,
    })
    const simCluster = sim.region.ecsClusters.get('web')
    if (ecs === undefined || simCluster === undefined) throw new Error('no ECS')
    const listed = await ecs.listTasks({ cluster: simCluster.arn })
    expect(listed.taskArns).toHaveLength(100)
    const rest = await ecs.listTasks({ cluster: simCluster.arn, nextToken: listed.nextToken })
    expect(rest).toMatchObject({ nextToken: undefined, taskArns: expect.any(Array) })
    expect(rest.taskArns).toHaveLength(11)
    const all = [...(listed.taskArns ?? []), ...(rest.taskArns ?? [])]
    const [first] = all
    const described = await ecs.describeTasks({ cluster: simCluster.arn, tasks: [first ?? ''] })
    const task = simCluster.tasks.get(first ?? '')
    expect(described.tasks).toEqual([
      expect.objectContaining({
        taskArn: first,
        group: task?.group,
        launchType: 'EC2',
        containerInstanceArn: simCluster.containerInstances.get(task?.instanceId ?? '')?.arn,
      }),
    ])
    await expect(
      ecs.describeTasks({ cluster: simCluster.arn, tasks: all.slice(0, 101) }),
    ).rejects.toMatchObject({
      name: 'InvalidParameterException',
    })
  })
})
