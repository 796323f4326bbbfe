/**
 * EC2's reads as the adapter sends them: DescribeInstances with its filters and paging, the termination
 * protection attribute, the instance type catalogue, spot prices and subnets.
 */
import type {
  DescribeInstanceStatusCommandInput,
  DescribeInstancesCommandInput,
  EventCode,
  Filter,
  InstanceStatus,
  Reservation,
} from '@aws-sdk/client-ec2'
import type { Ec2Api } from '../../../lambdas/aws/cloud.ts'
import { API_LIMITS } from '../../../lambdas/aws/limits.ts'
import { TERMINATED_VISIBLE_SECONDS } from '../constants.ts'
import { instanceNotFound, simAwsError } from '../errors.ts'
import { type SimInstance, zoneOfSubnet } from '../state.ts'
import { standaloneInstances } from './commitment-usage.ts'
import { checkCount, type PageRule } from './paging.ts'
import { answer, groupOfId, type SimApiContext } from './request.ts'
import { toEc2Instance, toEc2InstanceType } from './shapes.ts'
import { spotPriceRows } from './spot-prices.ts'

const INVALID = 'InvalidParameterValue'

const rule = (operation: string, limits: { min: number; max: number }, defaultSize?: number): PageRule => ({
  operation,
  defaultSize,
  min: limits.min,
  max: limits.max,
  invalidCode: INVALID,
})

// Without MaxResults, DescribeInstances answers every match at once
// (https://docs.aws.amazon.com/ec2/latest/devguide/ec2-api-pagination.html).
const INSTANCES = rule('DescribeInstances', API_LIMITS.describeInstancesMaxResults)
// Without MaxResults, DescribeInstanceTypes and DescribeSpotPriceHistory page at their maximum.
const TYPES = rule(
  'DescribeInstanceTypes',
  API_LIMITS.instanceTypesMaxResults,
  API_LIMITS.instanceTypesMaxResults.max,
)
const PRICES = rule(
  'DescribeSpotPriceHistory',
  API_LIMITS.spotPriceHistoryMaxResults,
  API_LIMITS.spotPriceHistoryMaxResults.max,
)

type InstanceTest = (instance: SimInstance) => boolean

/**
 * The filters the adapter sends; any other is refused, as EC2 refuses a filter name it does not know.
 * An `instance-id` filter is met by the candidates themselves (below), so it needs no test.
 */
const testOf = (filter: Filter): InstanceTest | undefined => {
  const values = filter.Values ?? []
  checkCount(INSTANCES, `values in filter ${filter.Name}`, values.length, API_LIMITS.ec2FilterValues)
  const wanted = new Set(values)
  switch (filter.Name) {
    case 'instance-id':
      return undefined
    case 'instance-state-name':
      return (i) => wanted.has(i.state)
    case 'tag-key':
      return (i) => values.some((key) => i.tags[key] !== undefined)
    default:
      throw simAwsError(INVALID, 400, `The filter '${filter.Name}' is invalid`)
  }
}

/** EC2 keeps listing a terminated instance for about an hour after its shutdown began. */
const listed = (ctx: SimApiContext, instance: SimInstance): boolean =>
  instance.state !== 'terminated' ||
  (instance.billedUntilMs !== undefined &&
    ctx.world.clock.now - instance.billedUntilMs <= TERMINATED_VISIBLE_SECONDS * 1000)

/**
 * Candidates for the filters: the named ids only when an `instance-id` filter names them; the scenario's
 * unmanaged usage is listed too, as the standalone instances it stands for.
 */
const candidates = (ctx: SimApiContext, filters: readonly Filter[]): Iterable<SimInstance> => {
  const byId = filters.find((f) => f.Name === 'instance-id')
  const standalone = standaloneInstances(ctx)
  if (byId === undefined) return [...ctx.region.instances.values(), ...standalone]
  const found: SimInstance[] = []
  for (const id of new Set(byId.Values ?? [])) {
    const instance = ctx.region.instances.get(id) ?? standalone.find((i) => i.id === id)
    if (instance !== undefined) found.push(instance)
  }
  return found
}

/**
 * The simulator does not model reservations (one per launch request in EC2): each page is one reservation,
 * which the adapter flattens all the same.
 */
const describeInstances = (ctx: SimApiContext, input: DescribeInstancesCommandInput) =>
  answer(ctx, 'ec2:DescribeInstances', () => {
    if (input.InstanceIds !== undefined && input.InstanceIds.length > 0)
      throw simAwsError(
        INVALID,
        400,
        'the simulator answers DescribeInstances by filters only, as the adapter asks',
      )
    const listing = (): SimInstance[] => {
      const filters = input.Filters ?? []
      const tests: InstanceTest[] = []
      for (const filter of filters) {
        const test = testOf(filter)
        if (test !== undefined) tests.push(test)
      }
      const found: SimInstance[] = []
      for (const instance of candidates(ctx, filters))
        if (listed(ctx, instance) && tests.every((test) => test(instance))) found.push(instance)
      return found
    }
    const page = ctx.listings.page(
      INSTANCES,
      { maxResults: input.MaxResults, nextToken: input.NextToken },
      listing,
    )
    const reservations: Reservation[] =
      page.items.length === 0 ? [] : [{ Instances: page.items.map(toEc2Instance) }]
    return { Reservations: reservations, NextToken: page.nextToken, $metadata: {} }
  })

