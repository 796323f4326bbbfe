import {
  DescribeCapacityReservationsCommand,
  DescribeInstancesCommand,
  DescribeReservedInstancesCommand,
} from '@aws-sdk/client-ec2'
import {
  DescribeSavingsPlanRatesCommand,
  DescribeSavingsPlansCommand,
  type SavingsPlanRate,
  SavingsplansClient,
} from '@aws-sdk/client-savingsplans'
import { mockClient } from 'aws-sdk-client-mock'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAwsCloud } from '../../lambdas/aws/cloud.ts'
import { type ApiCallName, createAdapterCaches } from '../../lambdas/aws/context.ts'
import { rateKey } from '../../lambdas/core/commitments/types.ts'
import { COMMITMENTS_CACHE_TTL_MS } from '../../lambdas/core/constants.ts'
import { ec2Mock, REGION, resetMocks, testAdapter } from './support.ts'

const savingsPlansMock = mockClient(SavingsplansClient)

beforeEach(() => {
  resetMocks()
  savingsPlansMock.reset()
  ec2Mock.on(DescribeReservedInstancesCommand).resolves({ ReservedInstances: [] })
  ec2Mock.on(DescribeCapacityReservationsCommand).resolves({ CapacityReservations: [] })
  ec2Mock.on(DescribeInstancesCommand).resolves({ Reservations: [] })
})

const rate = (
  type: string,
  usd: string,
  properties: Readonly<Record<string, string>> = {},
  overrides: Partial<SavingsPlanRate> = {},
): SavingsPlanRate => ({
  rate: usd,
  currency: 'USD',
  unit: 'Hrs',
  productType: 'EC2',
  serviceCode: 'AmazonEC2',
  usageType: `EU-BoxUsage:${type}`,
  operation: 'RunInstances',
  properties: Object.entries({
    region: REGION,
    instanceType: type,
    productDescription: 'Linux/UNIX',
    tenancy: 'shared',
    ...properties,
  }).map(([name, value]) => ({ name: name as 'region', value })),
  ...overrides,
})

const PLANS = [
  { savingsPlanId: 'sp-compute', savingsPlanType: 'Compute', currency: 'USD', commitment: '2.5' },
  {
    savingsPlanId: 'sp-m5-here',
    savingsPlanType: 'EC2Instance',
    currency: 'USD',
    commitment: '1.25',
    region: REGION,
    ec2InstanceFamily: 'm5',
  },
  {
    savingsPlanId: 'sp-m5-elsewhere',
    savingsPlanType: 'EC2Instance',
    currency: 'USD',
    commitment: '3',
    region: 'us-west-2',
    ec2InstanceFamily: 'm5',
  },
  { savingsPlanId: 'sp-sagemaker', savingsPlanType: 'SageMaker', currency: 'USD', commitment: '4' },
  { savingsPlanId: 'sp-cny', savingsPlanType: 'Compute', currency: 'CNY', commitment: '10' },
] as const

