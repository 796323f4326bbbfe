/**
 * A forged `spotswap:interruption-warned` tag under simulation, through the real adapter over the simulated
 * SDK: once the group is converted, someone tags every spot member as warned two hours ago. EC2 (the
 * simulator) never warned them, so their Spot requests stay `fulfilled`: no member leaves for it, and the
 * invariants (5, 7) see nothing. A genuine interruption of the same group is still replaced ahead.
 */
import { describe, expect, it } from 'vitest'
import { TAG_INTERRUPTION_WARNED } from '../../lambdas/core/constants.ts'
import type { Log } from '../../lambdas/core/log.ts'
import { Priority } from '../../tools/sim/clock.ts'
import { simulateRun } from '../../tools/sim/simulate.ts'
import { group, parse, rawScenario, START_MS } from './support.ts'

const FORGED_MS = START_MS + 60 * 60_000

describe('a forged interruption marker in the simulator', () => {
  it.each([
    ['alone', []],
    [
      'beside a genuine interruption',
      [{ at: new Date(FORGED_MS + 30 * 60_000).toISOString(), group: 'web', count: 1 }],
    ],
  ])('makes no forged member leave (%s), and counts every one as untrusted', async (_, interruptions) => {
    const scenario = parse(
      rawScenario([group('web', { desired: 3, max: 4 })], { durationHours: 2, interruptions }),
    )
    let forged: string[] = []
    const untrusted = new Set<string>()
    const log: Log = {
      debug: () => {},
      info: () => {},
      warn: (message, attributes) => {
        // A marker without spotswap's MAC is not believed (core/markers.ts): never even read as a warning.
        const marker = /^instance:(i-[0-9a-f]+) spotswap:interruption-warned: unsigned/.exec(
          String(attributes?.marker),
        )
        if (message === 'marker not believed' && marker !== null) untrusted.add(marker[1] as string)
      },
      error: () => {},
    }
    const left: string[] = []
    let warned: string | undefined
    const run = await simulateRun(scenario, {
      log,
      prepare: (world) => {
        const region = world.region('us-east-1')
        world.observe({ interruptionWarned: (instance) => (warned = instance.id) })
        world.clock.schedule(FORGED_MS, Priority.external, 'forge the marker', () => {
          const web = region.groups.get('web')
          if (web === undefined) return
          forged = [...web.members.keys()].filter((id) => region.instances.get(id)?.lifecycle === 'spot')
          const at = new Date(FORGED_MS - 2 * 3_600_000).toISOString()
          for (const id of forged) {
            const instance = region.instances.get(id)
            if (instance !== undefined) instance.tags = { ...instance.tags, [TAG_INTERRUPTION_WARNED]: at }
          }
        })
        world.clock.schedule(START_MS + 2 * 3_600_000 - 1000, Priority.audit, 'who left', () => {
          for (const id of forged) if (region.groupOf(id) === undefined && id !== warned) left.push(id)
        })
      },
    })
    expect(forged.length).toBe(3)
    expect(left).toEqual([])
    // Each forged marker is reported (the genuinely warned one too, before its handler signed a new one).
    expect([...untrusted].sort()).toEqual([...forged].sort())
    expect(run.report.violations).toEqual([])
  })
})
