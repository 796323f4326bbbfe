import { describe, expect, it } from 'vitest'
import {
  FANOUT_CLOCK_SKEW_MS,
  FANOUT_LATE_START_SECONDS,
  FANOUT_LEASE_SECONDS,
  FANOUT_VISIBILITY_SECONDS,
  REPLACER_TIMEOUT_SECONDS,
} from '../../../lambdas/core/constants.ts'
import { hiddenUntilMs, judgeDelivery } from '../../../lambdas/core/region/delivery-window.ts'

const RECEIVED = Date.parse('2026-01-01T00:00:00Z')
const VISIBILITY_MS = FANOUT_VISIBILITY_SECONDS * 1000
const TIMEOUT_MS = REPLACER_TIMEOUT_SECONDS * 1000
const LEASE_MS = FANOUT_LEASE_SECONDS * 1000
/** The latest a run may start after its receipt and still be stopped by Lambda before the message is back. */
const SLACK_MS = VISIBILITY_MS - TIMEOUT_MS - FANOUT_CLOCK_SKEW_MS

const judge = (receiveCount: number, startedAfterMs: number, remainingMs = TIMEOUT_MS) =>
  judgeDelivery({
    delivery: { firstReceivedMs: RECEIVED, receiveCount },
    endsByMs: RECEIVED + startedAfterMs + remainingMs,
    visibilitySeconds: FANOUT_VISIBILITY_SECONDS,
    leaseSeconds: FANOUT_LEASE_SECONDS,
    skewMs: FANOUT_CLOCK_SKEW_MS,
  })

describe('judgeDelivery', () => {
  it('leaves a run room to start a little late: a cold start, a retried invocation', () => {
    expect(SLACK_MS).toBe(FANOUT_LATE_START_SECONDS * 1000 - FANOUT_CLOCK_SKEW_MS)
    expect(SLACK_MS).toBeGreaterThanOrEqual(20_000)
  })

  it.each([
    { when: 'at its receipt', receiveCount: 1, startedAfterMs: 0, start: true },
    {
      when: 'as late as Lambda still stops it before the message comes back',
      receiveCount: 1,
      startedAfterMs: SLACK_MS,
      start: true,
    },
    { when: 'a second later than that', receiveCount: 1, startedAfterMs: SLACK_MS + 1000, start: false },
    // The first run may have shortened its message's visibility to a lease before it crashed.
    { when: 'on its second receipt, one lease on', receiveCount: 2, startedAfterMs: LEASE_MS, start: true },
    {
      when: 'on its second receipt, too late',
      receiveCount: 2,
      startedAfterMs: LEASE_MS + SLACK_MS + 1000,
      start: false,
    },
  ])('a run delivered $when starts: $start', ({ receiveCount, startedAfterMs, start }) => {
    expect(judge(receiveCount, startedAfterMs).start).toBe(start)
  })

  it('counts what Lambda says is left, not the whole timeout', () => {
    expect(judge(1, SLACK_MS + 10_000, TIMEOUT_MS - 10_000).start).toBe(true)
  })

  it('says why a late run does nothing, with the times it compared', () => {
    expect(judge(1, SLACK_MS + 1000)).toEqual({
      start: false,
      reason: 'late-delivery',
      detail: expect.stringContaining(
        `, 1 s past the earliest its message can be delivered again (${new Date(RECEIVED + VISIBILITY_MS).toISOString()},`,
      ),
    })
  })

  it('does nothing when it cannot read the delivery: it cannot prove the run ends in time', () => {
    expect(
      judgeDelivery({
        delivery: { problem: 'no attributes' },
        endsByMs: 0,
        visibilitySeconds: 1,
        leaseSeconds: 1,
        skewMs: 0,
      }),
    ).toEqual({ start: false, reason: 'unreadable-delivery', detail: 'no attributes' })
  })

  it('bounds the end of a receipt from below: each earlier receipt hid the message at least one lease', () => {
    // Receipts at 1 s and after two leases of 4 s at the earliest: the third hides it 10 s from 9 s.
    expect(hiddenUntilMs({ firstReceivedMs: 1000, receiveCount: 3 }, 10, 4)).toBe(19_000)
    // A lease longer than the visibility timeout is no lease: each receipt hid it the whole timeout.
    expect(hiddenUntilMs({ firstReceivedMs: 1000, receiveCount: 3 }, 10, 60)).toBe(31_000)
    expect(hiddenUntilMs({ firstReceivedMs: 1000, receiveCount: 1 }, 10, 4)).toBe(11_000)
  })

  it('hands a started run the receipt bound it proved, less the clock doubt', () => {
    expect(judge(1, 0)).toEqual({ start: true, heldUntilMs: RECEIVED + VISIBILITY_MS - FANOUT_CLOCK_SKEW_MS })
  })
})
