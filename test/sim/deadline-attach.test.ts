/**
 * A member replaced ahead of its interruption whose swap run dies right before its attach: the swap is
 * recorded and its replacement named, and the region's lane waits out the crashed run's visibility timeout
 * past the member's deadline. The deadline reminder attaches the replacement and the member leaves with the
 * decrement, so the group never backfills and serves its desired capacity throughout.
 */
import { describe, expect, it } from 'vitest'
import type { Log } from '../../lambdas/core/log.ts'
import { Priority } from '../../tools/sim/clock.ts'
import type { FaultHooks } from '../../tools/sim/faults.ts'
import { servingCount } from '../../tools/sim/load-balancers.ts'
import { SPOTSWAP_POLICY } from '../../tools/sim/policy.ts'
import { simulateRun } from '../../tools/sim/simulate.ts'
import { group, parse, rawScenario, START_MS } from './support.ts'

const WARNING_MS = START_MS + 40 * 60_000

/** The first replacer AttachInstances from `fromMs` on kills its process before the request. */
const crashFirstAttachFrom = (fromMs: number) => {
  let now = (): number => 0
  let crashed = 0
  const hooks: FaultHooks = {
    decide: ({ session, operation }) => {
      if (crashed > 0 || session.actor !== 'replacer' || operation !== 'autoscaling:AttachInstances')
        return { kind: 'none' }
      if (now() < fromMs) return { kind: 'none' }
      crashed++
      return { kind: 'crash-before' }
    },
  }
  return { hooks, bind: (clock: () => number) => (now = clock), crashed: () => crashed }
}

const scenario = parse(
  rawScenario([group('web', { desired: 3, max: 6 })], {
    durationHours: 1,
    interruptions: [{ at: new Date(WARNING_MS).toISOString(), group: 'web', count: 1 }],
  }),
)

describe('a swap run that dies before its attach, at the deadline of the member it replaces', () => {
  it('costs no serving capacity and no replacement: the reminder attaches it and the member leaves with the decrement', async () => {
    const crash = crashFirstAttachFrom(WARNING_MS)
    const deadlines: string[] = []
    const partnerGone: string[] = []
    const log: Log = {
      debug: () => {},
      info: (message, attributes) => {
        if (message === 'interruption event' && attributes?.kind === 'interruption-deadline')
          deadlines.push(String(attributes.detail))
        if (message === 'action done' && String(attributes?.reason).startsWith('partner-gone'))
          partnerGone.push(String(attributes?.instanceId))
      },
      warn: () => {},
      error: () => {},
    }
    let shortSeconds = 0
    let watched = 0
    const run = await simulateRun(scenario, {
      policy: { ...SPOTSWAP_POLICY, lanes: 1 },
      faults: crash.hooks,
      log,
      prepare: (world) => {
        crash.bind(() => world.clock.now)
        const web = world.region('us-east-1').groups.get('web')
        const end = WARNING_MS + 10 * 60_000
        for (let ms = WARNING_MS; ms < end; ms += 1000)
          world.clock.schedule(ms, Priority.audit, 'watch serving', () => {
            if (web === undefined) return
            watched++
            if (servingCount(web, world.clock.now) < web.owner.desiredCapacity) shortSeconds++
          })
      },
    })
    expect(crash.crashed()).toBe(1)
    expect(watched).toBe(600)
    expect(deadlines).toEqual([
      expect.stringContaining('attached now, and terminate-in-group with a decrement'),
    ])
    expect(shortSeconds).toBe(0)
    expect(partnerGone).toEqual([])
    expect(run.report.violations).toEqual([])
  })
})
