import { describe, expect, it } from 'vitest'
import { type InterruptionStatuses, warnedAtMs } from '../../../lambdas/core/interruption/confirmation.ts'

const NOTICE = 120_000
const read = (code: string, updatedAtMs?: number): InterruptionStatuses => ({
  kind: 'read',
  codes: new Map([['i-a', { code, updatedAtMs }]]),
})

describe('warnedAtMs', () => {
  it("takes EC2's time of a marked member over the tag's", () => {
    expect(warnedAtMs(read('marked-for-termination', 5_000_000), 'i-a', 9_000_000, NOTICE)).toBe(5_000_000)
    expect(warnedAtMs(read('marked-for-stop', 5_000_000), 'i-a', 1_000, NOTICE)).toBe(5_000_000)
  })

  it('puts a member EC2 already took no later than the notice before it did', () => {
    expect(warnedAtMs(read('instance-terminated-no-capacity', 5_000_000), 'i-a', 9_000_000, NOTICE)).toBe(
      5_000_000 - NOTICE,
    )
    expect(warnedAtMs(read('instance-terminated-no-capacity', 5_000_000), 'i-a', 1_000, NOTICE)).toBe(1_000)
    expect(warnedAtMs(read('instance-stopped-by-price', 5_000_000), 'i-a', Number.NaN, NOTICE)).toBe(
      5_000_000 - NOTICE,
    )
  })

  it("keeps the tag's time when EC2 gave none, or its statuses were not read", () => {
    expect(warnedAtMs(read('marked-for-termination'), 'i-a', 7_000, NOTICE)).toBe(7_000)
    expect(warnedAtMs(read('fulfilled', 5_000_000), 'i-a', 7_000, NOTICE)).toBe(7_000)
    expect(warnedAtMs(undefined, 'i-a', 7_000, NOTICE)).toBe(7_000)
    expect(warnedAtMs({ kind: 'unreadable', error: 'x' }, 'i-a', 7_000, NOTICE)).toBe(7_000)
  })
})
