/**
 * The interruption handler is another Lambda function than the replacer, so it never runs in the
 * replacer's execution environments (https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtime-environment.html):
 * what it knows from a warm cache (KMS's verdicts on marker MACs, the catalogue) it must have asked for
 * itself. The simulator gave the handler the replacer's warm caches, so a handler invocation skipped the
 * reads (and their faults) a deployed one makes.
 */
import { describe, expect, it } from 'vitest'
import type { FaultHooks } from '../../tools/sim/faults.ts'
import { simulateRun } from '../../tools/sim/simulate.ts'
import { group, parse, rawScenario, START_MS } from './support.ts'

describe('the interruption handler’s containers under simulation', () => {
  it('verify the markers the replacer already verified again, in the handler’s own cache', async () => {
    const handlerCalls: string[] = []
    const replacerCalls = new Set<string>()
    const hooks: FaultHooks = {
      decide: ({ session, operation }) => {
        if (session.actor === 'interruption') handlerCalls.push(operation)
        else replacerCalls.add(operation)
        return { kind: 'none' }
      },
    }
    // The group is all spot by 18:40; the warning at 19:00 hits a member whose markers the replacer's runs
    // have verified since.
    const scenario = parse(
      rawScenario([group('web', { desired: 2, max: 4 })], {
        durationHours: 1.5,
        interruptions: [{ at: new Date(START_MS + 60 * 60_000).toISOString(), group: 'web', count: 1 }],
      }),
    )
    await simulateRun(scenario, { faults: hooks })
    expect(replacerCalls.has('kms:VerifyMac')).toBe(true)
    expect(handlerCalls).toContain('kms:VerifyMac')
  })
})