describe('readCommitments: Savings Plans', () => {
  it('reads the active plans that can apply in the region, and their EC2 rates for the types it runs', async () => {
    savingsPlansMock
      .on(DescribeSavingsPlansCommand)
      .resolvesOnce({ savingsPlans: [...PLANS.slice(0, 3)], nextToken: 'plans-2' })
      .resolvesOnce({ savingsPlans: [...PLANS.slice(3)] })
    savingsPlansMock
      .on(DescribeSavingsPlanRatesCommand, { savingsPlanId: 'sp-compute' })
      .resolvesOnce({
        searchResults: [
          rate('m5.large', '0.0672'),
          rate('m5.large', '0.1512', { productDescription: 'Windows' }),
          // Not a spotswap platform, not an instance-hour, not a shared or dedicated instance: left out.
          rate('m5.large', '0.2', { productDescription: 'Windows with SQL Server Standard' }),
          rate('m5.large', '0.01', {}, { unit: 'Request' }),
          rate('m5.large', '0.5', { tenancy: 'host' }),
        ],
        nextToken: 'rates-2',
      })
      .resolvesOnce({ searchResults: [rate('c5.large', '0.0595', { tenancy: 'dedicated' })] })
    savingsPlansMock
      .on(DescribeSavingsPlanRatesCommand, { savingsPlanId: 'sp-m5-here' })
      .resolves({ searchResults: [rate('m5.large', '0.0601')] })

    const { cloud, apiCalls } = testAdapter()
    const read = await cloud.readCommitments?.(['m5.large', 'c5.large', 'm5.large'])

    expect(read?.savingsPlans).toEqual([
      {
        id: 'sp-compute',
        kind: 'compute',
        family: undefined,
        region: undefined,
        hourlyCommitmentUsd: 2.5,
        rates: new Map([
          [rateKey('m5.large', REGION, 'Linux/UNIX', 'default'), 0.0672],
          [rateKey('m5.large', REGION, 'Windows', 'default'), 0.1512],
          [rateKey('c5.large', REGION, 'Linux/UNIX', 'dedicated'), 0.0595],
        ]),
      },
      {
        id: 'sp-m5-here',
        kind: 'ec2-instance',
        family: 'm5',
        region: REGION,
        hourlyCommitmentUsd: 1.25,
        rates: new Map([[rateKey('m5.large', REGION, 'Linux/UNIX', 'default'), 0.0601]]),
      },
    ])
    expect(savingsPlansMock.commandCalls(DescribeSavingsPlansCommand).map((c) => c.args[0].input)).toEqual([
      { states: ['active'], nextToken: undefined },
      { states: ['active'], nextToken: 'plans-2' },
    ])
    expect(savingsPlansMock.commandCalls(DescribeSavingsPlanRatesCommand)[1]?.args[0].input).toEqual({
      savingsPlanId: 'sp-compute',
      filters: [
        { name: 'region', values: [REGION] },
        { name: 'productType', values: ['EC2'] },
        { name: 'instanceType', values: ['c5.large', 'm5.large'] },
      ],
      maxResults: 1000,
      nextToken: 'rates-2',
    })
    expect(apiCalls.filter((name) => name.startsWith('savingsplans:'))).toEqual([
      'savingsplans:DescribeSavingsPlans',
      'savingsplans:DescribeSavingsPlans',
      'savingsplans:DescribeSavingsPlanRates',
      'savingsplans:DescribeSavingsPlanRates',
      'savingsplans:DescribeSavingsPlanRates',
    ])
  })

  it('reads no plan when the region runs no on-demand member', async () => {
    const { cloud, apiCalls } = testAdapter()
    const read = await cloud.readCommitments?.([])
    expect(read?.savingsPlans).toEqual([])
    expect(apiCalls.filter((name) => name.startsWith('savingsplans:'))).toEqual([])
  })

  it('lists the plans once per COMMITMENTS_CACHE_TTL_MS for every region of the container, rates per region', async () => {
    savingsPlansMock.on(DescribeSavingsPlansCommand).resolves({ savingsPlans: [PLANS[0]] })
    savingsPlansMock.on(DescribeSavingsPlanRatesCommand).resolves({ searchResults: [] })
    const caches = createAdapterCaches()
    const calls: ApiCallName[] = []
    const clock = { nowMs: Date.parse('2026-03-02T10:00:00Z') }
    const adapter = (region: string) =>
      createAwsCloud(region, {
        onApiCall: (name) => calls.push(name),
        logger: { info: () => {}, warn: () => {} },
        now: () => clock.nowMs,
        caches,
      })
    const ireland = await adapter('eu-west-1').readCommitments?.(['m5.large'])
    const virginia = await adapter('us-east-1').readCommitments?.(['m5.large'])
    await adapter('eu-west-1').readCommitments?.(['m5.large'])
    // A Compute plan's whole commitment is offered to every region: none sees its use elsewhere.
    expect(ireland?.savingsPlans.map((p) => [p.id, p.hourlyCommitmentUsd])).toEqual([['sp-compute', 2.5]])
    expect(virginia?.savingsPlans.map((p) => [p.id, p.hourlyCommitmentUsd])).toEqual([['sp-compute', 2.5]])
    const count = (name: ApiCallName) => calls.filter((c) => c === name).length
    expect(count('savingsplans:DescribeSavingsPlans')).toBe(1)
    expect(count('savingsplans:DescribeSavingsPlanRates')).toBe(2)
    clock.nowMs += COMMITMENTS_CACHE_TTL_MS
    await adapter('eu-west-1').readCommitments?.(['m5.large'])
    expect(count('savingsplans:DescribeSavingsPlans')).toBe(2)
    expect(count('savingsplans:DescribeSavingsPlanRates')).toBe(3)
  })

  it("asks the rates of a Capacity Reservation's type too: plans apply to its empty slots", async () => {
    ec2Mock.on(DescribeCapacityReservationsCommand).resolves({
      CapacityReservations: [
        {
          CapacityReservationId: 'cr-1',
          InstanceType: 'm5.2xlarge',
          AvailabilityZone: 'us-east-1d',
          InstancePlatform: 'Linux/UNIX',
          TotalInstanceCount: 2,
          InstanceMatchCriteria: 'open',
        },
      ],
    })
    savingsPlansMock.on(DescribeSavingsPlansCommand).resolves({ savingsPlans: [PLANS[0]] })
    savingsPlansMock.on(DescribeSavingsPlanRatesCommand).resolves({ searchResults: [] })
    const { cloud } = testAdapter()
    await cloud.readCommitments?.(['m5.large'])
    const asked = savingsPlansMock
      .commandCalls(DescribeSavingsPlanRatesCommand)
      .map((call) => call.args[0].input.filters?.find((f) => f.name === 'instanceType')?.values)
    expect(asked).toEqual([['m5.2xlarge', 'm5.large']])
  })

  it('reads the plans and the region usage for the run that publishes utilization, whatever it runs', async () => {
    ec2Mock.on(DescribeReservedInstancesCommand).resolves({
      ReservedInstances: [
        { ReservedInstancesId: 'ri-1', InstanceType: 'm5.large', InstanceCount: 1, Scope: 'Region' },
      ],
    })
    savingsPlansMock.on(DescribeSavingsPlansCommand).resolves({ savingsPlans: [] })
    const { cloud, apiCalls } = testAdapter()
    expect((await cloud.readCommitments?.([]))?.regionOnDemand).toBeUndefined()
    expect((await cloud.readCommitments?.([], true))?.regionOnDemand).toEqual([])
    expect(apiCalls.filter((name) => name === 'ec2:DescribeInstances')).toHaveLength(1)
  })

  it('keeps the RIs read when the plans cannot be listed, and says why', async () => {
    ec2Mock.on(DescribeReservedInstancesCommand).resolves({
      ReservedInstances: [
        { ReservedInstancesId: 'ri-1', InstanceType: 'm5.large', InstanceCount: 1, Scope: 'Region' },
      ],
    })
    savingsPlansMock.on(DescribeSavingsPlansCommand).rejects(new Error('AccessDeniedException'))
    const { cloud } = testAdapter()
    const read = await cloud.readCommitments?.(['m5.large'])
    expect(read?.reservedInstances.map((ri) => ri.id)).toEqual(['ri-1'])
    expect(read?.savingsPlans).toEqual([])
    expect(read?.regionOnDemand).toEqual([])
    expect(read?.savingsPlansUnreadable).toContain('AccessDeniedException')
  })

  it('keeps what was read when the rates cannot be read, and says why', async () => {
    savingsPlansMock.on(DescribeSavingsPlansCommand).resolves({ savingsPlans: [PLANS[0]] })
    savingsPlansMock.on(DescribeSavingsPlanRatesCommand).rejects(new Error('ThrottlingException'))
    const { cloud } = testAdapter()
    const read = await cloud.readCommitments?.(['m5.large'])
    expect(read?.savingsPlans).toEqual([])
    expect(read?.savingsPlansUnreadable).toContain('ThrottlingException')
  })
})
