/**
 * A replacer run's lease on its fan-out message in the simulator: the run's ChangeMessageVisibility
 * requests meet faults like any request, and invariant 12 (`write-past-lease`) holds the engine to
 * writing only while its message is hidden. With every renewal refused and each EC2 request slow, runs
 * outlast the lease they took: their writes stop in time, and the invariant stays quiet; with the budget
 * told to ignore the lease (as an engine that forgot it would), the invariant speaks.
 */
import { describe, expect, it, vi } from 'vitest'

const budget = vi.hoisted(() => ({ ignoreLease: false }))

vi.mock('../../lambdas/core/region/time-budget.ts', async (importActual) => {
  const actual = await importActual<typeof import('../../lambdas/core/region/time-budget.ts')>()
  return {
    ...actual,
    writeSkip: (deadline: Parameters<typeof actual.writeSkip>[0]) =>
      actual.writeSkip(
        budget.ignoreLease ? { endsAtMs: deadline.endsAtMs, nowMs: deadline.nowMs } : deadline,
      ),
  }
})

const { SPOTSWAP_POLICY } = await import('../../tools/sim/policy.ts')
const { simulateRun } = await import('../../tools/sim/simulate.ts')
const { simAwsError } = await import('../../tools/sim/errors.ts')
const { group, parse, rawScenario } = await import('./support.ts')

/** Each EC2 and Auto Scaling request's time: slow, though within what the write margin allows for. */
const WRITE_MS = 1_500

/** One group of twelve on-demand members, a quarter in flight: several launches a run. */
const scenario = parse(
  rawScenario([group('web', { min: 0, max: 24, desired: 12 })], {
    durationHours: 1,
    env: { MAX_REPLACEMENTS_IN_FLIGHT: '50%' },
  }),
)

/** Every lease renewal after the first refused; every write slow, so runs outlast their lease. */
const slowAndUnrenewed = (advance: () => (ms: number) => void, writeMs: number) => {
  const taken = new Set<number>()
  return {
    decide: ({ session, operation }: { session: { id: number }; operation: string }) => {
      if (operation === 'sqs:ChangeMessageVisibility') {
        if (!taken.has(session.id)) {
          taken.add(session.id)
          return { kind: 'none' as const }
        }
        return {
          kind: 'error' as const,
          error: simAwsError('AWS.SimpleQueueService.Throttled', 400, 'Rate exceeded'),
        }
      }
      if (/^ec2:(CreateFleet|CreateTags|TerminateInstances)$|^autoscaling:/.test(operation))
        advance()(writeMs)
      return { kind: 'none' as const }
    },
  }
}

const simulate = async (writeMs = WRITE_MS) => {
  let advance: (ms: number) => void = () => {}
  return simulateRun(scenario, {
    policy: { ...SPOTSWAP_POLICY, launchEvents: false, interruptionHandler: false },
    faults: slowAndUnrenewed(() => advance, writeMs),
    prepare: (world) => {
      advance = (ms) => world.clock.advanceBy(ms)
    },
  })
}

describe('a replacer run whose lease cannot be renewed, in the simulator', () => {
  it('writes nothing once its message could be handed out again', async () => {
    budget.ignoreLease = false
    const run = await simulate()
    expect(run.invocations.leasesLost).toBeGreaterThan(0)
    // Every promise holds, not only this one: the runs leave what they could not do to the next.
    expect(run.report.violations).toEqual([])
  })

  it('checks each write, not only each action, when one action’s writes outlast the margin', async () => {
    // 4 s a request: an action of several writes takes longer than the margin its start was judged by.
    const run = await simulate(4_000)
    expect(run.invocations.leasesLost).toBeGreaterThan(0)
    expect(run.report.violations.filter((v) => v.invariant === 'write-past-lease')).toEqual([])
  })

  it('is caught by invariant write-past-lease when the engine ignores its lease', async () => {
    budget.ignoreLease = true
    try {
      const run = await simulate()
      expect(run.report.violations.filter((v) => v.invariant === 'write-past-lease')).not.toEqual([])
    } finally {
      budget.ignoreLease = false
    }
  })
})
