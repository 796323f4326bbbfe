import { describe, expect, it } from 'vitest'
import { ECS_DRAIN_DEADLINE_SECONDS, TAG_SWAP } from '../../lambdas/core/constants.ts'
import { formatSwapRecord } from '../../lambdas/core/swap/record.ts'
import type { Outcome } from '../../lambdas/replacer/outcome.ts'
import { swapPastDeadline } from '../../lambdas/replacer/report.ts'
import { cloudWithFleet, harness, START } from './support.ts'

const NOW = new Date('2026-01-01T12:00:00Z')
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000)

const tagsOfSwapStarted = (startedAt: Date | undefined) => ({
  [TAG_SWAP]: formatSwapRecord({
    version: 2,
    id: 's1',
    phase: 'waiting',
    ownerDesired: 2,
    pairs: 1,
    step: undefined,
    originalMaxSize: undefined,
    raisedMaxSize: undefined,
    startedAt,
  }),
})

const closed: Outcome = {
  status: 'done',
  action: { kind: 'close-swap', group: 'web', maxSize: undefined, reason: 'swap closed' },
}

describe('swapPastDeadline', () => {
  // The latest deadline is 30 minutes after the start; two 5-minute runs finish a swap after it.
  it.each([
    [39, false],
    [40, false],
    [41, true],
    [600, true],
  ])('a swap open %i minutes after it started is past its deadline: %s', (minutes, past) => {
    const startedAt = minutesAgo(minutes)
    expect(swapPastDeadline(tagsOfSwapStarted(startedAt), [], NOW, 5)).toEqual(past ? startedAt : undefined)
  })

  it('gives the runs that finish a swap the schedule they run on', () => {
    const startedAt = minutesAgo(60)
    expect(swapPastDeadline(tagsOfSwapStarted(startedAt), [], NOW, 5)).toEqual(startedAt)
    expect(swapPastDeadline(tagsOfSwapStarted(startedAt), [], NOW, 20)).toBeUndefined()
  })

  // A group ECS manages: its drains have ECS_DRAIN_DEADLINE_SECONDS (15 minutes) more.
  it.each([
    [41, false],
    [55, false],
    [56, true],
  ])('a swap of a drain group open %i minutes is past its deadline: %s', (minutes, past) => {
    const startedAt = minutesAgo(minutes)
    expect(swapPastDeadline(tagsOfSwapStarted(startedAt), [], NOW, 5, ECS_DRAIN_DEADLINE_SECONDS)).toEqual(
      past ? startedAt : undefined,
    )
  })

  it('is over once this run closed the swap', () => {
    expect(swapPastDeadline(tagsOfSwapStarted(minutesAgo(600)), [closed], NOW, 5)).toBeUndefined()
  })

  // closing.ts heldRaise: the owner's desired stands above the owner's MaxSize (4), so MaxSize stays at 6.
  const heldRaise = (pairs: number, raisedMaxSize: number) => ({
    [TAG_SWAP]: formatSwapRecord({
      version: 2,
      id: 's2',
      phase: 'waiting',
      ownerDesired: 6,
      pairs,
      step: undefined,
      originalMaxSize: 4,
      raisedMaxSize,
      startedAt: minutesAgo(600),
    }),
  })

  it('has no deadline for a record that only holds a raise until desired comes down', () => {
    expect(swapPastDeadline(heldRaise(0, 6), [], NOW, 5)).toBeUndefined()
  })

  it('still pages on a raise of pairs, or a raise above the owner desired, left open', () => {
    expect(swapPastDeadline(heldRaise(1, 7), [], NOW, 5)).toEqual(minutesAgo(600))
    // Every pair stepped down, the raise of two pairs still standing: a close that never came.
    expect(swapPastDeadline(heldRaise(0, 8), [], NOW, 5)).toEqual(minutesAgo(600))
  })

  it('says nothing of a group without a swap, or of a record without its start', () => {
    expect(swapPastDeadline({}, [], NOW, 5)).toBeUndefined()
    expect(swapPastDeadline(tagsOfSwapStarted(undefined), [], NOW, 5)).toBeUndefined()
  })
})

describe('a region run with a swap open past its deadline', () => {
  it('says so in an error line and counts it for its group', async () => {
    const cloud = cloudWithFleet(3)
    const started = new Date(START.getTime() - 120 * 60_000)
    cloud.seedGroupTags('web', tagsOfSwapStarted(started))
    // Every member protected: the pair's unit cannot be given back, so the swap stays open.
    for (const id of cloud.group('web').members.keys()) cloud.protectedIds.add(id)
    const h = harness({ 'us-east-1': cloud })
    await h.run()
    const overdue = h.recorded.metrics.filter((m) => m.values.some((v) => v.name === 'SwapsPastDeadline'))
    const closes = h.recorded.logs.some(
      (l) => l.attributes?.kind === 'close-swap' && l.message === 'action done',
    )
    expect(closes).toBe(false)
    expect(overdue.map((m) => m.dimensions)).toEqual([{ Region: 'us-east-1', Group: 'web' }])
    expect(h.recorded.logs).toContainEqual(
      expect.objectContaining({
        level: 'error',
        message: 'swap open past its deadline: its plan says what holds it',
        attributes: expect.objectContaining({ group: 'web', startedAt: started.toISOString() }),
      }),
    )
  })
})
