/**
 * A revert whose raises never bring a serving member fails closed (core/revert/step.ts): after
 * REVERT_MAX_RAISES raises in a row it stops raising, holds no unit, retires no spot member, and says so
 * (a `revert-stalled` skip, an error line, the RevertsStalled metric) until the owner asks again. A signed
 * raise or retirement replayed past its deadline is refused (core/markers.ts).
 */
import { describe, expect, it } from 'vitest'
import { REVERT_MAX_RAISES } from '../../lambdas/core/constants.ts'
import { Metric } from '../../lambdas/core/metric-names.ts'
import { TAG_REVERT } from '../../lambdas/core/revert/marker.ts'
import type { ReplacerSummary } from '../../lambdas/replacer/summary.ts'
import { awsError, type FakeCloud } from '../fakes/fake-cloud.ts'
import { convergedFleet, request, serveNewMembers, writes } from './revert-support.ts'
import { harness, START } from './support.ts'

const TG = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/0123456789abcdef'
const desiredWrites = (cloud: FakeCloud) =>
  writes(cloud)
    .filter(([m]) => m === 'setDesiredCapacity')
    .map(([, , desired]) => desired)
const retired = (cloud: FakeCloud) => writes(cloud).filter(([m]) => m === 'terminateInGroup')
const spotIds = (cloud: FakeCloud) =>
  [...cloud.group('web').members.keys()].filter((id) => cloud.instances.get(id)?.lifecycle === 'spot')

/** Runs every five minutes for `hours`, and the last run's summary. */
const runFor = async (hours: number, h: ReturnType<typeof harness>, each?: () => void) => {
  let summary: ReplacerSummary | undefined
  for (let n = 0; n < hours * 12; n++) {
    h.advanceMinutes(5)
    each?.()
    summary = (await h.run()) as ReplacerSummary
  }
  return summary
}

const stalledIn = (h: ReturnType<typeof harness>) => ({
  metric: h.recorded.metrics.some((m) => m.values.some((v) => v.name === Metric.RevertsStalled)),
  log: h.recorded.logs.some((l) => l.level === 'error' && l.message.startsWith('revert stalled')),
})

