/** Simulator state into the core's types, once, at the port's boundary (copies: callers cannot mutate state). */
import type { GroupQuery } from '../../lambdas/core/port.ts'
import type { Group, GroupMember, Instance } from '../../lambdas/core/types.ts'
import { type SimGroup, type SimInstance, type SimRegion, subnetOf } from './state.ts'

export const toInstance = (instance: SimInstance): Instance => ({
  id: instance.id,
  type: instance.type,
  zone: instance.zone,
  subnetId: instance.subnetId,
  lifecycle: instance.lifecycle,
  state: instance.state,
  launchTime: new Date(instance.launchMs),
  tags: { ...instance.tags },
  platform: instance.platform,
})

export const toGroup = (region: SimRegion, group: SimGroup): Group => {
  // Built by push, as the adapter's flatMap builds them: `.map` makes packed arrays until V8 optimizes
  // this function and holey ones after, and that change of array shape mid-run threw the planner's
  // optimized code away, to be compiled again (seen with --trace-deopt on the scale probe).
  const members: GroupMember[] = []
  for (const [instanceId, member] of group.members) {
    const instance = region.instances.get(instanceId)
    members.push({
      instanceId,
      lifecycleState: member.lifecycleState,
      healthStatus: member.lifecycleState.startsWith('Terminating') ? 'Unhealthy' : 'Healthy',
      protectedFromScaleIn: member.protectedFromScaleIn,
      zone: instance?.zone ?? group.zones[0] ?? '',
      instanceType: instance?.type,
    })
  }
  const propagatedTags: Record<string, string> = {}
  for (const key of group.propagatedKeys) {
    const value = group.tags[key]
    if (value !== undefined) propagatedTags[key] = value
  }
  return {
    name: group.name,
    region: group.region,
    minSize: group.minSize,
    maxSize: group.maxSize,
    desiredCapacity: group.desiredCapacity,
    healthCheckGracePeriodSeconds: group.healthCheckGracePeriodSeconds,
    tags: { ...group.tags },
    propagatedTags,
    launchTemplate: group.launchTemplate,
    launchConfigurationName: group.launchConfigurationName,
    mixedInstancesPolicy: undefined,
    suspendedProcesses: [...group.suspendedProcesses],
    members,
    subnetIds: group.zones.map(subnetOf),
    capacityRebalance: group.capacityRebalance,
    warmPool: group.warmPool === undefined ? undefined : { poolState: 'Stopped', reuseOnScaleIn: false },
    trafficSources: group.trafficSources,
    status: undefined,
  }
}

/** DescribeAutoScalingGroups' `tag:<key>` and `tag-key` filters. */
export const matchesQuery = (group: SimGroup, query: GroupQuery): boolean => {
  if (query.tagKey === undefined) return true
  const value = group.tags[query.tagKey]
  return value !== undefined && (query.tagValues.length === 0 || query.tagValues.includes(value))
}
