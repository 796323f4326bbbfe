/**
 * A replacer run can fail on a request it did not send: a load an earlier run of the same Lambda container
 * started and left in flight (a catalogue read still pending when that run ended) resumes in the next
 * invocation, as a frozen execution environment does, and its error reaches the run that shares it. Found
 * by chaos seed 40734, where such a run counted as clean and the orphan invariant held it to account. The
 * simulator counts any run that ends in an error as failed. runRegion is replaced here by one that throws
 * without sending anything, which is what such a run looks like from its own session.
 */
import { describe, expect, it, vi } from 'vitest'

vi.mock('../../lambdas/replacer/run-region.ts', () => ({
  runRegion: async () => {
    throw new Error('RequestLimitExceeded: a request an earlier run of this container sent')
  },
}))

const { SPOTSWAP_POLICY } = await import('../../tools/sim/policy.ts')
const { simulateRun } = await import('../../tools/sim/simulate.ts')
const { group, parse, rawScenario } = await import('./support.ts')

describe('a replacer run that fails on a request of its container’s previous run', () => {
  it('counts as a failed run, not a clean one', async () => {
    const scenario = parse(rawScenario([group('web')], { durationHours: 0.08 }))
    const run = await simulateRun(scenario, {
      policy: { ...SPOTSWAP_POLICY, launchEvents: false, interruptionHandler: false, replacer: true },
    })
    expect(run.invocations.replacerRuns).toBeGreaterThan(0)
    expect(run.invocations.failedRuns).toBe(run.invocations.replacerRuns)
  })
})
