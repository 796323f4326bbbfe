/**
 * ECS reads: the region's capacity providers, to tell a group whose scale-in protection is ECS's
 * (managed termination protection) from an owner's (core/ecs/capacity-provider.ts); the clusters they are
 * associated with and the container instances there (core/ecs/cluster.ts); a cluster's tasks
 * (core/ecs/cluster-tasks.ts). One write: a container
 * instance's state, DRAINING or ACTIVE (UpdateContainerInstancesState).
 *
 * Without an ECS client (ecs-sdk.ts) the read fails with EcsClientMissingError, and every group
 * carrying the AmazonECSManaged tag waits, as for any unreadable read.
 */

import { ECS_CAPACITY_PROVIDERS_PAGE_SIZE } from '../core/constants.ts'
import type { EcsCapacityProvider } from '../core/ecs/capacity-provider.ts'
import type { EcsCluster, EcsContainerInstance, EcsStateFailure } from '../core/ecs/cluster.ts'
import type { EcsTask } from '../core/ecs/tasks.ts'
import type { AwsContext } from './context.ts'
import type { CapacityProviderShape, EcsApi, EcsFailureShape } from './ecs-sdk.ts'
import { ECS_DESCRIBE_BATCH, ECS_LIST_PAGE_SIZE, ECS_UPDATE_STATE_BATCH } from './limits.ts'
import { chunk, collectPages } from './paginate.ts'

export class EcsClientMissingError extends Error {
  override readonly name = 'EcsClientMissingError'
}

/** An answer the adapter cannot trust whole: a provider ECS could not describe may be the group's. */
export class EcsDescribeFailureError extends Error {
  override readonly name = 'EcsDescribeFailureError'
}

const ENABLED = 'ENABLED'

/**
 * One provider as the core sees it; undefined for one without an Auto Scaling group (Fargate's, ECS
 * Managed Instances'), which no group can be behind.
 */
export const toCapacityProvider = (shape: CapacityProviderShape): EcsCapacityProvider | undefined => {
  const asg = shape.autoScalingGroupProvider
  if (asg?.autoScalingGroupArn === undefined) return undefined
  return {
    name: shape.name ?? '',
    status: shape.status ?? '',
    groupArnOrName: asg.autoScalingGroupArn,
    managedTerminationProtection: asg.managedTerminationProtection === ENABLED,
    // Only what ECS states: unknown counts as off (spotswap drains itself, which ECS takes once).
    managedDraining: asg.managedDraining === ENABLED,
    managedScaling: asg.managedScaling?.status === ENABLED,
  }
}

const ecsOf = (ctx: AwsContext): EcsApi => {
  if (ctx.ecs === undefined) throw new EcsClientMissingError('no ECS client is wired (@aws-sdk/client-ecs)')
  return ctx.ecs
}

const refuseFailures = (failures: readonly EcsFailureShape[] | undefined, what: string): void => {
  const failure = failures?.[0]
  if (failure !== undefined)
    throw new EcsDescribeFailureError(`${failure.arn ?? what}: ${failure.reason ?? 'failed'}`)
}

const readCapacityProviders = async (ctx: AwsContext): Promise<EcsCapacityProvider[]> => {
  const ecs = ecsOf(ctx)
  const shapes = await collectPages(async (nextToken) => {
    const page = await ctx.call('ecs:DescribeCapacityProviders', () =>
      ecs.describeCapacityProviders({ maxResults: ECS_CAPACITY_PROVIDERS_PAGE_SIZE, nextToken }),
    )
    refuseFailures(page.failures, 'a capacity provider')
    return { items: page.capacityProviders ?? [], nextToken: page.nextToken }
  })
  return shapes.flatMap((shape) => toCapacityProvider(shape) ?? [])
}

/**
 * Every capacity provider of the region, from the container's cache while fresh: the replacer asks only
 * when a managed group carries the AmazonECSManaged tag, and a provider's settings rarely change.
 */
export const ecsCapacityProviders = (ctx: AwsContext): Promise<EcsCapacityProvider[]> =>
  ctx.caches.ecsCapacityProviders.get(ctx.region, ctx.now(), () => readCapacityProviders(ctx))

const readClusters = async (ctx: AwsContext): Promise<EcsCluster[]> => {
  const ecs = ecsOf(ctx)
  const arns = await collectPages(async (nextToken) => {
    const page = await ctx.call('ecs:ListClusters', () =>
      ecs.listClusters({ maxResults: ECS_LIST_PAGE_SIZE, nextToken }),
    )
    return { items: page.clusterArns ?? [], nextToken: page.nextToken }
  })
  const clusters: EcsCluster[] = []
  for (const batch of chunk(arns, ECS_DESCRIBE_BATCH)) {
    const answer = await ctx.call('ecs:DescribeClusters', () => ecs.describeClusters({ clusters: batch }))
    // A cluster ECS could not describe may be the one a managed group's provider is associated with.
    refuseFailures(answer.failures, 'a cluster')
    for (const shape of answer.clusters ?? [])
      if (shape.clusterArn !== undefined)
        clusters.push({
          arn: shape.clusterArn,
          name: shape.clusterName ?? '',
          capacityProviders: shape.capacityProviders ?? [],
        })
  }
  return clusters
}

