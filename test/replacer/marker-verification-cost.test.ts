import { describe, expect, it } from 'vitest'
import {
  REGION_LANES,
  TAG_INTERRUPTION_WARNED,
  TAG_JOINED_GROUP,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_REPLACED_TYPE,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP,
  TAG_SWAP_ID,
} from '../../lambdas/core/constants.ts'
import type { MarkerRead } from '../../lambdas/core/markers.ts'
import { laneOf } from '../../lambdas/core/region/lanes.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, harness, laneRecord, START, strayOf } from './support.ts'

/** A converged group `web`: four spot members spotswap attached, each keeping its two markers for good. */
const convergedFleet = () => {
  const cloud = cloudWithFleet(0, { maxSize: 4, minSize: 0, desiredCapacity: 0 })
  const ids = ['us-east-1b', 'us-east-1d', 'us-east-1b', 'us-east-1d'].map((zone) => {
    const { id } = cloud.addInstance({
      group: 'web',
      lifecycle: 'spot',
      type: 'm5a.large',
      zone,
      tags: { [TAG_REPLACED_TYPE]: 'm5.large' },
    })
    cloud.seedInstanceTags(id, { [TAG_JOINED_GROUP]: 'web', [TAG_SWAP_ID]: 's1' })
    return id
  })
  return { cloud, ids }
}

/** Every marker the run asked KMS about, as `resource key`. */
const askedOf = (cloud: FakeCloud): string[] => {
  const asked: string[] = []
  const verify = cloud.verifyMarkers.bind(cloud)
  cloud.verifyMarkers = (markers: readonly MarkerRead[]) => {
    for (const { resource, key } of markers)
      asked.push(`${resource.kind === 'group' ? resource.name : resource.id} ${key}`)
    return verify(markers)
  }
  return asked
}

describe('the markers a replacer run verifies', () => {
  it('asks KMS about no marker of a converged group', async () => {
    const { cloud } = convergedFleet()
    const asked = askedOf(cloud)
    await harness({ 'us-east-1': cloud }).run()
    expect(asked).toEqual([])
  })

  it('verifies every member’s markers once its group carries a swap record', async () => {
    const { cloud, ids } = convergedFleet()
    const record = `v2 id=s1 phase=waiting owner=4 pairs=0 started=${new Date(START.getTime() - 600_000).toISOString()}`
    cloud.seedGroupTags('web', { [TAG_SWAP]: record })
    const asked = askedOf(cloud)
    await harness({ 'us-east-1': cloud }).run()
    expect(asked).toContain(`web ${TAG_SWAP}`)
    for (const id of ids)
      expect(asked).toEqual(expect.arrayContaining([`${id} ${TAG_JOINED_GROUP}`, `${id} ${TAG_SWAP_ID}`]))
  })

  it('verifies a member marked as warned, and no other', async () => {
    const { cloud, ids } = convergedFleet()
    const warned = ids[0] as string
    cloud.seedInstanceTags(warned, { [TAG_INTERRUPTION_WARNED]: START.toISOString() })
    const asked = askedOf(cloud)
    await harness({ 'us-east-1': cloud }).run()
    expect(new Set(asked.map((a) => a.split(' ')[0]))).toEqual(new Set([warned]))
  })

  it('verifies a stray’s partner and still cleans the stray up', async () => {
    const { cloud } = convergedFleet()
    const stray = strayOf(cloud)
    const asked = askedOf(cloud)
    await harness({ 'us-east-1': cloud }).run()
    expect(
      asked.some((a) =>
        a.startsWith(cloud.instances.get(stray.id)?.tags['launched-for-replacing-instance'] ?? '?'),
      ),
    ).toBe(true)
    expect(cloud.instances.get(stray.id)?.state).not.toBe('running')
  })
})

describe('a lane run', () => {
  /** `web` converged (lane 1), `api` (lane 7) with a member and the launch made to replace it. */
  const twoLanes = () => {
    const { cloud, ids } = convergedFleet()
    cloud.addGroup('api', { maxSize: 2 })
    const partner = cloud.addInstance({ group: 'api', zone: 'us-east-1b' })
    const launch = cloud.addInstance({
      lifecycle: 'spot',
      tags: { [TAG_LAUNCHED_FOR_GROUP]: 'api', [TAG_REPLACING_INSTANCE]: partner.id },
    })
    cloud.seedInstanceTags(launch.id, { [TAG_SWAP_ID]: 's1' })
    return { cloud, web: ids, api: [partner.id, launch.id] }
  }

  it('reads the details of its own groups’ members and verifies nothing of another lane’s', async () => {
    const { cloud, web, api } = twoLanes()
    expect(laneOf('web', REGION_LANES)).not.toBe(laneOf('api', REGION_LANES))
    const asked = askedOf(cloud)
    await harness({ 'us-east-1': cloud }).run(laneRecord(laneOf('web', REGION_LANES)))
    const read = cloud.calls
      .filter((c) => c.method === 'describeInstances')
      .flatMap((c) => c.args[0] as string[])
    expect(read.filter((id) => api.includes(id))).toEqual([])
    expect(read).toEqual(expect.arrayContaining(web))
    expect(asked).toEqual([])
  })

  it('verifies its own launch and the partner it names', async () => {
    const { cloud, api } = twoLanes()
    const asked = askedOf(cloud)
    await harness({ 'us-east-1': cloud }).run(laneRecord(laneOf('api', REGION_LANES)))
    expect(asked).toContain(`${api[1]} ${TAG_SWAP_ID}`)
  })
})
