/**
 * The simulator's Spot requests, as the adapter reads them: the status code EC2 shows, and its UpdateTime
 * (the replacer's clock for a doomed member: core/interruption/confirmation.ts warnedAtMs).
 */
import { describe, expect, it } from 'vitest'
import { warn } from '../../tools/sim/interruptions.ts'
import { group, launchSpotFor, rawScenario, testWorld } from './support.ts'

describe('Spot request statuses in the simulator', () => {
  it("report the two-minute warning's time while the instance is marked, then the interruption's", async () => {
    const sim = testWorld(rawScenario([group('web')]))
    const launched = await launchSpotFor(sim.cloud(), 'web', 'm5.large', 'us-east-1b')
    if (!launched.ok) throw new Error('the launch failed')
    const id = launched.instanceId
    const instance = sim.region.instances.get(id)
    if (instance === undefined) throw new Error('no instance')
    await sim.advance(10 * 60_000)
    expect((await sim.cloud().spotRequestStatuses([id])).get(id)).toEqual({
      code: 'fulfilled',
      updatedAtMs: instance.launchMs,
    })
    warn(sim.world, sim.region, instance)
    const warnedAt = sim.world.clock.now
    await sim.advance(30_000)
    expect((await sim.cloud().spotRequestStatuses([id])).get(id)).toEqual({
      code: 'marked-for-termination',
      updatedAtMs: warnedAt,
    })
    await sim.advance(2 * 60_000)
    expect((await sim.cloud().spotRequestStatuses([id])).get(id)).toEqual({
      code: 'instance-terminated-no-capacity',
      updatedAtMs: warnedAt + 120_000,
    })
  })
})
