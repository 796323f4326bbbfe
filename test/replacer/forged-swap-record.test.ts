import { describe, expect, it } from 'vitest'
import { TAG_REPLACED_TYPE, TAG_SWAP } from '../../lambdas/core/constants.ts'
import { Metric } from '../../lambdas/core/metric-names.ts'
import { actionsOf, cloudWithFleet, harness, START } from './support.ts'

/** A group `web` of four spot members spotswap converted; desired 4. */
const convertedFleet = () => {
  const cloud = cloudWithFleet(0, { maxSize: 6, minSize: 0, desiredCapacity: 0 })
  cloud.addGroup('other')
  for (const zone of ['us-east-1b', 'us-east-1d', 'us-east-1b', 'us-east-1d'])
    cloud.addInstance({
      group: 'web',
      lifecycle: 'spot',
      type: 'm5a.large',
      zone,
      tags: { [TAG_REPLACED_TYPE]: 'm5.large' },
    })
  return cloud
}

/** A record saying the group holds two pairs above an owner's 2: believed, two members leave with a decrement. */
const PLANTED = `v2 id=s1 phase=waiting owner=2 pairs=2 started=${new Date(START.getTime() - 600_000).toISOString()}`

const LEAVING = new Set(['terminateInGroup', 'detachInstances', 'terminateInstances', 'setMaxSize'])
const leaving = (cloud: ReturnType<typeof convertedFleet>) =>
  cloud.mutations.filter((c) => LEAVING.has(c.method))
const forgedCount = (metrics: { values: { name: string; value: number }[] }[]): number =>
  metrics
    .flatMap((m) => m.values)
    .reduce((sum, v) => sum + (v.name === Metric.ForgedMarkers ? v.value : 0), 0)

describe('replacer with a swap record someone else planted on a group', () => {
  it('takes no member out for a record without a MAC, and reports it', async () => {
    const cloud = convertedFleet()
    cloud.group('web').tags = { ...cloud.group('web').tags, [TAG_SWAP]: PLANTED }
    const replacer = harness({ 'us-east-1': cloud })
    await replacer.run()
    expect(leaving(cloud)).toEqual([])
    expect(cloud.group('web').desiredCapacity).toBe(4)
    expect(forgedCount(replacer.recorded.metrics)).toBe(1)
    expect(replacer.recorded.logs.filter((l) => l.message === 'marker not believed')).toHaveLength(1)
  })

  it('takes no member out for a record whose MAC was copied from another group', async () => {
    const cloud = convertedFleet()
    cloud.seedGroupTags('other', { [TAG_SWAP]: PLANTED })
    cloud.group('web').tags = { ...cloud.group('web').tags, [TAG_SWAP]: PLANTED }
    const replacer = harness({ 'us-east-1': cloud })
    await replacer.run()
    expect(leaving(cloud)).toEqual([])
    expect(cloud.group('web').desiredCapacity).toBe(4)
  })

  it('acts on the same record when spotswap signed it for this group', async () => {
    const cloud = convertedFleet()
    cloud.seedGroupTags('web', { [TAG_SWAP]: PLANTED })
    await harness({ 'us-east-1': cloud }).run()
    expect(leaving(cloud)).not.toEqual([])
  })

  it('holds the group, and changes nothing, while the record cannot be verified', async () => {
    const cloud = convertedFleet()
    cloud.seedGroupTags('web', { [TAG_SWAP]: PLANTED })
    cloud.kmsUnavailable = true
    const summary = await harness({ 'us-east-1': cloud }).run()
    expect(cloud.mutations).toEqual([])
    expect(actionsOf(summary)).toEqual([])
    expect(JSON.stringify(summary.regions)).toContain('markers-unverifiable')
  })
})
