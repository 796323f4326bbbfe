import { describe, expect, it } from 'vitest'
import { looksToRequest, type RunOfGroup } from '../../../lambdas/core/region/look-again.ts'
import { aPlan, aSwap } from '../../builders/plans.ts'

const SCHEDULE_MINUTES = 5

const run = (lookAgainSeconds: number | undefined, overrides: Partial<RunOfGroup> = {}): RunOfGroup => ({
  plan: aPlan([], lookAgainSeconds === undefined ? {} : { lookAgainSeconds }),
  outcomes: [],
  ...overrides,
})

describe('looksToRequest', () => {
  it('asks for a look at a group whose plan wants one before the next scheduled run', () => {
    expect(looksToRequest([run(30)], SCHEDULE_MINUTES)).toEqual([
      { group: 'web', delaySeconds: 30, why: 'swap' },
    ])
  })

  it('says when the look is for a replacement at the end of its warm-up', () => {
    const warmUp = run(90, { plan: aPlan([], { lookAgainSeconds: 90, lookAgainFor: 'warm-up' }) })
    expect(looksToRequest([warmUp], SCHEDULE_MINUTES)).toEqual([
      { group: 'web', delaySeconds: 90, why: 'warm-up' },
    ])
  })

  it('carries the later look an open swap asks for behind a warm-up look', () => {
    const both = run(60, {
      plan: aPlan([], { lookAgainSeconds: 60, lookAgainFor: 'warm-up', swapLookSeconds: 150 }),
    })
    expect(looksToRequest([both], SCHEDULE_MINUTES)).toEqual([
      { group: 'web', delaySeconds: 60, why: 'warm-up', swapDelaySeconds: 150 },
    ])
  })

  it.each([
    ['wants no look', undefined],
    ['would be looked at by the next scheduled run first', SCHEDULE_MINUTES * 60],
  ])('asks for nothing when the group %s', (_, delay) => {
    expect(looksToRequest([run(delay)], SCHEDULE_MINUTES)).toEqual([])
  })

  it('looks again at a group whose swap’s attach failed, as soon as at one whose attach was done', () => {
    const failed = run(30, { outcomes: [{ action: aSwap(['i-s', 'i-od']), status: 'failed' }] })
    const done = run(30, { outcomes: [{ action: aSwap(['i-s', 'i-od']), status: 'done' }] })
    expect(looksToRequest([failed, done], SCHEDULE_MINUTES)).toEqual([
      { group: 'web', delaySeconds: 30, why: 'swap' },
      { group: 'web', delaySeconds: 30, why: 'swap' },
    ])
  })
})
