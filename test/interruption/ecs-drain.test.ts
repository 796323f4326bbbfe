/**
 * An interruption warning for a spot member of a group ECS manages: set DRAINING at once, before it
 * leaves, unless the capacity provider's managed draining drains it; a group without the tag reads no ECS.
 */
import { describe, expect, it } from 'vitest'
import { TAG_ECS_MANAGED } from '../../lambdas/core/ecs/capacity-provider.ts'
import { createHandler } from '../../lambdas/interruption/create-handler.ts'
import { webProvider } from '../builders/ecs.ts'
import * as events from '../events/builders.ts'
import { FakeCloud } from '../fakes/fake-cloud.ts'
import { seedConvertedGroup, testDeps } from './support.ts'

const REGION = 'us-east-1'
const CLUSTER = 'arn:aws:ecs:us-east-1:123456789012:cluster/web'

const setup = (managedDraining: boolean, tagged = true) => {
  const cloud = new FakeCloud(REGION)
  const { ids } = seedConvertedGroup(cloud, {
    tags: { 'spot-enabled': 'true', ...(tagged ? { [TAG_ECS_MANAGED]: '' } : {}) },
  })
  cloud.capacityProviders.push(webProvider({ managedDraining }))
  cloud.clusters.push({ arn: CLUSTER, name: 'web', capacityProviders: ['cp-web'] })
  for (const id of ids) cloud.registerContainerInstance(CLUSTER, id, 1)
  const doomed = ids[0] as string
  return { cloud, doomed, handler: createHandler(testDeps([cloud])) }
}

const warn = (instanceId: string) =>
  events.spotInterruptionWarning({ instanceId, action: 'terminate', region: REGION })

describe('an interruption warning in a group ECS manages', () => {
  it('sets the member DRAINING before it leaves its group', async () => {
    const { cloud, doomed, handler } = setup(false)
    await handler(warn(doomed), {})
    expect(cloud.containerInstanceOf(doomed)?.status).toBe('DRAINING')
    const methods = cloud.mutations.map((m) => m.method)
    expect(methods.indexOf('setContainerInstancesState')).toBeLessThan(methods.indexOf('terminateInGroup'))
  })

  it('leaves the drain to ECS when managed draining is on', async () => {
    const { cloud, doomed, handler } = setup(true)
    await handler(warn(doomed), {})
    expect(cloud.containerInstanceOf(doomed)?.status).toBe('ACTIVE')
    expect(cloud.mutations.map((m) => m.method)).not.toContain('setContainerInstancesState')
  })

  it('reads nothing of ECS for a group without the AmazonECSManaged tag', async () => {
    const { cloud, doomed, handler } = setup(false, false)
    await handler(warn(doomed), {})
    expect(cloud.calls.map((c) => c.method).filter((m) => m.startsWith('ecs'))).toEqual([])
  })

  it('still leaves when the drain fails', async () => {
    const { cloud, doomed, handler } = setup(false)
    cloud.failNext('ecsClusters', new Error('AccessDenied'))
    await handler(warn(doomed), {})
    expect(cloud.group('web').members.has(doomed)).toBe(false)
  })
})
