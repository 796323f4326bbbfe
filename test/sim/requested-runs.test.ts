/**
 * A replacer run asks for a delayed run of one group (RegionRunOptions.requestRun) when a swap waits for
 * its replacements to serve; the simulator delivers it as the run-request queue would. runRegion is
 * replaced here by a recorder, so the test shows the simulator's side whatever the engine plans.
 */
import { describe, expect, it, vi } from 'vitest'
import { REGION_LANES } from '../../lambdas/core/constants.ts'
import type { RegionRunOptions } from '../../lambdas/replacer/run-region.ts'

const runs: { readonly atMs: number; readonly options: RegionRunOptions }[] = []
let clockNow: () => number = () => 0

vi.mock('../../lambdas/replacer/run-region.ts', () => ({
  runRegion: async (options: RegionRunOptions) => {
    runs.push({ atMs: clockNow(), options })
    // The first run of the whole region asks for a look at `web` 45 s later.
    if (runs.length === 1) await options.requestRun?.('web', 45, 'swap')
    return { groups: [] }
  },
}))

const { ON_DEMAND_POLICY, SPOTSWAP_POLICY } = await import('../../tools/sim/policy.ts')
const { simulateRun } = await import('../../tools/sim/simulate.ts')
const { group, parse, rawScenario, START_MS } = await import('./support.ts')

const scenario = parse(rawScenario([group('web'), group('api')], { durationHours: 0.25 }))

describe('runs a replacer run requests', () => {
  it('start a run of that group once the delay is over, through the run-request queue', async () => {
    runs.length = 0
    await simulateRun(scenario, {
      policy: { ...SPOTSWAP_POLICY, launchEvents: false },
      prepare: (world) => {
        clockNow = () => world.clock.now
      },
    })
    const first = runs[0]
    expect(first?.options.requestRun).toBeTypeOf('function')
    const requested = runs.find((r) => r.options.onlyGroup === 'web')
    expect(requested?.atMs).toBeGreaterThanOrEqual((first?.atMs ?? 0) + 45_000)
    expect(requested?.atMs).toBeLessThan(START_MS + 5 * 60_000)
    // The scheduled runs at 18:00, 18:05 and 18:10, one per lane, and the one requested, in web's lane.
    const tick = Array.from({ length: REGION_LANES }, () => 'region')
    expect(runs.map((r) => r.options.onlyGroup ?? 'region')).toEqual([...tick, 'web', ...tick, ...tick])
    expect(runs.slice(0, REGION_LANES).map((r) => r.options.lane?.index)).toEqual(tick.map((_, i) => i))
  })

  it('are not offered when the policy runs no replacer of its own', async () => {
    runs.length = 0
    const { Invocations } = await import('../../tools/sim/invocations.ts')
    let invocations: InstanceType<typeof Invocations> | undefined
    await simulateRun(scenario, {
      policy: ON_DEMAND_POLICY,
      prepare: (world, prepared) => {
        clockNow = () => world.clock.now
        invocations = prepared
      },
    })
    await invocations?.runReplacer('us-east-1')
    expect(runs).toHaveLength(REGION_LANES)
    expect(runs[0]?.options.requestRun).toBeUndefined()
  })
})
