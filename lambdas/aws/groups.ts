/**
 * Auto Scaling reads: the groups, their lifecycle hooks and instance refreshes, which group an instance
 * belongs to, and a group's recent scaling activities.
 */
import type { Activity, AutoScalingGroup, Filter } from '@aws-sdk/client-auto-scaling'
import { GROUPS_PAGE_SIZE } from '../core/constants.ts'
import type { InstanceRefresh } from '../core/group/instance-refresh.ts'
import type { ScalingActivity } from '../core/group/scaling-activities.ts'
import type { GroupQuery, LifecycleHook } from '../core/port.ts'
import type { Group } from '../core/types.ts'
import type { AwsContext } from './context.ts'
import { toGroup } from './convert-auto-scaling.ts'
import {
  GROUP_INSTANCES_CHUNK,
  GROUP_NAMES_PER_DESCRIBE,
  INSTANCE_REFRESHES_PAGE_SIZE,
  SCALING_ACTIVITIES_PAGE_SIZE,
} from './limits.ts'
import { chunk, collectPages } from './paginate.ts'

export const groupFilters = (query: GroupQuery): Filter[] => {
  if (query.tagKey === undefined) return []
  return query.tagValues.length > 0
    ? [{ Name: `tag:${query.tagKey}`, Values: [...query.tagValues] }]
    : [{ Name: 'tag-key', Values: [query.tagKey] }]
}

/** Every group the query matches, every page; asked by name in GROUP_NAMES_PER_DESCRIBE chunks when it names some. */
export const describeGroups = async (ctx: AwsContext, query: GroupQuery): Promise<Group[]> => {
  const filters = groupFilters(query)
  const nameChunks =
    query.names === undefined ? [undefined] : chunk([...new Set(query.names)], GROUP_NAMES_PER_DESCRIBE)
  const groups: AutoScalingGroup[] = []
  for (const names of nameChunks)
    groups.push(
      ...(await collectPages(async (nextToken) => {
        const page = await ctx.call('autoscaling:DescribeAutoScalingGroups', () =>
          ctx.autoScaling.describeAutoScalingGroups({
            MaxRecords: GROUPS_PAGE_SIZE,
            NextToken: nextToken,
            ...(names === undefined ? {} : { AutoScalingGroupNames: names }),
            ...(filters.length > 0 ? { Filters: filters } : {}),
          }),
        )
        return { items: page.AutoScalingGroups ?? [], nextToken: page.NextToken }
      })),
    )
  for (const group of groups)
    if (group.AutoScalingGroupName !== undefined && group.AutoScalingGroupARN !== undefined)
      ctx.groupArns.set(group.AutoScalingGroupName, group.AutoScalingGroupARN)
  return groups.map((group) => toGroup(group, ctx.region))
}

export const lifecycleHooks = async (ctx: AwsContext, groupName: string): Promise<LifecycleHook[]> => {
  const response = await ctx.call('autoscaling:DescribeLifecycleHooks', () =>
    ctx.autoScaling.describeLifecycleHooks({ AutoScalingGroupName: groupName }),
  )
  return (response.LifecycleHooks ?? []).map((hook) => ({
    name: hook.LifecycleHookName ?? '',
    transition: hook.LifecycleTransition ?? '',
  }))
}

/**
 * The group's instance refreshes of the last six weeks, every page
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_DescribeInstanceRefreshes.html). Any error
 * rejects; the caller decides what an unreadable refresh state means.
 */
export const instanceRefreshes = async (ctx: AwsContext, groupName: string): Promise<InstanceRefresh[]> => {
  const refreshes = await collectPages(async (nextToken) => {
    const page = await ctx.call('autoscaling:DescribeInstanceRefreshes', () =>
      ctx.autoScaling.describeInstanceRefreshes({
        AutoScalingGroupName: groupName,
        MaxRecords: INSTANCE_REFRESHES_PAGE_SIZE,
        NextToken: nextToken,
      }),
    )
    return { items: page.InstanceRefreshes ?? [], nextToken: page.NextToken }
  })
  return refreshes.map((refresh) => ({ id: refresh.InstanceRefreshId ?? '', status: refresh.Status ?? '' }))
}

/** Instances outside any group are simply absent from the answer. */
export const groupOfInstances = async (
  ctx: AwsContext,
  ids: readonly string[],
): Promise<Map<string, string>> => {
  const owners = new Map<string, string>()
  for (const idsChunk of chunk(ids, GROUP_INSTANCES_CHUNK)) {
    const members = await collectPages(async (nextToken) => {
      const page = await ctx.call('autoscaling:DescribeAutoScalingInstances', () =>
        ctx.autoScaling.describeAutoScalingInstances({ InstanceIds: idsChunk, NextToken: nextToken }),
      )
      return { items: page.AutoScalingInstances ?? [], nextToken: page.NextToken }
    })
    for (const member of members) {
      if (member.InstanceId && member.AutoScalingGroupName)
        owners.set(member.InstanceId, member.AutoScalingGroupName)
    }
  }
  return owners
}

/** Auto Scaling's activity as the core reads it: its cause, and how it ended (StatusCode, StatusMessage). */
const toActivity = (activity: Activity, startTime: Date): ScalingActivity => ({
  startTime,
  cause: activity.Cause ?? '',
  ...(activity.Description === undefined ? {} : { description: activity.Description }),
  ...(activity.StatusCode === undefined ? {} : { statusCode: activity.StatusCode }),
  ...(activity.StatusMessage === undefined ? {} : { statusMessage: activity.StatusMessage }),
})

/**
 * Activities come newest first, so paging stops at the first page that reaches back before `since`
 * (Auto Scaling keeps six weeks of them).
 */
export const scalingActivities = async (
  ctx: AwsContext,
  groupName: string,
  since: Date,
): Promise<ScalingActivity[]> => {
  const activities: ScalingActivity[] = []
  let nextToken: string | undefined
  do {
    const page = await ctx.call('autoscaling:DescribeScalingActivities', () =>
      ctx.autoScaling.describeScalingActivities({
        AutoScalingGroupName: groupName,
        MaxRecords: SCALING_ACTIVITIES_PAGE_SIZE,
        NextToken: nextToken,
      }),
    )
    let reachedBack = false
    for (const activity of page.Activities ?? []) {
      const startTime = activity.StartTime
      if (startTime === undefined) continue
      if (startTime.getTime() < since.getTime()) reachedBack = true
      else activities.push(toActivity(activity, startTime))
    }
    nextToken = reachedBack ? undefined : page.NextToken
  } while (nextToken !== undefined)
  return activities
}

/**
 * The group's latest activities, newest first: one page of `maxRecords` (at most the API's 100), never
 * more (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_DescribeScalingActivities.html).
 */
export const latestScalingActivities = async (
  ctx: AwsContext,
  groupName: string,
  maxRecords: number,
): Promise<ScalingActivity[]> => {
  const page = await ctx.call('autoscaling:DescribeScalingActivities', () =>
    ctx.autoScaling.describeScalingActivities({
      AutoScalingGroupName: groupName,
      MaxRecords: Math.min(maxRecords, SCALING_ACTIVITIES_PAGE_SIZE),
    }),
  )
  return (page.Activities ?? []).flatMap((activity) =>
    activity.StartTime === undefined ? [] : [toActivity(activity, activity.StartTime)],
  )
}
