/**
 * The drain swap against the stateful fake: a member ECS protects while it runs tasks is replaced, set
 * DRAINING once its replacement's container instance is ACTIVE, and retired only once ECS has lifted its
 * protection; a drain that stalls gives the unit back and sets the partner ACTIVE again.
 */
import { describe, expect, it } from 'vitest'
import {
  ECS_DRAIN_DEADLINE_SECONDS,
  TAG_ECS_DRAINED,
  TAG_REPLACING_INSTANCE,
} from '../../lambdas/core/constants.ts'
import { trafficSourceKey } from '../../lambdas/core/port.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'
import { attached, CLUSTER, calls, ecsGroup, registering } from './ecs-support.ts'
import { actionsOf, type harness, skipsOf } from './support.ts'

/** A swap whose replacement joined the cluster and whose partner spotswap set DRAINING. */
const drained = async (
  cloud: FakeCloud,
  h: ReturnType<typeof harness>,
  partner: string,
  graceMinutes = 5,
  replacementTasks = 0,
): Promise<string> => {
  const replacement = await attached(cloud, h, graceMinutes)
  cloud.registerContainerInstance(CLUSTER, replacement, replacementTasks)
  h.advanceMinutes(1)
  await h.run()
  expect(cloud.containerInstanceOf(partner)?.status).toBe('DRAINING')
  return replacement
}

/** The run set the partner ACTIVE again and removed spotswap's marker. */
const activeAgain = (
  cloud: FakeCloud,
  summary: Awaited<ReturnType<ReturnType<typeof harness>['run']>>,
  partner: string,
) => {
  expect(actionsOf(summary)).toContainEqual(
    expect.objectContaining({ kind: 'ecs-undrain', status: 'done', instanceId: partner }),
  )
  expect(cloud.containerInstanceOf(partner)?.status).toBe('ACTIVE')
  expect(cloud.instances.get(partner)?.tags[TAG_ECS_DRAINED]).toBeUndefined()
}

