import { describe, expect, it } from 'vitest'
import { errorCode, isTransient } from '../../lambdas/aws/errors.ts'
import { SimulatedCrashError } from '../../tools/sim/errors.ts'
import { type FaultDecision, type FaultHooks, randomFaults } from '../../tools/sim/faults.ts'
import { createRng } from '../../tools/sim/rng.ts'
import { group, rawScenario, testWorld } from './support.ts'

/** Fails the first request of `operation` as decided, everything else passes. */
const once = (operation: string, decision: FaultDecision): FaultHooks => {
  let used = false
  return {
    decide: (request) => {
      if (used || request.operation !== operation) return { kind: 'none' }
      used = true
      return decision
    },
  }
}

const settle = async (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  )

describe('injected faults', () => {
  it('fail a request with a server error the adapter classifies as transient, without effect', async () => {
    const sim = testWorld(
      rawScenario([group('web', { desired: 2 })]),
      once('autoscaling:DetachInstances', {
        kind: 'error',
        error: Object.assign(new Error('Service is unavailable'), {
          name: 'ServiceUnavailable',
          $metadata: { httpStatusCode: 503 },
        }),
      }),
    )
    const cloud = sim.cloud()
    const [member] = sim.members('web')
    const error = await settle(cloud.detachInstances('web', [member?.id ?? ''], true))
    expect(isTransient(error)).toBe(true)
    expect(sim.group('web').members.get(member?.id ?? '')?.lifecycleState).toBe('InService')
    expect(cloud.session.failedCalls).toBe(1)
  })

  it.each([
    ['before', 'crash-before', 'InService', 2],
    ['after', 'crash-after', undefined, 1],
  ] as const)(
    'a crash %s AWS applies the request: later calls of the invocation fail without effect',
    async (_, kind, memberState, desired) => {
      const sim = testWorld(
        rawScenario([group('web', { desired: 2 })]),
        once('autoscaling:DetachInstances', { kind }),
      )
      const cloud = sim.cloud()
      const [first, second] = sim.members('web')
      expect(await settle(cloud.detachInstances('web', [first?.id ?? ''], true))).toBeInstanceOf(
        SimulatedCrashError,
      )
      expect(cloud.session.crashed).toBe(true)
      expect(sim.group('web').members.get(first?.id ?? '')?.lifecycleState).toBe(memberState)
      expect(sim.group('web').desiredCapacity).toBe(desired)

      expect(await settle(cloud.detachInstances('web', [second?.id ?? ''], true))).toBeInstanceOf(
        SimulatedCrashError,
      )
      expect(sim.group('web').members.get(second?.id ?? '')?.lifecycleState).toBe('InService')
    },
  )

  it('draw the same errors for the same seed, at about the configured rate, with codes of the service called', () => {
    const decide = (seed: number) => {
      const faults = randomFaults({ apiErrorRate: 0.2, throttle: true, crashRate: 0 }, createRng(seed))
      const session = {
        id: 1,
        actor: 'replacer' as const,
        region: 'us-east-1',
        crashed: false,
        failedCalls: 0,
      }
      return Array.from({ length: 1000 }, () =>
        faults.decide({ session, operation: 'autoscaling:AttachInstances', group: 'web' }),
      )
    }
    const first = decide(5)
    expect(decide(5)).toEqual(first)
    const errors = first.flatMap((d) => (d.kind === 'error' ? [d.error] : []))
    expect(errors.length).toBeGreaterThan(150)
    expect(errors.length).toBeLessThan(250)
    expect(new Set(errors.map(errorCode))).toEqual(
      new Set(['InternalFailure', 'ServiceUnavailable', 'Throttling']),
    )
    expect(errors.every(isTransient)).toBe(true)
  })
})
