/**
 * The interruption handler's reminder to itself (InterruptionDeps.requestDeadline): with replace-ahead, a
 * warned member still in its group at its deadline leaves then, whatever the region's replacer queue is
 * doing. Here the queue is held: the replacer run just before the warning crashed, and so did its
 * redelivery, so the region's FIFO message group waits past the deadline and the runs the handler asks
 * for wait behind it.
 */
import { describe, expect, it } from 'vitest'
import { DOOMED_SWAP_DEADLINE_SECONDS } from '../../lambdas/core/constants.ts'
import type { Log } from '../../lambdas/core/log.ts'
import { Priority } from '../../tools/sim/clock.ts'
import { FANOUT_VISIBILITY_SECONDS, INTERRUPTION_NOTICE_SECONDS } from '../../tools/sim/constants.ts'
import type { FaultHooks } from '../../tools/sim/faults.ts'
import { SPOTSWAP_POLICY } from '../../tools/sim/policy.ts'
import { simulateRun } from '../../tools/sim/simulate.ts'
import type { World } from '../../tools/sim/world.ts'
import { group, parse, rawScenario, START_MS } from './support.ts'

const CRASH_MS = START_MS + 30 * 60_000
const WARNING_MS = CRASH_MS + 10_000

/**
 * The first replacer request of each of `runs` runs from `fromMs` on kills its process; the run's message
 * waits for redelivery.
 */
const crashRunsFrom = (fromMs: number, runs: number) => {
  let now = (): number => 0
  const crashedSessions = new Set<number>()
  const hooks: FaultHooks = {
    decide: ({ session }) => {
      if (crashedSessions.size >= runs || session.actor !== 'replacer' || now() < fromMs)
        return { kind: 'none' }
      crashedSessions.add(session.id)
      return { kind: 'crash-before' }
    },
  }
  return {
    hooks,
    bind: (world: World) => (now = () => world.clock.now),
    crashed: () => crashedSessions.size,
  }
}

const scenario = parse(
  rawScenario([group('web', { desired: 2, max: 4 })], {
    durationHours: 1,
    interruptions: [{ at: new Date(WARNING_MS).toISOString(), group: 'web', count: 1 }],
  }),
)

describe('deadline reminders', () => {
  it('make a doomed member still in its group leave at its deadline while the region’s runs are held', async () => {
    // Twice: one visibility timeout is shorter than the deadline.
    const crash = crashRunsFrom(CRASH_MS, 2)
    const handled: string[] = []
    const log: Log = {
      debug: () => {},
      info: (message, attributes) => {
        if (message === 'interruption event') handled.push(String(attributes?.kind))
      },
      warn: () => {},
      error: () => {},
    }
    let doomed: string | undefined
    let leftAtMs: number | undefined
    const run = await simulateRun(scenario, {
      // One lane: the crash holds the group's runs whichever request it hits.
      policy: { ...SPOTSWAP_POLICY, lanes: 1 },
      faults: crash.hooks,
      log,
      prepare: (world) => {
        crash.bind(world)
        const region = world.region('us-east-1')
        world.observe({ interruptionWarned: (instance) => (doomed = instance.id) })
        // Look every second around the deadline for the member leaving its group.
        for (let ms = WARNING_MS; ms < WARNING_MS + INTERRUPTION_NOTICE_SECONDS * 1000; ms += 1000)
          world.clock.schedule(ms, Priority.audit, 'watch the doomed member', () => {
            const member = doomed === undefined ? undefined : region.groupOf(doomed)?.members.get(doomed)
            const leaving = member === undefined || !member.lifecycleState.startsWith('InService')
            if (doomed !== undefined && leaving && leftAtMs === undefined) leftAtMs = world.clock.now
          })
      },
    })
    expect(crash.crashed()).toBe(2)
    expect(doomed).toBeDefined()
    expect(handled).toContain('interruption-deadline')
    // Not before its deadline (its replacement could still have come), and before EC2 takes it.
    const deadlineMs = Math.floor(WARNING_MS / 1000) * 1000 + DOOMED_SWAP_DEADLINE_SECONDS * 1000
    expect(leftAtMs).toBeGreaterThanOrEqual(deadlineMs)
    expect(leftAtMs).toBeLessThan(WARNING_MS + INTERRUPTION_NOTICE_SECONDS * 1000)
    // The region's runs were held all along: its crashed run came back after the visibility timeout and
    // crashed again, so the lane waits another.
    expect(2 * FANOUT_VISIBILITY_SECONDS * 1000).toBeGreaterThan(
      WARNING_MS - CRASH_MS + DOOMED_SWAP_DEADLINE_SECONDS * 1000,
    )
    expect(run.invocations.crashedRuns).toBe(2)
    expect(run.report.violations).toEqual([])
  })
})
