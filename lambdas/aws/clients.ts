/**
 * SDK clients, one per service and region, created on first use and kept for the container's life so a
 * warm Lambda reuses its connections and credentials. No endpoint is set here on purpose: the SDK reads
 * AWS_ENDPOINT_URL (moto, LocalStack) by itself.
 *
 * The SDK modules are imported statically: the Lambdas load this file at init (through sdk-clients.ts,
 * from their default-deps.ts), not in their first request. Whatever must not load the SDK (the simulator)
 * reaches this file only through the dynamic import of sdk-clients.ts in cloud.ts, which it never takes.
 */
import { AutoScalingClient } from '@aws-sdk/client-auto-scaling'
import { CloudFormationClient } from '@aws-sdk/client-cloudformation'
import { EC2Client } from '@aws-sdk/client-ec2'
import { ECSClient } from '@aws-sdk/client-ecs'
import { ElasticLoadBalancingClient } from '@aws-sdk/client-elastic-load-balancing'
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2'
import { KMSClient } from '@aws-sdk/client-kms'
import { PricingClient } from '@aws-sdk/client-pricing'
import { SavingsplansClient } from '@aws-sdk/client-savingsplans'
import { SSMClient } from '@aws-sdk/client-ssm'
import {
  PRICING_CONNECTION_TIMEOUT_MS,
  PRICING_ENDPOINT_REGION,
  PRICING_MAX_ATTEMPTS,
  PRICING_REQUEST_TIMEOUT_MS,
  SAVINGS_PLANS_ENDPOINT_REGION,
  SDK_MAX_ATTEMPTS,
} from './limits.ts'

const clients = new Map<string, unknown>()

const memo = <T>(key: string, create: () => T): T => {
  let client = clients.get(key) as T | undefined
  if (client === undefined) {
    client = create()
    clients.set(key, client)
  }
  return client
}

const standardRetries = { retryMode: 'standard', maxAttempts: SDK_MAX_ATTEMPTS } as const

export const ec2Client = (region: string): EC2Client =>
  memo(`ec2/${region}`, () => new EC2Client({ region, ...standardRetries }))

export const autoScalingClient = (region: string): AutoScalingClient =>
  memo(`autoscaling/${region}`, () => new AutoScalingClient({ region, ...standardRetries }))

export const cloudFormationClient = (region: string): CloudFormationClient =>
  memo(`cloudformation/${region}`, () => new CloudFormationClient({ region, ...standardRetries }))

export const elbv2Client = (region: string): ElasticLoadBalancingV2Client =>
  memo(`elbv2/${region}`, () => new ElasticLoadBalancingV2Client({ region, ...standardRetries }))

export const elbClient = (region: string): ElasticLoadBalancingClient =>
  memo(`elb/${region}`, () => new ElasticLoadBalancingClient({ region, ...standardRetries }))

export const kmsClient = (region: string): KMSClient =>
  memo(`kms/${region}`, () => new KMSClient({ region, ...standardRetries }))

/** ECS, for the capacity providers of groups tagged AmazonECSManaged (aws/ecs.ts). */
export const ecsClient = (region: string): ECSClient =>
  memo(`ecs/${region}`, () => new ECSClient({ region, ...standardRetries }))

/** SSM, for the kill switch's parameter (aws/kill-switch.ts). */
export const ssmClient = (region: string): SSMClient =>
  memo(`ssm/${region}`, () => new SSMClient({ region, ...standardRetries }))

/** Savings Plans, for the commitment reads (aws/savings-plans.ts): one global endpoint for every region. */
export const savingsPlansClient = (): SavingsplansClient =>
  memo(
    'savingsplans',
    () => new SavingsplansClient({ region: SAVINGS_PLANS_ENDPOINT_REGION, ...standardRetries }),
  )

/** The Pricing API lives in us-east-1 whatever region is being priced. */
export const pricingClient = (): PricingClient =>
  memo(
    'pricing',
    () =>
      new PricingClient({
        region: PRICING_ENDPOINT_REGION,
        retryMode: 'standard',
        maxAttempts: PRICING_MAX_ATTEMPTS,
        requestHandler: {
          connectionTimeout: PRICING_CONNECTION_TIMEOUT_MS,
          requestTimeout: PRICING_REQUEST_TIMEOUT_MS,
        },
      }),
  )
