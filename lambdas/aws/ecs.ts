/**
 * ECS reads: the region's capacity providers, to tell a group whose scale-in protection is ECS's
 * (managed termination protection) from an owner's (core/ecs/capacity-provider.ts).
 *
 * Without an ECS client (ecs-sdk.ts) the read fails with EcsClientMissingError, and every group
 * carrying the AmazonECSManaged tag waits, as for any unreadable read.
 */
import { ECS_CAPACITY_PROVIDERS_PAGE_SIZE } from '../core/constants.ts'
import type { EcsCapacityProvider } from '../core/ecs/capacity-provider.ts'
import type { AwsContext } from './context.ts'
import type { CapacityProviderShape } from './ecs-sdk.ts'
import { collectPages } from './paginate.ts'

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

const readCapacityProviders = async (ctx: AwsContext): Promise<EcsCapacityProvider[]> => {
  const ecs = ctx.ecs
  if (ecs === undefined) throw new EcsClientMissingError('no ECS client is wired (@aws-sdk/client-ecs)')
  const shapes = await collectPages(async (nextToken) => {
    const page = await ctx.call('ecs:DescribeCapacityProviders', () =>
      ecs.describeCapacityProviders({ maxResults: ECS_CAPACITY_PROVIDERS_PAGE_SIZE, nextToken }),
    )
    const failure = page.failures?.[0]
    if (failure !== undefined)
      throw new EcsDescribeFailureError(
        `${failure.arn ?? 'a capacity provider'}: ${failure.reason ?? 'failed'}`,
      )
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
