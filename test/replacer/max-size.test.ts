/**
 * MaxSize writes under AWS's rule: a MaxSize below desired capacity lowers desired to it and the group
 * terminates members (API_UpdateAutoScalingGroup), and a swap undoes only its own raise.
 */
import { describe, expect, it } from 'vitest'
import { TAG_SWAP } from '../../lambdas/core/constants.ts'
import { readSwapRecord, type SwapRecord } from '../../lambdas/core/swap/record.ts'
import { awsError, type FakeCloud } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, harness, spotShare } from './support.ts'

const OWNER = 25

/** The sizes the group has after every port call, to catch a dip however brief. */
const watchSizes = (cloud: FakeCloud) => {
  const seen: { desired: number; inService: number }[] = []
  const group = cloud.group('web')
  const look = () =>
    seen.push({
      desired: group.desiredCapacity,
      inService: [...group.members.values()].filter((s) => s === 'InService').length,
    })
  for (const method of ['setMaxSize', 'attachInstances', 'terminateInGroup'] as const) {
    const original = cloud[method].bind(cloud) as (...args: unknown[]) => Promise<void>
    Object.assign(cloud, {
      [method]: async (...args: unknown[]) => {
        try {
          await original(...args)
        } finally {
          look()
        }
      },
    })
  }
  return seen
}

/** The executor attaches in chunks of 20, one request each: the second request of the run fails. */
const secondChunkFails = (cloud: FakeCloud) => {
  const attach = cloud.attachInstances.bind(cloud)
  let requests = 0
  cloud.attachInstances = async (group, ids) => {
    requests++
    if (requests === 2) throw awsError('ServiceUnavailable', 503, 'Service is unavailable')
    return attach(group, ids)
  }
}

describe('a swap of more than 20 pairs whose later attach chunk fails', () => {
  it('never lowers desired capacity below what the attach reached, nor serving members below the owner’s', async () => {
    const cloud = cloudWithFleet(OWNER)
    const h = harness({ 'us-east-1': cloud }, { MAX_REPLACEMENTS_IN_FLIGHT: String(OWNER) })
    await h.run()
    h.advanceMinutes(6)
    secondChunkFails(cloud)
    const sizes = watchSizes(cloud)
    await h.run()
    // 20 attached, 5 not (terminated, never attached): desired stands at 45 and MaxSize stays raised; the
    // record holds the 20 pairs.
    expect(cloud.group('web')).toMatchObject({ desiredCapacity: OWNER + 20, maxSize: 2 * OWNER })
    const onGroup = readSwapRecord(cloud.group('web').tags)
    expect(onGroup.kind === 'read' && onGroup.record).toMatchObject({ pairs: 20, raisedMaxSize: 2 * OWNER })
    const outside = [...cloud.instances.values()].filter(
      (i) => i.lifecycle === 'spot' && !cloud.group('web').members.has(i.id),
    )
    expect(outside.map((i) => i.state)).toEqual(Array(5).fill('terminated'))
    for (let run = 0; run < 20; run++) {
      h.advanceMinutes(5)
      await h.run()
    }
    expect(sizes.length).toBeGreaterThan(0)
    expect(Math.min(...sizes.map((s) => s.desired))).toBeGreaterThanOrEqual(OWNER)
    expect(Math.min(...sizes.map((s) => s.inService))).toBeGreaterThanOrEqual(OWNER)
    // The swap went on with the 20 that joined, the other 5 were swapped later: the group ends as its
    // owner set it, every member spot.
    const group = cloud.group('web')
    expect(group.tags[TAG_SWAP]).toBeUndefined()
    expect(group).toMatchObject({ desiredCapacity: OWNER, maxSize: OWNER })
    expect(spotShare(cloud)).toEqual({ spot: OWNER, onDemand: 0 })
  })
})

