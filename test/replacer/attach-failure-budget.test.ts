/**
 * Launches whose room in the in-flight budget this run's attach or terminations free are made only once
 * those writes succeeded (core/plan/launch-room.ts): otherwise the replacements they were to free run
 * beside the new launches, beyond MAX_REPLACEMENTS_IN_FLIGHT.
 */
import { describe, expect, it } from 'vitest'
import { TAG_LAUNCHED_FOR_GROUP, TAG_REPLACING_INSTANCE } from '../../lambdas/core/constants.ts'
import { type FakeCloud, serviceUnavailableError } from '../fakes/fake-cloud.ts'
import { actionsOf, cloudWithFleet, harness } from './support.ts'

/** Spot instances launched for `web`, alive and outside it: the replacements in flight. */
const outside = (cloud: FakeCloud) =>
  [...cloud.instances.values()].filter(
    (i) =>
      i.lifecycle === 'spot' &&
      i.state !== 'terminated' &&
      i.tags[TAG_LAUNCHED_FOR_GROUP] === 'web' &&
      !cloud.group('web').members.has(i.id),
  )

/** A group of 8 on-demand members with a budget of 2, after a first run launched 2 replacements. */
const twoInFlight = async () => {
  const cloud = cloudWithFleet(8, { maxSize: 10 })
  const h = harness({ 'us-east-1': cloud }, { MAX_REPLACEMENTS_IN_FLIGHT: '2' })
  await h.run()
  expect(outside(cloud)).toHaveLength(2)
  return { cloud, h }
}

const launchesOf = (summary: Awaited<ReturnType<ReturnType<typeof harness>['run']>>) =>
  actionsOf(summary).filter((a) => a.kind === 'launch-spot')

describe('launches in the room a swap frees', () => {
  it('are made when the attach succeeds', async () => {
    const { cloud, h } = await twoInFlight()
    h.advanceMinutes(6)
    const summary = await h.run()
    expect(launchesOf(summary).map((a) => a.status)).toEqual(['done', 'done'])
    expect(outside(cloud)).toHaveLength(2)
  })

  it('wait for the next run when the attach fails, so no more than the budget run outside the group', async () => {
    const { cloud, h } = await twoInFlight()
    h.advanceMinutes(6)
    cloud.failNext('attachInstances', serviceUnavailableError())
    const summary = await h.run()
    expect(actionsOf(summary).find((a) => a.kind === 'swap')?.status).toBe('failed')
    expect(launchesOf(summary).map((a) => a.status)).toEqual(['failed', 'failed'])
    expect(outside(cloud)).toHaveLength(2)
  })
})

describe('launches in the room a dropped launch frees', () => {
  it('wait for the next run when its termination fails', async () => {
    const { cloud, h } = await twoInFlight()
    // Scale-in takes one replacement's partner: that replacement is dropped, its room given to a new one.
    const [first] = outside(cloud)
    const partner = first?.tags[TAG_REPLACING_INSTANCE] ?? ''
    cloud.group('web').members.delete(partner)
    cloud.group('web').desiredCapacity -= 1
    const gone = cloud.instances.get(partner)
    if (gone) gone.state = 'terminated'
    h.advanceMinutes(1)
    cloud.failNext('terminateInstances', serviceUnavailableError())
    const summary = await h.run()
    expect(actionsOf(summary).find((a) => a.kind === 'terminate-spot')?.status).toBe('failed')
    expect(launchesOf(summary).map((a) => a.status)).toEqual(['failed'])
    expect(outside(cloud)).toHaveLength(2)
  })
})
