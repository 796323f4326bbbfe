/**
 * An interruption warning for a spot member of a group ECS manages: set DRAINING at once, before it
 * leaves, unless the capacity provider's managed draining drains it; a group without the tag reads no ECS.
 */
import { describe, expect, it } from 'vitest'
import { DOOMED_SWAP_DEADLINE_SECONDS } from '../../lambdas/core/constants.ts'
import { TAG_ECS_MANAGED } from '../../lambdas/core/ecs/capacity-provider.ts'
import { interruptionDeadlineEvent } from '../../lambdas/core/events/definitions.ts'
import { createHandler } from '../../lambdas/interruption/create-handler.ts'
import { webProvider } from '../builders/ecs.ts'
import * as events from '../events/builders.ts'
import { FakeCloud } from '../fakes/fake-cloud.ts'
import { NOW, seedConvertedGroup, testDeps } from './support.ts'

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

describe('a warned member ECS drains, when the handler can remind itself of its deadline', () => {
  /** EC2's warning, delivered three seconds after it was given. */
  const warnedAt = new Date(NOW.getTime() - 3_000)
  const withReminders = (managedDraining = false) => {
    const { cloud, doomed } = setup(managedDraining)
    const deadlines: { instanceId: string; delaySeconds: number }[] = []
    const runs: (readonly number[])[] = []
    const handler = createHandler({
      ...testDeps([cloud]),
      requestRuns: async (_region: string, _group: string, delays: readonly number[]) => {
        runs.push(delays)
      },
      requestDeadline: async (_region: string, instanceId: string, delaySeconds: number) => {
        deadlines.push({ instanceId, delaySeconds })
      },
    })
    const warning = events.spotInterruptionWarning({
      instanceId: doomed,
      action: 'terminate',
      region: REGION,
      time: warnedAt.toISOString(),
    })
    return { cloud, doomed, deadlines, runs, handler, warning }
  }

  it('stays in its group, DRAINING, until its deadline, so ECS starts its tasks elsewhere first', async () => {
    const { cloud, doomed, deadlines, runs, handler, warning } = withReminders()
    await handler(warning, {})
    expect(cloud.containerInstanceOf(doomed)?.status).toBe('DRAINING')
    expect(cloud.group('web').members.has(doomed)).toBe(true)
    expect(cloud.mutations.map((m) => m.method)).not.toContain('terminateInGroup')
    expect(deadlines).toEqual([{ instanceId: doomed, delaySeconds: DOOMED_SWAP_DEADLINE_SECONDS - 3 }])
    expect(runs).toEqual([[]])

    // The reminder: it leaves through its group, which backfills.
    await handler(
      {
        Records: [
          {
            eventSource: 'aws:sqs',
            messageId: 'deadline-1',
            body: JSON.stringify(interruptionDeadlineEvent(REGION, doomed, NOW)),
          },
        ],
      },
      {},
    )
    expect(cloud.group('web').members.has(doomed)).toBe(false)
    expect(cloud.mutations.filter((m) => m.method === 'terminateInGroup')).toEqual([
      expect.objectContaining({ args: [doomed, false] }),
    ])
  })

  it('leaves at once when ECS drains it itself (managed draining)', async () => {
    const { cloud, doomed, deadlines, handler, warning } = withReminders(true)
    await handler(warning, {})
    expect(cloud.group('web').members.has(doomed)).toBe(false)
    expect(deadlines).toEqual([])
  })

  it('leaves at once when the drain fails', async () => {
    const { cloud, doomed, deadlines, handler, warning } = withReminders()
    cloud.failNext('ecsClusters', new Error('AccessDenied'))
    await handler(warning, {})
    expect(cloud.group('web').members.has(doomed)).toBe(false)
    expect(deadlines).toEqual([])
  })
})
