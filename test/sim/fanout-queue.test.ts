/**
 * The replacer's runs of one region go through its FIFO message group: never two at once, in the order
 * sent, and a run that crashed or failed comes back after the visibility timeout with everything sent
 * after it held until then. The constants are the deployment's (lib/sizing.ts).
 */
import { describe, expect, it } from 'vitest'
import {
  DEADLINE_RETENTION,
  DEADLINE_VISIBILITY_TIMEOUT,
  FANOUT_MAX_RECEIVE_COUNT,
  FANOUT_VISIBILITY_TIMEOUT,
} from '../../lib/sizing.ts'
import { SimClock } from '../../tools/sim/clock.ts'
import {
  DEADLINE_RETENTION_SECONDS,
  DEADLINE_VISIBILITY_SECONDS,
  FANOUT_MAX_RECEIVES,
  FANOUT_VISIBILITY_SECONDS,
} from '../../tools/sim/constants.ts'
import { RegionMessageGroup, type RegionWork, type RunOutcome } from '../../tools/sim/fanout-queue.ts'

/** A message group whose runs take `runMs` of simulated time and end as `outcomes` says, in turn. */
const messageGroup = (runMs: number, outcomes: RunOutcome[] = []) => {
  const clock = new SimClock(0)
  const runs: { readonly work: string; readonly fromMs: number; readonly toMs: number }[] = []
  let inFlight = 0
  let overlapped = false
  const group = new RegionMessageGroup(clock, async (work: RegionWork) => {
    overlapped ||= inFlight > 0
    inFlight++
    const fromMs = clock.now
    await Promise.resolve()
    clock.advanceBy(runMs)
    inFlight--
    runs.push({ work: work.onlyGroup ?? 'region', fromMs, toMs: clock.now })
    return outcomes.shift() ?? 'done'
  })
  /** Processes the clock's events up to `untilMs`, as the simulation's loop does. */
  const runUntil = async (untilMs: number) => {
    for (let event = clock.popDue(untilMs); event !== undefined; event = clock.popDue(untilMs))
      await event.run()
  }
  return { clock, group, runs, runUntil, overlapped: () => overlapped }
}

describe('a region’s FIFO message group', () => {
  it('delivers a run sent while another is in flight once that one is done, in order', async () => {
    const { group, runs, overlapped } = messageGroup(2_000)
    const first = group.send({ onlyGroup: undefined })
    await group.send({ onlyGroup: 'web' })
    await group.send({ onlyGroup: 'api' })
    await first
    expect(runs.map((r) => r.work)).toEqual(['region', 'web', 'api'])
    expect(runs[1]?.fromMs).toBe(runs[0]?.toMs)
    expect(overlapped()).toBe(false)
    expect(group.pending).toBe(0)
  })

  it('delivers a crashed run again after the visibility timeout, holding later runs until then', async () => {
    const { clock, group, runs, runUntil } = messageGroup(1_000, ['redeliver'])
    await group.send({ onlyGroup: undefined })
    clock.advanceBy(60_000)
    await group.send({ onlyGroup: 'web' })
    expect(runs.map((r) => r.work)).toEqual(['region'])
    expect(group.pending).toBe(2)
    await runUntil(FANOUT_VISIBILITY_SECONDS * 1000)
    expect(runs.map((r) => [r.work, r.fromMs])).toEqual([
      ['region', 0],
      ['region', FANOUT_VISIBILITY_SECONDS * 1000],
      ['web', FANOUT_VISIBILITY_SECONDS * 1000 + 1_000],
    ])
  })

  it(`moves a message received ${FANOUT_MAX_RECEIVES} times without success to the dead-letter queue`, async () => {
    const outcomes: RunOutcome[] = Array.from({ length: FANOUT_MAX_RECEIVES + 1 }, () => 'redeliver')
    const { group, runs, runUntil } = messageGroup(1_000, outcomes)
    await group.send({ onlyGroup: undefined })
    await group.send({ onlyGroup: 'web' })
    await runUntil(10 * FANOUT_VISIBILITY_SECONDS * 1000)
    expect(runs.map((r) => r.work)).toEqual([...Array(FANOUT_MAX_RECEIVES).fill('region'), 'web', 'web'])
  })
})

describe('the simulator’s queue settings', () => {
  it('are the deployment’s', () => {
    expect(FANOUT_VISIBILITY_SECONDS).toBe(FANOUT_VISIBILITY_TIMEOUT)
    expect(FANOUT_MAX_RECEIVES).toBe(FANOUT_MAX_RECEIVE_COUNT)
    expect(DEADLINE_VISIBILITY_SECONDS).toBe(DEADLINE_VISIBILITY_TIMEOUT)
    expect(DEADLINE_RETENTION_SECONDS).toBe(DEADLINE_RETENTION.toSeconds())
  })
})