describe("an owner's MaxSize change during a swap", () => {
  /** A one-pair swap attached in a full group of 2: MaxSize raised from 2 to 3, partner not retired yet. */
  const swapOpen = async () => {
    const cloud = cloudWithFleet(2)
    const h = harness({ 'us-east-1': cloud }, { MAX_REPLACEMENTS_IN_FLIGHT: '1' })
    await h.run()
    h.advanceMinutes(6)
    await h.run()
    const onGroup = readSwapRecord(cloud.group('web').tags)
    expect(onGroup.kind === 'read' && onGroup.record).toMatchObject({ originalMaxSize: 2, raisedMaxSize: 3 })
    expect(cloud.group('web')).toMatchObject({ maxSize: 3, desiredCapacity: 3 })
    return { cloud, h }
  }

  const finish = async (h: Awaited<ReturnType<typeof swapOpen>>['h']) => {
    for (let run = 0; run < 6; run++) {
      h.advanceMinutes(5)
      await h.run()
    }
  }

  it.each([10, 4])(
    'leaves a MaxSize of %i the owner set meanwhile when the swap closes',
    async (ownerMax) => {
      const { cloud, h } = await swapOpen()
      cloud.group('web').maxSize = ownerMax
      await finish(h)
      const group = cloud.group('web')
      expect(group.tags[TAG_SWAP]).toBeUndefined()
      expect(group).toMatchObject({ maxSize: ownerMax, desiredCapacity: 2 })
      expect(cloud.mutations.filter((c) => c.method === 'setMaxSize').map((c) => c.args[1])).toEqual([3])
    },
  )

  it('puts its own raise back when MaxSize is still what it raised it to', async () => {
    const { cloud, h } = await swapOpen()
    await finish(h)
    expect(cloud.group('web')).toMatchObject({ maxSize: 2, desiredCapacity: 2 })
    expect(cloud.group('web').tags[TAG_SWAP]).toBeUndefined()
  })
})

describe('a swap closed while desired capacity stands above the MaxSize it raised from', () => {
  /** Two on-demand members at MaxSize 2; a swap of both raised MaxSize to 4 and attached (desired 4). */
  const swapOfTwo = async () => {
    const cloud = cloudWithFleet(2)
    const h = harness({ 'us-east-1': cloud }, { MAX_REPLACEMENTS_IN_FLIGHT: '2' })
    await h.run()
    h.advanceMinutes(6)
    await h.run()
    expect(cloud.group('web')).toMatchObject({ desiredCapacity: 4, maxSize: 4 })
    return { cloud, h }
  }

  it('holds MaxSize at desired, recorded, and puts the rest back once the owner lowers desired', async () => {
    const { cloud, h } = await swapOfTwo()
    const group = cloud.group('web')
    // The owner sets desired 3 while the raise stands (3 is within MaxSize 4, so Auto Scaling takes it).
    await cloud.setDesiredCapacity('web', 3)
    h.advanceMinutes(5)
    await h.run()
    expect(group).toMatchObject({ desiredCapacity: 3, maxSize: 3 })
    expect(readSwapRecord(group.tags)).toMatchObject({
      kind: 'read',
      record: { pairs: 0, originalMaxSize: 2, raisedMaxSize: 3 },
    })
    await cloud.setDesiredCapacity('web', 2)
    h.advanceMinutes(5)
    await h.run()
    expect(group).toMatchObject({ desiredCapacity: 2, maxSize: 2 })
    expect(group.tags[TAG_SWAP]).toBeUndefined()
  })

  it('carries the held raise into the next swap, which records the MaxSize before it', async () => {
    const { cloud, h } = await swapOfTwo()
    const group = cloud.group('web')
    // Auto Scaling scales in a replacement: its partner gets another one, swapped under the held raise.
    await cloud.setDesiredCapacity('web', 3)
    const records: SwapRecord[] = []
    for (let run = 0; run < 5; run++) {
      h.advanceMinutes(5)
      await h.run()
      const onGroup = readSwapRecord(group.tags)
      if (onGroup.kind === 'read') records.push(onGroup.record)
    }
    expect(records).toContainEqual(
      expect.objectContaining({ pairs: 1, originalMaxSize: 2, raisedMaxSize: 4 }),
    )
    expect(spotShare(cloud)).toEqual({ spot: 3, onDemand: 0 })
    expect(group).toMatchObject({ desiredCapacity: 3, maxSize: 3 })
    // A held raise nothing changed is not written again.
    cloud.calls.length = 0
    h.advanceMinutes(5)
    await h.run()
    expect(cloud.mutations.filter((c) => c.method === 'tagGroup' || c.method === 'setMaxSize')).toEqual([])
    await cloud.setDesiredCapacity('web', 2)
    h.advanceMinutes(5)
    await h.run()
    expect(group).toMatchObject({ desiredCapacity: 2, maxSize: 2 })
  })

  it('leaves a MaxSize the owner set meanwhile', async () => {
    const { cloud, h } = await swapOfTwo()
    const group = cloud.group('web')
    await cloud.setDesiredCapacity('web', 3)
    h.advanceMinutes(5)
    await h.run()
    await cloud.setMaxSize('web', 5)
    await cloud.setDesiredCapacity('web', 2)
    h.advanceMinutes(5)
    await h.run()
    expect(group.maxSize).toBe(5)
    // The held raise is dropped: nothing is left to put back.
    const onGroup = readSwapRecord(group.tags)
    expect(onGroup.kind === 'read' ? onGroup.record.originalMaxSize : undefined).toBeUndefined()
  })
})
