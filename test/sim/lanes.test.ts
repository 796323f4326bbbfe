/**
 * The simulator's fan-out queue with lanes, as SQS FIFO and Lambda deliver it: each lane is a message
 * group, so a lane's runs come one at a time and in order while different lanes run side by side, and a
 * crashed run holds only its own lane, for the lease it took on its message (lambdas/core/region/lease.ts)
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html). Lambda stops a run at its
 * function timeout as it stops a crashed one: the simulator stops a run whose simulated time passes
 * REPLACER_TIMEOUT_SECONDS, so a shorter timeout is not free. runRegion is replaced by a recorder that
 * makes two or three requests, so the test shows the queue's side whatever the engine plans.
 */
import { describe, expect, it, vi } from 'vitest'
import { FANOUT_LEASE_SECONDS, REGION_LANES, REPLACER_TIMEOUT_SECONDS } from '../../lambdas/core/constants.ts'
import { laneOf } from '../../lambdas/core/region/lanes.ts'
import type { RegionRunOptions } from '../../lambdas/replacer/run-region.ts'

interface Recorded {
  readonly lane: number | undefined
  readonly onlyGroup: string | undefined
  readonly fromMs: number
  /** When the run was told Lambda stops it. */
  readonly endsAtMs: number | undefined
  toMs?: number
}
const runs: Recorded[] = []
let clockNow: () => number = () => 0

vi.mock('../../lambdas/replacer/run-region.ts', () => ({
  runRegion: async (options: RegionRunOptions) => {
    const run: Recorded = {
      lane: options.lane?.index,
      onlyGroup: options.onlyGroup,
      fromMs: clockNow(),
      endsAtMs: options.deadline?.endsAtMs,
    }
    runs.push(run)
    // Each request a step of simulated time; lane 3's runs make a third, which the faults below crash or slow.
    await options.cloud.describeGroups({ tagKey: undefined, tagValues: [] })
    if (options.lane?.index === 3) await options.cloud.describeInstanceTypes()
    await options.cloud.describeGroups({ tagKey: undefined, tagValues: [] })
    run.toMs = clockNow()
    return { groups: [] }
  },
}))

const { SPOTSWAP_POLICY } = await import('../../tools/sim/policy.ts')
const { simulateRun } = await import('../../tools/sim/simulate.ts')
const { FANOUT_VISIBILITY_SECONDS } = await import('../../tools/sim/constants.ts')
const { Priority } = await import('../../tools/sim/clock.ts')
const { group, parse, rawScenario, START_MS } = await import('./support.ts')

/** web is in lane 1, batch in lane 3 (of eight); one tick, under five minutes. */
const scenario = parse(rawScenario([group('web'), group('batch')], { durationHours: 0.08 }))

