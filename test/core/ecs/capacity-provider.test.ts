import { describe, expect, it } from 'vitest'
import {
  type EcsCapacityProvider,
  ecsManagementOf,
  groupNameOf,
  TAG_ECS_MANAGED,
} from '../../../lambdas/core/ecs/capacity-provider.ts'
import { aGroup } from '../../builders/world.ts'

const ARN = (name: string) =>
  `arn:aws:autoscaling:us-east-1:123456789012:autoScalingGroup:0f0e0d0c-1111-2222-3333-444455556666:autoScalingGroupName/${name}`

const provider = (overrides: Partial<EcsCapacityProvider> = {}): EcsCapacityProvider => ({
  name: 'cp-web',
  status: 'ACTIVE',
  groupArnOrName: ARN('web'),
  managedTerminationProtection: true,
  managedDraining: true,
  managedScaling: true,
  ...overrides,
})

const tagged = aGroup([], { name: 'web', tags: { 'spot-enabled': 'true', [TAG_ECS_MANAGED]: '' } })
const read = (...providers: EcsCapacityProvider[]) => ({ kind: 'read', providers }) as const

describe('groupNameOf', () => {
  it.each([
    [ARN('web'), 'web'],
    [ARN('team/web'), 'team/web'],
    ['web', 'web'],
  ])('reads %s as group %s', (value, name) => {
    expect(groupNameOf(value)).toBe(name)
  })
})

describe('ecsManagementOf', () => {
  it('says nothing about a group without the AmazonECSManaged tag, whatever the providers say', () => {
    const untagged = aGroup([], { name: 'web' })
    expect(ecsManagementOf(untagged, read(provider()))).toBeUndefined()
  })

  it.each([
    ['its ARN', ARN('web')],
    ['its name', 'web'],
  ])('recognises a group an active provider with managed termination protection names by %s', (_, value) => {
    const mine = provider({ groupArnOrName: value })
    expect(ecsManagementOf(tagged, read(provider({ groupArnOrName: ARN('api') }), mine))).toEqual({
      kind: 'managed',
      provider: mine,
      cluster: { kind: 'unreadable', error: 'the cluster of the capacity provider was not read' },
    })
  })

  it.each([
    ['no provider names it', [provider({ groupArnOrName: ARN('api') })], 'no active capacity provider'],
    ['its provider is being deleted', [provider({ status: 'INACTIVE' })], 'no active capacity provider'],
    [
      'its provider has managed termination protection off',
      [provider({ managedTerminationProtection: false })],
      'cp-web has managed termination protection off',
    ],
  ])('leaves a tagged group to its owner when %s', (_, providers, detail) => {
    const management = ecsManagementOf(tagged, read(...providers))
    expect(management?.kind).toBe('not-managed')
    expect(management).toEqual({ kind: 'not-managed', detail: expect.stringContaining(detail) })
  })

  it('cannot tell a tagged group whose providers could not be read, or were not', () => {
    expect(ecsManagementOf(tagged, { kind: 'unreadable', error: 'AccessDeniedException: no' })).toEqual({
      kind: 'unreadable',
      error: 'AccessDeniedException: no',
    })
    expect(ecsManagementOf(tagged, undefined)?.kind).toBe('unreadable')
  })
})

describe('ecsManagementOf, with the clusters read', () => {
  it("gives a managed group its provider's cluster and container instances", () => {
    const cluster = {
      kind: 'read',
      clusterArn: 'arn:aws:ecs:us-east-1:123456789012:cluster/web',
      containerInstances: new Map(),
    } as const
    const observation = {
      kind: 'read',
      providers: [provider()],
      clusters: new Map([['cp-web', cluster]]),
    } as const
    expect(ecsManagementOf(tagged, observation)).toMatchObject({ kind: 'managed', cluster })
  })
})