describe('a revert whose raises never serve', () => {
  it('gives back raises Auto Scaling launched nothing for, then stops raising, retiring no one', async () => {
    const cloud = convergedFleet()
    cloud.launchesFail.add('web')
    const spot = spotIds(cloud)
    const h = harness({ 'us-east-1': cloud })
    await h.run(request)
    const summary = await runFor(6, h)
    // Each raise once, each given back at its deadline: bounded, then nothing.
    expect(desiredWrites(cloud)).toEqual(Array(REVERT_MAX_RAISES).fill([4, 3]).flat())
    expect(retired(cloud)).toEqual([])
    expect(spotIds(cloud)).toEqual(spot)
    expect(cloud.group('web').desiredCapacity).toBe(3)
    expect(cloud.group('web').tags[TAG_REVERT]).toBe(
      `v1 phase=stalled failed=${REVERT_MAX_RAISES} why=not-launched`,
    )
    expect(summary?.regions[0]?.groups?.[0]?.skipped).toMatch(
      /^revert-stalled .*launched no member.*spotswap revert/,
    )
    expect(stalledIn(h)).toEqual({ metric: true, log: true })
  })

  it('quotes the failed launch activity’s StatusCode and StatusMessage while waiting and once stalled', async () => {
    const cloud = convergedFleet()
    cloud.launchesFail.add('web')
    const h = harness({ 'us-east-1': cloud })
    await h.run(request)
    h.advanceMinutes(5)
    const waiting = (await h.run()) as ReplacerSummary
    const insufficient =
      /Failed: "We currently do not have sufficient m5\.large capacity in the Availability Zone you requested \(us-east-1a\)\..*Launching EC2 instance failed\."/
    expect(waiting.regions[0]?.groups?.[0]?.skipped).toMatch(/^reverting .*last launch, at \S+Z: /)
    expect(waiting.regions[0]?.groups?.[0]?.skipped).toMatch(insufficient)
    const summary = await runFor(6, h)
    expect(summary?.regions[0]?.groups?.[0]?.skipped).toMatch(/^revert-stalled .*spotswap revert/)
    expect(summary?.regions[0]?.groups?.[0]?.skipped).toMatch(insufficient)
    expect(
      h.recorded.logs.filter((l) => l.message.startsWith('revert stalled')).at(-1)?.attributes,
    ).toMatchObject({
      statusCode: 'Failed',
      statusMessage: expect.stringMatching(/^We currently do not have sufficient m5\.large capacity/),
    })
  })

  it('reads the scaling activities once a run, and only for a group whose revert waits on a launch', async () => {
    const cloud = convergedFleet()
    cloud.addGroup('other', { maxSize: 4 })
    cloud.addInstance({ group: 'other' })
    cloud.launchesFail.add('web')
    const h = harness({ 'us-east-1': cloud })
    const reads = () => cloud.calls.filter((c) => c.method === 'latestScalingActivities')
    await h.run(request)
    // The run that raised: the raise is not in desired capacity yet when it plans.
    expect(reads()).toEqual([])
    for (let n = 1; n <= 3; n++) {
      h.advanceMinutes(5)
      await h.run()
      expect(reads()).toHaveLength(n)
    }
    expect(reads().every((c) => c.args[0] === 'web' && (c.args[1] as number) <= 10)).toBe(true)
  })

  it('bounds raises whose write Auto Scaling refuses each time', async () => {
    const cloud = convergedFleet()
    for (let n = 0; n < 200; n++)
      cloud.failNext('setDesiredCapacity', awsError('ValidationError', 400, 'launch template not found'))
    const h = harness({ 'us-east-1': cloud })
    await h.run(request)
    await runFor(6, h)
    const tries = desiredWrites(cloud).length
    await runFor(6, h)
    expect(desiredWrites(cloud)).toHaveLength(tries)
    expect(retired(cloud)).toEqual([])
    expect(cloud.group('web').tags[TAG_REVERT]).toMatch(/^v1 phase=stalled failed=3 why=not-launched/)
  })

  it('lets each raised member that never serves leave with its unit, then stops; no spot member leaves', async () => {
    // Behind a target group whose health check the new members never pass.
    const cloud = convergedFleet({
      trafficSources: { targetGroupArns: [TG], classicLoadBalancerNames: [], unreadable: [] },
    })
    const spot = spotIds(cloud)
    const h = harness({ 'us-east-1': cloud })
    await h.run(request)
    await runFor(6, h, () => serveNewMembers(cloud))
    expect(retired(cloud)).toHaveLength(REVERT_MAX_RAISES)
    for (const [, id, decrement] of retired(cloud)) {
      expect(spot).not.toContain(id)
      expect(decrement).toBe(true)
    }
    expect(spotIds(cloud)).toEqual(spot)
    expect(cloud.group('web').desiredCapacity).toBe(3)
    expect(cloud.group('web').tags[TAG_REVERT]).toBe(
      `v1 phase=stalled failed=${REVERT_MAX_RAISES} why=not-serving`,
    )
  })

  it('starts over when its owner asks again, and goes on once launches work', async () => {
    const cloud = convergedFleet()
    cloud.launchesFail.add('web')
    const h = harness({ 'us-east-1': cloud })
    await h.run(request)
    await runFor(6, h)
    cloud.launchesFail.delete('web')
    h.advanceMinutes(5)
    await h.run(request)
    expect(cloud.group('web').tags[TAG_REVERT]).toMatch(/^v1 phase=raising owner=3 since=\S+ until=\S+$/)
    await runFor(2, h, () => serveNewMembers(cloud))
    expect(cloud.group('web').tags[TAG_REVERT]).toBe('v1 phase=done')
    expect(spotIds(cloud)).toEqual([])
  })
})

describe('a revert marker replayed from an earlier raise', () => {
  const at = (minutes: number) => new Date(START.getTime() + minutes * 60_000).toISOString()
  const [oldSince, oldUntil] = [at(-180), at(-145)]

  it.each([
    ['raising', `v1 phase=raising owner=2 since=${oldSince} until=${oldUntil}`],
    ['retiring', `v1 phase=retiring owner=2 step=SPOT until=${oldUntil}`],
  ])('is refused past its deadline (%s): reported, nothing done', async (_phase, value) => {
    const cloud = convergedFleet()
    const [spot] = spotIds(cloud)
    // A value spotswap really signed for this group, hours ago; desired capacity 3 is the owner's now.
    cloud.seedGroupTags('web', { [TAG_REVERT]: value.replace('SPOT', spot ?? '') })
    const h = harness({ 'us-east-1': cloud })
    await h.run()
    expect(writes(cloud).filter(([m]) => m === 'terminateInGroup' || m === 'setDesiredCapacity')).toEqual([])
    expect(cloud.group('web').desiredCapacity).toBe(3)
    expect(h.recorded.metrics.flatMap((m) => m.values.map((v) => v.name))).toContain(Metric.ForgedMarkers)
    expect(h.recorded.logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'marker not believed',
        attributes: expect.objectContaining({
          marker: `group:web ${TAG_REVERT}: expired; treated as absent`,
        }),
      }),
    )
  })
})
