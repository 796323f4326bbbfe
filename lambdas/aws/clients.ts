/**
 * SDK clients, one per service and region, created on first use and kept for the container's life so a
 * warm Lambda reuses its connections and credentials. No endpoint is set here on purpose: the SDK reads
 * AWS_ENDPOINT_URL (moto, LocalStack) by itself.
 *
 * Each service's SDK module is imported on first use, so a process that injects its own clients (the
 * simulator, through createAwsCloud's `clients`) never loads the SDK: under tsx that is a second of CPU.
 */
import type { AutoScalingClient } from '@aws-sdk/client-auto-scaling'
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation'
import type { EC2Client } from '@aws-sdk/client-ec2'
import type { ElasticLoadBalancingClient } from '@aws-sdk/client-elastic-load-balancing'
import type { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2'
import type { PricingClient } from '@aws-sdk/client-pricing'
import {
  PRICING_CONNECTION_TIMEOUT_MS,
  PRICING_ENDPOINT_REGION,
  PRICING_MAX_ATTEMPTS,
  PRICING_REQUEST_TIMEOUT_MS,
  SDK_MAX_ATTEMPTS,
} from './limits.ts'

const clients = new Map<string, Promise<unknown>>()

const memo = <T>(key: string, create: () => Promise<T>): Promise<T> => {
  let client = clients.get(key) as Promise<T> | undefined
  if (client === undefined) {
    client = create()
    clients.set(key, client)
  }
  return client
}

const standardRetries = { retryMode: 'standard', maxAttempts: SDK_MAX_ATTEMPTS } as const

export const ec2Client = (region: string): Promise<EC2Client> =>
  memo(`ec2/${region}`, async () => {
    const { EC2Client } = await import('@aws-sdk/client-ec2')
    return new EC2Client({ region, ...standardRetries })
  })

export const autoScalingClient = (region: string): Promise<AutoScalingClient> =>
  memo(`autoscaling/${region}`, async () => {
    const { AutoScalingClient } = await import('@aws-sdk/client-auto-scaling')
    return new AutoScalingClient({ region, ...standardRetries })
  })

export const cloudFormationClient = (region: string): Promise<CloudFormationClient> =>
  memo(`cloudformation/${region}`, async () => {
    const { CloudFormationClient } = await import('@aws-sdk/client-cloudformation')
    return new CloudFormationClient({ region, ...standardRetries })
  })

export const elbv2Client = (region: string): Promise<ElasticLoadBalancingV2Client> =>
  memo(`elbv2/${region}`, async () => {
    const { ElasticLoadBalancingV2Client } = await import('@aws-sdk/client-elastic-load-balancing-v2')
    return new ElasticLoadBalancingV2Client({ region, ...standardRetries })
  })

export const elbClient = (region: string): Promise<ElasticLoadBalancingClient> =>
  memo(`elb/${region}`, async () => {
    const { ElasticLoadBalancingClient } = await import('@aws-sdk/client-elastic-load-balancing')
    return new ElasticLoadBalancingClient({ region, ...standardRetries })
  })

/** The Pricing API lives in us-east-1 whatever region is being priced. */
export const pricingClient = (): Promise<PricingClient> =>
  memo('pricing', async () => {
    const { PricingClient } = await import('@aws-sdk/client-pricing')
    return new PricingClient({
      region: PRICING_ENDPOINT_REGION,
      retryMode: 'standard',
      maxAttempts: PRICING_MAX_ATTEMPTS,
      requestHandler: {
        connectionTimeout: PRICING_CONNECTION_TIMEOUT_MS,
        requestTimeout: PRICING_REQUEST_TIMEOUT_MS,
      },
    })
  })

/** The region DescribeRegions is asked in: the Lambda's own, else us-east-1. */
export const homeRegion = (env: Readonly<Record<string, string | undefined>> = process.env): string =>
  env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1'
