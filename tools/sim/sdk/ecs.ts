/**
 * ECS's DescribeCapacityProviders as the adapter sends it: the region's capacity providers, ten a page at
 * most (maxResults 1 to 10; without it, up to 10 and a nextToken), with Fargate's two providers, which
 * stand on no Auto Scaling group, listed like any other
 * (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_DescribeCapacityProviders.html).
 * Each group's provider is associated with a cluster of its own (ListClusters, DescribeClusters). The
 * simulator runs no ECS agent, so no container instance ever registers: the clusters list none, and
 * UpdateContainerInstancesState reports every container instance it is given as a failure (MISSING), as
 * ECS does for one it does not know.
 */
import type { CapacityProviderShape, ClusterShape, EcsApi } from '../../../lambdas/aws/cloud.ts'
import { ecsTasks } from './ecs-tasks.ts'
import type { PageRule } from './paging.ts'
import { answer, type SimApiContext } from './request.ts'

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

const clusterArn = (ctx: SimApiContext, provider: CapacityProviderShape): string =>
  `arn:aws:ecs:${ctx.region.name}:123456789012:cluster/${provider.name}-cluster`

const clusters = (ctx: SimApiContext): ClusterShape[] =>
  ctx.region.capacityProviders.map((provider) => ({
    clusterArn: clusterArn(ctx, provider),
    clusterName: `${provider.name}-cluster`,
    status: 'ACTIVE',
    capacityProviders: [provider.name ?? ''],
  }))

export const ecs = (ctx: SimApiContext): EcsApi => ({
  ...ecsTasks(ctx),
  listClusters: (input) =>
    answer(ctx, 'ecs:ListClusters', () => {
      const page = ctx.listings.page(
        CLUSTERS,
        { maxResults: input.maxResults, nextToken: input.nextToken },
        () => clusters(ctx).map((c) => c.clusterArn ?? ''),
      )
      return { clusterArns: [...page.items], nextToken: page.nextToken }
    }),
  describeClusters: (input) =>
    answer(ctx, 'ecs:DescribeClusters', () => {
      const asked = new Set(input.clusters ?? [])
      const found = clusters(ctx).filter(
        (c) => asked.has(c.clusterArn ?? '') || asked.has(c.clusterName ?? ''),
      )
      const named = new Set(found.flatMap((c) => [c.clusterArn, c.clusterName]))
      return {
        clusters: found,
        failures: [...asked].filter((arn) => !named.has(arn)).map((arn) => ({ arn, reason: 'MISSING' })),
      }
    }),
  listContainerInstances: (input) =>
    answer(ctx, 'ecs:ListContainerInstances', () => {
      const page = ctx.listings.page(
        CONTAINER_INSTANCES,
        { maxResults: input.maxResults, nextToken: input.nextToken },
        () => [] as string[],
      )
      return { containerInstanceArns: [...page.items], nextToken: page.nextToken }
    }),
  describeContainerInstances: (input) =>
    answer(ctx, 'ecs:DescribeContainerInstances', () => ({
      containerInstances: [],
      failures: input.containerInstances.map((arn) => ({ arn, reason: 'MISSING' })),
    })),
  updateContainerInstancesState: (input) =>
    answer(ctx, 'ecs:UpdateContainerInstancesState', () => ({
      containerInstances: [],
      failures: input.containerInstances.map((arn) => ({ arn, reason: 'MISSING' })),
    })),
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
