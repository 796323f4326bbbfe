/**
 * A region's commitments this account holds, read at most every COMMITMENTS_CACHE_TTL_MS: active Reserved
 * Instances (DescribeReservedInstances: only the calling account's), active and future-dated Capacity
 * Reservations (one paginated read: core/commitments/upcoming.ts), the
 * Savings Plans that can apply in the region (savings-plans.ts), and the region's running on-demand
 * instances, managed or not, that compete for them. A Savings Plans read that fails is reported in the
 * result, the rest standing; other errors reach the caller, which warns and plans without commitments.
 */
import type {
  Instance as Ec2Instance,
  CapacityReservation as SdkCapacityReservation,
  ReservedInstances as SdkReservedInstances,
} from '@aws-sdk/client-ec2'
import { inEffectAt } from '../core/commitments/in-effect.ts'
import {
  type CapacityReservation,
  type Commitments,
  NO_COMMITMENTS,
  type RegionListing,
  type ReservedInstances,
  type RunningOnDemand,
  type Tenancy,
} from '../core/commitments/types.ts'
import { startedSince } from '../core/commitments/upcoming.ts'
import { productDescriptionOf } from '../core/platform.ts'
import type { AwsContext } from './context.ts'
import { describeConverted } from './instances.ts'
import { collectPages } from './paginate.ts'
import { activePlansIn, withRates } from './savings-plans.ts'

const SECONDS_PER_HOUR = 3600

const tenancyOf = (raw: string | undefined): Tenancy =>
  raw === 'default' || raw === undefined ? 'default' : 'dedicated'

/**
 * What one RI costs per hour: its upfront price spread over its term, its hourly usage price and its
 * hourly recurring charges (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_ReservedInstances.html).
 */
const hourlyRateOf = (ri: SdkReservedInstances): number => {
  const upfront = ri.Duration ? ((ri.FixedPrice ?? 0) / ri.Duration) * SECONDS_PER_HOUR : 0
  const recurring = (ri.RecurringCharges ?? [])
    .filter((c) => c.Frequency === 'Hourly')
    .reduce((sum, c) => sum + (c.Amount ?? 0), 0)
  return upfront + (ri.UsagePrice ?? 0) + recurring
}

const toReservedInstances = (region: string, ri: SdkReservedInstances): ReservedInstances | undefined => {
  if (ri.ReservedInstancesId === undefined || ri.InstanceType === undefined) return undefined
  const zonal = ri.Scope === 'Availability Zone'
  return {
    id: ri.ReservedInstancesId,
    scope: zonal ? 'zonal' : 'regional',
    type: ri.InstanceType,
    zone: zonal ? ri.AvailabilityZone : undefined,
    region,
    // `Linux/UNIX (Amazon VPC)` and the like name the same platform.
    platform: productDescriptionOf(ri.ProductDescription?.replace(/ \(Amazon VPC\)$/, '')),
    tenancy: tenancyOf(ri.InstanceTenancy),
    count: ri.InstanceCount ?? 0,
    hourlyRateUsd: hourlyRateOf(ri),
    // "The time when the Reserved Instance expires" (API_ReservedInstances).
    endsAt: ri.End,
  }
}

const toCapacityReservation = (
  region: string,
  cr: SdkCapacityReservation,
): CapacityReservation | undefined => {
  if (
    cr.CapacityReservationId === undefined ||
    cr.InstanceType === undefined ||
    cr.AvailabilityZone === undefined
  )
    return undefined
  return {
    id: cr.CapacityReservationId,
    type: cr.InstanceType,
    zone: cr.AvailabilityZone,
    region,
    platform: productDescriptionOf(cr.InstancePlatform),
    tenancy: tenancyOf(cr.Tenancy),
    count: cr.TotalInstanceCount ?? 0,
    open: cr.InstanceMatchCriteria === 'open',
    // The adapter knows no prices: the caller prices the slots from the region's on-demand prices.
    onDemandRateUsd: 0,
    // Expired, it no longer reserves capacity (API_CapacityReservation EndDate); AWS may take up to an hour
    // to cancel it: counted out from EndDate, spotswap errs towards replacing.
    endsAt: cr.EndDate,
    // Not active yet: a `scheduled` one starts at StartDate, a `pending` one once provisioned (cr-concepts).
    // An active one started then: the region listing is read again if it is older (regionListingOf).
    startsAt: cr.StartDate,
  }
}

/**
 * The states listed: `active`; `pending`, provisioning, maybe already usable
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-reservations-view.html); `scheduled`, a
 * future-dated one approved for delivery at its StartDate (API_CapacityReservation State). Not `assessing`
 * (not approved yet: it may never start) nor `delayed` (its start is past and unknown).
 */
const LISTED_RESERVATION_STATES = ['active', 'pending', 'scheduled']

const readReservedInstances = async (ctx: AwsContext): Promise<ReservedInstances[]> => {
  const describe = ctx.ec2.describeReservedInstances
  if (describe === undefined) return []
  const page = await ctx.call('ec2:DescribeReservedInstances', () =>
    describe({ Filters: [{ Name: 'state', Values: ['active'] }] }),
  )
  return (page.ReservedInstances ?? []).flatMap((ri) => toReservedInstances(ctx.region, ri) ?? [])
}

