/**
 * ECS's DescribeCapacityProviders as the adapter sends it: the region's capacity providers, ten a page at
 * most (maxResults 1 to 10; without it, up to 10 and a nextToken), with Fargate's two providers, which
 * stand on no Auto Scaling group, listed like any other
 * (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_DescribeCapacityProviders.html).
 */
import type { CapacityProviderShape, EcsApi } from '../../../lambdas/aws/cloud.ts'
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

export const ecs = (ctx: SimApiContext): EcsApi => ({
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
