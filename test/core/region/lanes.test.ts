import { describe, expect, it } from 'vitest'
import {
  allLanes,
  doesRegionWork,
  inLane,
  isLaneIndex,
  laneMessageGroupId,
  laneOf,
  laneShare,
} from '../../../lambdas/core/region/lanes.ts'

const names = Array.from({ length: 800 }, (_, i) => `group-${i}`)

describe('laneOf', () => {
  it('puts a group in the same lane every time, whoever asks (FNV-1a of its name)', () => {
    // Fixed values: a change of the hash would move groups between lanes while runs of both are in flight.
    expect(['web', 'api', 'batch', 'g2'].map((name) => laneOf(name, 8))).toEqual([1, 7, 3, 4])
    expect(names.map((name) => laneOf(name, 8))).toEqual(names.map((name) => laneOf(name, 8)))
  })

  it('spreads groups over every lane, about evenly', () => {
    const perLane = allLanes(8).map(({ index }) => names.filter((name) => laneOf(name, 8) === index).length)
    expect(perLane.every((n) => n > 60 && n < 140)).toBe(true)
  })

  it('keeps every group in lane 0 with one lane', () => {
    expect(new Set(names.map((name) => laneOf(name, 1)))).toEqual(new Set([0]))
  })

  it('agrees with inLane', () => {
    expect(names.filter((name) => inLane(name, { index: 3, count: 8 }))).toEqual(
      names.filter((name) => laneOf(name, 8) === 3),
    )
  })
})

describe('the lanes of a region', () => {
  it('each have a message group of their own, lane 0 the region’s name as before lanes', () => {
    const ids = allLanes(8).map(({ index }) => laneMessageGroupId('eu-west-1', index))
    expect(ids[0]).toBe('eu-west-1')
    expect(new Set(ids).size).toBe(8)
    expect(ids.every((id) => id.length <= 128 && /^[\x21-\x7e]+$/.test(id))).toBe(true)
  })

  it('leave the region’s own work (strays) to lane 0, or to a run of the whole region', () => {
    expect(allLanes(4).filter((lane) => doesRegionWork(lane))).toEqual([{ index: 0, count: 4 }])
    expect(doesRegionWork(undefined)).toBe(true)
  })

  it.each([
    [8, 8, 1],
    [8, 4, 2],
    [8, 1, 8],
    [8, 16, 1],
  ])('share a bound of %i over %i lanes as %i each, at least one', (bound, count, share) => {
    expect(laneShare(bound, count)).toBe(share)
    expect(share * count <= bound || share === 1).toBe(true)
  })

  it.each([
    [0, true],
    [7, true],
    [8, false],
    [-1, false],
    [1.5, false],
    ['1', false],
  ])('takes %j as a lane of 8: %s', (value, expected) => {
    expect(isLaneIndex(value, 8)).toBe(expected)
  })
})
