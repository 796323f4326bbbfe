/**
 * A revert through the replacer Lambda against a FakeCloud: a run request writes the signed marker, and
 * each run takes one serve-before-retire step (desired + 1 through Auto Scaling, then a spot member leaves
 * with a decrement once the new on-demand member serves) until no spot member is left.
 */
import { describe, expect, it } from 'vitest'
import { REGION_LANES } from '../../lambdas/core/constants.ts'
import { groupRunRequestEvent } from '../../lambdas/core/events/definitions.ts'
import { Metric } from '../../lambdas/core/metric-names.ts'
import { laneOf } from '../../lambdas/core/region/lanes.ts'
import { TAG_REVERT } from '../../lambdas/core/revert/marker.ts'
import { regionWork } from '../../lambdas/replacer/event-registry.ts'
import type { ReplacerSummary } from '../../lambdas/replacer/summary.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'
import { convergedFleet, minutesLater, request, serveNewMembers, writes } from './revert-support.ts'
import { harness, START } from './support.ts'

const lifecycles = (cloud: FakeCloud) =>
  [...cloud.group('web').members.keys()].map((id) => cloud.instances.get(id)?.lifecycle).sort()

describe('reverting a group to on-demand', () => {
  it('writes the marker, then raises, retires a spot member once the new one serves, and ends done', async () => {
    const cloud = convergedFleet()
    const { run, advanceMinutes } = harness({ 'us-east-1': cloud })
    await run(request)
    expect(writes(cloud)).toEqual([
      ['tagGroup', 'web', { [TAG_REVERT]: 'v1 phase=requested' }],
      [
        'tagGroup',
        'web',
        // Its deadline: the group's grace period (300 s) and the health deadline's ceiling (30 min).
        { [TAG_REVERT]: `v1 phase=raising owner=3 since=${START.toISOString()} until=${minutesLater(35)}` },
      ],
      ['setDesiredCapacity', 'web', 4],
    ])
    for (let runs = 0; runs < 12 && cloud.group('web').tags[TAG_REVERT] !== 'v1 phase=done'; runs++) {
      advanceMinutes(5)
      serveNewMembers(cloud)
      await run()
      // Never fewer members serving than the owner's desired capacity.
      const inService = [...cloud.group('web').members.values()].filter((s) => s === 'InService')
      expect(inService.length).toBeGreaterThanOrEqual(3)
    }
    expect(cloud.group('web').tags[TAG_REVERT]).toBe('v1 phase=done')
    expect(cloud.group('web').desiredCapacity).toBe(3)
    expect(lifecycles(cloud)).toEqual(['on-demand', 'on-demand', 'on-demand'])
    expect(writes(cloud).filter(([m]) => m === 'terminateInGroup')).toHaveLength(2)
    for (const [method, , decrement] of writes(cloud).filter(([m]) => m === 'terminateInGroup'))
      expect([method, decrement]).toEqual(['terminateInGroup', true])
    // Done: the group is left alone, and says why.
    const before = cloud.mutations.length
    advanceMinutes(5)
    const summary = (await run()) as ReplacerSummary
    expect(cloud.mutations).toHaveLength(before)
    expect(summary.regions[0]?.groups?.[0]?.skipped).toMatch(/^reverted/)
  })

  it('waits while the raised member does not serve: no spot member leaves', async () => {
    const cloud = convergedFleet()
    const { run, advanceMinutes } = harness({ 'us-east-1': cloud })
    await run(request)
    advanceMinutes(5)
    const summary = (await run()) as ReplacerSummary
    expect(writes(cloud).filter(([m]) => m === 'terminateInGroup')).toEqual([])
    expect(summary.regions[0]?.groups?.[0]?.skipped).toMatch(/^reverting .*does not serve yet/)
  })

  it('never acts on a revert marker someone else wrote (no MAC): absent and reported', async () => {
    const cloud = convergedFleet()
    const [spot] = [...cloud.group('web').members.keys()].filter(
      (id) => cloud.instances.get(id)?.lifecycle === 'spot',
    )
    // Planted as if a raise were held and its retirement announced.
    cloud.group('web').tags = {
      ...cloud.group('web').tags,
      [TAG_REVERT]: `v1 phase=retiring owner=2 step=${spot}`,
    }
    const { run, recorded } = harness({ 'us-east-1': cloud })
    await run()
    expect(writes(cloud).filter(([m]) => m === 'terminateInGroup' || m === 'setDesiredCapacity')).toEqual([])
    expect(recorded.metrics.flatMap((m) => m.values.map((v) => v.name))).toContain(Metric.ForgedMarkers)
  })

  it('holds a raise under the kill switch, and still lets a retirement give the unit back', async () => {
    const cloud = convergedFleet()
    let mode: 'off' | 'on' = 'on'
    const { run, advanceMinutes } = harness({ 'us-east-1': cloud }, {}, START, {
      killSwitch: async () => ({ mode }),
    })
    await run(request)
    expect(writes(cloud).filter(([m]) => m === 'setDesiredCapacity')).toEqual([])
    mode = 'off'
    advanceMinutes(5)
    await run()
    expect(cloud.group('web').desiredCapacity).toBe(4)
    mode = 'on'
    advanceMinutes(5)
    serveNewMembers(cloud)
    await run()
    expect(cloud.group('web').desiredCapacity).toBe(3)
    expect(writes(cloud).filter(([m]) => m === 'terminateInGroup')).toHaveLength(1)
  })

  it('writes nothing in a dry run, and says what it would do', async () => {
    const cloud = convergedFleet()
    const { run } = harness({ 'us-east-1': cloud }, { DRY_RUN: 'true' })
    const summary = (await run(request)) as ReplacerSummary
    expect(cloud.mutations).toEqual([])
    expect(summary.regions[0]?.groups?.[0]?.skipped).toMatch(/^reverting/)
    expect(summary.regions[0]?.groups?.[0]?.actions).toEqual([
      expect.objectContaining({ kind: 'revert', status: 'planned', step: 'raise', desired: 4 }),
    ])
  })

  it('passes a run request with revert on to its fan-out queue, in the group’s lane, with the flag', async () => {
    const cloud = convergedFleet()
    const { run, recorded } = harness({ 'us-east-1': cloud }, { FANOUT_QUEUE_URL: 'https://sqs/fanout.fifo' })
    await run(groupRunRequestEvent('r1', 'us-east-1', 'web', START, true))
    expect(cloud.mutations).toEqual([])
    expect(recorded.enqueued).toHaveLength(1)
    const body = JSON.parse(recorded.enqueued[0]?.body ?? '{}')
    expect(regionWork.parseDetail(body.detail)).toMatchObject({
      ok: true,
      detail: { groups: ['web'], lane: laneOf('web', REGION_LANES), revert: true },
    })
  })

  it('runs a run request with revert at once without a fan-out queue', async () => {
    const cloud = convergedFleet()
    const { run } = harness({ 'us-east-1': cloud })
    await run(groupRunRequestEvent('r1', 'us-east-1', 'web', START, true))
    expect(cloud.group('web').tags[TAG_REVERT]).toMatch(/^v1 phase=raising/)
  })

  it('refuses a revert flag without groups', async () => {
    const cloud = convergedFleet()
    const { run } = harness({ 'us-east-1': cloud })
    const bad = { ...request, detail: { region: 'us-east-1', revert: true } }
    const summary = (await run(bad)) as ReplacerSummary
    expect(cloud.mutations).toEqual([])
    expect(JSON.stringify(summary.ignored)).toContain('detail.revert')
  })
})