// MaxResults 5 to 1000 (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeInstanceStatus.html).
const STATUSES = rule('DescribeInstanceStatus', API_LIMITS.describeInstancesMaxResults)

/**
 * DescribeInstanceStatus with an `event.code` filter, the one the adapter sends: running instances only
 * (IncludeAllInstances unset), those with a scheduled event of one of the codes, with their events.
 */
const describeInstanceStatus = (ctx: SimApiContext, input: DescribeInstanceStatusCommandInput) =>
  answer(ctx, 'ec2:DescribeInstanceStatus', () => {
    const filters = input.Filters ?? []
    for (const filter of filters)
      if (filter.Name !== 'event.code')
        throw simAwsError(INVALID, 400, `The filter '${filter.Name}' is invalid`)
    const codes = new Set(filters.flatMap((f) => f.Values ?? []))
    const listing = (): SimInstance[] =>
      [...ctx.region.instances.values()].filter(
        (i) =>
          (input.IncludeAllInstances === true || i.state === 'running') &&
          i.scheduledEvent !== undefined &&
          (codes.size === 0 || codes.has(i.scheduledEvent.code)),
      )
    const page = ctx.listings.page(
      STATUSES,
      { maxResults: input.MaxResults, nextToken: input.NextToken },
      listing,
    )
    const statuses: InstanceStatus[] = page.items.map((i) => ({
      InstanceId: i.id,
      AvailabilityZone: i.zone,
      InstanceState: { Name: i.state },
      Events: [
        {
          Code: i.scheduledEvent?.code as EventCode,
          // A completed event is still described for up to a week, as `[Completed] …`
          // (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_InstanceStatusEvent.html).
          Description: `${i.scheduledEvent?.completed === true ? '[Completed] ' : ''}The instance is scheduled for ${i.scheduledEvent?.code}`,
          NotBefore: new Date(i.scheduledEvent?.notBeforeMs ?? 0),
        },
      ],
    }))
    return { InstanceStatuses: statuses, NextToken: page.nextToken, $metadata: {} }
  })

export const ec2Reads = (
  ctx: SimApiContext,
): Pick<
  Ec2Api,
  | 'describeInstances'
  | 'describeInstanceAttribute'
  | 'describeInstanceStatus'
  | 'describeInstanceTypes'
  | 'describeSpotPriceHistory'
  | 'describeSubnets'
> => ({
  describeInstances: (input) => describeInstances(ctx, input),
  describeInstanceStatus: (input) => describeInstanceStatus(ctx, input),
  // A gone instance is InvalidInstanceID.NotFound: the adapter reads it as unprotected, an answer, not a failure.
  describeInstanceAttribute: (input) =>
    answer(
      ctx,
      'ec2:DescribeInstanceAttribute',
      () => {
        const id = input.InstanceId ?? ''
        const instance = ctx.region.live(id)
        if (instance === undefined) throw instanceNotFound(id)
        if (input.Attribute !== 'disableApiTermination')
          throw simAwsError(
            INVALID,
            400,
            `the simulator models disableApiTermination only, not ${input.Attribute}`,
          )
        return {
          InstanceId: id,
          DisableApiTermination: { Value: instance.terminationProtected },
          $metadata: {},
        }
      },
      () => ({ group: groupOfId(ctx, input.InstanceId ?? ''), notFoundIsAnAnswer: true }),
    ),
  describeInstanceTypes: (input) =>
    answer(ctx, 'ec2:DescribeInstanceTypes', () => {
      const page = ctx.listings.page(
        TYPES,
        { maxResults: input.MaxResults, nextToken: input.NextToken },
        () => [...ctx.world.catalog.values()],
      )
      return { InstanceTypes: page.items.map(toEc2InstanceType), NextToken: page.nextToken, $metadata: {} }
    }),
  // The price in effect now per pool of the product description (market.ts), StartTime being now.
  describeSpotPriceHistory: (input) =>
    answer(ctx, 'ec2:DescribeSpotPriceHistory', () => {
      const page = ctx.listings.page(
        PRICES,
        { maxResults: input.MaxResults, nextToken: input.NextToken },
        () => spotPriceRows(ctx.region.market, input.ProductDescriptions ?? [], ctx.world.clock.now),
      )
      return { SpotPriceHistory: page.items, NextToken: page.nextToken, $metadata: {} }
    }),
  // The simulator's subnets are `subnet-<zone>`, one per zone of the region (state.ts subnetOf).
  describeSubnets: (input) =>
    answer(ctx, 'ec2:DescribeSubnets', () => {
      const byId = (input.Filters ?? []).find((f) => f.Name === 'subnet-id')
      const ids = byId?.Values ?? input.SubnetIds ?? []
      checkCount(
        { operation: 'DescribeSubnets', invalidCode: INVALID },
        'subnet ids',
        ids.length,
        API_LIMITS.ec2FilterValues,
      )
      const subnets = ids.flatMap((SubnetId) => {
        const zone = zoneOfSubnet(SubnetId)
        return zone !== undefined && ctx.region.zones.includes(zone)
          ? [{ SubnetId, AvailabilityZone: zone }]
          : []
      })
      return { Subnets: subnets, $metadata: {} }
    }),
})
