/**
 * The port's reads, with the requests the AWS adapter would make for them: the same pagination and
 * chunking (lambdas/aws/limits.ts, core/constants.ts) and the same container caches, so the simulator's
 * API counts are the adapter's.
 */
import {
  GROUP_INSTANCES_CHUNK,
  INSTANCE_TYPES_PAGE_SIZE,
  PRICING_PAGE_SIZE,
  SCALING_ACTIVITIES_PAGE_SIZE,
  SPOT_PRICES_PAGE_SIZE,
  TARGET_GROUPS_PER_DESCRIBE,
} from '../../lambdas/aws/limits.ts'
import { chunk } from '../../lambdas/aws/paginate.ts'
import {
  CATALOG_CACHE_TTL_MS,
  GROUPS_PAGE_SIZE,
  INSTANCE_ID_FILTER_CHUNK,
  PRICE_CACHE_TTL_MS,
  TAG_LAUNCHED_FOR_GROUP,
} from '../../lambdas/core/constants.ts'
import type { InstanceRefresh } from '../../lambdas/core/group/instance-refresh.ts'
import type { ScalingActivity } from '../../lambdas/core/group/scaling-activities.ts'
import { productDescriptionOf } from '../../lambdas/core/platform.ts'
import {
  addTargetState,
  type DescribeInstancesOptions,
  type GroupQuery,
  type HealthCheckSettings,
  type LifecycleHook,
  type TargetState,
  type TrafficHealth,
  trafficSourceKey,
} from '../../lambdas/core/port.ts'
import type {
  Catalog,
  Group,
  Instance,
  OnDemandPrices,
  SpotPrice,
  TrafficSources,
} from '../../lambdas/core/types.ts'
import { groupNamed } from './asg-api.ts'
import { TERMINATED_VISIBLE_SECONDS } from './constants.ts'
import { matchesQuery, toGroup, toInstance } from './convert.ts'
import { loadBalancerNotFound, simAwsError, targetGroupNotFound } from './errors.ts'
import type { SimLoadBalancer } from './load-balancer-state.ts'
import { NOT_REGISTERED, targetState } from './load-balancers.ts'
import { groupOfId, type PortContext, request } from './port-context.ts'
import { isRunningOrPending, type SimInstance, zoneOfSubnet } from './state.ts'

const pages = (items: number, pageSize: number): number => Math.max(1, Math.ceil(items / pageSize))

/** Each page is one request; the answer is read after the last one. */
const paged = <T>(ctx: PortContext, operation: string, count: number, pageSize: number, read: () => T): T => {
  for (let page = 1; page < pages(count, pageSize); page++) request(ctx, operation, () => undefined)
  return request(ctx, operation, read)
}

export const describeGroups = (ctx: PortContext, query: GroupQuery): Group[] => {
  const matching = [...ctx.region.groups.values()].filter((g) => matchesQuery(g, query))
  return paged(ctx, 'autoscaling:DescribeAutoScalingGroups', matching.length, GROUPS_PAGE_SIZE, () =>
    matching.map((g) => toGroup(ctx.region, g)),
  )
}

/** Terminated instances stay visible for TERMINATED_VISIBLE_SECONDS after their shutdown began. */
const visible = (ctx: PortContext, id: string, includeTerminated: boolean): SimInstance | undefined => {
  if (!includeTerminated) return ctx.region.live(id)
  const instance = ctx.region.instances.get(id)
  const shutdownMs = instance?.billedUntilMs
  if (instance?.state !== 'terminated' || shutdownMs === undefined) return instance
  return ctx.world.clock.now - shutdownMs <= TERMINATED_VISIBLE_SECONDS * 1000 ? instance : undefined
}

export const describeInstances = (
  ctx: PortContext,
  ids: readonly string[],
  options: DescribeInstancesOptions = {},
): Instance[] =>
  chunk([...new Set(ids)], INSTANCE_ID_FILTER_CHUNK).flatMap((ids) =>
    request(ctx, 'ec2:DescribeInstances', () =>
      ids.flatMap((id) => {
        const instance = visible(ctx, id, options.includeTerminated === true)
        return instance === undefined ? [] : [toInstance(instance)]
      }),
    ),
  )

