/**
 * Auto Scaling's reads as the adapter sends them, with the service's page sizes and limits: groups by tag
 * filter, which group instances belong to, lifecycle hooks, instance refreshes, scaling activities and
 * launch configurations. A group that does not exist is the service's ValidationError.
 */
import type { Filter, InstanceRefreshStatus } from '@aws-sdk/client-auto-scaling'
import type { AutoScalingApi } from '../../../lambdas/aws/cloud.ts'
import { API_LIMITS } from '../../../lambdas/aws/limits.ts'
import { groupNamed } from '../asg-api.ts'
import { simAwsError, validationError } from '../errors.ts'
import type { SimGroup } from '../state.ts'
import type { AutoScalingWrite } from './autoscaling-writes.ts'
import { checkCount, type PageRule } from './paging.ts'
import { answer, type SimApiContext, write } from './request.ts'
import { toAutoScalingGroup } from './shapes.ts'

const rule = (operation: string, defaultSize: number, max: number): PageRule => ({
  operation,
  defaultSize,
  min: 1,
  max,
  invalidCode: 'ValidationError',
})

const GROUPS = rule('DescribeAutoScalingGroups', 50, API_LIMITS.autoScalingGroupsMaxRecords)
const MEMBERS = rule('DescribeAutoScalingInstances', 50, API_LIMITS.autoScalingInstancesMax)
const REFRESHES = rule('DescribeInstanceRefreshes', 50, API_LIMITS.instanceRefreshesMaxRecords)
const ACTIVITIES = rule('DescribeScalingActivities', 100, API_LIMITS.scalingActivitiesMaxRecords)

/** The `tag:<key>` and `tag-key` filters (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_Filter.html). */
const matches = (group: SimGroup, filter: Filter): boolean => {
  const values = filter.Values ?? []
  const name = filter.Name ?? ''
  if (name === 'tag-key') return values.some((key) => group.tags[key] !== undefined)
  if (name.startsWith('tag:')) {
    const value = group.tags[name.slice('tag:'.length)]
    return value !== undefined && values.includes(value)
  }
  throw validationError(`the simulator does not model the filter ${name}`)
}

