/**
 * Auto Scaling's shapes into core types, once, at the boundary: a group with its members, launch
 * template, mixed-instances policy, traffic sources and warm pool. Everything the SDK marks optional gets
 * its AWS default here, so the core never sees `undefined` where AWS always sends a value.
 */
import type {
  AutoScalingGroup,
  Instance as GroupInstance,
  LaunchTemplateSpecification,
  SuspendedProcess,
  TagDescription,
} from '@aws-sdk/client-auto-scaling'
import {
  type Group,
  type GroupMember,
  type LaunchTemplateRef,
  type MixedInstancesPolicy,
  NO_TRAFFIC_SOURCES,
  type TrafficSources,
} from '../core/types.ts'

/** Auto Scaling's default when a mixed-instances group does not say: everything above the base is on-demand. */
const DEFAULT_ON_DEMAND_PERCENTAGE_ABOVE_BASE = 100

const toLaunchTemplateRef = (spec: LaunchTemplateSpecification | undefined): LaunchTemplateRef | undefined =>
  spec === undefined
    ? undefined
    : {
        id: spec.LaunchTemplateId || undefined,
        name: spec.LaunchTemplateName || undefined,
        version: spec.Version || undefined,
      }

const toMixedInstancesPolicy = (group: AutoScalingGroup): MixedInstancesPolicy | undefined => {
  const policy = group.MixedInstancesPolicy
  const launchTemplate = toLaunchTemplateRef(policy?.LaunchTemplate?.LaunchTemplateSpecification)
  if (policy === undefined || launchTemplate === undefined) return undefined
  const distribution = policy.InstancesDistribution
  // Overrides may name instance requirements instead of types; only named types are listed here.
  const overrides = (policy.LaunchTemplate?.Overrides ?? []).flatMap((o) =>
    o.InstanceType
      ? [
          {
            instanceType: o.InstanceType,
            launchTemplate: toLaunchTemplateRef(o.LaunchTemplateSpecification),
            // A string of 1-999 in the API; anything unreadable counts as a weight other than 1.
            weightedCapacity: o.WeightedCapacity === undefined ? 1 : Number(o.WeightedCapacity) || Number.NaN,
          },
        ]
      : [],
  )
  return {
    launchTemplate,
    overrideTypes: overrides.map((o) => o.instanceType),
    overrides,
    // Overrides may name their own launch template (instance requirements as well as named types).
    overrideTemplateIds: (policy.LaunchTemplate?.Overrides ?? []).flatMap((o) => {
      const id = o.LaunchTemplateSpecification?.LaunchTemplateId
      return id ? [id] : []
    }),
    onDemandBaseCapacity: distribution?.OnDemandBaseCapacity ?? 0,
    onDemandPercentageAboveBaseCapacity:
      distribution?.OnDemandPercentageAboveBaseCapacity ?? DEFAULT_ON_DEMAND_PERCENTAGE_ABOVE_BASE,
  }
}

/**
 * TargetGroupARNs and LoadBalancerNames, and TrafficSources (which lists the same ones again, and VPC
 * Lattice services): `elbv2` is a target group, `elb` a classic load balancer
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_TrafficSourceIdentifier.html). A source
 * without a type is judged by its identifier: a target group's ARN, else a classic load balancer's name.
 */
export const toTrafficSources = (group: AutoScalingGroup): TrafficSources => {
  // Most groups have none: the shared empty answer, not three sets and three arrays per group and run.
  if (
    (group.TargetGroupARNs?.length ?? 0) === 0 &&
    (group.LoadBalancerNames?.length ?? 0) === 0 &&
    (group.TrafficSources?.length ?? 0) === 0
  )
    return NO_TRAFFIC_SOURCES
  const targetGroups = new Set(group.TargetGroupARNs ?? [])
  const classic = new Set(group.LoadBalancerNames ?? [])
  const unreadable = new Set<string>()
  for (const source of group.TrafficSources ?? []) {
    const id = source.Identifier
    if (id === undefined || id === '') continue
    const type =
      source.Type ?? (id.includes(':targetgroup/') ? 'elbv2' : id.startsWith('arn:') ? 'unknown' : 'elb')
    if (type === 'elbv2') targetGroups.add(id)
    else if (type === 'elb') classic.add(id)
    else unreadable.add(`${type}:${id}`)
  }
  return {
    targetGroupArns: [...targetGroups],
    classicLoadBalancerNames: [...classic],
    unreadable: [...unreadable],
  }
}