export const describeLaunchedSpotInstances = (ctx: PortContext): Instance[] =>
  request(ctx, 'ec2:DescribeInstances', () =>
    [...ctx.region.instances.values()]
      .filter((i) => isRunningOrPending(i) && i.tags[TAG_LAUNCHED_FOR_GROUP] !== undefined)
      .map(toInstance),
  )

export const describeInstanceTypes = (ctx: PortContext): Catalog => {
  const cache = ctx.region.adapterCache
  const now = ctx.world.clock.now
  if (now < cache.catalogUntilMs) return ctx.world.catalog
  const catalog = paged(
    ctx,
    'ec2:DescribeInstanceTypes',
    ctx.world.catalog.size,
    INSTANCE_TYPES_PAGE_SIZE,
    () => ctx.world.catalog,
  )
  cache.catalogUntilMs = now + CATALOG_CACHE_TTL_MS
  return catalog
}

export const describeSpotPrices = (ctx: PortContext, productDescription: string): SpotPrice[] => {
  const rows = ctx.region.market.priceRows(productDescription, ctx.world.clock.now)
  return paged(ctx, 'ec2:DescribeSpotPriceHistory', rows.length, SPOT_PRICES_PAGE_SIZE, () => rows)
}

/**
 * The simulated Pricing API answers with the region's on-demand prices (the embedded table); like the
 * adapter, a failure falls back to the same embedded figures instead of throwing.
 */
export const onDemandPrices = (ctx: PortContext, platform: string): OnDemandPrices => {
  const prices = ctx.region.market.onDemandPrices(platform)
  const cache = ctx.region.adapterCache.pricesUntilMs
  const key = productDescriptionOf(platform)
  const now = ctx.world.clock.now
  if (now < (cache.get(key) ?? Number.NEGATIVE_INFINITY)) return { prices, source: 'pricing-api' }
  try {
    paged(ctx, 'pricing:GetProducts', prices.size, PRICING_PAGE_SIZE, () => undefined)
  } catch (error) {
    if (ctx.session.crashed) throw error
    return { prices, source: 'embedded' }
  }
  cache.set(key, now + PRICE_CACHE_TTL_MS)
  return { prices, source: 'pricing-api' }
}

/** One DescribeInstanceAttribute per instance; instances that are gone count as unprotected. */
export const terminationProtected = (ctx: PortContext, ids: readonly string[]): Set<string> => {
  const protectedIds = new Set<string>()
  for (const id of new Set(ids)) {
    const isProtected = request(
      ctx,
      'ec2:DescribeInstanceAttribute',
      () => ctx.region.live(id)?.terminationProtected === true,
      { group: groupOfId(ctx, id) },
    )
    if (isProtected) protectedIds.add(id)
  }
  return protectedIds
}

/** The simulated account has no CloudFormation stacks: every name is asked about and none exists. */
export const stackStatuses = (ctx: PortContext, stackNames: readonly string[]): Map<string, string> => {
  for (const _name of new Set(stackNames)) request(ctx, 'cloudformation:DescribeStacks', () => undefined)
  return new Map()
}

export const lifecycleHooks = (ctx: PortContext, groupName: string): LifecycleHook[] =>
  request(ctx, 'autoscaling:DescribeLifecycleHooks', () => [...groupNamed(ctx.region, groupName).hooks], {
    group: groupName,
  })

/** One page: a simulated group has a handful of refreshes at most. */
export const instanceRefreshes = (ctx: PortContext, groupName: string): InstanceRefresh[] =>
  request(
    ctx,
    'autoscaling:DescribeInstanceRefreshes',
    () => {
      const group = groupNamed(ctx.region, groupName)
      // As moto answers it: an HTML page with status 500, which the SDK reports as an unknown error.
      if (group.refreshesUnreadable) throw simAwsError('InternalFailure', 500, 'Internal Server Error')
      return group.refreshes.map((r) => ({ id: r.id, status: r.status }))
    },
    { group: groupName },
  )

/** The simulator's subnets are `subnet-<zone>`, one per zone of the region (state.ts subnetOf). */
export const subnetZones = (ctx: PortContext, subnetIds: readonly string[]): Map<string, string> =>
  request(ctx, 'ec2:DescribeSubnets', () => {
    const zones = new Map<string, string>()
    for (const id of subnetIds) {
      const zone = zoneOfSubnet(id)
      if (zone !== undefined && ctx.region.zones.includes(zone)) zones.set(id, zone)
    }
    return zones
  })

