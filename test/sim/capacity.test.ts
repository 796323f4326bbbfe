import { describe, expect, it } from 'vitest'
import { CapacityModel } from '../../tools/sim/capacity.ts'
import { BOOT_SECONDS, INTERRUPTION_NOTICE_SECONDS } from '../../tools/sim/constants.ts'
import { scheduleCapacityChanges } from '../../tools/sim/interruptions.ts'
import type { SimEvent } from '../../tools/sim/world.ts'
import { group, launchSpotFor, rawScenario, testWorld } from './support.ts'

const trace = (data: number[], gapSeconds = 60) => ({
  gapSeconds,
  instanceType: 'm5.large',
  zone: 'us-east-1b',
  data,
})

describe('pool capacity from traces', () => {
  const model = new CapacityModel(
    0,
    new Map([
      ['m5.large/us-east-1b', { kind: 'trace', trace: trace([4, 4, 2, 0, 4]), startIndex: 1 }],
      ['c5.large/us-east-1b', { kind: 'unavailable' }],
    ] as const),
  )

  it('replays the trace from startIndex as a share of its peak, wrapping around at the end', () => {
    expect([0, 1, 2, 3, 4].map((minute) => model.share('m5.large', 'us-east-1b', minute * 60_000))).toEqual([
      1, 0.5, 0, 1, 1,
    ])
  })

  it('finds the next change of a pool and none for pools without a trace', () => {
    expect(model.nextChange('m5.large/us-east-1b', 0)).toEqual({ at: 60_000, share: 0.5 })
    expect(model.nextChange('m5.large/us-east-1b', 150_000)).toEqual({ at: 180_000, share: 1 })
    expect(model.nextChange('r5.large/us-east-1b', 0)).toBeUndefined()
  })

  it('gives untraced pools full capacity and unavailable ones none', () => {
    expect(model.share('r5.large', 'us-east-1b', 0)).toBe(1)
    expect(model.share('c5.large', 'us-east-1b', 0)).toBe(0)
  })
})

describe('capacity changes in a running account', () => {
  // A real 1-node preemption trace of r5.16xlarge in us-east-1b: from tick 1 available for 35 ticks of 34 s, then gone.
  const traceName = 'preemption/1-node/aws-04-19-2023/us-east-1b_intel_64'

  const world = () => {
    const sim = testWorld(
      rawScenario(
        [group('web', { desired: 1 })],
        {},
        { capacity: { 'm5.large/us-east-1b': { trace: traceName, startIndex: 1 } } },
      ),
    )
    const events: SimEvent[] = []
    sim.world.onEvent((event) => events.push(event))
    return { sim, events }
  }

  it('launches while the pool has capacity, then warns, recommends rebalancing and interrupts when it empties', async () => {
    const { sim, events } = world()
    const share = (ms: number) => sim.region.capacity.share('m5.large', 'us-east-1b', ms)
    const start = sim.world.clock.now
    expect(share(start)).toBe(1)
    const launched = await launchSpotFor(sim.cloud(), 'web', 'm5.large', 'us-east-1b')
    expect(launched.ok).toBe(true)
    const id = launched.ok ? launched.instanceId : ''
    await sim.advance(BOOT_SECONDS * 1000)

    const drop = sim.region.capacity.nextChange('m5.large/us-east-1b', sim.world.clock.now)
    expect(drop?.share).toBe(0)
    scheduleCapacityChanges(sim.world, sim.region, start + 86_400_000)
    await sim.advance((drop?.at ?? 0) - sim.world.clock.now)
    expect(events).toEqual([
      { kind: 'rebalance-recommendation', region: 'us-east-1', instanceId: id },
      { kind: 'spot-interruption', region: 'us-east-1', instanceId: id },
    ])
    expect(sim.region.instances.get(id)?.state).toBe('running')
    expect((await launchSpotFor(sim.cloud(), 'web', 'm5.large', 'us-east-1b', 'again')).ok).toBe(false)

    await sim.advance(INTERRUPTION_NOTICE_SECONDS * 1000)
    expect(sim.region.instances.get(id)?.state).toBe('shutting-down')
  })
})
