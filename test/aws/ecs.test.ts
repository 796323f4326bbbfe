/**
 * The ECS adapter's read of the capacity providers: every page asked for, providers without an Auto Scaling
 * group left out, an answer with failures refused whole, and one read per cache lifetime. Then the
 * clusters (cached the same way), a cluster's container instances (read every time), and the state write
 * (ten a call, ECS's refusals returned).
 */
import { describe, expect, it } from 'vitest'
import { type AwsContext, countedCall, createAdapterCaches } from '../../lambdas/aws/context.ts'
import {
  EcsClientMissingError,
  EcsDescribeFailureError,
  ecsCapacityProviders,
  ecsClusters,
  ecsClusterTasks,
  ecsContainerInstances,
  setContainerInstancesState,
} from '../../lambdas/aws/ecs.ts'
import type {
  DescribeCapacityProvidersInput,
  DescribeCapacityProvidersOutput,
  EcsApi,
} from '../../lambdas/aws/ecs-sdk.ts'
import type { AwsClients } from '../../lambdas/aws/sdk.ts'
import { ECS_CAPACITY_PROVIDERS_CACHE_TTL_MS } from '../../lambdas/core/constants.ts'

const ARN =
  'arn:aws:autoscaling:eu-west-1:123456789012:autoScalingGroup:0f0e0d0c-1111-2222-3333-444455556666:autoScalingGroupName/web'

const context = (ecs: EcsApi | undefined) => {
  const requests: DescribeCapacityProvidersInput[] = []
  const apiCalls: string[] = []
  const clock = { nowMs: Date.parse('2026-03-02T10:00:00Z') }
  const ctx: AwsContext = {
    ...({} as AwsClients),
    ...(ecs === undefined ? {} : { ecs }),
    region: 'eu-west-1',
    call: countedCall((name) => apiCalls.push(name)),
    logger: { info: () => {}, warn: () => {} },
    now: () => clock.nowMs,
    caches: createAdapterCaches(),
    markerKeyArn: undefined,
    groupArns: new Map(),
  }
  return { ctx, requests, apiCalls, clock }
}

/** Every call the test does not expect fails loudly. */
const UNEXPECTED: EcsApi = {
  describeCapacityProviders: () => Promise.reject(new Error('unexpected DescribeCapacityProviders')),
  listClusters: () => Promise.reject(new Error('unexpected ListClusters')),
  describeClusters: () => Promise.reject(new Error('unexpected DescribeClusters')),
  listContainerInstances: () => Promise.reject(new Error('unexpected ListContainerInstances')),
  describeContainerInstances: () => Promise.reject(new Error('unexpected DescribeContainerInstances')),
  updateContainerInstancesState: () => Promise.reject(new Error('unexpected UpdateContainerInstancesState')),
  listTasks: () => Promise.reject(new Error('unexpected ListTasks')),
  describeTasks: () => Promise.reject(new Error('unexpected DescribeTasks')),
}

const answering = (
  pages: DescribeCapacityProvidersOutput[],
  requests: DescribeCapacityProvidersInput[],
): EcsApi => ({
  ...UNEXPECTED,
  describeCapacityProviders: async (input: DescribeCapacityProvidersInput) => {
    requests.push(input)
    return pages[requests.length - 1] ?? {}
  },
})

const PAGES: DescribeCapacityProvidersOutput[] = [
  {
    capacityProviders: [
      {
        name: 'cp-web',
        status: 'ACTIVE',
        autoScalingGroupProvider: {
          autoScalingGroupArn: ARN,
          managedScaling: { status: 'ENABLED' },
          managedTerminationProtection: 'ENABLED',
          managedDraining: 'ENABLED',
        },
      },
      // Fargate's own: no Auto Scaling group behind it.
      { name: 'FARGATE', status: 'ACTIVE' },
    ],
    nextToken: 'page-2',
  },
  {
    capacityProviders: [
      {
        name: 'cp-batch',
        status: 'ACTIVE',
        autoScalingGroupProvider: { autoScalingGroupArn: 'batch', managedTerminationProtection: 'DISABLED' },
      },
    ],
  },
]