/**
 * Every cluster of the region with its capacity providers (ListClusters, then DescribeClusters a hundred
 * at a time), from the container's cache while fresh: which cluster a provider is associated with
 * changes as rarely as the provider's settings.
 */
export const ecsClusters = (ctx: AwsContext): Promise<EcsCluster[]> =>
  ctx.caches.ecsClusters.get(ctx.region, ctx.now(), () => readClusters(ctx))

/**
 * Every container instance of `cluster` (ListContainerInstances lists ACTIVE and DRAINING ones by
 * default, https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ListContainerInstances.html),
 * described a hundred at a time. Read each run it is needed: a status and a task count change by the
 * minute. An answer with failures is refused whole (the instance missing may be a member's).
 */
export const ecsContainerInstances = async (
  ctx: AwsContext,
  cluster: string,
): Promise<EcsContainerInstance[]> => {
  const ecs = ecsOf(ctx)
  const arns = await collectPages(async (nextToken) => {
    const page = await ctx.call('ecs:ListContainerInstances', () =>
      ecs.listContainerInstances({ cluster, maxResults: ECS_LIST_PAGE_SIZE, nextToken }),
    )
    return { items: page.containerInstanceArns ?? [], nextToken: page.nextToken }
  })
  const found: EcsContainerInstance[] = []
  for (const batch of chunk(arns, ECS_DESCRIBE_BATCH)) {
    const answer = await ctx.call('ecs:DescribeContainerInstances', () =>
      ecs.describeContainerInstances({ cluster, containerInstances: batch }),
    )
    refuseFailures(answer.failures, 'a container instance')
    for (const shape of answer.containerInstances ?? [])
      if (shape.containerInstanceArn !== undefined && shape.ec2InstanceId !== undefined)
        found.push({
          arn: shape.containerInstanceArn,
          ec2InstanceId: shape.ec2InstanceId,
          status: shape.status ?? '',
          runningTasksCount: shape.runningTasksCount ?? 0,
        })
  }
  return found
}

/**
 * The tasks ECS means to keep running in `cluster` (ListTasks for the whole cluster, RUNNING by default,
 * a hundred a page: https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ListTasks.html), described
 * a hundred at a time, the most a call takes, for their group and the container instance that hosts them
 * (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_DescribeTasks.html). One read per cluster
 * and run, however many container instances it has (core/ecs/cluster-tasks.ts tells them apart). An
 * answer with failures is refused whole (the task missing may be a standalone one).
 */
export const ecsClusterTasks = async (ctx: AwsContext, cluster: string): Promise<EcsTask[]> => {
  const ecs = ecsOf(ctx)
  const arns = await collectPages(async (nextToken) => {
    const page = await ctx.call('ecs:ListTasks', () =>
      ecs.listTasks({ cluster, desiredStatus: 'RUNNING', maxResults: ECS_LIST_PAGE_SIZE, nextToken }),
    )
    return { items: page.taskArns ?? [], nextToken: page.nextToken }
  })
  const found: EcsTask[] = []
  for (const batch of chunk(arns, ECS_DESCRIBE_BATCH)) {
    const answer = await ctx.call('ecs:DescribeTasks', () => ecs.describeTasks({ cluster, tasks: batch }))
    refuseFailures(answer.failures, 'a task')
    for (const shape of answer.tasks ?? [])
      if (shape.taskArn !== undefined)
        found.push({
          arn: shape.taskArn,
          group: shape.group ?? '',
          containerInstanceArn: shape.containerInstanceArn,
        })
  }
  return found
}

/**
 * Sets container instances of `cluster` DRAINING or ACTIVE, ten a call. ECS reports the ones it could not
 * update in the answer, not as an exception: they are returned, so the caller says so.
 */
export const setContainerInstancesState = async (
  ctx: AwsContext,
  cluster: string,
  containerInstanceArns: readonly string[],
  status: 'ACTIVE' | 'DRAINING',
): Promise<EcsStateFailure[]> => {
  const ecs = ecsOf(ctx)
  const failures: EcsStateFailure[] = []
  for (const batch of chunk(containerInstanceArns, ECS_UPDATE_STATE_BATCH)) {
    const answer = await ctx.call('ecs:UpdateContainerInstancesState', () =>
      ecs.updateContainerInstancesState({ cluster, containerInstances: batch, status }),
    )
    for (const failure of answer.failures ?? [])
      failures.push({ arn: failure.arn ?? '', reason: failure.reason ?? 'failed' })
  }
  return failures
}