const readCapacityReservations = async (ctx: AwsContext): Promise<CapacityReservation[]> => {
  const describe = ctx.ec2.describeCapacityReservations
  if (describe === undefined) return []
  const reservations = await collectPages(async (nextToken) => {
    const page = await ctx.call('ec2:DescribeCapacityReservations', () =>
      describe({ Filters: [{ Name: 'state', Values: LISTED_RESERVATION_STATES }], NextToken: nextToken }),
    )
    return { items: page.CapacityReservations ?? [], nextToken: page.NextToken }
  })
  return reservations.flatMap((cr) => toCapacityReservation(ctx.region, cr) ?? [])
}

const GROUP_NAME_TAG = 'aws:autoscaling:groupName'

/**
 * An on-demand instance: EC2 sets InstanceLifecycle only for spot, scheduled and Capacity Block ones
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_Instance.html).
 */
const toRunningOnDemand = (instance: Ec2Instance): RunningOnDemand | undefined => {
  const zone = instance.Placement?.AvailabilityZone
  if (instance.InstanceLifecycle !== undefined) return undefined
  if (instance.InstanceId === undefined || instance.InstanceType === undefined || zone === undefined)
    return undefined
  return {
    id: instance.InstanceId,
    type: instance.InstanceType,
    zone,
    platform: productDescriptionOf(instance.PlatformDetails),
    tenancy: tenancyOf(instance.Placement?.Tenancy),
    launchTimeMs: instance.LaunchTime?.getTime() ?? 0,
    group: instance.Tags?.find((tag) => tag.Key === GROUP_NAME_TAG)?.Value,
  }
}

/**
 * Every running instance of the region, paged, on-demand ones kept: the `instance-lifecycle` filter has no
 * value for on-demand (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeInstances.html).
 */
const readRegionOnDemand = async (ctx: AwsContext): Promise<RegionListing> => {
  const readAtMs = ctx.now()
  const running = await describeConverted(
    ctx,
    [{ Name: 'instance-state-name', Values: ['running'] }],
    (instance) => instance,
  )
  return {
    readAtMs,
    onDemand: running.flatMap((instance) => toRunningOnDemand(instance) ?? []),
    runningIds: running.flatMap((instance) => instance.InstanceId ?? []),
  }
}

const holdsAny = (reserved: Commitments, plans: readonly unknown[]): boolean =>
  reserved.reservedInstances.length > 0 ||
  reserved.capacityReservations.length > 0 ||
  (reserved.upcomingReservations ?? []).length > 0 ||
  plans.length > 0

const describe = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error)

/**
 * The region's running instances, cached with the commitments (COMMITMENTS_CACHE_TTL_MS), and read again
 * when an open Capacity Reservation of `reserved` became active since: the instances running at its start
 * are those in it, which a listing from before cannot tell (core/commitments/upcoming.ts startedSince).
 */
const regionListingOf = async (
  ctx: AwsContext,
  reserved: Commitments = NO_COMMITMENTS,
): Promise<RegionListing> => {
  const load = () => readRegionOnDemand(ctx)
  const cached = await ctx.caches.regionOnDemand.get(ctx.region, ctx.now(), load)
  if (!startedSince(reserved, cached.readAtMs, new Date(ctx.now()))) return cached
  ctx.caches.regionOnDemand.forget(ctx.region)
  return ctx.caches.regionOnDemand.get(ctx.region, ctx.now(), load)
}

export const regionOnDemandOf = async (ctx: AwsContext): Promise<readonly RunningOnDemand[]> =>
  (await regionListingOf(ctx)).onDemand

/**
 * `instanceTypes`: the types of the run's on-demand members; none, nothing to decide and nothing read unless
 * `wholeRegion` (the run that publishes the region's utilization reads its usage whatever it runs). The
 * region's on-demand instances are read only when the account holds a commitment there, and their types'
 * Savings Plan rates with the members'. A Savings Plans read that fails leaves what was read standing
 * (`savingsPlansUnreadable`); any other failure reaches the caller.
 */
export const readCommitments = async (
  ctx: AwsContext,
  instanceTypes: readonly string[] = [],
  wholeRegion = false,
): Promise<Commitments> => {
  const cached = await ctx.caches.commitments.get(ctx.region, ctx.now(), async () => ({
    reservedInstances: await readReservedInstances(ctx),
    savingsPlans: [],
    capacityReservations: await readCapacityReservations(ctx),
  }))
  // The listing is cached: what ended since it was read counts no more (seed 11023).
  const reserved = inEffectAt(cached, new Date(ctx.now()))
  if (instanceTypes.length === 0 && !wholeRegion) return reserved
  let plans: Awaited<ReturnType<typeof activePlansIn>>
  try {
    plans = await activePlansIn(ctx)
  } catch (error) {
    const listing = holdsAny(reserved, []) ? await regionListingOf(ctx, reserved) : undefined
    return {
      ...reserved,
      regionOnDemand: listing?.onDemand,
      regionRunningIds: listing?.runningIds,
      savingsPlansUnreadable: describe(error),
    }
  }
  if (!holdsAny(reserved, plans)) return reserved
  const listing = await regionListingOf(ctx, reserved)
  const regionOnDemand = listing.onDemand
  const regionRunningIds = listing.runningIds
  // A reservation's empty slots are billed as usage, which plans apply to: their types' rates too.
  const types = [
    ...instanceTypes,
    ...regionOnDemand.map((i) => i.type),
    ...reserved.capacityReservations.map((cr) => cr.type),
  ]
  try {
    return { ...reserved, savingsPlans: await withRates(ctx, plans, types), regionOnDemand, regionRunningIds }
  } catch (error) {
    return { ...reserved, regionOnDemand, regionRunningIds, savingsPlansUnreadable: describe(error) }
  }
}
