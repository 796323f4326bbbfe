/** Auto Scaling reads: the groups, their lifecycle hooks, and which group an instance belongs to. */
import {
  DescribeAutoScalingGroupsCommand,
  DescribeAutoScalingInstancesCommand,
  DescribeLifecycleHooksCommand,
  type Filter,
} from '@aws-sdk/client-auto-scaling'
import { GROUPS_PAGE_SIZE } from '../core/constants.ts'
import type { GroupQuery, LifecycleHook } from '../core/port.ts'
import type { Group } from '../core/types.ts'
import type { AwsContext } from './context.ts'
import { toGroup } from './convert.ts'
import { GROUP_INSTANCES_CHUNK } from './limits.ts'
import { chunk, collectPages } from './paginate.ts'

export const groupFilters = (query: GroupQuery): Filter[] => {
  if (query.tagKey === undefined) return []
  return query.tagValues.length > 0
    ? [{ Name: `tag:${query.tagKey}`, Values: [...query.tagValues] }]
    : [{ Name: 'tag-key', Values: [query.tagKey] }]
}

export const describeGroups = async (ctx: AwsContext, query: GroupQuery): Promise<Group[]> => {
  const filters = groupFilters(query)
  const groups = await collectPages(async (nextToken) => {
    const page = await ctx.call('autoscaling:DescribeAutoScalingGroups', () =>
      ctx.autoScaling.send(
        new DescribeAutoScalingGroupsCommand({
          MaxRecords: GROUPS_PAGE_SIZE,
          NextToken: nextToken,
          ...(filters.length > 0 ? { Filters: filters } : {}),
        }),
      ),
    )
    return { items: page.AutoScalingGroups ?? [], nextToken: page.NextToken }
  })
  return groups.map((group) => toGroup(group, ctx.region))
}

export const lifecycleHooks = async (ctx: AwsContext, groupName: string): Promise<LifecycleHook[]> => {
  const response = await ctx.call('autoscaling:DescribeLifecycleHooks', () =>
    ctx.autoScaling.send(new DescribeLifecycleHooksCommand({ AutoScalingGroupName: groupName })),
  )
  return (response.LifecycleHooks ?? []).map((hook) => ({
    name: hook.LifecycleHookName ?? '',
    transition: hook.LifecycleTransition ?? '',
  }))
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
        ctx.autoScaling.send(
          new DescribeAutoScalingInstancesCommand({ InstanceIds: idsChunk, NextToken: nextToken }),
        ),
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
