/**
 * The SDK clients `spotswap verify` creates and deletes its resources with, in one region, with the
 * user's credentials (the SDK default chain, AWS_ENDPOINT_URL included). Loaded only when verify runs.
 */
import { AutoScalingClient } from '@aws-sdk/client-auto-scaling'
import { EC2Client } from '@aws-sdk/client-ec2'
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2'
import { KMSClient } from '@aws-sdk/client-kms'

export interface VerifyClients {
  readonly region: string
  readonly ec2: EC2Client
  readonly autoScaling: AutoScalingClient
  readonly elbv2: ElasticLoadBalancingV2Client
  /** For the run's own marker key (verify-key.ts). */
  readonly kms: KMSClient
}

export const verifyClients = (region: string): VerifyClients => ({
  region,
  ec2: new EC2Client({ region }),
  autoScaling: new AutoScalingClient({ region }),
  elbv2: new ElasticLoadBalancingV2Client({ region }),
  kms: new KMSClient({ region }),
})
