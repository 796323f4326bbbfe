import { describe, expect, it } from 'vitest'
import { quoteLaunchFailure, revertAwaitsLaunch } from '../../../lambdas/core/revert/launch-failure.ts'
import type { Group } from '../../../lambdas/core/types.ts'
import { aPlan } from '../../builders/plans.ts'
import { aGroup, anInstance, memberOf, NOW } from '../../builders/world.ts'

const RAISING = `v1 phase=raising owner=3 since=${NOW.toISOString()} until=${new Date(NOW.getTime() + 35 * 60_000).toISOString()}`
const group = (marker: string, desiredCapacity: number, members = 3): Group => ({
  ...aGroup(
    Array.from({ length: members }, () => memberOf(anInstance())),
    { maxSize: 5 },
  ),
  desiredCapacity,
  tags: { 'spot-enabled': 'true', 'spotswap:revert': marker },
})
const reverting = aPlan([], {
  skip: { code: 'reverting', detail: 'the raise has not launched its member yet' },
})
const stalled = aPlan([], { skip: { code: 'revert-stalled', detail: 'revert-stalled: 3 raises in a row' } })

describe('revertAwaitsLaunch', () => {
  it.each([
    ['a raise in desired capacity with no member launched for it', group(RAISING, 4), reverting, true],
    ['a raise whose member launched', group(RAISING, 4, 4), reverting, false],
    ['a raise not in desired capacity yet', group(RAISING, 3), reverting, false],
    ['a stall for want of a launch', group('v1 phase=stalled failed=3 why=not-launched', 3), stalled, true],
    [
      'a stall of members that never served',
      group('v1 phase=stalled failed=3 why=not-serving', 3),
      stalled,
      false,
    ],
    ['a group not held by its revert', group(RAISING, 4), aPlan([]), false],
    ['an unreadable marker', group('v9 phase=raising', 4), reverting, false],
  ])('%s: %s', (_case, g, plan, expected) => {
    expect(revertAwaitsLaunch(g, plan)).toBe(expected)
  })
})

describe('quoteLaunchFailure', () => {
  const failure = { statusCode: 'Failed', statusMessage: 'No capacity.', at: NOW }

  it('quotes the failure in the skip, its formatted line, and carries it for the log', () => {
    const quoted = quoteLaunchFailure(stalled, failure)
    const detail = `revert-stalled: 3 raises in a row. Auto Scaling's last launch, at ${NOW.toISOString()}: Failed: "No capacity."`
    expect(quoted.skip).toEqual({ code: 'revert-stalled', detail })
    expect(quoted.skipped).toBe(`revert-stalled (${detail})`)
    expect(quoted.revertLaunchFailure).toBe(failure)
  })

  it('leaves the plan as it is without a failure', () => {
    expect(quoteLaunchFailure(stalled, undefined)).toBe(stalled)
  })
})
