/**
 * SDK clients for test code that talks to moto directly (seed builders, probes), guarded so that a
 * helper called outside the moto environment cannot reach a real account with a developer's credentials.
 */
import { AutoScalingClient } from '@aws-sdk/client-auto-scaling'
import { EC2Client, type Instance as Ec2Instance } from '@aws-sdk/client-ec2'
import { ElasticLoadBalancingClient } from '@aws-sdk/client-elastic-load-balancing'
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2'
import { inject } from 'vitest'

export type Lifecycle = 'spot' | 'on-demand'

/** The region to use, after checking the SDK is pointed at this run's moto_server. */
export const motoRegion = (region?: string): string => {
  const endpoint = inject('motoEndpoint')
  if (endpoint === undefined || process.env.AWS_ENDPOINT_URL !== endpoint) {
    throw new Error('test clients only talk to moto: call them inside freshAccountPerTest or withMotoEnv')
  }
  const resolved = region ?? process.env.AWS_REGION
  if (resolved === undefined) throw new Error('no region: pass one or set AWS_REGION')
  return resolved
}

/** No retries: a moto error in a seed step is a broken test and should say so at once. */
export const ec2 = (region?: string): EC2Client =>
  new EC2Client({ region: motoRegion(region), maxAttempts: 1 })

export const autoScaling = (region?: string): AutoScalingClient =>
  new AutoScalingClient({ region: motoRegion(region), maxAttempts: 1 })

/** Target groups (Application, Network and Gateway Load Balancers). */
export const elbv2 = (region?: string): ElasticLoadBalancingV2Client =>
  new ElasticLoadBalancingV2Client({ region: motoRegion(region), maxAttempts: 1 })

/** Classic Load Balancers. */
export const elb = (region?: string): ElasticLoadBalancingClient =>
  new ElasticLoadBalancingClient({ region: motoRegion(region), maxAttempts: 1 })

export const required = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`moto returned no ${what}`)
  return value
}

export const tagsOf = (
  tags: readonly { readonly Key?: string | undefined; readonly Value?: string | undefined }[] | undefined,
): Record<string, string> => Object.fromEntries((tags ?? []).map((tag) => [tag.Key ?? '', tag.Value ?? '']))

/** EC2 omits InstanceLifecycle for on-demand instances. */
export const lifecycleOf = (instance: Ec2Instance): Lifecycle =>
  instance.InstanceLifecycle === 'spot' ? 'spot' : 'on-demand'