describe('ecsCapacityProviders', () => {
  it('reads every page, ten at a time, keeping providers that stand on a group', async () => {
    const { ctx, requests, apiCalls } = context(undefined)
    const withEcs = { ...ctx, ecs: answering(PAGES, requests) }
    const providers = await ecsCapacityProviders(withEcs)
    expect(requests).toEqual([
      { maxResults: 10, nextToken: undefined },
      { maxResults: 10, nextToken: 'page-2' },
    ])
    expect(apiCalls).toEqual(['ecs:DescribeCapacityProviders', 'ecs:DescribeCapacityProviders'])
    expect(providers).toEqual([
      {
        name: 'cp-web',
        status: 'ACTIVE',
        groupArnOrName: ARN,
        managedTerminationProtection: true,
        managedDraining: true,
        managedScaling: true,
      },
      {
        name: 'cp-batch',
        status: 'ACTIVE',
        groupArnOrName: 'batch',
        managedTerminationProtection: false,
        // Not stated: taken as off, never assumed on.
        managedDraining: false,
        managedScaling: false,
      },
    ])
  })

  it('reads once while the cache is fresh, and again after', async () => {
    const { ctx, requests, clock } = context(undefined)
    const withEcs = { ...ctx, ecs: answering([PAGES[1] ?? {}, PAGES[1] ?? {}], requests) }
    await ecsCapacityProviders(withEcs)
    await ecsCapacityProviders(withEcs)
    expect(requests).toHaveLength(1)
    clock.nowMs += ECS_CAPACITY_PROVIDERS_CACHE_TTL_MS
    await ecsCapacityProviders(withEcs)
    expect(requests).toHaveLength(2)
  })

  it("refuses an answer with failures: the provider ECS could not describe may be the group's", async () => {
    const { ctx, requests } = context(undefined)
    const failing = answering([{ ...PAGES[1], failures: [{ arn: 'cp-x', reason: 'MISSING' }] }], requests)
    await expect(ecsCapacityProviders({ ...ctx, ecs: failing })).rejects.toThrow(EcsDescribeFailureError)
  })

  it('fails, asking nothing, without an ECS client', async () => {
    const { ctx, apiCalls } = context(undefined)
    await expect(ecsCapacityProviders(ctx)).rejects.toThrow(EcsClientMissingError)
    expect(apiCalls).toEqual([])
  })
})

const CLUSTER = 'arn:aws:ecs:eu-west-1:123456789012:cluster/web'
const ciArn = (n: number) => `arn:aws:ecs:eu-west-1:123456789012:container-instance/web/${n}`

describe('ecsClusters', () => {
  const clustersApi = (requests: unknown[]): EcsApi => ({
    ...UNEXPECTED,
    listClusters: async (input) => {
      requests.push({ list: input })
      // 150 clusters: two pages of ListClusters, two DescribeClusters calls of at most 100.
      const all = Array.from({ length: 150 }, (_, i) => `arn:aws:ecs:eu-west-1:123456789012:cluster/c${i}`)
      return input.nextToken === undefined
        ? { clusterArns: all.slice(0, 100), nextToken: 'more' }
        : { clusterArns: all.slice(100) }
    },
    describeClusters: async (input) => {
      requests.push({ describe: input.clusters?.length })
      return {
        clusters: (input.clusters ?? []).map((arn) => ({
          clusterArn: arn,
          clusterName: arn.split('/')[1],
          capacityProviders: arn.endsWith('/c120') ? ['cp-web', 'FARGATE'] : [],
        })),
      }
    },
  })

  it('lists every cluster a hundred a page, describes them a hundred a call, and caches the answer', async () => {
    const { ctx, apiCalls, clock } = context(undefined)
    const requests: unknown[] = []
    const withEcs = { ...ctx, ecs: clustersApi(requests) }
    const clusters = await ecsClusters(withEcs)
    expect(requests).toEqual([
      { list: { maxResults: 100, nextToken: undefined } },
      { list: { maxResults: 100, nextToken: 'more' } },
      { describe: 100 },
      { describe: 50 },
    ])
    expect(clusters).toHaveLength(150)
    expect(clusters.find((c) => c.capacityProviders.includes('cp-web'))?.name).toBe('c120')
    await ecsClusters(withEcs)
    expect(apiCalls).toHaveLength(4)
    clock.nowMs += ECS_CAPACITY_PROVIDERS_CACHE_TTL_MS
    await ecsClusters(withEcs)
    expect(apiCalls).toHaveLength(8)
  })

  it('refuses an answer with failures: the cluster ECS could not describe may be the group’s', async () => {
    const { ctx } = context(undefined)
    const ecs: EcsApi = {
      ...UNEXPECTED,
      listClusters: async () => ({ clusterArns: [CLUSTER] }),
      describeClusters: async () => ({ clusters: [], failures: [{ arn: CLUSTER, reason: 'MISSING' }] }),
    }
    await expect(ecsClusters({ ...ctx, ecs })).rejects.toThrow(EcsDescribeFailureError)
  })
})

