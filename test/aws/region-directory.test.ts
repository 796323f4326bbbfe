import { DescribeRegionsCommand } from '@aws-sdk/client-ec2'
import { beforeEach, describe, expect, it } from 'vitest'
import { createRegionDirectory } from '../../lambdas/aws/cloud.ts'
import { ec2Mock, resetMocks } from './support.ts'

beforeEach(resetMocks)

describe('createRegionDirectory', () => {
  it('lists only the enabled regions, sorted, counting the call', async () => {
    ec2Mock.on(DescribeRegionsCommand).resolves({
      Regions: [
        {
          RegionName: 'us-east-1',
          Endpoint: 'ec2.us-east-1.amazonaws.com',
          OptInStatus: 'opt-in-not-required',
        },
        {
          RegionName: 'eu-west-1',
          Endpoint: 'ec2.eu-west-1.amazonaws.com',
          OptInStatus: 'opt-in-not-required',
        },
        { RegionName: 'ap-east-1', Endpoint: 'ec2.ap-east-1.amazonaws.com', OptInStatus: 'opted-in' },
      ],
    })
    const apiCalls: string[] = []

    const regions = await createRegionDirectory({
      homeRegion: 'eu-west-1',
      onApiCall: (n) => apiCalls.push(n),
    }).enabledRegions()

    expect(regions).toEqual(['ap-east-1', 'eu-west-1', 'us-east-1'])
    expect(ec2Mock).toHaveReceivedCommandWith(DescribeRegionsCommand, { AllRegions: false })
    expect(apiCalls).toEqual(['ec2:DescribeRegions'])
  })
})
