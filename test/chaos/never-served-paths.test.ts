/**
 * The paths by which a replacement that never serves stayed in its group (invariant `never-served`), each
 * as a chaos case: a web group behind a target group (30 s × 5 checks, grace period 0) whose spot
 * replacements all fail their health checks (a broken image) unless told. Before core/swap/never-served.ts,
 * each left such a replacement InService for good: Auto Scaling, on EC2 health checks, never replaces it.
 */
import { describe, expect, it } from 'vitest'
import type { ChaosCase } from '../../tools/chaos/case.ts'
import { runCase } from '../../tools/chaos/runner.ts'
import { chaosCase, group, isoMinute, kinds } from './support.ts'

const balancer = {
  type: 'target-group',
  healthCheckIntervalSeconds: 30,
  healthyThreshold: 5,
  deregistrationDelaySeconds: 0,
}
/** The invariants the case broke, and the actions the engine took by kind and reason (from its log). */
const run = async (chaos: ChaosCase) => {
  const lines: string[] = []
  const result = await runCase(chaos, (line) => lines.push(line))
  expect(result.error).toBeUndefined()
  const done = lines.filter((l) => l.includes('action done'))
  return {
    broken: kinds(result.violations),
    // At its deadline, or sooner once its load balancer reports it failing its checks.
    neverServedLeft: done.filter(
      (l) => l.includes('"kind":"release-doomed"') && /never-served|failed-checks/.test(l),
    ).length,
    settled: done.filter((l) => l.includes('"kind":"settle-members"')).length,
  }
}

const web = (overrides: Record<string, unknown> = {}) =>
  group('web', { desired: 3, loadBalancers: [balancer], unhealthyReplacementFraction: 1, ...overrides })

// Whole simulated hours each: seconds alone, more on a loaded machine.
describe('a replacement that never serves leaves its group whatever its swap became', {
  timeout: 60_000,
}, () => {
  // 18:00 launches, 18:01 the swap attaches, the next replacements join it at 18:02 and 18:03; 18:04 the
  // owner scales the group in (desired 6, the owner's 3 and the 3 pairs, set to 4): desired no longer
  // what the record accounts for (`owner-resized`), so the pairs are released and the swap closes, its
  // replacements ordinary members that never served. (At 18:06 the swap's deadline would have taken
  // them out as pairs.)
  it('after the owner scaled in mid-swap and the pairs were released', async () => {
    const outcome = await run(
      chaosCase({ groups: [web({ desiredSchedule: [[isoMinute(4), 4]] })], durationHours: 2 }),
    )
    expect(outcome.broken).toEqual([])
    expect(outcome.neverServedLeft).toBeGreaterThan(0)
  })

  // The same when the owner's new figure is above their old one but below what the swap holds: 18:04 they
  // set desired to 5 (from their 3, with the swap's 3 pairs holding 6). The owner scaling out by exactly
  // the pairs, which only the scaling activities tell (`owner-changed`), is covered in
  // test/replacer/owner-changes.test.ts; a ready replacement joins an open swap only once the activities
  // show no such change.
  it('after the owner scaled out mid-swap and the pairs were released', async () => {
    const outcome = await run(
      chaosCase({ groups: [web({ desiredSchedule: [[isoMinute(4), 5]] })], durationHours: 2 }),
    )
    expect(outcome.broken).toEqual([])
    expect(outcome.neverServedLeft).toBeGreaterThan(0)
  })

  // Half of the replacements serve. At 18:40 EC2 interrupts the spot members: the interruption handler
  // launches replacements ahead, and at the partner's deadline the partner leaves whether its replacement
  // serves or not (`partner-doomed-now`); a broken one stays as an ordinary member.
  it('after its partner was interrupted and left before it served', async () => {
    const outcome = await run(
      chaosCase({
        groups: [web({ desired: 4, unhealthyReplacementFraction: 0.5 })],
        interruptions: [{ minute: 40, group: 'web', count: 2 }],
        durationHours: 2,
      }),
    )
    expect(outcome.broken).toEqual([])
    expect(outcome.neverServedLeft).toBeGreaterThan(0)
  })
})

describe('a replacement that serves is settled as before', () => {
  it('records its membership once it serves, and takes nothing out', async () => {
    const outcome = await run(
      chaosCase({ groups: [web({ desired: 2, unhealthyReplacementFraction: 0 })], durationHours: 1 }),
    )
    expect(outcome).toEqual({ broken: [], neverServedLeft: 0, settled: expect.any(Number) })
    expect(outcome.settled).toBeGreaterThan(0)
  })
})