export const groupOfInstances = (ctx: PortContext, ids: readonly string[]): Map<string, string> => {
  const owners = new Map<string, string>()
  for (const idsChunk of chunk(ids, GROUP_INSTANCES_CHUNK)) {
    request(ctx, 'autoscaling:DescribeAutoScalingInstances', () => {
      for (const id of idsChunk) {
        const group = ctx.region.groupOf(id)
        if (group !== undefined) owners.set(id, group.name)
      }
    })
  }
  return owners
}

/** Newest first, paged as the adapter pages them (it stops at the first page that reaches `since`). */
export const scalingActivities = (ctx: PortContext, groupName: string, since: Date): ScalingActivity[] => {
  const recent = groupNamed(ctx.region, groupName)
    .activities.filter((a) => a.startMs >= since.getTime())
    .reverse()
    .map((a) => ({ startTime: new Date(a.startMs), cause: a.cause }))
  return paged(
    ctx,
    'autoscaling:DescribeScalingActivities',
    recent.length + 1,
    SCALING_ACTIVITIES_PAGE_SIZE,
    () => recent,
  )
}

const settingsOf = (balancer: SimLoadBalancer) => ({
  intervalSeconds: balancer.healthCheckIntervalSeconds,
  healthyThreshold: balancer.healthyThreshold,
})

/**
 * The requests lambdas/aws/load-balancers.ts makes: DescribeTargetGroups in batches, one
 * DescribeTargetHealth per target group (an instance named but not registered is `unused`), one
 * DescribeLoadBalancers for the classic ones and one DescribeInstanceHealth each (registered instances
 * only). Nothing is asked for no instances.
 */
export const trafficHealth = (
  ctx: PortContext,
  sources: TrafficSources,
  ids: readonly string[],
): TrafficHealth => {
  const settings = new Map<string, HealthCheckSettings>()
  const states = new Map<string, Map<string, TargetState>>()
  if (ids.length === 0) return { settings, states }
  const wanted = [...new Set(ids)]
  const balancer = (type: 'target-group' | 'classic', id: string): SimLoadBalancer => {
    const found = ctx.region.loadBalancers.get(trafficSourceKey(type, id))
    if (found === undefined) throw type === 'classic' ? loadBalancerNotFound(id) : targetGroupNotFound(id)
    return found
  }
  const groupOf = (type: 'target-group' | 'classic', id: string | undefined) => ({
    group: ctx.region.loadBalancers.get(trafficSourceKey(type, id ?? ''))?.group,
  })
  for (const arns of chunk(sources.targetGroupArns, TARGET_GROUPS_PER_DESCRIBE))
    request(
      ctx,
      'elasticloadbalancing:DescribeTargetGroups',
      () => {
        for (const arn of arns)
          settings.set(trafficSourceKey('target-group', arn), settingsOf(balancer('target-group', arn)))
      },
      groupOf('target-group', arns[0]),
    )
  for (const arn of sources.targetGroupArns)
    request(
      ctx,
      'elasticloadbalancing:DescribeTargetHealth',
      () => {
        const targetGroup = balancer('target-group', arn)
        const now = ctx.world.clock.now
        for (const id of wanted)
          addTargetState(states, id, targetGroup.key, targetState(targetGroup, id, now) ?? NOT_REGISTERED)
      },
      groupOf('target-group', arn),
    )
  const names = sources.classicLoadBalancerNames
  if (names.length > 0)
    request(
      ctx,
      'elasticloadbalancing:DescribeLoadBalancers',
      () => {
        for (const name of names)
          settings.set(trafficSourceKey('classic', name), settingsOf(balancer('classic', name)))
      },
      groupOf('classic', names[0]),
    )
  for (const name of names)
    request(
      ctx,
      'elasticloadbalancing:DescribeInstanceHealth',
      () => {
        const classic = balancer('classic', name)
        const now = ctx.world.clock.now
        for (const id of wanted) {
          const state = targetState(classic, id, now)
          if (state !== undefined) addTargetState(states, id, classic.key, state)
        }
      },
      groupOf('classic', name),
    )
  return { settings, states }
}
