import { describe, expect, it } from 'vitest'
import {
  FANOUT_LEASE_RENEW_BELOW_SECONDS,
  FANOUT_LEASE_SECONDS,
  REPLACER_WRITE_MARGIN_SECONDS,
} from '../../../lambdas/core/constants.ts'
import { MessageLease } from '../../../lambdas/core/region/lease.ts'

/** A lease on a clock the test moves; each renewal takes `callMs` and answers as `answers` says, in turn. */
const lease = (receiptBoundMs: number, answers: ('ok' | Error)[] = [], callMs = 100) => {
  let now = 0
  const renewals: { readonly atMs: number; readonly seconds: number }[] = []
  const lost: string[] = []
  const subject = new MessageLease(receiptBoundMs, {
    renew: async (seconds) => {
      renewals.push({ atMs: now, seconds })
      await Promise.resolve()
      now += callMs
      const answer = answers.shift() ?? 'ok'
      if (answer instanceof Error) throw answer
    },
    nowMs: () => now,
    onLost: (detail) => lost.push(detail),
  })
  return {
    subject,
    renewals,
    lost,
    at: (ms: number) => {
      now = ms
    },
  }
}

describe('MessageLease', () => {
  it('leaves a renewed lease room for a write step before the next renewal', () => {
    expect(FANOUT_LEASE_SECONDS).toBeGreaterThan(FANOUT_LEASE_RENEW_BELOW_SECONDS)
    expect(FANOUT_LEASE_RENEW_BELOW_SECONDS).toBeGreaterThan(REPLACER_WRITE_MARGIN_SECONDS)
  })

  it('shortens the message to one lease as the run starts, counted from the request', async () => {
    const l = lease(85_000)
    expect(l.subject.heldUntilMs()).toBe(85_000)
    l.at(1_000)
    await l.subject.take()
    expect(l.renewals).toEqual([{ atMs: 1_000, seconds: FANOUT_LEASE_SECONDS }])
    expect(l.subject.heldUntilMs()).toBe(1_000 + FANOUT_LEASE_SECONDS * 1000)
    expect(l.lost).toEqual([])
  })

  it('keeps the receipt bound when taking fails: the queue still hides the message that long', async () => {
    const l = lease(85_000, [new Error('AccessDenied')])
    await l.subject.take()
    expect(l.subject.heldUntilMs()).toBe(85_000)
    expect(l.lost).toEqual([expect.stringContaining('AccessDenied')])
  })

  it('renews only once less than the renewal point is left', async () => {
    const l = lease(85_000)
    await l.subject.take()
    l.at((FANOUT_LEASE_SECONDS - FANOUT_LEASE_RENEW_BELOW_SECONDS) * 1000 - 1)
    await l.subject.keep()
    expect(l.renewals).toHaveLength(1)
    l.at((FANOUT_LEASE_SECONDS - FANOUT_LEASE_RENEW_BELOW_SECONDS) * 1000 + 1)
    await l.subject.keep()
    expect(l.renewals).toHaveLength(2)
    expect(l.subject.heldUntilMs()).toBe(
      (FANOUT_LEASE_SECONDS - FANOUT_LEASE_RENEW_BELOW_SECONDS + FANOUT_LEASE_SECONDS) * 1000 + 1,
    )
  })

  it('keeps what it had when a renewal fails, and says when writes stop', async () => {
    const l = lease(85_000, ['ok', new Error('ThrottlingException')])
    await l.subject.take()
    l.at(25_000)
    await l.subject.keep()
    expect(l.subject.heldUntilMs()).toBe(FANOUT_LEASE_SECONDS * 1000)
    expect(l.lost).toEqual([expect.stringMatching(/ThrottlingException.*writes stop 15 s from now/)])
  })

  it('does not count a renewal that answered after the lease it was to extend ran out', async () => {
    // SQS may have handed the message out before the change arrived: the run is no longer sure it holds it.
    const l = lease(85_000, [], 20_000)
    await l.subject.take()
    expect(l.subject.heldUntilMs()).toBe(FANOUT_LEASE_SECONDS * 1000)
    l.at(FANOUT_LEASE_SECONDS * 1000 - 5_000)
    await l.subject.keep()
    expect(l.subject.heldUntilMs()).toBe(FANOUT_LEASE_SECONDS * 1000)
    expect(l.lost).toEqual([expect.stringContaining('after the lease it was to extend had run out')])
  })

  it('never renews a lease that has run out', async () => {
    const l = lease(85_000)
    await l.subject.take()
    l.at(FANOUT_LEASE_SECONDS * 1000)
    await l.subject.keep()
    expect(l.renewals).toHaveLength(1)
  })

  it('sends one renewal for writes that ask at once', async () => {
    const l = lease(85_000)
    await l.subject.take()
    l.at(15_000)
    await Promise.all([l.subject.keep(), l.subject.keep(), l.subject.keep()])
    expect(l.renewals).toHaveLength(2)
  })
})
