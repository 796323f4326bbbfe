import { describe, expect, it } from 'vitest'
import { TAG_NO_SPOT_CAPACITY_UNTIL } from '../../../lambdas/core/constants.ts'
import {
  capacityBackoffMinutes,
  capacityBackoffUntil,
  lastBackoffEnd,
} from '../../../lambdas/core/plan/capacity-backoff.ts'
import { anInstance, NOW } from '../../builders/world.ts'

describe('capacity back-off', () => {
  it.each([
    [1, 5],
    [2, 10],
    [3, 20],
    [4, 30],
    [9, 30],
  ])('backs attempt %i off for %i minutes', (attempt, minutes) => {
    expect(capacityBackoffMinutes(attempt)).toBe(minutes)
    expect(capacityBackoffUntil(NOW, attempt)).toBe(new Date(NOW.getTime() + minutes * 60_000).toISOString())
  })

  it('counts from each moment it is asked at, not from the first', () => {
    const later = new Date(NOW.getTime() + 60_000)
    expect(capacityBackoffUntil(NOW, 1)).toBe('2022-05-31T23:05:00.000Z')
    expect(capacityBackoffUntil(later, 1)).toBe('2022-05-31T23:06:00.000Z')
    expect(capacityBackoffUntil(NOW, 1)).toBe('2022-05-31T23:05:00.000Z')
  })

  it('reads when an instance last backed off; never backed off comes first', () => {
    expect(lastBackoffEnd(anInstance())).toBe(Number.NEGATIVE_INFINITY)
    expect(lastBackoffEnd(anInstance({ tags: { [TAG_NO_SPOT_CAPACITY_UNTIL]: NOW.toISOString() } }))).toBe(
      NOW.getTime(),
    )
  })
})
