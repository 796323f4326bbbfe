/**
 * A replacement of a swap whose later attach chunk never joined (chaos seed 5226): the handler reads the
 * group's scaling activities, and only then, to prove desired capacity above the owner's is the swap's.
 */
import { describe, expect, it } from 'vitest'
import { TAG_REPLACING_INSTANCE, TAG_SWAP, TAG_SWAP_ID } from '../../lambdas/core/constants.ts'
import { formatSwapRecord } from '../../lambdas/core/swap/record.ts'
import { createHandler } from '../../lambdas/interruption/create-handler.ts'
import * as events from '../events/builders.ts'
import { FakeCloud } from '../fakes/fake-cloud.ts'
import { NOW, seedConvertedGroup, testDeps } from './support.ts'

const REGION = 'us-east-1'
const STARTED = new Date(NOW.getTime() - 120_000)

/** Two on-demand partners (the owner's 2); a swap of 3 pairs whose first 2 joined (desired 4). */
const partlyAttached = () => {
  const cloud = new FakeCloud(REGION)
  cloud.addGroup('web', { tags: { 'spot-enabled': 'true' }, minSize: 1, maxSize: 5 })
  const partners = [cloud.addInstance({ group: 'web' }), cloud.addInstance({ group: 'web' })]
  const replacements = partners.map((partner) =>
    cloud.addInstance({
      group: 'web',
      lifecycle: 'spot',
      tags: { [TAG_REPLACING_INSTANCE]: partner.id, [TAG_SWAP_ID]: 's1' },
    }),
  )
  const record = formatSwapRecord({
    version: 2,
    id: 's1',
    phase: 'attaching',
    ownerDesired: 2,
    pairs: 3,
    step: undefined,
    originalMaxSize: 2,
    raisedMaxSize: 5,
    startedAt: STARTED,
  })
  cloud.seedGroupTags('web', { [TAG_SWAP]: record })
  const deps = testDeps([cloud])
  const [leaving] = replacements.map((r) => r.id) as [string]
  return { cloud, leaving, handler: createHandler(deps) }
}

const interruptionOf = (instanceId: string) =>
  events.spotInterruptionWarning({ instanceId, action: 'terminate', region: REGION })

describe('an interrupted replacement of a swap whose later attach chunk never joined', () => {
  it('leaves with a decrement when the scaling activities show no one else changed desired capacity', async () => {
    const { cloud, leaving, handler } = partlyAttached()
    await handler(interruptionOf(leaving), {})
    expect(cloud.calls.filter((c) => c.method === 'scalingActivities')).toHaveLength(1)
    expect(cloud.mutations).toContainEqual({ method: 'terminateInGroup', args: [leaving, true] })
    expect(cloud.group('web').desiredCapacity).toBe(3)
    expect(cloud.group('web').tags[TAG_SWAP]).toContain('phase=attaching owner=2 pairs=2')
  })

  it('gives nothing back when the activities show an owner’s change since the swap started', async () => {
    const { cloud, leaving, handler } = partlyAttached()
    cloud.group('web').activities = [
      {
        startTime: NOW,
        cause: `At ${STARTED.toISOString().slice(0, 19)}Z a user request update of AutoScalingGroup constraints to min: 1, max: 5, desired: 4 changing the desired capacity from 3 to 4.`,
      },
    ]
    await handler(interruptionOf(leaving), {})
    expect(cloud.mutations).not.toContainEqual({ method: 'terminateInGroup', args: [leaving, true] })
    expect(cloud.group('web').desiredCapacity).toBe(4)
  })

  it('reads no activities for a member of a group without such a swap', async () => {
    const cloud = new FakeCloud(REGION)
    const { ids } = seedConvertedGroup(cloud)
    await createHandler(testDeps([cloud]))(interruptionOf(ids[0] as string), {})
    expect(cloud.calls.some((c) => c.method === 'scalingActivities')).toBe(false)
  })
})
