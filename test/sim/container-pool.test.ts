/**
 * The replacer's Lambda containers under simulation: concurrent runs (a region's lanes) each have their
 * own, as Lambda gives each concurrent invocation its own execution environment
 * (https://docs.aws.amazon.com/lambda/latest/dg/lambda-concurrency.html). So one lane's run dying while it
 * loads the catalogue does not fail the catalogue read of the lanes beside it. runRegion is replaced by a
 * recorder that reads the catalogue, so the test shows the containers whatever the engine plans.
 */
import { describe, expect, it, vi } from 'vitest'
import { createAdapterCaches } from '../../lambdas/aws/cloud.ts'
import { REGION_LANES } from '../../lambdas/core/constants.ts'
import type { RegionRunOptions } from '../../lambdas/replacer/run-region.ts'
import { ContainerPool } from '../../tools/sim/container-pool.ts'

const catalogReads: { readonly lane: number | undefined; readonly error: string | undefined }[] = []

vi.mock('../../lambdas/replacer/run-region.ts', () => ({
  runRegion: async (options: RegionRunOptions) => {
    let error: string | undefined
    try {
      await options.cloud.describeInstanceTypes()
    } catch (caught) {
      error = String(caught)
    }
    catalogReads.push({ lane: options.lane?.index, error })
    return { groups: [] }
  },
}))

const { SPOTSWAP_POLICY } = await import('../../tools/sim/policy.ts')
const { simulateRun } = await import('../../tools/sim/simulate.ts')
const { group, parse, rawScenario } = await import('./support.ts')

/** One tick, under five minutes: every lane of the region starts at once. */
const scenario = parse(rawScenario([group('web')], { durationHours: 0.08 }))

describe('ContainerPool', () => {
  it('gives a run the warm container when it is idle, another one while it is busy', () => {
    const warm = createAdapterCaches()
    const pool = new ContainerPool(() => warm)
    const first = pool.acquire()
    const second = pool.acquire()
    expect(first).toBe(warm)
    expect(second).not.toBe(warm)
    pool.release(first)
    pool.release(second)
    // Both idle again: the warm one first, then the other one, kept warm for the next concurrent run.
    expect(pool.acquire()).toBe(warm)
    expect(pool.acquire()).toBe(second)
  })

  it('keeps a lane’s crash while loading the catalogue out of the other lanes’ runs', async () => {
    catalogReads.length = 0
    let dying: number | undefined
    let pages = 0
    const run = await simulateRun(scenario, {
      policy: { ...SPOTSWAP_POLICY, launchEvents: false, interruptionHandler: false },
      // The first run to read the catalogue dies at its second page, while the other lanes are reading.
      faults: {
        decide: ({ session, operation }) => {
          if (operation !== 'ec2:DescribeInstanceTypes') return { kind: 'none' }
          dying ??= session.id
          if (session.id !== dying || ++pages !== 2) return { kind: 'none' }
          return { kind: 'crash-before' }
        },
      },
    })
    expect(run.invocations.crashedRuns).toBe(1)
    const tick = catalogReads.slice(0, REGION_LANES)
    expect(tick).toHaveLength(REGION_LANES)
    // Only the run that died lost its read; every other lane read the catalogue in its own container.
    expect(tick.filter((read) => read.error !== undefined)).toHaveLength(1)
  })
})