describe('the drain swap', () => {
  it('drains the partner once its replacement is ACTIVE in the cluster, retires it once ECS lifts its protection', async () => {
    const { cloud, partner, h } = ecsGroup()
    // Not in the cluster yet: the partner keeps its tasks.
    const replacement = await registering(cloud, h)
    expect(calls(cloud, 'setContainerInstancesState')).toEqual([])

    cloud.registerContainerInstance(CLUSTER, replacement, 0)
    h.advanceMinutes(1)
    await h.run()
    // Marked first (a marker with a MAC), then set DRAINING.
    expect(cloud.instances.get(partner)?.tags[TAG_ECS_DRAINED]).toMatch(/^s[0-9a-z]+$/)
    expect(cloud.containerInstanceOf(partner)?.status).toBe('DRAINING')
    expect(cloud.group('web').members.has(partner)).toBe(true)

    // ECS still moves its tasks: nothing is retired while it protects the partner.
    cloud.calls.length = 0
    h.advanceMinutes(2)
    const draining = await h.run()
    expect(calls(cloud, 'terminateInGroup')).toEqual([])
    expect(skipsOf(draining)).toContainEqual(
      expect.objectContaining({ instanceId: replacement, reason: expect.stringContaining('ecs-draining') }),
    )

    cloud.finishDrain(partner)
    h.advanceMinutes(1)
    await h.run()
    expect(calls(cloud, 'terminateInGroup')).toEqual([{ method: 'terminateInGroup', args: [partner, true] }])
    expect(cloud.group('web').members.has(partner)).toBe(false)
    expect(cloud.group('web').desiredCapacity).toBe(1)
  })

  it('gives the unit back when ECS does not lift the protection by the drain deadline, the partner ACTIVE again', async () => {
    const { cloud, partner, h } = ecsGroup()
    const replacement = await drained(cloud, h, partner)

    h.advanceSeconds(1800 + ECS_DRAIN_DEADLINE_SECONDS)
    const stalled = await h.run()
    expect(actionsOf(stalled)).toContainEqual(
      expect.objectContaining({ kind: 'ecs-undrain', status: 'done', instanceId: partner }),
    )
    expect(cloud.containerInstanceOf(partner)?.status).toBe('ACTIVE')
    expect(cloud.instances.get(partner)?.tags[TAG_ECS_DRAINED]).toBeUndefined()
    expect(cloud.group('web').members.has(partner)).toBe(true)
    expect(cloud.group('web').members.has(replacement)).toBe(false)
    expect(cloud.group('web').desiredCapacity).toBe(1)
  })

  it('does not count a swap past its deadline while its drain is within the drain deadline', async () => {
    // A 30-minute grace period: the swap's health deadline is 30 minutes after it started (the attach),
    // its drain's 45.
    const { cloud, partner, h } = ecsGroup(false, 1800)
    await drained(cloud, h, partner, 30)
    const overdue = () =>
      h.recorded.metrics.filter((m) => m.values.some((v) => v.name === 'SwapsPastDeadline'))
    // 43 minutes after the swap started: past any other swap's bound (40), within the drain's.
    h.advanceMinutes(42)
    const draining = await h.run()
    expect(skipsOf(draining)).toContainEqual(
      expect.objectContaining({ reason: expect.stringContaining('ecs-draining') }),
    )
    expect(overdue()).toEqual([])
  })

  it('sets ACTIVE again a partner it drained once the swap is released (the owner resized the group)', async () => {
    const { cloud, partner, h } = ecsGroup()
    await drained(cloud, h, partner)
    // The owner's figure: not what the swap record accounts for, so the swap is released.
    cloud.group('web').maxSize = 6
    cloud.group('web').desiredCapacity = 5
    h.advanceMinutes(1)
    const released = await h.run()
    expect(actionsOf(released)).toContainEqual(
      expect.objectContaining({ kind: 'release-pair', status: 'done' }),
    )
    h.advanceMinutes(1)
    activeAgain(cloud, await h.run(), partner)
    expect(cloud.group('web').members.has(partner)).toBe(true)
  })

  it("releases a closed swap's pair though ECS protects the replacement, and replaces the partner again", async () => {
    const { cloud, partner, h } = ecsGroup()
    // The replacement runs tasks: ECS protects it from scale-in, which says nothing of its owner.
    const replacement = await drained(cloud, h, partner, 5, 2)
    cloud.finishDrain(partner)
    // Managed scaling's figure, mid-swap: the swap is closed, nothing retired.
    cloud.group('web').maxSize = 6
    cloud.group('web').desiredCapacity = 5
    h.advanceMinutes(1)
    const closed = await h.run()
    expect(actionsOf(closed)).toContainEqual(expect.objectContaining({ kind: 'close-swap', status: 'done' }))
    expect(actionsOf(closed)).toContainEqual(
      expect.objectContaining({ kind: 'release-pair', status: 'done' }),
    )
    // Only its pair tags: it stays, protected, running its tasks.
    expect(cloud.instances.get(replacement)?.tags[TAG_REPLACING_INSTANCE]).toBeUndefined()
    expect(cloud.scaleInProtected.has(replacement)).toBe(true)
    cloud.calls.length = 0
    h.advanceMinutes(1)
    activeAgain(cloud, await h.run(), partner)
    // Named by nothing now: an ordinary on-demand member, replaced again.
    h.advanceMinutes(10)
    await h.run()
    expect(calls(cloud, 'launchSpot').map((c) => JSON.stringify(c))).toEqual([
      expect.stringContaining(partner),
    ])
    expect(cloud.group('web').members.has(replacement)).toBe(true)
  })

  it('never sets ACTIVE a partner someone else drained', async () => {
    const { cloud, partner, h } = ecsGroup()
    const replacement = await attached(cloud, h)
    cloud.registerContainerInstance(CLUSTER, replacement, 0)
    // The owner drains it before spotswap does: no marker of spotswap's is on it.
    await cloud.setContainerInstancesState(
      CLUSTER,
      [cloud.containerInstanceOf(partner)?.arn ?? ''],
      'DRAINING',
    )
    cloud.calls.length = 0
    h.advanceMinutes(1)
    await h.run()
    h.advanceSeconds(1800 + ECS_DRAIN_DEADLINE_SECONDS)
    await h.run()
    expect(calls(cloud, 'setContainerInstancesState')).toEqual([])
    expect(cloud.containerInstanceOf(partner)?.status).toBe('DRAINING')
    expect(cloud.group('web').members.has(replacement)).toBe(false)
  })

  it('with managed draining on, retires the partner once its replacement is ACTIVE, never draining it itself', async () => {
    const { cloud, partner, h } = ecsGroup(true)
    // ECS's own termination hook, which it adds to the group with managed draining.
    cloud.group('web').hooks.push({
      name: 'ecs-managed-draining-termination-hook',
      transition: 'autoscaling:EC2_INSTANCE_TERMINATING',
    })
    const replacement = await registering(cloud, h)
    expect(calls(cloud, 'terminateInGroup')).toEqual([])

    cloud.registerContainerInstance(CLUSTER, replacement, 0)
    h.advanceMinutes(1)
    const retired = await h.run()
    expect(actionsOf(retired)).toContainEqual(
      expect.objectContaining({
        kind: 'complete-swap',
        status: 'done',
        retire: 'partner',
        reason: expect.stringContaining('ecs-managed-draining'),
      }),
    )
    // Through Auto Scaling, with a decrement: ECS's hook holds it while ECS drains it.
    expect(calls(cloud, 'terminateInGroup')).toEqual([{ method: 'terminateInGroup', args: [partner, true] }])
    expect(calls(cloud, 'setContainerInstancesState')).toEqual([])
    expect(cloud.group('web').members.get(partner)).toBe('Terminating:Wait')
    expect(cloud.group('web').desiredCapacity).toBe(1)
  })
  it('with managed draining on, keeps the partner until its replacement serves in its load balancers', async () => {
    const { cloud, partner, h } = ecsGroup(true)
    const tg = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/0123456789abcdef'
    cloud.group('web').trafficSources = {
      targetGroupArns: [tg],
      classicLoadBalancerNames: [],
      unreadable: [],
    }
    cloud.healthSettings.set(trafficSourceKey('target-group', tg), {
      intervalSeconds: 30,
      healthyThreshold: 3,
    })
    const replacement = await registering(cloud, h)
    cloud.registerContainerInstance(CLUSTER, replacement, 0)
    h.advanceMinutes(1)
    // ACTIVE in the cluster, but its target is still `initial`: ECS's hook would drain a partner whose
    // tasks have nowhere serving to go.
    await h.run()
    expect(calls(cloud, 'terminateInGroup')).toEqual([])
    expect(cloud.group('web').members.has(partner)).toBe(true)

    cloud.markHealthy(replacement)
    h.advanceMinutes(1)
    await h.run()
    expect(calls(cloud, 'terminateInGroup')).toEqual([{ method: 'terminateInGroup', args: [partner, true] }])
    expect(calls(cloud, 'setContainerInstancesState')).toEqual([])
  })
})
