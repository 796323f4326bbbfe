/**
 * A configuration the replacer refuses (a fatal error in its environment, such as a malformed REGIONS)
 * stops every replacer invocation as deployed (lambdas/replacer/create-handler.ts returns before any
 * region run): schedule ticks, launch events, fan-out messages and run requests alike. Found by chaos
 * seed 40734: the simulator skipped only the schedule ticks, so launch events still ran the replacer,
 * which launched replacements that no scheduled run ever came back to settle.
 */
import { describe, expect, it } from 'vitest'
import type { Log } from '../../lambdas/core/log.ts'
import { simulateRun } from '../../tools/sim/simulate.ts'
import { group, parse, rawScenario } from './support.ts'

const logged: { readonly message: string; readonly fields: Record<string, unknown> | undefined }[] = []
const log: Log = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: (message, fields) => {
    logged.push({ message, fields })
  },
}

describe('a fatal configuration under simulation', () => {
  it('runs no replacer invocation of any kind, as the deployed handler refuses them all', async () => {
    logged.length = 0
    // The scale-out at 18:30 makes launch events, each of which asks for a replacer run of the group.
    const scenario = parse(
      rawScenario([group('web', { desired: 2, desiredSchedule: [['2022-05-31T18:30:00Z', 4]] })], {
        env: { REGIONS: 'us_east_1!' },
      }),
    )
    const run = await simulateRun(scenario, { log })
    expect(run.invocations.replacerRuns).toBe(0)
    const refusals = logged.filter((entry) => entry.message.startsWith('configuration prevents any action'))
    expect(refusals.length).toBeGreaterThanOrEqual(2)
    expect(refusals[0]?.fields).toEqual({ fatal: ['REGIONS'] })
  })

  it('still runs the replacer for launch events under a valid configuration', async () => {
    const scenario = parse(
      rawScenario([group('web', { desired: 2, desiredSchedule: [['2022-05-31T18:30:00Z', 4]] })], {
        env: { REGIONS: 'us-east-1' },
      }),
    )
    const run = await simulateRun(scenario, {})
    expect(run.invocations.replacerRuns).toBeGreaterThan(0)
  })
})
