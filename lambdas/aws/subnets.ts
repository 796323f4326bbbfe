/** Subnet reads: which Availability Zone each subnet is in. */
import { INSTANCE_ID_FILTER_CHUNK } from '../core/constants.ts'
import type { AwsContext } from './context.ts'
import { chunk, collectPages } from './paginate.ts'

/**
 * By a `subnet-id` filter rather than SubnetIds, which fails the whole call with InvalidSubnetID.NotFound
 * when one subnet was deleted; a filter leaves it out
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeSubnets.html).
 */
export const subnetZones = async (ctx: AwsContext, ids: readonly string[]): Promise<Map<string, string>> => {
  const zones = new Map<string, string>()
  for (const ids200 of chunk([...new Set(ids)], INSTANCE_ID_FILTER_CHUNK)) {
    const subnets = await collectPages(async (nextToken) => {
      const page = await ctx.call('ec2:DescribeSubnets', () =>
        ctx.ec2.describeSubnets({
          Filters: [{ Name: 'subnet-id', Values: ids200 }],
          NextToken: nextToken,
        }),
      )
      return { items: page.Subnets ?? [], nextToken: page.NextToken }
    })
    for (const subnet of subnets)
      if (subnet.SubnetId !== undefined && subnet.AvailabilityZone !== undefined)
        zones.set(subnet.SubnetId, subnet.AvailabilityZone)
  }
  return zones
}
