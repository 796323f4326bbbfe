/**
 * Lanes (core/region/lanes.ts): a region's groups spread over several FIFO message groups. A scheduled run
 * sends one message per lane, a run of one group goes to its lane, and a lane's message runs only that
 * lane's groups; the region's own work (strays) is lane 0's alone, so lanes running at once write apart.
 */
import { describe, expect, it } from 'vitest'
import { REGION_LANES, TAG_LAUNCHED_FOR_GROUP } from '../../lambdas/core/constants.ts'
import { groupRunRequestEvent } from '../../lambdas/core/events/definitions.ts'
import { laneMessageGroupId, laneOf } from '../../lambdas/core/region/lanes.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, harness, laneRecord, START, strayOf } from './support.ts'

const REGION = 'us-east-1'
/** Groups in four different lanes of eight (lanes 1, 7, 3 and 4). */
const GROUPS = ['web', 'api', 'batch', 'workers']

/** One on-demand member in each of the groups above, each group room for one more. */
const fleet = (): FakeCloud => {
  const cloud = cloudWithFleet(1)
  for (const name of GROUPS.slice(1)) {
    cloud.addGroup(name, { maxSize: 2 })
    cloud.addInstance({ group: name, zone: 'us-east-1b' })
  }
  return cloud
}

const launchedFor = (cloud: FakeCloud): string[] =>
  [...cloud.instances.values()]
    .filter((i) => i.lifecycle === 'spot' && i.state !== 'terminated')
    .map((i) => i.tags[TAG_LAUNCHED_FOR_GROUP] ?? '')
    .sort()

describe('lanes of a region', () => {
  it('spread the groups of this test over four lanes', () => {
    expect(new Set(GROUPS.map((g) => laneOf(g, REGION_LANES))).size).toBe(4)
  })

  it('run only the groups of the lane a message is for', async () => {
    const cloud = fleet()
    const lane = laneOf('api', REGION_LANES)
    const summary = await harness({ [REGION]: cloud }).run(laneRecord(lane))
    expect(summary.regions[0]?.groups?.map((g) => g.group)).toEqual(['api'])
    expect(launchedFor(cloud)).toEqual(['api'])
  })

  it('run a message sent before lanes as lane 0’s, none of these groups', async () => {
    const cloud = fleet()
    const summary = await harness({ [REGION]: cloud }).run(laneRecord(undefined))
    expect(summary.regions[0]?.groups ?? []).toEqual([])
    expect(launchedFor(cloud)).toEqual([])
  })

  it('read nothing past the groups’ list in a lane with none of them (lane 0 still reads for strays)', async () => {
    const cloud = fleet()
    const h = harness({ [REGION]: cloud })
    await h.run(laneRecord(2))
    expect(cloud.calls.map((c) => c.method)).toEqual(['describeGroups'])
    cloud.calls.length = 0
    await h.run(laneRecord(0))
    expect(cloud.calls.map((c) => c.method)).toContain('describeLaunchedSpotInstances')
  })

  it('clean strays in lane 0 only, and lane 0 leaves another lane’s launch alone', async () => {
    const cloud = fleet()
    const stray = strayOf(cloud)
    const h = harness({ [REGION]: cloud })
    // Lane 1 launches web's replacement, which waits outside the group for its attach.
    await h.run(laneRecord(laneOf('web', REGION_LANES)))
    expect(launchedFor(cloud)).toEqual(['deleted-group', 'web'])
    expect(cloud.instances.get(stray.id)?.state).toBe('running')
    // Lane 0 owns the region's strays: web is managed, so its launch is not one.
    await h.run(laneRecord(0))
    expect(cloud.instances.get(stray.id)?.state).toBe('terminated')
    expect(launchedFor(cloud)).toEqual(['web'])
  })

  it('on Lambda, do nothing for a message that came through another lane’s message group', async () => {
    const cloud = fleet()
    const h = harness(
      { [REGION]: cloud },
      { AWS_LAMBDA_FUNCTION_NAME: 'spotswap-replacer', FANOUT_QUEUE_URL: 'https://sqs/q.fifo' },
    )
    const lane = laneOf('api', REGION_LANES)
    const summary = await h.run(laneRecord(lane, REGION), { getRemainingTimeInMillis: () => 180_000 })
    expect(cloud.calls).toEqual([])
    expect(summary.ignored?.[0]?.reason).toMatch(/^wrong-message-group: the message for lane 7 of us-east-1/)
    expect(h.recorded.metrics.flatMap((m) => m.values.map((v) => v.name))).toContain('RegionRunsNotStarted')
  })

  it('send each group’s run request to the group’s lane', async () => {
    const cloud = fleet()
    const h = harness({ [REGION]: cloud }, { FANOUT_QUEUE_URL: 'https://sqs/q.fifo' })
    for (const group of GROUPS) await h.run(groupRunRequestEvent(`r-${group}`, REGION, group, START))
    expect(h.recorded.enqueued.map((m) => m.groupId)).toEqual(
      GROUPS.map((g) => laneMessageGroupId(REGION, laneOf(g, REGION_LANES))),
    )
    expect(h.recorded.enqueued.map((m) => JSON.parse(m.body).detail)).toEqual(
      GROUPS.map((g) => ({ region: REGION, groups: [g], lane: laneOf(g, REGION_LANES) })),
    )
    expect(cloud.calls).toEqual([])
  })
})
