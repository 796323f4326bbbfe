/**
 * ECS as the adapter sends it, answered from the simulated clusters (sim/ecs-cluster.ts).
 * DescribeCapacityProviders: the region's capacity providers, ten a page at most (maxResults 1 to 10),
 * with Fargate's two providers, which stand on no Auto Scaling group
 * (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_DescribeCapacityProviders.html).
 * Each group's provider is associated with a cluster of its own (ListClusters, DescribeClusters).
 * ListContainerInstances lists every container instance but INACTIVE ones by default, a hundred a page
 * (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ListContainerInstances.html);
 * DescribeContainerInstances takes up to 100 and reports unknown ones as MISSING failures;
 * UpdateContainerInstancesState takes up to 10, only ACTIVE or DRAINING, and reports a container instance
 * that is neither (or unknown) in its failures, not as an error
 * (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_UpdateContainerInstancesState.html).
 * A cluster ECS does not know is a ClusterNotFoundException; without `cluster`, the `default` one is meant.
 */
import type {
  CapacityProviderShape,
  ClusterShape,
  ContainerInstanceShape,
  EcsApi,
} from '../../../lambdas/aws/cloud.ts'
import type { SimCluster, SimContainerInstance } from '../ecs-cluster-state.ts'
import { cycleSoon } from '../ecs-scheduler.ts'
import { simAwsError } from '../errors.ts'
import { ecsTasks } from './ecs-tasks.ts'
import type { PageRule } from './paging.ts'
import { answer, type SimApiContext, write } from './request.ts'

const PROVIDERS: PageRule = {
  operation: 'DescribeCapacityProviders',
  defaultSize: 10,
  min: 1,
  max: 10,
  invalidCode: 'InvalidParameterException',
}

/** AWS Fargate's providers, in every region that has Fargate. */
const FARGATE: readonly CapacityProviderShape[] = [
  { name: 'FARGATE', status: 'ACTIVE' },
  { name: 'FARGATE_SPOT', status: 'ACTIVE' },
]

const CLUSTERS: PageRule = {
  operation: 'ListClusters',
  defaultSize: 100,
  min: 1,
  max: 100,
  invalidCode: 'InvalidParameterException',
}

const CONTAINER_INSTANCES: PageRule = { ...CLUSTERS, operation: 'ListContainerInstances' }

const DESCRIBE_MAX = 100
const UPDATE_STATE_MAX = 10

const invalid = (message: string) => simAwsError('InvalidParameterException', 400, message)

const clusters = (ctx: SimApiContext): SimCluster[] => [...ctx.region.ecsClusters.values()]

const toClusterShape = (cluster: SimCluster): ClusterShape => ({
  clusterArn: cluster.arn,
  clusterName: cluster.name,
  status: 'ACTIVE',
  capacityProviders: [cluster.providerName],
})

/** The cluster a request names (its name or ARN; `default` when it names none). */
const clusterNamed = (ctx: SimApiContext, named: string | undefined): SimCluster => {
  const wanted = named ?? 'default'
  const found = clusters(ctx).find((c) => c.arn === wanted || c.name === wanted)
  if (found === undefined) throw simAwsError('ClusterNotFoundException', 400, 'Cluster not found.')
  return found
}

/** A container instance named by its ARN or its id (the ARN's last part). */
const containerInstanceNamed = (cluster: SimCluster, named: string): SimContainerInstance | undefined =>
  [...cluster.containerInstances.values()].find((ci) => ci.arn === named || ci.arn.endsWith(`/${named}`))

const toShape = (cluster: SimCluster, ci: SimContainerInstance): ContainerInstanceShape => {
  const tasks = cluster.tasksOn(ci.ec2InstanceId)
  return {
    containerInstanceArn: ci.arn,
    ec2InstanceId: ci.ec2InstanceId,
    status: ci.status,
    // A stopping task is still running until its container exits.
    runningTasksCount: tasks.filter((t) => t.status !== 'PENDING').length,
    pendingTasksCount: tasks.filter((t) => t.status === 'PENDING').length,
  }
}

