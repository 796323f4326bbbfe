import { describe, expect, it } from 'vitest'
import type { FaultHooks } from '../../tools/sim/faults.ts'
import { SPOTSWAP_POLICY } from '../../tools/sim/policy.ts'
import { simulate } from '../../tools/sim/simulate.ts'
import { group, parse, rawScenario } from './support.ts'

describe('events delivered to the Lambdas', () => {
  it('run the replacer for a group as soon as Auto Scaling launches into it, when the launch event rule is deployed', async () => {
    const scenario = parse(
      rawScenario([group('web', { desired: 0, max: 4, desiredSchedule: [['2022-05-31T18:10:00Z', 2]] })], {
        scheduleMinutes: 60,
      }),
    )
    const run = async (launchEvents: boolean) => {
      const report = await simulate(scenario, { policy: { ...SPOTSWAP_POLICY, launchEvents } })
      return {
        at19: report.timeline.find((row) => row.at === '2022-05-31T19:00:00.000Z'),
        final: report.groups.web?.final,
      }
    }
    // With the event, a replacement starts at 18:10 and the look it asks for at the end of its grace
    // period swaps it in, and the next one after it, long before the hourly run; without, nothing starts
    // before the 19:00 run.
    const withEvents = await run(true)
    expect(withEvents.at19).toMatchObject({ inService: 2, spot: 2 })
    expect(withEvents.final).toMatchObject({ inService: 2, spot: 2 })
    const without = await run(false)
    expect(without.at19).toMatchObject({ inService: 2, spot: 0 })
  })

  it('retry an interruption the handler failed on transiently, as Lambda retries an asynchronous invocation', async () => {
    let failed = false
    const firstDetachFails: FaultHooks = {
      decide: ({ operation, session }) => {
        if (failed || session.actor !== 'interruption' || operation !== 'autoscaling:DetachInstances')
          return { kind: 'none' }
        failed = true
        return {
          kind: 'error',
          error: Object.assign(new Error('Rate exceeded'), {
            name: 'Throttling',
            $metadata: { httpStatusCode: 400 },
          }),
        }
      },
    }
    const scenario = parse(
      rawScenario([group('web', { min: 2, max: 4, desired: 4 })], {
        durationHours: 3,
        env: { TERMINATION_NOTIFICATION_ACTION: 'detach' },
        interruptions: [{ at: '2022-05-31T20:00:00Z', group: 'web', count: 1 }],
      }),
    )
    const report = await simulate(scenario, { faults: firstDetachFails })
    expect(failed).toBe(true)
    expect(report.totals.apiCalls['autoscaling:DetachInstances']).toBe(2)
    expect(report.groups.web?.final).toMatchObject({ inService: 4 })
    expect(report.violations).toEqual([])
  })
})