describe('lanes of a region in the simulated fan-out queue', () => {
  it('run side by side, each lane in order, and a crash holds only its own lane', async () => {
    runs.length = 0
    let crashed = false
    const run = await simulateRun(scenario, {
      policy: { ...SPOTSWAP_POLICY, launchEvents: false, interruptionHandler: false },
      faults: {
        decide: ({ operation }) => {
          if (crashed || operation !== 'ec2:DescribeInstanceTypes') return { kind: 'none' }
          crashed = true
          return { kind: 'crash-before' }
        },
      },
      prepare: (world, invocations) => {
        clockNow = () => world.clock.now
        // A minute in, a run of each group: web's lane is free, batch's waits for its crashed run.
        world.clock.schedule(START_MS + 60_000, Priority.invocation, 'web and batch', async () => {
          await Promise.all([
            invocations.runReplacer('us-east-1', 'web'),
            invocations.runReplacer('us-east-1', 'batch'),
          ])
        })
      },
    })
    expect([laneOf('web', REGION_LANES), laneOf('batch', REGION_LANES)]).toEqual([1, 3])
    // The tick's runs, each recorded once it has taken its lease (one request).
    const tick = runs.filter((r) => r.fromMs < START_MS + 1000)
    expect(tick.map((r) => r.lane)).toEqual(Array.from({ length: REGION_LANES }, (_, i) => i))
    // Side by side: the last lane starts before the first one ends.
    expect(tick[0]?.toMs).toBeGreaterThan(tick[REGION_LANES - 1]?.fromMs ?? Number.POSITIVE_INFINITY)
    expect(run.invocations.crashedRuns).toBe(1)

    const web = runs.find((r) => r.onlyGroup === 'web')
    expect(web?.lane).toBe(1)
    // Started at once: a minute in, plus its lease request (and batch's, on the shared clock).
    expect(web?.fromMs).toBeGreaterThanOrEqual(START_MS + 60_000)
    expect(web?.fromMs).toBeLessThan(START_MS + 61_000)
    // batch's run waits for lane 3's crashed message, delivered again once the lease the crashed run
    // took as it started ran out: one lease after its start, not the queue's visibility timeout.
    const lane3 = runs.filter((r) => r.lane === 3).map((r) => [r.onlyGroup ?? 'region', r.fromMs - START_MS])
    expect(lane3).toEqual([
      ['region', expect.any(Number)],
      ['region', expect.any(Number)],
      ['batch', expect.any(Number)],
    ])
    const [first, again] = runs.filter((r) => r.lane === 3)
    // The lease counts from its request, which comes before the run is recorded.
    expect(again?.fromMs).toBeGreaterThanOrEqual(START_MS + FANOUT_LEASE_SECONDS * 1000)
    expect(again?.fromMs).toBeLessThan((first?.fromMs ?? 0) + FANOUT_LEASE_SECONDS * 1000 + 1000)
    expect(FANOUT_LEASE_SECONDS).toBeLessThan(FANOUT_VISIBILITY_SECONDS)
    const batch = runs.find((r) => r.onlyGroup === 'batch')
    expect(batch?.fromMs).toBeGreaterThan(again?.fromMs ?? Number.POSITIVE_INFINITY)
    // Within a lane, never two at once.
    for (let lane = 0; lane < REGION_LANES; lane++) {
      const ofLane = runs.filter((r) => r.lane === lane)
      for (let i = 1; i < ofLane.length; i++)
        expect(ofLane[i]?.fromMs).toBeGreaterThanOrEqual(ofLane[i - 1]?.toMs ?? ofLane[i - 1]?.fromMs ?? 0)
    }
  })
})

describe('a replacer run past its function timeout in the simulator', () => {
  it('is stopped as a crash is, and holds its lane until Lambda stops it, its lease run out', async () => {
    runs.length = 0
    let slowed = false
    let advance: (ms: number) => void = () => {}
    const run = await simulateRun(scenario, {
      policy: { ...SPOTSWAP_POLICY, launchEvents: false, interruptionHandler: false },
      faults: {
        decide: ({ operation }) => {
          // batch's first run alone: its DescribeInstanceTypes answers after the whole function timeout.
          if (!slowed && operation === 'ec2:DescribeInstanceTypes' && clockNow() >= START_MS + 30_000) {
            slowed = true
            advance(REPLACER_TIMEOUT_SECONDS * 1000)
          }
          return { kind: 'none' }
        },
      },
      prepare: (world, invocations) => {
        clockNow = () => world.clock.now
        advance = (ms) => world.clock.advanceBy(ms)
        for (const atMs of [30_000, 60_000])
          world.clock.schedule(START_MS + atMs, Priority.invocation, 'batch', () =>
            invocations.runReplacer('us-east-1', 'batch'),
          )
      },
    })
    expect(run.invocations.timedOutRuns).toBe(1)
    expect(run.invocations.crashedRuns).toBe(1)
    // Every run is told when Lambda stops it.
    for (const r of runs.filter((r) => r.fromMs < START_MS + 1000))
      expect(r.endsAtMs).toBe(START_MS + REPLACER_TIMEOUT_SECONDS * 1000)
    // batch's first run never finished. Its lease ran out while it hung (it renews only before a write),
    // so SQS could hand its message out again from then: the simulator delivers it once Lambda has
    // stopped the run (a real poller may deliver it earlier, beside the hung run, which writes nothing more).
    const lane3 = runs.filter((r) => r.lane === 3)
    expect(lane3.map((r) => [r.onlyGroup ?? 'region', r.toMs !== undefined])).toEqual([
      ['region', true],
      ['batch', false],
      ['batch', true],
      ['batch', true],
    ])
    const stoppedAt = (lane3[1]?.fromMs ?? 0) + REPLACER_TIMEOUT_SECONDS * 1000
    expect(lane3[2]?.fromMs).toBeGreaterThanOrEqual(stoppedAt)
    expect(lane3[2]?.fromMs).toBeLessThan((lane3[1]?.fromMs ?? 0) + FANOUT_VISIBILITY_SECONDS * 1000)
    expect(run.invocations.leasesLost).toBe(0)
  })
})
