/**
 * Seed builders and readers for load balancers in a moto account, with the plain SDK (no adapter code):
 * a target group in a network's VPC, a classic load balancer in its subnets, and what each reports of
 * its registered instances.
 */
import {
  ConfigureHealthCheckCommand,
  CreateLoadBalancerCommand,
  DescribeInstanceHealthCommand,
} from '@aws-sdk/client-elastic-load-balancing'
import {
  CreateTargetGroupCommand,
  DescribeTargetHealthCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2'
import { elb, elbv2, required } from './clients.ts'
import type { Network } from './world.ts'

export interface HealthCheckSeed {
  readonly intervalSeconds: number
  readonly healthyThreshold: number
}

/** What a load balancer reports of one instance: its state and, when given, the reason code. */
export interface ReportedHealth {
  readonly state: string
  readonly reason: string | undefined
}

/** An HTTP:80 instance target group in the network's VPC. */
export const createTargetGroup = async (options: {
  readonly name: string
  readonly network: Network
  readonly healthCheck: HealthCheckSeed
}): Promise<string> => {
  const created = await elbv2(options.network.region).send(
    new CreateTargetGroupCommand({
      Name: options.name,
      Protocol: 'HTTP',
      Port: 80,
      VpcId: options.network.vpcId,
      TargetType: 'instance',
      HealthCheckIntervalSeconds: options.healthCheck.intervalSeconds,
      HealthyThresholdCount: options.healthCheck.healthyThreshold,
    }),
  )
  return required(created.TargetGroups?.[0]?.TargetGroupArn, 'TargetGroupArn')
}

/** A classic load balancer listening on HTTP:80 in every subnet of the network, checking HTTP:80/. */
export const createClassicLoadBalancer = async (options: {
  readonly name: string
  readonly network: Network
  readonly healthCheck: HealthCheckSeed
}): Promise<string> => {
  const client = elb(options.network.region)
  await client.send(
    new CreateLoadBalancerCommand({
      LoadBalancerName: options.name,
      Listeners: [{ Protocol: 'HTTP', LoadBalancerPort: 80, InstancePort: 80 }],
      Subnets: options.network.subnets.map((subnet) => subnet.id),
    }),
  )
  await client.send(
    new ConfigureHealthCheckCommand({
      LoadBalancerName: options.name,
      HealthCheck: {
        Target: 'HTTP:80/',
        Interval: options.healthCheck.intervalSeconds,
        Timeout: 5,
        UnhealthyThreshold: 2,
        HealthyThreshold: options.healthCheck.healthyThreshold,
      },
    }),
  )
  return options.name
}

/** Every target the target group lists (DescribeTargetHealth without Targets), by instance id. */
export const targetHealth = async (arn: string, region?: string): Promise<Map<string, ReportedHealth>> => {
  const described = await elbv2(region).send(new DescribeTargetHealthCommand({ TargetGroupArn: arn }))
  return new Map(
    (described.TargetHealthDescriptions ?? []).map((description) => [
      required(description.Target?.Id, 'Target.Id'),
      {
        state: required(description.TargetHealth?.State, 'TargetHealth.State'),
        reason: description.TargetHealth?.Reason,
      },
    ]),
  )
}

/** Every instance registered with the classic load balancer (DescribeInstanceHealth without Instances). */
export const classicHealth = async (name: string, region?: string): Promise<Map<string, ReportedHealth>> => {
  const described = await elb(region).send(new DescribeInstanceHealthCommand({ LoadBalancerName: name }))
  return new Map(
    (described.InstanceStates ?? []).map((instance) => [
      required(instance.InstanceId, 'InstanceId'),
      { state: required(instance.State, 'State'), reason: instance.ReasonCode },
    ]),
  )
}
