import { describe, expect, it } from 'vitest'
import { TAG_SWAP } from '../../../lambdas/core/constants.ts'
import { type JoinableInput, joinableRecord, joinRecords } from '../../../lambdas/core/swap/joining.ts'
import { readSwapRecord, type SwapRecord } from '../../../lambdas/core/swap/record.ts'

const NOW_MS = Date.parse('2026-01-01T00:10:00.000Z')

/** A swap of two pairs, both attached and in their health checks; MaxSize raised from 4 to 6. */
const onGroup = readSwapRecord({
  [TAG_SWAP]: `v2 id=s1 phase=waiting owner=4 pairs=2 max=4 raised=6 started=${new Date(NOW_MS - 60_000).toISOString()}`,
})
if (onGroup.kind !== 'read') throw new Error('the fixture record does not read')
const waiting: SwapRecord = onGroup.record

const joinable = (overrides: Partial<JoinableInput> = {}): SwapRecord | undefined =>
  joinableRecord({
    record: waiting,
    group: { desiredCapacity: 6 },
    waitingPairs: 2,
    anythingElse: false,
    ownerUnchanged: true,
    healthKnown: true,
    nowMs: NOW_MS,
    deadlineMs: NOW_MS + 600_000,
    graceSeconds: 60,
    checkSeconds: 150,
    ...overrides,
  })

describe('joinableRecord', () => {
  it('offers a swap that waits for all its replacements to serve', () => {
    expect(joinable()).toBe(waiting)
  })

  it.each<[string, Partial<JoinableInput>]>([
    ['a pair is retired, held or released this run', { anythingElse: true }],
    ['the health-check time is not known', { healthKnown: false }],
    [
      'the owner changed desired capacity since the swap started, or that is not read',
      { ownerUnchanged: false },
    ],
    ['the record is at its attach', { record: { ...waiting, phase: 'attaching' } }],
    ['the swap retires', { record: { ...waiting, phase: 'retiring', step: 'i-0123456789abcdef0' } }],
    ['a legacy record names no swap', { record: { ...waiting, id: undefined } }],
    ['fewer pairs wait than the record holds', { waitingPairs: 1 }],
    ['desired capacity is not what the record accounts for', { group: { desiredCapacity: 7 } }],
    ['a pair joined now could not serve before the deadline', { deadlineMs: NOW_MS + 209_000 }],
  ])('offers none when %s', (_, overrides) => {
    expect(joinable(overrides)).toBeUndefined()
  })

  it('offers one whose deadline leaves the grace period and one health-check time', () => {
    expect(joinable({ deadlineMs: NOW_MS + 210_000 })).toBe(waiting)
  })
})

describe('joinRecords', () => {
  it('counts the new pairs, and the pairs in the group as confirmed while they attach', () => {
    expect(joinRecords(waiting, { desiredCapacity: 6, maxSize: 9 }, 3)).toEqual({
      attaching: { ...waiting, phase: 'attaching', pairs: 5, attached: 2 },
      attached: { ...waiting, pairs: 5, attached: undefined },
    })
  })

  it('keeps the swap raise as it stands', () => {
    expect(joinRecords(waiting, { desiredCapacity: 6, maxSize: 8 }, 2)?.attached).toMatchObject({
      originalMaxSize: 4,
      raisedMaxSize: 6,
      pairs: 4,
    })
  })

  it('refuses pairs that would need MaxSize raised', () => {
    expect(joinRecords(waiting, { desiredCapacity: 6, maxSize: 8 }, 3)).toBeUndefined()
  })
})
