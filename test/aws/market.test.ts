import { DescribeInstanceTypesCommand, DescribeSpotPriceHistoryCommand } from '@aws-sdk/client-ec2'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAwsCloud } from '../../lambdas/aws/cloud.ts'
import { CATALOG_CACHE_TTL_MS } from '../../lambdas/core/constants.ts'
import { silentLog } from '../../lambdas/core/log.ts'
import { g4dnXlarge, m5Large, t3Large } from './sdk-fixtures.ts'
import { awsError, ec2Mock, resetMocks, testAdapter } from './support.ts'

beforeEach(resetMocks)

describe('describeInstanceTypes', () => {
  const twoPages = () =>
    ec2Mock
      .on(DescribeInstanceTypesCommand)
      .resolvesOnce({ InstanceTypes: [g4dnXlarge, t3Large], NextToken: 'more' })
      .resolvesOnce({ InstanceTypes: [m5Large] })

  it('reads every page of 100 into a catalog keyed by type', async () => {
    twoPages()
    const catalog = await testAdapter().cloud.describeInstanceTypes()

    expect([...catalog.keys()]).toEqual(['g4dn.xlarge', 't3.large', 'm5.large'])
    expect(catalog.get('g4dn.xlarge')?.accelerator?.kind).toBe('gpu')
    expect(ec2Mock).toHaveReceivedNthCommandWith(DescribeInstanceTypesCommand, 1, { MaxResults: 100 })
    expect(ec2Mock).toHaveReceivedNthCommandWith(DescribeInstanceTypesCommand, 2, {
      MaxResults: 100,
      NextToken: 'more',
    })
  })

  it('serves the cached catalog until CATALOG_CACHE_TTL_MS has passed, then reads it again', async () => {
    twoPages()
    const { cloud, clock } = testAdapter()

    const first = await cloud.describeInstanceTypes()
    clock.nowMs += CATALOG_CACHE_TTL_MS - 1
    const cached = await cloud.describeInstanceTypes()
    expect(cached).toBe(first)
    expect(ec2Mock).toHaveReceivedCommandTimes(DescribeInstanceTypesCommand, 2)

    ec2Mock.on(DescribeInstanceTypesCommand).resolves({ InstanceTypes: [m5Large] })
    clock.nowMs += 1
    const refreshed = await cloud.describeInstanceTypes()
    expect([...refreshed.keys()]).toEqual(['m5.large'])
    expect(ec2Mock).toHaveReceivedCommandTimes(DescribeInstanceTypesCommand, 3)
  })

  it('does not cache a failed read', async () => {
    ec2Mock
      .on(DescribeInstanceTypesCommand)
      .rejectsOnce(awsError('RequestLimitExceeded', 'Request limit exceeded.', 503))
      .resolves({ InstanceTypes: [t3Large] })
    const { cloud } = testAdapter()

    await expect(cloud.describeInstanceTypes()).rejects.toThrow('Request limit exceeded.')
    await expect(cloud.describeInstanceTypes()).resolves.toHaveProperty('size', 1)
  })

  it('keeps one catalog per region', async () => {
    ec2Mock.on(DescribeInstanceTypesCommand).resolves({ InstanceTypes: [m5Large] })
    const ireland = testAdapter('eu-west-1')
    await ireland.cloud.describeInstanceTypes()
    // A second adapter sharing the same caches but for another region must read its own catalog.
    const frankfurt = createAwsCloud('eu-central-1', {
      logger: silentLog,
      caches: ireland.caches,
      now: () => ireland.clock.nowMs,
    })
    await frankfurt.describeInstanceTypes()
    await ireland.cloud.describeInstanceTypes()
    expect(ec2Mock).toHaveReceivedCommandTimes(DescribeInstanceTypesCommand, 2)
  })
})

describe('describeSpotPrices', () => {
  it('asks for prices at `now` with the ProductDescriptions parameter, 1000 rows a page', async () => {
    const now = new Date('2026-03-02T10:00:00Z')
    ec2Mock
      .on(DescribeSpotPriceHistoryCommand)
      .resolvesOnce({
        SpotPriceHistory: [
          {
            AvailabilityZone: 'eu-west-1a',
            InstanceType: 'm5.large',
            ProductDescription: 'Linux/UNIX',
            SpotPrice: '0.038100',
            Timestamp: new Date('2026-03-02T08:17:43Z'),
          },
        ],
        NextToken: 'p2',
      })
      .resolvesOnce({
        SpotPriceHistory: [
          {
            AvailabilityZone: 'eu-west-1b',
            InstanceType: 't3.large',
            ProductDescription: 'Linux/UNIX',
            SpotPrice: '0.028700',
            Timestamp: new Date('2026-03-02T09:02:11Z'),
          },
        ],
      })

    const prices = await testAdapter().cloud.describeSpotPrices('Linux/UNIX', now)

    expect(prices.map((p) => [p.instanceType, p.zone, p.priceUsd])).toEqual([
      ['m5.large', 'eu-west-1a', 0.0381],
      ['t3.large', 'eu-west-1b', 0.0287],
    ])
    const inputs = ec2Mock.commandCalls(DescribeSpotPriceHistoryCommand).map((call) => call.args[0].input)
    expect(inputs[0]).toEqual({ StartTime: now, ProductDescriptions: ['Linux/UNIX'], MaxResults: 1000 })
    expect(inputs[1]).toEqual({
      StartTime: now,
      ProductDescriptions: ['Linux/UNIX'],
      MaxResults: 1000,
      NextToken: 'p2',
    })
    expect(inputs.every((input) => input.Filters === undefined)).toBe(true)
  })
})
