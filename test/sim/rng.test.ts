import { describe, expect, it } from 'vitest'
import { createRng } from '../../tools/sim/rng.ts'

const draws = (seed: number | string, count = 5): number[] => {
  const rng = createRng(seed)
  return Array.from({ length: count }, () => rng.next())
}

describe('the seeded random streams', () => {
  it('repeat exactly for the same seed and differ for another', () => {
    expect(draws(42)).toEqual(draws(42))
    expect(draws(42)).not.toEqual(draws(43))
  })

  it('give forks that do not move when another stream is drawn from', () => {
    const quiet = createRng(1)
    const busy = createRng(1)
    for (let i = 0; i < 100; i++) busy.fork('faults').next()
    expect(busy.fork('asg').next()).toBe(quiet.fork('asg').next())
  })

  it('stay within their ranges and shuffle without losing or inventing elements', () => {
    const rng = createRng('range')
    for (let i = 0; i < 1000; i++) {
      const value = rng.next()
      expect(value).toBeGreaterThanOrEqual(0)
      expect(value).toBeLessThan(1)
      expect(rng.int(3)).toBeLessThan(3)
    }
    expect(rng.shuffle([1, 2, 3, 4, 5]).sort()).toEqual([1, 2, 3, 4, 5])
    expect(rng.pick([])).toBeUndefined()
    expect(rng.chance(0)).toBe(false)
  })
})
