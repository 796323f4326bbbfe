/**
 * A group ECS manages, for the replacer's ECS tests against the stateful fake: `web`, one on-demand member
 * running two service tasks in cluster `web`, behind capacity provider `cp-web`.
 */
import { expect } from 'vitest'
import { TAG_ECS_MANAGED } from '../../lambdas/core/ecs/capacity-provider.ts'
import { webProvider } from '../builders/ecs.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, harness, skipsOf } from './support.ts'

export const CLUSTER = 'arn:aws:ecs:us-east-1:123456789012:cluster/web'

/** `web` behind a provider with managed draining as given, and the grace period given. */
export const ecsGroup = (managedDraining = false, healthCheckGracePeriodSeconds = 300) => {
  const cloud = cloudWithFleet(1, {
    tags: { 'spot-enabled': 'true', [TAG_ECS_MANAGED]: '' },
    healthCheckGracePeriodSeconds,
  })
  cloud.capacityProviders.push(webProvider({ managedDraining }))
  cloud.clusters.push({ arn: CLUSTER, name: 'web', capacityProviders: ['cp-web'] })
  const partner = [...cloud.group('web').members.keys()][0] as string
  cloud.registerContainerInstance(CLUSTER, partner, 2)
  return { cloud, partner, h: harness({ 'us-east-1': cloud }) }
}

export const calls = (cloud: FakeCloud, method: string) => cloud.calls.filter((c) => c.method === method)
const spotMember = (cloud: FakeCloud) =>
  [...cloud.group('web').members.keys()].find((id) => cloud.instances.get(id)?.lifecycle === 'spot')

/** Launch, then attach once the grace period is over. */
export const attached = async (
  cloud: FakeCloud,
  h: ReturnType<typeof harness>,
  graceMinutes = 5,
): Promise<string> => {
  await h.run()
  expect(calls(cloud, 'launchSpot')).toHaveLength(1)
  h.advanceMinutes(graceMinutes + 1)
  await h.run()
  const replacement = spotMember(cloud)
  if (replacement === undefined) throw new Error('expected the replacement attached')
  return replacement
}

/** Attached, and a run later still waiting for its container instance to join the cluster. */
export const registering = async (cloud: FakeCloud, h: ReturnType<typeof harness>): Promise<string> => {
  const replacement = await attached(cloud, h)
  h.advanceMinutes(1)
  const summary = await h.run()
  expect(skipsOf(summary)).toContainEqual(
    expect.objectContaining({ instanceId: replacement, reason: expect.stringContaining('ecs-registering') }),
  )
  return replacement
}
