/**
 * Load-balancer reads: how a group's instances stand in its target groups and classic load balancers,
 * so a swap retires a partner only once its replacement receives traffic. Auto Scaling registers an
 * attached instance with the group's load balancers, which route to it only after it passes their health
 * checks (https://docs.aws.amazon.com/autoscaling/ec2/userguide/attach-load-balancer-asg.html,
 * https://docs.aws.amazon.com/elasticloadbalancing/latest/application/target-group-health-checks.html).
 */
import {
  addTargetState,
  type HealthCheckSettings,
  type TargetState,
  type TrafficHealth,
  trafficSourceKey,
} from '../core/port.ts'
import type { TrafficSources } from '../core/types.ts'
import type { AwsContext } from './context.ts'
import { TARGET_GROUPS_PER_DESCRIBE } from './limits.ts'
import { chunk } from './paginate.ts'

const settingsOf = (
  interval: number | undefined,
  threshold: number | undefined,
): HealthCheckSettings | undefined =>
  interval === undefined || threshold === undefined
    ? undefined
    : { intervalSeconds: interval, healthyThreshold: threshold }

/**
 * One DescribeTargetHealth per target group with the instances named (an instance the group does not
 * have comes back `unused` / `Target.NotRegistered`), one DescribeInstanceHealth per classic load
 * balancer (all its instances: see below), and the sources' health-check settings in batches. Nothing is read for no instances.
 */
export const trafficHealth = async (
  ctx: AwsContext,
  sources: TrafficSources,
  ids: readonly string[],
): Promise<TrafficHealth> => {
  const settings = new Map<string, HealthCheckSettings>()
  const states = new Map<string, Map<string, TargetState>>()
  if (ids.length === 0) return { settings, states }
  for (const arns of chunk(sources.targetGroupArns, TARGET_GROUPS_PER_DESCRIBE)) {
    const described = await ctx.call('elasticloadbalancing:DescribeTargetGroups', () =>
      ctx.elbv2.describeTargetGroups({ TargetGroupArns: [...arns] }),
    )
    for (const group of described.TargetGroups ?? []) {
      const found = settingsOf(group.HealthCheckIntervalSeconds, group.HealthyThresholdCount)
      if (group.TargetGroupArn !== undefined && found !== undefined)
        settings.set(trafficSourceKey('target-group', group.TargetGroupArn), found)
    }
  }
  for (const arn of sources.targetGroupArns) {
    const source = trafficSourceKey('target-group', arn)
    const response = await ctx.call('elasticloadbalancing:DescribeTargetHealth', () =>
      ctx.elbv2.describeTargetHealth({ TargetGroupArn: arn, Targets: ids.map((id) => ({ Id: id })) }),
    )
    for (const description of response.TargetHealthDescriptions ?? []) {
      const id = description.Target?.Id
      const health = description.TargetHealth
      if (id === undefined || health?.State === undefined) continue
      // A target group may list an instance once per port; any port that does not serve holds it back.
      const earlier = states.get(id)?.get(source)
      if (earlier !== undefined && earlier.state !== 'healthy') continue
      addTargetState(states, id, source, {
        state: health.State,
        ...(health.Reason === undefined ? {} : { reason: health.Reason }),
      })
    }
  }
  if (sources.classicLoadBalancerNames.length > 0) {
    const described = await ctx.call('elasticloadbalancing:DescribeLoadBalancers', () =>
      ctx.elb.describeLoadBalancers({ LoadBalancerNames: [...sources.classicLoadBalancerNames] }),
    )
    for (const balancer of described.LoadBalancerDescriptions ?? []) {
      const found = settingsOf(balancer.HealthCheck?.Interval, balancer.HealthCheck?.HealthyThreshold)
      if (balancer.LoadBalancerName !== undefined && found !== undefined)
        settings.set(trafficSourceKey('classic', balancer.LoadBalancerName), found)
    }
  }
  const wanted = new Set(ids)
  for (const name of sources.classicLoadBalancerNames) {
    const source = trafficSourceKey('classic', name)
    // Asked for every registered instance: naming one that is not registered fails the whole call
    // (InvalidInstance), and an absent instance already says "not registered".
    const response = await ctx.call('elasticloadbalancing:DescribeInstanceHealth', () =>
      ctx.elb.describeInstanceHealth({ LoadBalancerName: name }),
    )
    for (const instance of response.InstanceStates ?? []) {
      if (instance.InstanceId === undefined || instance.State === undefined) continue
      if (!wanted.has(instance.InstanceId)) continue
      addTargetState(states, instance.InstanceId, source, {
        state: instance.State,
        ...(instance.ReasonCode === undefined ? {} : { reason: instance.ReasonCode }),
      })
    }
  }
  return { settings, states }
}
