import { DescribeSubnetsCommand } from '@aws-sdk/client-ec2'
import { beforeEach, describe, expect, it } from 'vitest'
import { ec2Mock, resetMocks, testAdapter } from './support.ts'

beforeEach(resetMocks)

describe('subnetZones', () => {
  it('asks by a subnet-id filter (a deleted subnet is left out, not an error) and maps each to its zone', async () => {
    ec2Mock.on(DescribeSubnetsCommand).resolves({
      Subnets: [{ SubnetId: 'subnet-0b', AvailabilityZone: 'eu-west-1b' }],
    })
    const zones = await testAdapter().cloud.subnetZones(['subnet-0b', 'subnet-gone', 'subnet-0b'])
    expect(zones).toEqual(new Map([['subnet-0b', 'eu-west-1b']]))
    expect(ec2Mock.commandCalls(DescribeSubnetsCommand).map((c) => c.args[0].input)).toEqual([
      { Filters: [{ Name: 'subnet-id', Values: ['subnet-0b', 'subnet-gone'] }], NextToken: undefined },
    ])
  })
})
