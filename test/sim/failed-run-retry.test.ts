/**
 * A replacer run that fails asks for another run of its lane (RegionRunOptions.requestRetry); the
 * simulator delivers it through the lane's message group after the delay, marked as a retry. runRegion is
 * replaced here by a recorder, so the test shows the simulator's side whatever the engine does.
 */
import { describe, expect, it, vi } from 'vitest'
import { REGION_LANES } from '../../lambdas/core/constants.ts'
import type { RegionRunOptions } from '../../lambdas/replacer/run-region.ts'

const runs: { readonly atMs: number; readonly options: RegionRunOptions }[] = []
let clockNow: () => number = () => 0

vi.mock('../../lambdas/replacer/run-region.ts', () => ({
  runRegion: async (options: RegionRunOptions) => {
    runs.push({ atMs: clockNow(), options })
    // The first run of lane 0 fails and asks for another 60 s later; so does the retry, which must not ask.
    if (options.lane?.index === 0 && runs.filter((r) => r.options.lane?.index === 0).length <= 2) {
      if (options.retry !== true) await options.requestRetry?.(60)
      throw new Error('ServiceUnavailable')
    }
    return { groups: [] }
  },
}))

const { SPOTSWAP_POLICY } = await import('../../tools/sim/policy.ts')
const { simulateRun } = await import('../../tools/sim/simulate.ts')
const { group, parse, rawScenario, START_MS } = await import('./support.ts')

const scenario = parse(rawScenario([group('web')], { durationHours: 0.25 }))

describe('a failed replacer run', () => {
  it('is run again in its lane once the delay is over, marked as a retry', async () => {
    runs.length = 0
    await simulateRun(scenario, {
      policy: { ...SPOTSWAP_POLICY, launchEvents: false },
      prepare: (world) => {
        clockNow = () => world.clock.now
      },
    })
    const laneZero = runs.filter((r) => r.options.lane?.index === 0)
    expect(laneZero[0]?.options.retry).toBe(false)
    expect(laneZero[1]?.options.retry).toBe(true)
    expect(laneZero[1]?.atMs).toBeGreaterThanOrEqual((laneZero[0]?.atMs ?? 0) + 60_000)
    expect(laneZero[1]?.atMs).toBeLessThan(START_MS + 5 * 60_000)
    // The scheduled runs at 18:00, 18:05 and 18:10, and the one retry: never a second one.
    expect(runs).toHaveLength(3 * REGION_LANES + 1)
  })
})
