import { describe, expect, it } from 'vitest'
import { measureReference, referenceWorkload } from '../../tools/bench/reference-workload.ts'
import { median, spreadPct } from '../../tools/bench/scale.ts'

describe('the reference workload', () => {
  it('does the same work every time', () => {
    expect(referenceWorkload()).toBe(referenceWorkload())
  })

  it('reports its CPU in milliseconds', () => {
    expect(measureReference()).toBeGreaterThan(0)
  })
})

describe('spread and median of repeated runs', () => {
  it.each([
    [[2, 2, 2], 0],
    [[1.8, 2, 2.2], 20],
    [[2], 0],
  ])('%j spread %d%%', (values, expected) => {
    expect(spreadPct(values)).toBe(expected)
  })

  it('takes the middle run', () => {
    expect(median([5, 1, 3])).toBe(3)
  })
})
