import { describe, expect, it } from 'vitest'
import { TAG_INTERRUPTION_WARNED, TAG_REPLACED_TYPE } from '../../lambdas/core/constants.ts'
import { Metric } from '../../lambdas/core/metric-names.ts'
import { throttlingError } from '../fakes/fake-cloud.ts'
import { actionsOf, cloudWithFleet, harness, START } from './support.ts'

/** A group `web` of three spot members that spotswap converted, every one tagged as warned an hour ago. */
const forgedFleet = () => {
  const cloud = cloudWithFleet(0, { maxSize: 3, minSize: 3, desiredCapacity: 0 })
  const forgedAt = new Date(START.getTime() - 3_600_000).toISOString()
  const ids = ['us-east-1b', 'us-east-1d', 'us-east-1b'].map(
    (zone, i) =>
      cloud.addInstance({
        group: 'web',
        lifecycle: 'spot',
        type: 'm5a.large',
        zone,
        launchTime: new Date(START.getTime() - (600 - i) * 60_000),
        tags: { [TAG_REPLACED_TYPE]: 'm5.large', [TAG_INTERRUPTION_WARNED]: forgedAt },
      }).id,
  )
  return { cloud, ids }
}

/** Calls that take a member out of its group or end an instance. */
const LEAVING = new Set(['terminateInGroup', 'detachInstances', 'terminateInstances'])
const leaving = (cloud: ReturnType<typeof forgedFleet>['cloud']) =>
  cloud.mutations.filter((c) => LEAVING.has(c.method))

const untrustedMarkers = (metrics: { values: { name: string; value: number }[] }[]): number =>
  metrics
    .flatMap((m) => m.values)
    .reduce((sum, v) => sum + (v.name === Metric.UntrustedMarkers ? v.value : 0), 0)

describe('replacer with members tagged as warned that EC2 never warned', () => {
  it('takes no member out and replaces none ahead of an interruption, and counts each forged marker', async () => {
    const { cloud, ids } = forgedFleet()
    const replacer = harness({ 'us-east-1': cloud })
    const summary = await replacer.run()
    expect(leaving(cloud)).toEqual([])
    // Launches there may be (a move to a cheaper pool, within the in-flight budget), none for an interruption.
    expect(actionsOf(summary).filter((a) => /release-doomed|interrupted/.test(JSON.stringify(a)))).toEqual([])
    expect([...cloud.group('web').members.keys()].sort()).toEqual([...ids].sort())
    expect(untrustedMarkers(replacer.recorded.metrics)).toBe(3)
    expect(
      replacer.recorded.logs.filter((l) => l.message === 'interruption marker not acted on'),
    ).toHaveLength(3)
  })

  it('reads the Spot requests of the tagged members only, in one call', async () => {
    const { cloud, ids } = forgedFleet()
    await harness({ 'us-east-1': cloud }).run()
    const reads = cloud.calls.filter((c) => c.method === 'spotRequestStatuses')
    expect(reads).toHaveLength(1)
    expect([...((reads[0]?.args[0] ?? []) as string[])].sort()).toEqual([...ids].sort())
  })

  it('makes no Spot request read in a region where no member is tagged', async () => {
    const cloud = cloudWithFleet(2)
    await harness({ 'us-east-1': cloud }).run()
    expect(cloud.calls.filter((c) => c.method === 'spotRequestStatuses')).toEqual([])
  })

  it('acts on nothing when the read is throttled, and says so without counting an untrusted marker', async () => {
    const { cloud } = forgedFleet()
    cloud.failNext('spotRequestStatuses', throttlingError())
    const replacer = harness({ 'us-east-1': cloud })
    await replacer.run()
    expect(leaving(cloud)).toEqual([])
    expect(untrustedMarkers(replacer.recorded.metrics)).toBe(0)
    expect(
      replacer.recorded.logs.filter(
        (l) =>
          l.message === 'interruption marker not acted on' &&
          String(l.attributes?.reason).startsWith('marker-unverified'),
      ),
    ).toHaveLength(3)
  })

  it('still releases the one member EC2 did warn, once too late to replace it, and only that one', async () => {
    const { cloud, ids } = forgedFleet()
    const [genuine, ...forged] = ids as [string, ...string[]]
    cloud.interruptionWarned.add(genuine)
    const replacer = harness({ 'us-east-1': cloud })
    await replacer.run()
    const terminated = cloud.mutations.filter((c) => c.method === 'terminateInGroup').map((c) => c.args[0])
    expect(terminated).toEqual([genuine])
    for (const id of forged) expect(cloud.group('web').members.has(id)).toBe(true)
    expect(untrustedMarkers(replacer.recorded.metrics)).toBe(2)
  })
})