export const autoScalingReads = (ctx: SimApiContext): Omit<AutoScalingApi, AutoScalingWrite> => ({
  describeAutoScalingGroups: (input) =>
    answer(ctx, 'autoscaling:DescribeAutoScalingGroups', () => {
      // Up to 50 names by default, more "using the MaxRecords property".
      checkCount(
        GROUPS,
        'group names',
        input.AutoScalingGroupNames?.length ?? 0,
        Math.max(API_LIMITS.autoScalingGroupNamesDefault, input.MaxRecords ?? 0),
      )
      const listing = (): SimGroup[] => {
        const names = input.AutoScalingGroupNames
        const filters = input.Filters ?? []
        const found: SimGroup[] = []
        for (const group of ctx.region.groups.values())
          if ((names === undefined || names.includes(group.name)) && filters.every((f) => matches(group, f)))
            found.push(group)
        return found
      }
      const page = ctx.listings.page(
        GROUPS,
        { maxResults: input.MaxRecords, nextToken: input.NextToken },
        listing,
      )
      return {
        AutoScalingGroups: page.items.map((group) => toAutoScalingGroup(ctx.region, group)),
        NextToken: page.nextToken,
        $metadata: {},
      }
    }),
  // Instances outside every group are left out of the answer.
  describeAutoScalingInstances: (input) =>
    answer(ctx, 'autoscaling:DescribeAutoScalingInstances', () => {
      const ids = input.InstanceIds ?? []
      checkCount(MEMBERS, 'instance ids', ids.length, API_LIMITS.autoScalingInstancesMax)
      const listing = () =>
        ids.flatMap((id) => {
          const group = ctx.region.groupOf(id)
          const member = group?.members.get(id)
          if (group === undefined || member === undefined) return []
          return [
            {
              InstanceId: id,
              AutoScalingGroupName: group.name,
              AvailabilityZone: ctx.region.instances.get(id)?.zone ?? '',
              LifecycleState: member.lifecycleState,
              HealthStatus: member.lifecycleState.startsWith('Terminating') ? 'UNHEALTHY' : 'HEALTHY',
              ProtectedFromScaleIn: member.protectedFromScaleIn,
            },
          ]
        })
      const page = ctx.listings.page(
        MEMBERS,
        { maxResults: input.MaxRecords, nextToken: input.NextToken },
        listing,
      )
      return { AutoScalingInstances: page.items, NextToken: page.nextToken, $metadata: {} }
    }),
  describeLifecycleHooks: (input) =>
    answer(
      ctx,
      'autoscaling:DescribeLifecycleHooks',
      () => {
        const group = groupNamed(ctx.region, input.AutoScalingGroupName ?? '')
        return {
          LifecycleHooks: group.hooks.map((hook) => ({
            AutoScalingGroupName: group.name,
            LifecycleHookName: hook.name,
            LifecycleTransition: hook.transition,
          })),
          $metadata: {},
        }
      },
      { group: input.AutoScalingGroupName },
    ),
  describeInstanceRefreshes: (input) =>
    answer(
      ctx,
      'autoscaling:DescribeInstanceRefreshes',
      () => {
        const group = groupNamed(ctx.region, input.AutoScalingGroupName ?? '')
        // As moto answers it: an HTML page with status 500, which the SDK reports as an unknown error.
        if (group.refreshesUnreadable) throw simAwsError('InternalFailure', 500, 'Internal Server Error')
        const page = ctx.listings.page(
          REFRESHES,
          { maxResults: input.MaxRecords, nextToken: input.NextToken },
          () => [...group.refreshes],
        )
        return {
          InstanceRefreshes: page.items.map((r) => ({
            InstanceRefreshId: r.id,
            AutoScalingGroupName: group.name,
            Status: r.status as InstanceRefreshStatus,
          })),
          NextToken: page.nextToken,
          $metadata: {},
        }
      },
      { group: input.AutoScalingGroupName },
    ),
  // Newest first, as Auto Scaling lists them; the adapter stops at the first page reaching back far enough.
  describeScalingActivities: (input) =>
    answer(ctx, 'autoscaling:DescribeScalingActivities', () => {
      const group = groupNamed(ctx.region, input.AutoScalingGroupName ?? '')
      const page = ctx.listings.page(
        ACTIVITIES,
        { maxResults: input.MaxRecords, nextToken: input.NextToken },
        () => [...group.activities].reverse(),
      )
      return {
        Activities: page.items.map((a, n) => ({
          ActivityId: `${group.name}-${a.startMs}-${n}`,
          AutoScalingGroupName: group.name,
          Cause: a.cause,
          StartTime: new Date(a.startMs),
          ...(a.failed === undefined
            ? { StatusCode: 'Successful' as const }
            : {
                StatusCode: 'Failed' as const,
                Description: a.failed.description,
                StatusMessage: a.failed.statusMessage,
              }),
        })),
        NextToken: page.nextToken,
        $metadata: {},
      }
    }),
  /**
   * Unknown names are simply not listed. Recorded like a write: it is part of a launch, and a failed one
   * must be accounted to the launch's group (write-invariants.ts).
   */
  describeLaunchConfigurations: (input) => {
    const names = input.LaunchConfigurationNames ?? []
    const group = [...ctx.region.groups.values()].find((g) => names.includes(g.launchConfigurationName ?? ''))
    return write(
      ctx,
      'autoscaling:DescribeLaunchConfigurations',
      {},
      () => ({
        LaunchConfigurations: names
          .filter((name) => ctx.region.launchConfigurations.has(name))
          .map((name) => ({
            LaunchConfigurationName: name,
            ImageId: 'ami-00000000000000000',
            InstanceType: group?.instanceType ?? '',
            CreatedTime: new Date(0),
          })),
        $metadata: {},
      }),
      { group: group?.name },
    )
  },
})
