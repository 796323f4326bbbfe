/** Spot request reads: EC2's own word on whether a spot instance is being interrupted. */
import { INSTANCE_ID_FILTER_CHUNK } from '../core/constants.ts'
import type { SpotRequestStatus } from '../core/interruption/confirmation.ts'
import type { AwsContext } from './context.ts'
import { chunk, collectPages } from './paginate.ts'

/**
 * The Spot request status (code, UpdateTime) of each instance, by instance id
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-request-status.html). By an `instance-id`
 * filter, in chunks of INSTANCE_ID_FILTER_CHUNK ids, every page followed: a filter leaves out an instance
 * with no request rather than failing the call
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeSpotInstanceRequests.html). An
 * instance without a request is absent. Errors (throttling after the SDK's retries included) reach the
 * caller, which treats the statuses as unknown.
 */
export const spotRequestStatuses = async (
  ctx: AwsContext,
  instanceIds: readonly string[],
): Promise<Map<string, SpotRequestStatus>> => {
  const codes = new Map<string, SpotRequestStatus>()
  for (const ids of chunk([...new Set(instanceIds)], INSTANCE_ID_FILTER_CHUNK)) {
    const requests = await collectPages(async (nextToken) => {
      const page = await ctx.call('ec2:DescribeSpotInstanceRequests', () =>
        ctx.ec2.describeSpotInstanceRequests({
          Filters: [{ Name: 'instance-id', Values: ids }],
          NextToken: nextToken,
        }),
      )
      return { items: page.SpotInstanceRequests ?? [], nextToken: page.NextToken }
    })
    for (const request of requests)
      if (request.InstanceId !== undefined && request.Status?.Code !== undefined)
        codes.set(request.InstanceId, {
          code: request.Status.Code,
          updatedAtMs: request.Status.UpdateTime?.getTime(),
        })
  }
  return codes
}
