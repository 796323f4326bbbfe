/**
 * A managed group its owner scaled in while ECS protected every member: desired capacity is decremented at
 * once and Auto Scaling takes each member as soon as ECS lifts its protection. A drain swap started then
 * would have its drained partner taken by that scale-in, without the swap's decrement (chaos seed 197), so
 * nothing new starts until the scale-in is done.
 */
import { describe, expect, it } from 'vitest'
import { TAG_ECS_MANAGED } from '../../lambdas/core/ecs/capacity-provider.ts'
import type { ReplacerSummary } from '../../lambdas/replacer/summary.ts'
import { webProvider } from '../builders/ecs.ts'
import { CLUSTER, calls } from './ecs-support.ts'
import { cloudWithFleet, harness } from './support.ts'

/** `web` with three on-demand members, each running two service tasks: ECS protects them all. */
const protectedGroup = () => {
  const cloud = cloudWithFleet(3, { tags: { 'spot-enabled': 'true', [TAG_ECS_MANAGED]: '' } })
  cloud.capacityProviders.push(webProvider())
  cloud.clusters.push({ arn: CLUSTER, name: 'web', capacityProviders: ['cp-web'] })
  const members = [...cloud.group('web').members.keys()]
  for (const id of members) cloud.registerContainerInstance(CLUSTER, id, 2)
  return { cloud, members, h: harness({ 'us-east-1': cloud }) }
}

const groupOf = (summary: ReplacerSummary) => summary.regions[0]?.groups?.find((g) => g.group === 'web')

describe('a managed group scaled in below the members ECS protects', () => {
  it('starts no drain swap while Auto Scaling waits for ECS to lift a protection', async () => {
    const { cloud, h } = protectedGroup()
    // AWS: the owner's scale-in decrements desired capacity; the protected members stay
    // (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-instance-protection.html).
    cloud.group('web').desiredCapacity = 1
    const summary = await h.run()
    expect(calls(cloud, 'launchSpot')).toEqual([])
    expect(groupOf(summary)).toMatchObject({
      skipCode: 'ecs-scale-in-pending',
      skipped: expect.stringContaining('3 members for a desired capacity of 1'),
    })
  })

  it('swaps again once the scale-in is done', async () => {
    const { cloud, members, h } = protectedGroup()
    cloud.group('web').desiredCapacity = 2
    await h.run()
    expect(calls(cloud, 'launchSpot')).toEqual([])
    // ECS lifted one member's protection and Auto Scaling took it: as many members as desired.
    cloud.group('web').members.delete(members[2] as string)
    h.advanceMinutes(5)
    const summary = await h.run()
    expect(groupOf(summary)?.skipCode).toBeUndefined()
    expect(calls(cloud, 'launchSpot').length).toBeGreaterThan(0)
  })
})
