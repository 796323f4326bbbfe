/**
 * Elastic Load Balancing's reads as the adapter sends them: target groups and their targets' health
 * (ELBv2), classic load balancers and their instances' health. A missing target group or load balancer
 * fails the whole request with the service's own code. Each request is counted for the group the load
 * balancer serves.
 */
import type { TargetHealthReasonEnum, TargetHealthStateEnum } from '@aws-sdk/client-elastic-load-balancing-v2'
import type { ElbApi, Elbv2Api } from '../../../lambdas/aws/cloud.ts'
import { trafficSourceKey } from '../../../lambdas/core/port.ts'
import { UNHEALTHY_THRESHOLD } from '../constants.ts'
import { loadBalancerNotFound, targetGroupNotFound } from '../errors.ts'
import type { SimLoadBalancer } from '../load-balancer-state.ts'
import { NOT_REGISTERED, targetState } from '../load-balancers.ts'
import { answer, type SimApiContext } from './request.ts'

const balancer = (ctx: SimApiContext, type: 'target-group' | 'classic', id: string): SimLoadBalancer => {
  const found = ctx.region.loadBalancers.get(trafficSourceKey(type, id))
  if (found === undefined) throw type === 'classic' ? loadBalancerNotFound(id) : targetGroupNotFound(id)
  return found
}

const groupOf = (ctx: SimApiContext, type: 'target-group' | 'classic', id: string | undefined) => ({
  group: ctx.region.loadBalancers.get(trafficSourceKey(type, id ?? ''))?.group,
})

export const elbv2 = (ctx: SimApiContext): Elbv2Api => ({
  describeTargetGroups: (input) => {
    const arns = input.TargetGroupArns ?? []
    return answer(
      ctx,
      'elasticloadbalancing:DescribeTargetGroups',
      () => ({
        TargetGroups: arns.map((arn) => {
          const found = balancer(ctx, 'target-group', arn)
          return {
            TargetGroupArn: arn,
            TargetGroupName: found.name,
            HealthCheckIntervalSeconds: found.healthCheckIntervalSeconds,
            HealthyThresholdCount: found.healthyThreshold,
            UnhealthyThresholdCount: UNHEALTHY_THRESHOLD,
          }
        }),
        $metadata: {},
      }),
      groupOf(ctx, 'target-group', arns[0]),
    )
  },
  // A target named but not registered is `unused`, Target.NotRegistered (https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_TargetHealth.html).
  describeTargetHealth: (input) => {
    const arn = input.TargetGroupArn ?? ''
    return answer(
      ctx,
      'elasticloadbalancing:DescribeTargetHealth',
      () => {
        const targetGroup = balancer(ctx, 'target-group', arn)
        const now = ctx.world.clock.now
        return {
          TargetHealthDescriptions: (input.Targets ?? []).map((target) => {
            const state = targetState(targetGroup, target.Id ?? '', now) ?? NOT_REGISTERED
            return {
              Target: { Id: target.Id },
              TargetHealth: {
                State: state.state as TargetHealthStateEnum,
                ...(state.reason === undefined ? {} : { Reason: state.reason as TargetHealthReasonEnum }),
              },
            }
          }),
          $metadata: {},
        }
      },
      groupOf(ctx, 'target-group', arn),
    )
  },
})

export const elb = (ctx: SimApiContext): ElbApi => ({
  describeLoadBalancers: (input) => {
    const names = input.LoadBalancerNames ?? []
    return answer(
      ctx,
      'elasticloadbalancing:DescribeLoadBalancers',
      () => ({
        LoadBalancerDescriptions: names.map((name) => {
          const found = balancer(ctx, 'classic', name)
          return {
            LoadBalancerName: name,
            HealthCheck: {
              Target: 'TCP:80',
              Interval: found.healthCheckIntervalSeconds,
              Timeout: 5,
              UnhealthyThreshold: UNHEALTHY_THRESHOLD,
              HealthyThreshold: found.healthyThreshold,
            },
          }
        }),
        $metadata: {},
      }),
      groupOf(ctx, 'classic', names[0]),
    )
  },
  // Without Instances, every registered instance (https://docs.aws.amazon.com/elasticloadbalancing/2012-06-01/APIReference/API_DescribeInstanceHealth.html).
  describeInstanceHealth: (input) => {
    const name = input.LoadBalancerName ?? ''
    return answer(
      ctx,
      'elasticloadbalancing:DescribeInstanceHealth',
      () => {
        const classic = balancer(ctx, 'classic', name)
        const now = ctx.world.clock.now
        const named = input.Instances?.map((i) => i.InstanceId ?? '')
        const states = (named ?? [...classic.targets.keys()]).flatMap((InstanceId) => {
          const state = targetState(classic, InstanceId, now)
          return state === undefined ? [] : [{ InstanceId, State: state.state, ReasonCode: state.reason }]
        })
        return { InstanceStates: states, $metadata: {} }
      },
      groupOf(ctx, 'classic', name),
    )
  },
})
