/**
 * The ECS adapter's read of the capacity providers: every page asked for, providers without an Auto Scaling
 * group left out, an answer with failures refused whole, and one read per cache lifetime.
 */
import { describe, expect, it } from 'vitest'
import { type AwsContext, countedCall, createAdapterCaches } from '../../lambdas/aws/context.ts'
import {
  EcsClientMissingError,
  EcsDescribeFailureError,
  ecsCapacityProviders,
} from '../../lambdas/aws/ecs.ts'
import type {
  DescribeCapacityProvidersInput,
  DescribeCapacityProvidersOutput,
  EcsApi,
} from '../../lambdas/aws/ecs-sdk.ts'
import type { AwsClients } from '../../lambdas/aws/sdk.ts'
import { ECS_CAPACITY_PROVIDERS_CACHE_TTL_MS } from '../../lambdas/core/constants.ts'

const ARN =
  'arn:aws:autoscaling:eu-west-1:123456789012:autoScalingGroup:0f0e0d0c-1111-2222-3333-444455556666:autoScalingGroupName/web'

const context = (ecs: EcsApi | undefined) => {
  const requests: DescribeCapacityProvidersInput[] = []
  const apiCalls: string[] = []
  const clock = { nowMs: Date.parse('2026-03-02T10:00:00Z') }
  const ctx: AwsContext = {
    ...({} as AwsClients),
    ...(ecs === undefined ? {} : { ecs }),
    region: 'eu-west-1',
    call: countedCall((name) => apiCalls.push(name)),
    logger: { info: () => {}, warn: () => {} },
    now: () => clock.nowMs,
    caches: createAdapterCaches(),
    markerKeyArn: undefined,
    groupArns: new Map(),
  }
  return { ctx, requests, apiCalls, clock }
}

const answering = (pages: DescribeCapacityProvidersOutput[], requests: DescribeCapacityProvidersInput[]) => ({
  describeCapacityProviders: async (input: DescribeCapacityProvidersInput) => {
    requests.push(input)
    return pages[requests.length - 1] ?? {}
  },
})

const PAGES: DescribeCapacityProvidersOutput[] = [
  {
    capacityProviders: [
      {
        name: 'cp-web',
        status: 'ACTIVE',
        autoScalingGroupProvider: {
          autoScalingGroupArn: ARN,
          managedScaling: { status: 'ENABLED' },
          managedTerminationProtection: 'ENABLED',
          managedDraining: 'ENABLED',
        },
      },
      // Fargate's own: no Auto Scaling group behind it.
      { name: 'FARGATE', status: 'ACTIVE' },
    ],
    nextToken: 'page-2',
  },
  {
    capacityProviders: [
      {
        name: 'cp-batch',
        status: 'ACTIVE',
        autoScalingGroupProvider: { autoScalingGroupArn: 'batch', managedTerminationProtection: 'DISABLED' },
      },
    ],
  },
]

describe('ecsCapacityProviders', () => {
  it('reads every page, ten at a time, keeping providers that stand on a group', async () => {
    const { ctx, requests, apiCalls } = context(undefined)
    const withEcs = { ...ctx, ecs: answering(PAGES, requests) }
    const providers = await ecsCapacityProviders(withEcs)
    expect(requests).toEqual([
      { maxResults: 10, nextToken: undefined },
      { maxResults: 10, nextToken: 'page-2' },
    ])
    expect(apiCalls).toEqual(['ecs:DescribeCapacityProviders', 'ecs:DescribeCapacityProviders'])
    expect(providers).toEqual([
      {
        name: 'cp-web',
        status: 'ACTIVE',
        groupArnOrName: ARN,
        managedTerminationProtection: true,
        managedDraining: true,
        managedScaling: true,
      },
      {
        name: 'cp-batch',
        status: 'ACTIVE',
        groupArnOrName: 'batch',
        managedTerminationProtection: false,
        // Not stated: taken as off, never assumed on.
        managedDraining: false,
        managedScaling: false,
      },
    ])
  })

  it('reads once while the cache is fresh, and again after', async () => {
    const { ctx, requests, clock } = context(undefined)
    const withEcs = { ...ctx, ecs: answering([PAGES[1] ?? {}, PAGES[1] ?? {}], requests) }
    await ecsCapacityProviders(withEcs)
    await ecsCapacityProviders(withEcs)
    expect(requests).toHaveLength(1)
    clock.nowMs += ECS_CAPACITY_PROVIDERS_CACHE_TTL_MS
    await ecsCapacityProviders(withEcs)
    expect(requests).toHaveLength(2)
  })

  it("refuses an answer with failures: the provider ECS could not describe may be the group's", async () => {
    const { ctx, requests } = context(undefined)
    const failing = answering([{ ...PAGES[1], failures: [{ arn: 'cp-x', reason: 'MISSING' }] }], requests)
    await expect(ecsCapacityProviders({ ...ctx, ecs: failing })).rejects.toThrow(EcsDescribeFailureError)
  })

  it('fails, asking nothing, without an ECS client', async () => {
    const { ctx, apiCalls } = context(undefined)
    await expect(ecsCapacityProviders(ctx)).rejects.toThrow(EcsClientMissingError)
    expect(apiCalls).toEqual([])
  })
})
