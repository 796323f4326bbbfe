/**
 * EC2's DescribeSpotInstanceRequests as the adapter sends it (an `instance-id` filter, paged): every spot
 * instance has a one-time Spot request, Auto Scaling's and CreateFleet's alike, whose status code is EC2's
 * own record of an interruption. Tags never change it: only the simulator's interruptions do.
 */
import type { DescribeSpotInstanceRequestsCommandInput, SpotInstanceRequest } from '@aws-sdk/client-ec2'
import type { Ec2Api } from '../../../lambdas/aws/cloud.ts'
import { API_LIMITS } from '../../../lambdas/aws/limits.ts'
import { INTERRUPTION_NOTICE_SECONDS, TERMINATED_VISIBLE_SECONDS } from '../constants.ts'
import { simAwsError } from '../errors.ts'
import type { SimInstance } from '../state.ts'
import { checkCount, type PageRule } from './paging.ts'
import { answer, type SimApiContext } from './request.ts'

const INVALID = 'InvalidParameterValue'

// MaxResults 5 to 1000; without it, every match at once
// (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeSpotInstanceRequests.html).
const REQUESTS: PageRule = {
  operation: 'DescribeSpotInstanceRequests',
  defaultSize: undefined,
  min: 5,
  max: 1000,
  invalidCode: INVALID,
}

/**
 * The status code EC2 shows for the instance's request
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instances-request-status-lifecycle.html):
 * `fulfilled` while it runs, `marked-for-termination` from the two-minute warning, then
 * `instance-terminated-no-capacity` once EC2 took it; `instance-terminated-by-user` for any other end.
 */
export const spotRequestCode = (instance: SimInstance): string => {
  const gone = instance.state === 'shutting-down' || instance.state === 'terminated'
  if (instance.interruptAtMs !== undefined)
    return gone ? 'instance-terminated-no-capacity' : 'marked-for-termination'
  return gone ? 'instance-terminated-by-user' : 'fulfilled'
}

/**
 * When the status last changed (Status.UpdateTime): the warning, two minutes before the interruption, for
 * `marked-for-termination`; the interruption for `instance-terminated-no-capacity`; the launch otherwise
 * (the simulator keeps no time for a user's termination, and the adapter reads UpdateTime only of
 * interruption codes).
 */
const updateTimeOf = (instance: SimInstance, code: string): Date => {
  const at = instance.interruptAtMs
  if (at === undefined) return new Date(instance.launchMs)
  return new Date(code === 'marked-for-termination' ? at - INTERRUPTION_NOTICE_SECONDS * 1000 : at)
}

const requestOf = (instance: SimInstance): SpotInstanceRequest => {
  const code = spotRequestCode(instance)
  return {
    SpotInstanceRequestId: `sir-${instance.id.slice(2)}`,
    InstanceId: instance.id,
    Type: 'one-time',
    Status: { Code: code, UpdateTime: updateTimeOf(instance, code) },
  }
}

/** A closed request stays listed about as long as its terminated instance (the simulator's one rule for both). */
const listed = (ctx: SimApiContext, instance: SimInstance): boolean =>
  instance.lifecycle === 'spot' &&
  (instance.state !== 'terminated' ||
    (instance.billedUntilMs !== undefined &&
      ctx.world.clock.now - instance.billedUntilMs <= TERMINATED_VISIBLE_SECONDS * 1000))

export const spotRequests = (ctx: SimApiContext): Pick<Ec2Api, 'describeSpotInstanceRequests'> => ({
  describeSpotInstanceRequests: (input: DescribeSpotInstanceRequestsCommandInput) =>
    answer(ctx, 'ec2:DescribeSpotInstanceRequests', () => {
      const filters = input.Filters ?? []
      for (const filter of filters)
        if (filter.Name !== 'instance-id')
          throw simAwsError(
            INVALID,
            400,
            `the simulator answers DescribeSpotInstanceRequests by instance-id only, not ${filter.Name}`,
          )
      if (input.SpotInstanceRequestIds !== undefined && input.SpotInstanceRequestIds.length > 0)
        throw simAwsError(
          INVALID,
          400,
          'the simulator answers DescribeSpotInstanceRequests by filters only, as the adapter asks',
        )
      const ids = filters.flatMap((f) => f.Values ?? [])
      checkCount(REQUESTS, 'values in filter instance-id', ids.length, API_LIMITS.ec2FilterValues)
      const listing = (): SpotInstanceRequest[] => {
        const found: SpotInstanceRequest[] = []
        const candidates =
          filters.length === 0
            ? [...ctx.region.instances.values()]
            : [...new Set(ids)].flatMap((id) => {
                const instance = ctx.region.instances.get(id)
                return instance === undefined ? [] : [instance]
              })
        for (const instance of candidates) if (listed(ctx, instance)) found.push(requestOf(instance))
        return found
      }
      const page = ctx.listings.page(
        REQUESTS,
        { maxResults: input.MaxResults, nextToken: input.NextToken },
        listing,
      )
      return { SpotInstanceRequests: page.items, NextToken: page.nextToken, $metadata: {} }
    }),
})
