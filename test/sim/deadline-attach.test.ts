/**
 * A member replaced ahead of its interruption whose swap never reaches its attach before the member's
 * deadline. The swap is recorded and its replacement named, either by a swap run that dies right before its
 * attach, again until the deadline, or by
 * the run that launched the replacement, every run after it dying. The deadline reminder attaches the
 * replacement and the member leaves with the decrement, so the group never backfills and serves its
 * desired capacity throughout.
 */
import { describe, expect, it } from 'vitest'
import { DOOMED_SWAP_DEADLINE_SECONDS } from '../../lambdas/core/constants.ts'
import type { Log } from '../../lambdas/core/log.ts'
import { Priority } from '../../tools/sim/clock.ts'
import type { FaultHooks } from '../../tools/sim/faults.ts'
import { servingCount } from '../../tools/sim/load-balancers.ts'
import { SPOTSWAP_POLICY } from '../../tools/sim/policy.ts'
import { simulateRun } from '../../tools/sim/simulate.ts'
import { group, parse, rawScenario, START_MS } from './support.ts'

const WARNING_MS = START_MS + 40 * 60_000
const DEADLINE_MS = WARNING_MS + DOOMED_SWAP_DEADLINE_SECONDS * 1000

interface Crash {
  readonly hooks: FaultHooks
  readonly bind: (clock: () => number) => void
  readonly crashed: () => number
}

/** Fault hooks that crash the replacer's `operation` from `fromMs` on, while `crashes` says so. */
const crashReplacer = (
  fromMs: number,
  crashes: (operation: string, now: number, crashed: number) => boolean,
): Crash => {
  let now = (): number => 0
  let crashed = 0
  const hooks: FaultHooks = {
    decide: ({ session, operation }) => {
      if (session.actor !== 'replacer' || now() < fromMs || !crashes(operation, now(), crashed))
        return { kind: 'none' }
      crashed++
      return { kind: 'crash-before' }
    },
  }
  return { hooks, bind: (clock) => (now = clock), crashed: () => crashed }
}

/** The first replacer AttachInstances from `fromMs` on kills its process before the request. */
const crashFirstAttachFrom = (fromMs: number): Crash =>
  crashReplacer(
    fromMs,
    (operation, _, crashed) => crashed === 0 && operation === 'autoscaling:AttachInstances',
  )

/** Once the replacer launched after `fromMs`, each of its runs dies at its first read until `untilMs`. */
const crashRunsAfterLaunch = (fromMs: number, untilMs: number): Crash => {
  let launched = false
  return crashReplacer(fromMs, (operation, now) => {
    if (operation === 'ec2:CreateFleet') launched = true
    return launched && now <= untilMs && operation === 'autoscaling:DescribeAutoScalingGroups'
  })
}

/** `web` (desired 3) whose `count` members EC2 warns at once at WARNING_MS. */
const scenarioOf = (count: number) =>
  parse(
    rawScenario([group('web', { desired: 3, max: 6 })], {
      durationHours: 1,
      interruptions: [{ at: new Date(WARNING_MS).toISOString(), group: 'web', count }],
    }),
  )

/** The run under `crash`: the deadline reminders' details, partner-gone terminations, seconds short of desired. */
const runWith = async (crash: Crash, lanes?: number, interrupted = 1) => {
  const scenario = scenarioOf(interrupted)
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
    policy: lanes === undefined ? SPOTSWAP_POLICY : { ...SPOTSWAP_POLICY, lanes },
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
  return { deadlines, partnerGone, shortSeconds, watched, violations: run.report.violations }
}

const ATTACHED_AT_DEADLINE = 'attached now, and terminate-in-group with a decrement'

describe('a swap run that dies before its attach, at the deadline of the member it replaces', () => {
  it('costs nothing: its lane comes back one lease later, and that run swaps the member out in time', async () => {
    const crash = crashFirstAttachFrom(WARNING_MS)
    const result = await runWith(crash, 1)
    expect(crash.crashed()).toBe(1)
    expect(result.watched).toBe(600)
    expect(result.deadlines.filter((d) => d.includes(ATTACHED_AT_DEADLINE))).toEqual([])
    expect(result.shortSeconds).toBe(0)
    expect(result.partnerGone).toEqual([])
    expect(result.violations).toEqual([])
  })

  it('costs no serving capacity and no replacement when every attach dies: the reminder attaches it and the member leaves with the decrement', async () => {
    const crash = crashReplacer(
      WARNING_MS,
      (operation, now) => operation === 'autoscaling:AttachInstances' && now <= DEADLINE_MS,
    )
    const result = await runWith(crash, 1)
    expect(crash.crashed()).toBeGreaterThanOrEqual(1)
    expect(result.watched).toBe(600)
    expect(result.deadlines).toEqual([expect.stringContaining(ATTACHED_AT_DEADLINE)])
    expect(result.shortSeconds).toBe(0)
    expect(result.partnerGone).toEqual([])
    expect(result.violations).toEqual([])
  })
})

describe('replacer runs that all die between the launch of a doomed member’s replacement and its deadline', () => {
  it('cost no serving capacity: the swap recorded at the launch lets the reminder attach it', async () => {
    const crash = crashRunsAfterLaunch(WARNING_MS, DEADLINE_MS + 5000)
    const result = await runWith(crash)
    expect(crash.crashed()).toBeGreaterThan(0)
    expect(result.deadlines).toEqual([expect.stringContaining(ATTACHED_AT_DEADLINE)])
    expect(result.shortSeconds).toBe(0)
    expect(result.violations).toEqual([])
  })
})

describe('two members EC2 interrupts at once, every replacer run dying from their launches to their deadline', () => {
  it('cost no serving capacity: both pairs recorded at the launch, the reminder attaches each', async () => {
    const crash = crashRunsAfterLaunch(WARNING_MS, DEADLINE_MS + 5000)
    const result = await runWith(crash, undefined, 2)
    expect(crash.crashed()).toBeGreaterThan(0)
    expect(result.deadlines).toEqual([
      expect.stringContaining(ATTACHED_AT_DEADLINE),
      expect.stringContaining(ATTACHED_AT_DEADLINE),
    ])
    expect(result.shortSeconds).toBe(0)
    expect(result.violations).toEqual([])
  })
})