/**
 * Instances in a warm pool (`Warmed:Pending`, `Warmed:Stopped`, `Warmed:Running`, ...) are not members:
 * they count toward desired capacity only once the group draws them out of the pool
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-warm-pools.html), and they are
 * never replaced. DescribeWarmPool lists them; any answer that mixes them in gets them left out here.
 */
export const isWarmPoolState = (lifecycleState: string | undefined): boolean =>
  lifecycleState?.startsWith('Warmed:') === true

const toGroupMember = (instance: GroupInstance): GroupMember | undefined =>
  instance.InstanceId === undefined || isWarmPoolState(instance.LifecycleState)
    ? undefined
    : {
        instanceId: instance.InstanceId,
        lifecycleState: instance.LifecycleState ?? 'Unknown',
        healthStatus: instance.HealthStatus ?? 'Unknown',
        protectedFromScaleIn: instance.ProtectedFromScaleIn ?? false,
        zone: instance.AvailabilityZone ?? '',
        instanceType: instance.InstanceType || undefined,
      }

/** The group's tags and, from the same pass, the ones it propagates to the instances it launches. */
const groupTags = (tags: readonly TagDescription[] | undefined) => {
  const all: Record<string, string> = {}
  const propagated: Record<string, string> = {}
  for (const tag of tags ?? []) {
    if (tag.Key === undefined) continue
    all[tag.Key] = tag.Value ?? ''
    if (tag.PropagateAtLaunch) propagated[tag.Key] = tag.Value ?? ''
  }
  return { all, propagated }
}

/** Built by push: a large account describes 10,000 groups every run, and flatMap's generic path is slow. */
const toGroupMembers = (instances: readonly GroupInstance[] | undefined): GroupMember[] => {
  const members: GroupMember[] = []
  for (const instance of instances ?? []) {
    const member = toGroupMember(instance)
    if (member !== undefined) members.push(member)
  }
  return members
}

/** By push, like the members: flatMap's per-element arrays for every group of every run are garbage. */
const processNames = (processes: readonly SuspendedProcess[] | undefined): string[] => {
  const names: string[] = []
  for (const p of processes ?? []) if (p.ProcessName) names.push(p.ProcessName)
  return names
}

/** The comma-separated subnet ids, trimmed, empty ones left out; one pass rather than three arrays. */
const subnetIdsOf = (zoneIdentifier: string | undefined): string[] => {
  const ids: string[] = []
  if (zoneIdentifier === undefined || zoneIdentifier === '') return ids
  for (const part of zoneIdentifier.split(',')) {
    const id = part.trim()
    if (id.length > 0) ids.push(id)
  }
  return ids
}

export const toGroup = (group: AutoScalingGroup, region: string): Group => {
  const tags = groupTags(group.Tags)
  return {
    name: group.AutoScalingGroupName ?? '',
    region,
    minSize: group.MinSize ?? 0,
    maxSize: group.MaxSize ?? 0,
    desiredCapacity: group.DesiredCapacity ?? 0,
    healthCheckGracePeriodSeconds: group.HealthCheckGracePeriod ?? 0,
    tags: tags.all,
    propagatedTags: tags.propagated,
    launchTemplate: toLaunchTemplateRef(group.LaunchTemplate),
    launchConfigurationName: group.LaunchConfigurationName || undefined,
    mixedInstancesPolicy: toMixedInstancesPolicy(group),
    // Absent from the answer means units, AWS's default (API_AutoScalingGroup).
    desiredCapacityType: group.DesiredCapacityType ?? 'units',
    suspendedProcesses: processNames(group.SuspendedProcesses),
    members: toGroupMembers(group.Instances),
    subnetIds: subnetIdsOf(group.VPCZoneIdentifier),
    trafficSources: toTrafficSources(group),
    capacityRebalance: group.CapacityRebalance ?? false,
    warmPool:
      group.WarmPoolConfiguration === undefined
        ? undefined
        : {
            // Stopped is Auto Scaling's default pool state.
            poolState: group.WarmPoolConfiguration.PoolState ?? 'Stopped',
            reuseOnScaleIn: group.WarmPoolConfiguration.InstanceReusePolicy?.ReuseOnScaleIn ?? false,
          },
    status: group.Status || undefined,
  }
}
