import {
  DescribeCapacityReservationsCommand,
  DescribeInstancesCommand,
  DescribeReservedInstancesCommand,
} from '@aws-sdk/client-ec2'
import { DescribeSavingsPlansCommand, SavingsplansClient } from '@aws-sdk/client-savingsplans'
import { mockClient } from 'aws-sdk-client-mock'
import { beforeEach, describe, expect, it } from 'vitest'
import { COMMITMENTS_CACHE_TTL_MS, EMPTY_RESERVATION_SLOT_MS } from '../../lambdas/core/constants.ts'
import { ec2Mock, REGION, resetMocks, testAdapter } from './support.ts'

const savingsPlansMock = mockClient(SavingsplansClient)

beforeEach(() => {
  resetMocks()
  savingsPlansMock.reset()
  savingsPlansMock.on(DescribeSavingsPlansCommand).resolves({ savingsPlans: [] })
})

const oneYear = 365 * 24 * 3600

describe('readCommitments', () => {
  it('reads the active RIs and Capacity Reservations, every page, as the billing module sees them', async () => {
    ec2Mock.on(DescribeReservedInstancesCommand).resolves({
      ReservedInstances: [
        {
          ReservedInstancesId: 'ri-regional',
          InstanceType: 'm5.large',
          Scope: 'Region',
          ProductDescription: 'Linux/UNIX (Amazon VPC)',
          InstanceTenancy: 'default',
          InstanceCount: 3,
          FixedPrice: 876,
          Duration: oneYear,
          UsagePrice: 0,
          RecurringCharges: [{ Frequency: 'Hourly', Amount: 0.01 }],
        },
        {
          ReservedInstancesId: 'ri-zonal',
          InstanceType: 'c5.xlarge',
          Scope: 'Availability Zone',
          AvailabilityZone: `${REGION}b`,
          ProductDescription: 'Windows',
          InstanceTenancy: 'dedicated',
          InstanceCount: 1,
        },
      ],
    })
    ec2Mock
      .on(DescribeCapacityReservationsCommand)
      .resolvesOnce({
        CapacityReservations: [
          {
            CapacityReservationId: 'cr-open',
            InstanceType: 'm5.large',
            AvailabilityZone: `${REGION}a`,
            InstancePlatform: 'Linux/UNIX',
            Tenancy: 'default',
            TotalInstanceCount: 2,
            InstanceMatchCriteria: 'open',
          },
        ],
        NextToken: 'page-2',
      })
      .resolvesOnce({
        CapacityReservations: [
          {
            CapacityReservationId: 'cr-targeted',
            InstanceType: 'm5.large',
            AvailabilityZone: `${REGION}a`,
            InstancePlatform: 'Linux/UNIX',
            TotalInstanceCount: 1,
            InstanceMatchCriteria: 'targeted',
          },
        ],
      })
    const { cloud, apiCalls } = testAdapter()
    const commitments = await cloud.readCommitments?.()
    expect(commitments?.reservedInstances).toEqual([
      {
        id: 'ri-regional',
        scope: 'regional',
        type: 'm5.large',
        zone: undefined,
        region: REGION,
        platform: 'Linux/UNIX',
        tenancy: 'default',
        count: 3,
        // $876 over 8,760 hours, plus $0.01 an hour.
        hourlyRateUsd: expect.closeTo(0.11, 9),
      },
      {
        id: 'ri-zonal',
        scope: 'zonal',
        type: 'c5.xlarge',
        zone: `${REGION}b`,
        region: REGION,
        platform: 'Windows',
        tenancy: 'dedicated',
        count: 1,
        hourlyRateUsd: 0,
      },
    ])
    expect(commitments?.capacityReservations.map((cr) => [cr.id, cr.open, cr.count])).toEqual([
      ['cr-open', true, 2],
      ['cr-targeted', false, 1],
    ])
    expect(ec2Mock.commandCalls(DescribeReservedInstancesCommand).map((c) => c.args[0].input)).toEqual([
      { Filters: [{ Name: 'state', Values: ['active'] }] },
    ])
    expect(ec2Mock.commandCalls(DescribeCapacityReservationsCommand).map((c) => c.args[0].input)).toEqual([
      { Filters: [{ Name: 'state', Values: ['active', 'pending', 'scheduled'] }], NextToken: undefined },
      { Filters: [{ Name: 'state', Values: ['active', 'pending', 'scheduled'] }], NextToken: 'page-2' },
    ])
    expect(apiCalls).toEqual([
      'ec2:DescribeReservedInstances',
      'ec2:DescribeCapacityReservations',
      'ec2:DescribeCapacityReservations',
    ])
  })

  it('reads them once per COMMITMENTS_CACHE_TTL_MS, and again after', async () => {
    ec2Mock.on(DescribeReservedInstancesCommand).resolves({ ReservedInstances: [] })
    ec2Mock.on(DescribeCapacityReservationsCommand).resolves({ CapacityReservations: [] })
    const { cloud, apiCalls, clock } = testAdapter()
    await cloud.readCommitments?.()
    clock.nowMs += COMMITMENTS_CACHE_TTL_MS - 1
    await cloud.readCommitments?.()
    expect(apiCalls).toHaveLength(2)
    clock.nowMs += 1
    await cloud.readCommitments?.()
    expect(apiCalls).toHaveLength(4)
  })

  it('reads no instance while the account holds no commitment in the region', async () => {
    ec2Mock.on(DescribeReservedInstancesCommand).resolves({ ReservedInstances: [] })
    ec2Mock.on(DescribeCapacityReservationsCommand).resolves({ CapacityReservations: [] })
    const { cloud, apiCalls } = testAdapter()
    const read = await cloud.readCommitments?.(['m5.large'])
    expect(read?.regionOnDemand).toBeUndefined()
    expect(apiCalls).not.toContain('ec2:DescribeInstances')
  })

  it("reads the region's running on-demand instances, every page, once per COMMITMENTS_CACHE_TTL_MS", async () => {
    ec2Mock.on(DescribeReservedInstancesCommand).resolves({
      ReservedInstances: [
        { ReservedInstancesId: 'ri-1', InstanceType: 'm5.large', Scope: 'Region', InstanceCount: 1 },
      ],
    })
    ec2Mock.on(DescribeCapacityReservationsCommand).resolves({ CapacityReservations: [] })
    const launched = new Date('2026-01-01T00:00:00Z')
    ec2Mock
      .on(DescribeInstancesCommand)
      .resolvesOnce({
        Reservations: [
          {
            Instances: [
              {
                InstanceId: 'i-standalone',
                InstanceType: 'm5.large',
                Placement: { AvailabilityZone: `${REGION}a`, Tenancy: 'default' },
                PlatformDetails: 'Linux/UNIX',
                LaunchTime: launched,
              },
              {
                InstanceId: 'i-spot',
                InstanceType: 'm5.large',
                InstanceLifecycle: 'spot',
                Placement: { AvailabilityZone: `${REGION}a` },
              },
            ],
          },
        ],
        NextToken: 'page-2',
      })
      .resolvesOnce({
        Reservations: [
          {
            Instances: [
              {
                InstanceId: 'i-grouped',
                InstanceType: 'c5.xlarge',
                Placement: { AvailabilityZone: `${REGION}b`, Tenancy: 'dedicated' },
                PlatformDetails: 'Windows',
                LaunchTime: launched,
                Tags: [{ Key: 'aws:autoscaling:groupName', Value: 'batch' }],
              },
            ],
          },
        ],
      })
    const { cloud, apiCalls, clock } = testAdapter()
    const read = await cloud.readCommitments?.(['m5.large'])
    expect(read?.regionOnDemand).toEqual([
      {
        id: 'i-standalone',
        type: 'm5.large',
        zone: `${REGION}a`,
        platform: 'Linux/UNIX',
        tenancy: 'default',
        launchTimeMs: launched.getTime(),
        group: undefined,
      },
      {
        id: 'i-grouped',
        type: 'c5.xlarge',
        zone: `${REGION}b`,
        platform: 'Windows',
        tenancy: 'dedicated',
        launchTimeMs: launched.getTime(),
        group: 'batch',
      },
    ])
    // Every running id, spot ones too: a member missing from them joined since (listing-doubts.ts).
    expect(read?.regionRunningIds).toEqual(['i-standalone', 'i-spot', 'i-grouped'])
    expect(ec2Mock.commandCalls(DescribeInstancesCommand).map((c) => c.args[0].input)).toEqual([
      { Filters: [{ Name: 'instance-state-name', Values: ['running'] }], NextToken: undefined },
      { Filters: [{ Name: 'instance-state-name', Values: ['running'] }], NextToken: 'page-2' },
    ])
    clock.nowMs += COMMITMENTS_CACHE_TTL_MS - 1
    await cloud.readCommitments?.(['m5.large'])
    expect(apiCalls.filter((name) => name === 'ec2:DescribeInstances')).toHaveLength(2)
  })

  it('reads a scheduled reservation in the same listing: upcoming until its start, active from then', async () => {
    const { cloud, apiCalls, clock } = testAdapter()
    const untilStart = 10 * 60_000
    const start = new Date(clock.nowMs + untilStart)
    const reservation = (id: string, matchCriteria: 'open' | 'targeted') => ({
      CapacityReservationId: id,
      InstanceType: 'm5.large' as const,
      AvailabilityZone: `${REGION}a`,
      InstancePlatform: 'Linux/UNIX' as const,
      TotalInstanceCount: 1,
      InstanceMatchCriteria: matchCriteria,
      State: 'scheduled' as const,
      StartDate: start,
    })
    ec2Mock.on(DescribeReservedInstancesCommand).resolves({ ReservedInstances: [] })
    ec2Mock.on(DescribeCapacityReservationsCommand).resolves({
      CapacityReservations: [
        reservation('cr-open', 'open'),
        reservation('cr-targeted', 'targeted'),
        // Provisioning since a minute ago, maybe usable already: counted as active.
        { ...reservation('cr-pending', 'open'), State: 'pending', StartDate: new Date(clock.nowMs - 60_000) },
      ],
    })
    const ids = async () => {
      const read = await cloud.readCommitments?.()
      return {
        active: read?.capacityReservations.map((cr) => cr.id),
        upcoming: read?.upcomingReservations?.map((cr) => [cr.id, cr.startsAt?.toISOString(), cr.keepShare]),
      }
    }
    // Ten minutes before its start, against a slot empty for EMPTY_RESERVATION_SLOT_MS after it.
    const keepShare = untilStart / (untilStart + EMPTY_RESERVATION_SLOT_MS)
    expect(await ids()).toEqual({
      active: ['cr-pending'],
      upcoming: [['cr-open', start.toISOString(), expect.closeTo(keepShare, 12)]],
    })
    clock.nowMs = start.getTime()
    // A targeted one is active from its start too: no running member moves into it.
    expect(await ids()).toEqual({ active: ['cr-open', 'cr-targeted', 'cr-pending'], upcoming: undefined })
    // Still the cached listing: read once.
    expect(apiCalls).toEqual(['ec2:DescribeReservedInstances', 'ec2:DescribeCapacityReservations'])
  })

  // Chaos seed 40728: a listing read before the start missed an instance launched just before it, which
  // took the slot, and the member the listing showed alone in it was kept for nothing until the cache expired.
  it("reads the region's instances again once an open reservation starts after they were read", async () => {
    const { cloud, apiCalls, clock } = testAdapter()
    const start = new Date(clock.nowMs + 10 * 60_000)
    ec2Mock.on(DescribeReservedInstancesCommand).resolves({ ReservedInstances: [] })
    ec2Mock.on(DescribeCapacityReservationsCommand).resolves({
      CapacityReservations: [
        {
          CapacityReservationId: 'cr-scheduled',
          InstanceType: 'm5.large',
          AvailabilityZone: `${REGION}a`,
          InstancePlatform: 'Linux/UNIX',
          TotalInstanceCount: 1,
          InstanceMatchCriteria: 'open',
          State: 'scheduled',
          StartDate: start,
        },
      ],
    })
    const running = (ids: readonly string[]) => ({
      Reservations: [
        {
          Instances: ids.map((id) => ({
            InstanceId: id,
            InstanceType: 'm5.large' as const,
            Placement: { AvailabilityZone: `${REGION}a`, Tenancy: 'default' as const },
            PlatformDetails: 'Linux/UNIX',
            LaunchTime: new Date(clock.nowMs),
          })),
        },
      ],
    })
    ec2Mock
      .on(DescribeInstancesCommand)
      .resolvesOnce(running(['i-member']))
      .resolvesOnce(running(['i-member', 'i-launched-before-the-start']))
    const listed = async () => (await cloud.readCommitments?.(['m5.large']))?.regionOnDemand?.map((i) => i.id)
    const reads = () => apiCalls.filter((name) => name === 'ec2:DescribeInstances').length
    expect(await listed()).toEqual(['i-member'])
    clock.nowMs = start.getTime() - 1
    expect(await listed()).toEqual(['i-member'])
    expect(reads()).toBe(1)
    clock.nowMs = start.getTime()
    expect(await listed()).toEqual(['i-member', 'i-launched-before-the-start'])
    clock.nowMs += 60_000
    await listed()
    expect(reads()).toBe(2)
  })

  it('stops listing an RI or a Capacity Reservation at its end, while the listing is cached', async () => {
    const { cloud, apiCalls, clock } = testAdapter()
    const end = new Date(clock.nowMs + 60_000)
    ec2Mock.on(DescribeReservedInstancesCommand).resolves({
      ReservedInstances: [
        { ReservedInstancesId: 'ri-ending', InstanceType: 'm5.large', InstanceCount: 1, End: end },
        { ReservedInstancesId: 'ri-later', InstanceType: 'm5.large', InstanceCount: 1 },
      ],
    })
    ec2Mock.on(DescribeCapacityReservationsCommand).resolves({
      CapacityReservations: [
        {
          CapacityReservationId: 'cr-ending',
          InstanceType: 'm5.large',
          AvailabilityZone: `${REGION}a`,
          TotalInstanceCount: 1,
          EndDate: end,
        },
      ],
    })
    const ids = async () => {
      const read = await cloud.readCommitments?.()
      return [...(read?.reservedInstances ?? []), ...(read?.capacityReservations ?? [])].map((c) => c.id)
    }
    expect(await ids()).toEqual(['ri-ending', 'ri-later', 'cr-ending'])
    clock.nowMs = end.getTime()
    expect(await ids()).toEqual(['ri-later'])
    // Still the cached listing: read once.
    expect(apiCalls).toEqual(['ec2:DescribeReservedInstances', 'ec2:DescribeCapacityReservations'])
  })
})
