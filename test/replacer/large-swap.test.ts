/**
 * A swap of more than 20 pairs attaches in chunks of 20: a later chunk refused, or the run dying between
 * chunks, must end with the group at its owner's sizes, the swap's launches that never joined terminated,
 * and no partner replaced twice.
 */
import { describe, expect, it } from 'vitest'
import { TAG_JOINED_GROUP, TAG_SWAP, TAG_SWAP_ID } from '../../lambdas/core/constants.ts'
import { readSwapRecord } from '../../lambdas/core/swap/record.ts'
import { awsError, type FakeCloud } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, harness, spotShare } from './support.ts'

const OWNER = 25

/** The run's second AttachInstances request (the second chunk) fails with `error`; `then` runs after. */
const secondChunkFails = (cloud: FakeCloud, error: Error, then: () => void = () => {}) => {
  const attach = cloud.attachInstances.bind(cloud)
  let requests = 0
  cloud.attachInstances = async (group, ids) => {
    requests++
    if (requests !== 2) return attach(group, ids)
    then()
    throw error
  }
}

/** The run dies as it counts the first chunk in the record, before the second chunk is named or tried. */
const diesCountingFirstChunk = (cloud: FakeCloud) => {
  const tagGroup = cloud.tagGroup.bind(cloud)
  let writes = 0
  cloud.tagGroup = async (group, tags) => {
    writes++
    if (writes === 2) throw new Error('the process died')
    return tagGroup(group, tags)
  }
}

/** The run dies after the failed chunk: the membership read that follows it never comes back. */
const dies = (cloud: FakeCloud) => cloud.failNext('groupOfInstances', new Error('the process died'))

const spotOutside = (cloud: FakeCloud) =>
  [...cloud.instances.values()].filter((i) => i.lifecycle === 'spot' && !cloud.group('web').members.has(i.id))

const record = (cloud: FakeCloud) => {
  const onGroup = readSwapRecord(cloud.group('web').tags)
  return onGroup.kind === 'read' ? onGroup.record : undefined
}

/** Runs until the swap is over, counting the launches made for a partner that still had a live one. */
const finish = async (cloud: FakeCloud, h: ReturnType<typeof harness>) => {
  let doubles = 0
  for (let run = 0; run < 20; run++) {
    const live = new Map(
      spotOutside(cloud)
        .filter((i) => i.state === 'running' || i.state === 'pending')
        .map((i) => [i.tags['launched-for-replacing-instance'], i.id]),
    )
    const before = new Set(cloud.instances.keys())
    h.advanceMinutes(5)
    await h.run()
    for (const [id, i] of cloud.instances)
      if (!before.has(id) && live.has(i.tags['launched-for-replacing-instance'])) doubles++
  }
  return doubles
}

const start = async () => {
  const cloud = cloudWithFleet(OWNER)
  const h = harness({ 'us-east-1': cloud }, { MAX_REPLACEMENTS_IN_FLIGHT: String(OWNER) })
  await h.run()
  h.advanceMinutes(6)
  return { cloud, h }
}

describe('a swap of more than 20 pairs', () => {
  it('terminates the launches of a refused later chunk and finishes the pairs that joined', async () => {
    const { cloud, h } = await start()
    secondChunkFails(cloud, awsError('ValidationError', 400, 'refused'))
    await h.run()
    expect(cloud.group('web').desiredCapacity).toBe(OWNER + 20)
    expect(record(cloud)).toMatchObject({ pairs: 20, phase: 'waiting' })
    expect(spotOutside(cloud).map((i) => i.state)).toEqual(Array(5).fill('terminated'))
    const joined = [...cloud.group('web').members.keys()].filter(
      (id) => cloud.instances.get(id)?.tags[TAG_JOINED_GROUP] === 'web',
    )
    expect(joined).toHaveLength(20)
    expect(await finish(cloud, h)).toBe(0)
    expect(cloud.group('web').tags[TAG_SWAP]).toBeUndefined()
    expect(cloud.group('web')).toMatchObject({ desiredCapacity: OWNER, maxSize: OWNER })
    expect(spotShare(cloud)).toEqual({ spot: OWNER, onDemand: 0 })
  })

  it('names a chunk only as it attaches it: launches of a chunk never tried stay spotswap’s to attach or clean up', async () => {
    const { cloud, h } = await start()
    diesCountingFirstChunk(cloud)
    await h.run()
    const untried = spotOutside(cloud)
    expect(untried).toHaveLength(5)
    // Whatever the record becomes (an owner's resize closes it), nothing ties them to this swap's attach.
    expect(untried.map((i) => i.tags[TAG_SWAP_ID])).toEqual(Array(5).fill(undefined))
    expect(await finish(cloud, h)).toBe(0)
    expect(spotOutside(cloud).filter((i) => i.state === 'running' || i.state === 'pending')).toEqual([])
    expect(cloud.group('web').tags[TAG_SWAP]).toBeUndefined()
    expect(cloud.group('web')).toMatchObject({ desiredCapacity: OWNER, maxSize: OWNER })
  })

  it('proves, after the run died between chunks, which launches never joined, and terminates them first', async () => {
    const { cloud, h } = await start()
    secondChunkFails(cloud, new Error('the process died'), () => dies(cloud))
    await h.run()
    // The record still holds every pair, and counts the confirmed chunk; desired only that chunk.
    expect(record(cloud)).toMatchObject({ phase: 'attaching', pairs: OWNER, attached: 20 })
    expect(cloud.group('web').desiredCapacity).toBe(OWNER + 20)
    const never = spotOutside(cloud).map((i) => i.id)
    expect(never).toHaveLength(5)
    h.advanceMinutes(5)
    const before = new Set(cloud.instances.keys())
    await h.run()
    // The next run terminates them before any step down, and launches nothing for their partners yet.
    expect(never.map((id) => cloud.instances.get(id)?.state)).toEqual(Array(5).fill('terminated'))
    expect([...cloud.instances.keys()].filter((id) => !before.has(id))).toEqual([])
    expect(cloud.mutations.filter((m) => m.method === 'terminateInGroup')).toEqual([])
    expect(await finish(cloud, h)).toBe(0)
    expect(cloud.group('web').tags[TAG_SWAP]).toBeUndefined()
    expect(cloud.group('web')).toMatchObject({ desiredCapacity: OWNER, maxSize: OWNER })
    expect(spotShare(cloud)).toEqual({ spot: OWNER, onDemand: 0 })
  })
})
