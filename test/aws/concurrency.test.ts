import { describe, expect, it } from 'vitest'
import { mapWithConcurrency } from '../../lambdas/aws/concurrency.ts'

describe('mapWithConcurrency', () => {
  it('keeps the input order whatever order the answers come in, with at most `limit` in flight', async () => {
    let inFlight = 0
    let most = 0
    const results = await mapWithConcurrency([5, 1, 4, 2, 3, 0], 3, async (n, index) => {
      inFlight++
      most = Math.max(most, inFlight)
      for (let turn = 0; turn < n; turn++) await new Promise((resolve) => setImmediate(resolve))
      inFlight--
      return `${index}:${n}`
    })
    expect(results).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0'])
    expect(most).toBe(3)
  })

  it('rejects with the first failure and starts nothing after it', async () => {
    const started: number[] = []
    const run = mapWithConcurrency([0, 1, 2, 3], 1, async (n) => {
      started.push(n)
      if (n === 1) throw new Error('throttled')
      return n
    })
    await expect(run).rejects.toThrow('throttled')
    expect(started).toEqual([0, 1])
  })

  it('makes no call for no items', async () => {
    await expect(mapWithConcurrency([], 4, async () => 1)).resolves.toEqual([])
  })
})