describe('ecsContainerInstances', () => {
  it('lists the cluster’s container instances and describes them, every call', async () => {
    const { ctx, apiCalls } = context(undefined)
    const asked: unknown[] = []
    const ecs: EcsApi = {
      ...UNEXPECTED,
      listContainerInstances: async (input) => {
        asked.push(input)
        return { containerInstanceArns: [ciArn(1), ciArn(2)] }
      },
      describeContainerInstances: async (input) => {
        asked.push(input)
        return {
          containerInstances: [
            { containerInstanceArn: ciArn(1), ec2InstanceId: 'i-1', status: 'ACTIVE', runningTasksCount: 3 },
            // Not yet on an EC2 instance ECS names: left out.
            { containerInstanceArn: ciArn(2), status: 'REGISTERING' },
          ],
        }
      },
    }
    const found = await ecsContainerInstances({ ...ctx, ecs }, CLUSTER)
    expect(asked).toEqual([
      { cluster: CLUSTER, maxResults: 100, nextToken: undefined },
      { cluster: CLUSTER, containerInstances: [ciArn(1), ciArn(2)] },
    ])
    expect(found).toEqual([{ arn: ciArn(1), ec2InstanceId: 'i-1', status: 'ACTIVE', runningTasksCount: 3 }])
    await ecsContainerInstances({ ...ctx, ecs }, CLUSTER)
    expect(apiCalls).toHaveLength(4)
  })

  it('refuses an answer with failures', async () => {
    const { ctx } = context(undefined)
    const ecs: EcsApi = {
      ...UNEXPECTED,
      listContainerInstances: async () => ({ containerInstanceArns: [ciArn(1)] }),
      describeContainerInstances: async () => ({ failures: [{ arn: ciArn(1), reason: 'MISSING' }] }),
    }
    await expect(ecsContainerInstances({ ...ctx, ecs }, CLUSTER)).rejects.toThrow(EcsDescribeFailureError)
  })
})

describe('ecsClusterTasks', () => {
  const taskArn = (n: number) =>
    `arn:aws:ecs:eu-west-1:123456789012:task/web/${n.toString(16).padStart(32, '0')}`

  it('lists the whole cluster’s running tasks page by page and describes them a hundred a call', async () => {
    const { ctx, apiCalls } = context(undefined)
    const listed: unknown[] = []
    const described: string[][] = []
    const arns = Array.from({ length: 150 }, (_, n) => taskArn(n))
    const ecs: EcsApi = {
      ...UNEXPECTED,
      listTasks: async (input) => {
        listed.push(input)
        return input.nextToken === undefined
          ? { taskArns: arns.slice(0, 100), nextToken: 'next' }
          : { taskArns: arns.slice(100) }
      },
      describeTasks: async (input) => {
        described.push(input.tasks)
        return {
          tasks: input.tasks.map((arn, n) => ({
            taskArn: arn,
            group: n === 0 ? 'family:nightly' : 'service:web',
            // Every other one on Fargate: no container instance.
            ...(n % 2 === 0
              ? { containerInstanceArn: ciArn(n % 3), launchType: 'EC2' }
              : { launchType: 'FARGATE' }),
          })),
        }
      },
    }
    const found = await ecsClusterTasks({ ...ctx, ecs }, CLUSTER)
    // No containerInstance: one listing for the cluster, however many container instances it has.
    expect(listed).toEqual([
      { cluster: CLUSTER, desiredStatus: 'RUNNING', maxResults: 100, nextToken: undefined },
      { cluster: CLUSTER, desiredStatus: 'RUNNING', maxResults: 100, nextToken: 'next' },
    ])
    expect(described.map((batch) => batch.length)).toEqual([100, 50])
    expect(found).toHaveLength(150)
    expect(found[0]).toEqual({ arn: taskArn(0), group: 'family:nightly', containerInstanceArn: ciArn(0) })
    expect(found[1]).toEqual({ arn: taskArn(1), group: 'service:web', containerInstanceArn: undefined })
    expect(apiCalls).toEqual(['ecs:ListTasks', 'ecs:ListTasks', 'ecs:DescribeTasks', 'ecs:DescribeTasks'])
  })

  it('refuses an answer with failures: the task missing may be a standalone one', async () => {
    const { ctx } = context(undefined)
    const ecs: EcsApi = {
      ...UNEXPECTED,
      listTasks: async () => ({ taskArns: [taskArn(1)] }),
      describeTasks: async () => ({ failures: [{ arn: taskArn(1), reason: 'MISSING' }] }),
    }
    await expect(ecsClusterTasks({ ...ctx, ecs }, CLUSTER)).rejects.toThrow(EcsDescribeFailureError)
  })
})

describe('setContainerInstancesState', () => {
  it('sends ten container instances a call and returns what ECS refused', async () => {
    const { ctx } = context(undefined)
    const sent: { containerInstances: string[]; status: string }[] = []
    const ecs: EcsApi = {
      ...UNEXPECTED,
      updateContainerInstancesState: async (input) => {
        sent.push({ containerInstances: input.containerInstances, status: input.status })
        return sent.length === 2 ? { failures: [{ arn: ciArn(11), reason: 'MISSING' }] } : {}
      },
    }
    const arns = Array.from({ length: 12 }, (_, i) => ciArn(i))
    const failures = await setContainerInstancesState({ ...ctx, ecs }, CLUSTER, arns, 'DRAINING')
    expect(sent.map((s) => s.containerInstances.length)).toEqual([10, 2])
    expect(sent.every((s) => s.status === 'DRAINING')).toBe(true)
    expect(failures).toEqual([{ arn: ciArn(11), reason: 'MISSING' }])
  })
})
