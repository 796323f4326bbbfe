/**
 * Lambda stops a replacer run at its function timeout wherever it is, as it stops a crashed one: the
 * simulator does the same with a run whose simulated time (its requests' latency, the SDK's backoff)
 * passes REPLACER_TIMEOUT_SECONDS, so its lane's message is held for the visibility timeout and a shorter
 * timeout is not free. runRegion is replaced by a recorder whose lane-3 run meets one request that takes
 * longer than the whole timeout; the run is told its deadline.
 */
import { describe, expect, it, vi } from 'vitest'
import { REPLACER_TIMEOUT_SECONDS } from '../../lambdas/core/constants.ts'
import type { RegionRunOptions } from '../../lambdas/replacer/run-region.ts'

interface Recorded {
  readonly lane: number | undefined
  readonly onlyGroup: string | undefined
  readonly fromMs: number
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
    await options.cloud.describeGroups({ tagKey: undefined, tagValues: [] })
    // The slow request (faults below), then one more: Lambda has stopped the run before it.
    if (options.onlyGroup === 'batch') await options.cloud.describeInstanceTypes()
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

/** batch is in lane 3 (of eight); one tick, under five minutes, then two runs of batch alone. */
const scenario = parse(rawScenario([group('web'), group('batch')], { durationHours: 0.08 }))

describe('a replacer run past its function timeout in the simulator', () => {
  it('is stopped as a crash is, and holds its lane until the visibility timeout', async () => {
    runs.length = 0
    let slowed = false
    let advance: (ms: number) => void = () => {}
    const run = await simulateRun(scenario, {
      policy: { ...SPOTSWAP_POLICY, launchEvents: false, interruptionHandler: false },
      faults: {
        decide: ({ operation }) => {
          // The first DescribeInstanceTypes answers after the whole function timeout.
          if (!slowed && operation === 'ec2:DescribeInstanceTypes') {
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
    const tick = runs.filter((r) => r.fromMs === START_MS)
    // Every run is told when Lambda stops it.
    for (const r of tick) expect(r.endsAtMs).toBe(START_MS + REPLACER_TIMEOUT_SECONDS * 1000)
    // batch's first run never finished; its message came back after the visibility timeout and held the
    // lane's next message until then.
    const lane3 = runs.filter((r) => r.lane === 3)
    const redelivered = 30_000 + FANOUT_VISIBILITY_SECONDS * 1000
    expect(lane3.map((r) => [r.onlyGroup ?? 'region', r.fromMs - START_MS, r.toMs !== undefined])).toEqual([
      ['region', 0, true],
      ['batch', 30_000, false],
      ['batch', redelivered, true],
      ['batch', expect.any(Number), true],
    ])
    expect(lane3[3]?.fromMs).toBeGreaterThanOrEqual(START_MS + redelivered)
  })
})
