/**
 * EC2's commitment reads, answered from the scenario's `commitments`: DescribeReservedInstances and
 * DescribeCapacityReservations. Each item's State follows the clock, so a commitment that starts or ends
 * mid-run appears in, or leaves, the adapter's `state=active` listing when AWS's would.
 */
import type {
  CapacityReservation,
  CapacityReservationState,
  Filter,
  ReservedInstanceState,
  ReservedInstances,
} from '@aws-sdk/client-ec2'
import type { Ec2Api } from '../../../lambdas/aws/cloud.ts'
import type { InEffect } from '../scenario/types.ts'
import type { PageRule } from './paging.ts'
import { answer, type SimApiContext } from './request.ts'

type CommitmentReads = Required<Pick<Ec2Api, 'describeReservedInstances' | 'describeCapacityReservations'>>

const DAY_MS = 86_400_000
/** What a listing shows for a commitment in effect before the run: bought a year ago, for a year more. */
const TERM_MS = 365 * DAY_MS

// MaxResults 5 to 1000; without it, every reservation at once
// (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeCapacityReservations.html).
const RESERVATIONS: PageRule = {
  operation: 'DescribeCapacityReservations',
  defaultSize: undefined,
  min: 5,
  max: 1000,
  invalidCode: 'InvalidParameterValue',
}

/** A queued RI starts at its start date; a retired one has ended (ReservedInstanceState). */
const riState = (at: number, item: InEffect): ReservedInstanceState =>
  at < item.startMs ? 'queued' : at < item.endMs ? 'active' : 'retired'

/** A future-dated reservation is `scheduled` until its start, `expired` after its end (CapacityReservation State). */
const reservationState = (at: number, item: InEffect): CapacityReservationState =>
  at < item.startMs ? 'scheduled' : at < item.endMs ? 'active' : 'expired'

const dates = (at: number, item: InEffect) => {
  const start = Number.isFinite(item.startMs) ? item.startMs : at - TERM_MS
  const end = Number.isFinite(item.endMs) ? item.endMs : Math.max(at, start) + TERM_MS
  return { start: new Date(start), end: new Date(end), durationSeconds: Math.round((end - start) / 1000) }
}

/** The filters the adapter sends, on the item's state; any other is a simulator gap, not an AWS answer. */
const stateFilter = (filters: readonly Filter[] | undefined): ((state: string) => boolean) => {
  let test = (_state: string) => true
  for (const filter of filters ?? []) {
    if (filter.Name !== 'state')
      throw new Error(`simulator: commitment filter ${filter.Name} is not modelled`)
    const wanted = new Set(filter.Values ?? [])
    const previous = test
    test = (state) => previous(state) && wanted.has(state)
  }
  return test
}

export const commitmentReads = (ctx: SimApiContext): CommitmentReads => ({
  describeReservedInstances: (input) =>
    answer(ctx, 'ec2:DescribeReservedInstances', () => {
      const at = ctx.world.clock.now
      const keep = stateFilter(input?.Filters)
      const listed: ReservedInstances[] = []
      for (const ri of ctx.region.commitments?.reservedInstances ?? []) {
        const state = riState(at, ri)
        if (!keep(state)) continue
        const { start, end, durationSeconds } = dates(at, ri)
        listed.push({
          ReservedInstancesId: ri.id,
          InstanceType: ri.type as ReservedInstances['InstanceType'],
          Scope: ri.scope === 'zonal' ? 'Availability Zone' : 'Region',
          AvailabilityZone: ri.zone,
          ProductDescription: ri.platform as ReservedInstances['ProductDescription'],
          InstanceTenancy: ri.tenancy,
          InstanceCount: ri.count,
          State: state,
          Start: start,
          End: end,
          Duration: durationSeconds,
          OfferingType: 'No Upfront',
          FixedPrice: 0,
          UsagePrice: 0,
          RecurringCharges: [{ Frequency: 'Hourly', Amount: ri.hourlyRateUsd }],
          CurrencyCode: 'USD',
        })
      }
      return { ReservedInstances: listed, $metadata: {} }
    }),
  describeCapacityReservations: (input) =>
    answer(ctx, 'ec2:DescribeCapacityReservations', () => {
      const at = ctx.world.clock.now
      const keep = stateFilter(input?.Filters)
      const page = ctx.listings.page(
        RESERVATIONS,
        { maxResults: input?.MaxResults, nextToken: input?.NextToken },
        () =>
          (ctx.region.commitments?.capacityReservations ?? []).flatMap((cr): CapacityReservation[] => {
            const state = reservationState(at, cr)
            if (!keep(state)) return []
            const { start, end } = dates(at, cr)
            return [
              {
                CapacityReservationId: cr.id,
                InstanceType: cr.type,
                AvailabilityZone: cr.zone,
                InstancePlatform: cr.platform as CapacityReservation['InstancePlatform'],
                Tenancy: cr.tenancy,
                TotalInstanceCount: cr.count,
                InstanceMatchCriteria: cr.open ? 'open' : 'targeted',
                State: state,
                StartDate: start,
                EndDate: Number.isFinite(cr.endMs) ? end : undefined,
                EndDateType: Number.isFinite(cr.endMs) ? 'limited' : 'unlimited',
              },
            ]
          }),
      )
      return { CapacityReservations: page.items, NextToken: page.nextToken, $metadata: {} }
    }),
})