export const ecs = (ctx: SimApiContext): EcsApi => ({
  ...ecsTasks(ctx),
  listClusters: (input) =>
    answer(ctx, 'ecs:ListClusters', () => {
      const page = ctx.listings.page(
        CLUSTERS,
        { maxResults: input.maxResults, nextToken: input.nextToken },
        () => clusters(ctx).map((c) => c.arn),
      )
      return { clusterArns: [...page.items], nextToken: page.nextToken }
    }),
  describeClusters: (input) =>
    answer(ctx, 'ecs:DescribeClusters', () => {
      const asked = new Set(input.clusters ?? [])
      if (asked.size > DESCRIBE_MAX) throw invalid(`DescribeClusters takes at most ${DESCRIBE_MAX} clusters`)
      const found = clusters(ctx).filter((c) => asked.has(c.arn) || asked.has(c.name))
      const named = new Set(found.flatMap((c) => [c.arn, c.name]))
      return {
        clusters: found.map(toClusterShape),
        failures: [...asked].filter((arn) => !named.has(arn)).map((arn) => ({ arn, reason: 'MISSING' })),
      }
    }),
  listContainerInstances: (input) =>
    answer(ctx, 'ecs:ListContainerInstances', () => {
      const cluster = clusterNamed(ctx, input.cluster)
      const page = ctx.listings.page(
        CONTAINER_INSTANCES,
        { maxResults: input.maxResults, nextToken: input.nextToken },
        () =>
          [...cluster.containerInstances.values()]
            .filter((ci) => ci.status !== 'INACTIVE')
            .map((ci) => ci.arn),
      )
      return { containerInstanceArns: [...page.items], nextToken: page.nextToken }
    }),
  describeContainerInstances: (input) =>
    answer(ctx, 'ecs:DescribeContainerInstances', () => {
      const cluster = clusterNamed(ctx, input.cluster)
      if (input.containerInstances.length > DESCRIBE_MAX)
        throw invalid(`DescribeContainerInstances takes at most ${DESCRIBE_MAX} container instances`)
      const found = input.containerInstances.map((arn) => ({ arn, ci: containerInstanceNamed(cluster, arn) }))
      return {
        containerInstances: found.flatMap(({ ci }) => (ci === undefined ? [] : [toShape(cluster, ci)])),
        failures: found.filter(({ ci }) => ci === undefined).map(({ arn }) => ({ arn, reason: 'MISSING' })),
      }
    }),
  updateContainerInstancesState: (input) => {
    // Named for the records (touches.ts) by their EC2 instances; the request itself checks the cluster.
    const cluster = clusters(ctx).find((c) => c.arn === input.cluster || c.name === input.cluster)
    const named = input.containerInstances.flatMap((arn) => {
      const ci = cluster === undefined ? undefined : containerInstanceNamed(cluster, arn)
      return ci === undefined ? [] : [ci.ec2InstanceId]
    })
    return write(ctx, 'ecs:UpdateContainerInstancesState', { instances: named }, () => {
      const cluster = clusterNamed(ctx, input.cluster)
      if (input.containerInstances.length > UPDATE_STATE_MAX)
        throw invalid(`UpdateContainerInstancesState takes at most ${UPDATE_STATE_MAX} container instances`)
      if (input.status !== 'ACTIVE' && input.status !== 'DRAINING')
        throw invalid(`status must be ACTIVE or DRAINING, not ${String(input.status)}`)
      const updated: ContainerInstanceShape[] = []
      const failures: { arn: string; reason: string }[] = []
      for (const arn of input.containerInstances) {
        const ci = containerInstanceNamed(cluster, arn)
        if (ci === undefined) failures.push({ arn, reason: 'MISSING' })
        else if (ci.status !== 'ACTIVE' && ci.status !== 'DRAINING')
          failures.push({ arn, reason: `container instance is ${ci.status}` })
        else {
          ci.status = input.status
          updated.push(toShape(cluster, ci))
        }
      }
      if (updated.length > 0) cycleSoon(ctx.world, ctx.region, cluster)
      return { containerInstances: updated, failures }
    })
  },
  describeCapacityProviders: (input) =>
    answer(ctx, 'ecs:DescribeCapacityProviders', () => {
      const page = ctx.listings.page(
        PROVIDERS,
        { maxResults: input.maxResults, nextToken: input.nextToken },
        () => [...FARGATE, ...ctx.region.capacityProviders],
      )
      return { capacityProviders: page.items, nextToken: page.nextToken }
    }),
})
