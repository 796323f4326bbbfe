import { describe, expect, it } from 'vitest'
import type { Log } from '../../lambdas/core/log.ts'
import type { FaultHooks } from '../../tools/sim/faults.ts'
import { simulate } from '../../tools/sim/simulate.ts'
import { group, parse, rawScenario } from './support.ts'

/** The process dies right after AWS applied the first request of `operation`. */
const crashAfterFirst = (operation: string): FaultHooks => {
  let crashed = false
  return {
    decide: (request) => {
      if (crashed || request.operation !== operation) return { kind: 'none' }
      crashed = true
      return { kind: 'crash-after' }
    },
  }
}

/**
 * A swap whose attach Auto Scaling refused, as the executor logs it (execute.ts: `attach not confirmed`);
 * the simulated crash itself shows the same way and is not counted.
 */
const refusedAttaches = (seen: readonly string[]): string[] =>
  seen.filter((line) => line.includes('attach not confirmed') && !line.includes('SimulatedCrashError'))

/** The replacer's failed actions, as it logs them. */
const failures = () => {
  const seen: string[] = []
  const log: Log = {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: (message, attributes) => seen.push(`${message} ${JSON.stringify(attributes)}`),
  }
  return { seen, log }
}

describe('recovery from a replacer run that crashed midway through a swap', () => {
  // A group at MaxSize: every swap raises MaxSize first, recording the original on the group.
  const full = parse(rawScenario([group('cache', { min: 3, max: 3, desired: 3 })], { durationHours: 3 }))

  it('completes the swap and restores the group when the crash came right after the attach', async () => {
    const { seen, log } = failures()
    const report = await simulate(full, { faults: crashAfterFirst('autoscaling:AttachInstances'), log })
    expect(report.groups.cache?.final).toMatchObject({ desired: 3, inService: 3, spot: 3 })
    expect(report.violations).toEqual([])
    // The crash is logged as an attach not confirmed: the filter below looks at what the executor says.
    expect(seen.some((line) => line.includes('attach not confirmed'))).toBe(true)
    expect(refusedAttaches(seen)).toEqual([])
  })

  // Found by this simulator: the next run plans both `close-swap` and a swap; the swap must be
  // sized against the restored MaxSize (the executor restores first), or AttachInstances fails.
  it('swaps in the first run after a crash right after MaxSize was raised', async () => {
    const { seen, log } = failures()
    const report = await simulate(full, {
      faults: crashAfterFirst('autoscaling:UpdateAutoScalingGroup'),
      log,
    })
    expect(report.groups.cache?.final).toMatchObject({ desired: 3, inService: 3, spot: 3 })
    expect(refusedAttaches(seen)).toEqual([])
  })
})
