import { describe, expect, it } from 'vitest'
import type { Action } from '../../../lambdas/core/plan/actions.ts'
import { lastLookAt, refusalAfterLastLook } from '../../../lambdas/core/region/last-look.ts'
import { aCompletion, aGiveBack, aLaunch, aSwap, aTermination } from '../../builders/plans.ts'

describe('lastLookAt', () => {
  it.each<[string, Action, string[]]>([
    ['the replacement of a partner to retire', aCompletion('i-s', 'i-od'), ['i-s']],
    [
      'nothing when the replacement itself is retired',
      aCompletion('i-s', 'i-od', { retire: 'replacement' }),
      [],
    ],
    ['a stray not known to be in no group', aTermination('i-s'), ['i-s']],
    ['nothing for a stray Auto Scaling said is in no group, in this run', aTermination('i-s', true), []],
    ['nothing for a launch', aLaunch('i-od'), []],
    ['nothing for a swap', aSwap(['i-s', 'i-od']), []],
    ['nothing for a give-back', aGiveBack('i-od'), []],
  ])('reads %s', (_, action, ids) => {
    expect(lastLookAt(action)).toEqual(ids)
  })
})

describe('refusalAfterLastLook', () => {
  it('retires the partner while its replacement is still in the group', () => {
    expect(refusalAfterLastLook(aCompletion('i-s', 'i-od'), new Map([['i-s', 'web']]))).toBeUndefined()
  })

  it.each([
    ['left every group', new Map<string, string>()],
    ['is in another group', new Map([['i-s', 'api']])],
  ])('refuses to retire the partner when its replacement %s since it was observed', (_, groupOf) => {
    expect(refusalAfterLastLook(aCompletion('i-s', 'i-od'), groupOf)).toBe(
      'not retired: i-s left the group since it was observed',
    )
  })

  it('terminates a stray that is in no group', () => {
    expect(refusalAfterLastLook(aTermination('i-s'), new Map())).toBeUndefined()
  })

  it('leaves a stray attached to a group since it was observed to that group', () => {
    expect(refusalAfterLastLook(aTermination('i-s'), new Map([['i-s', 'web']]))).toBe(
      'not terminated: i-s is a member of web',
    )
  })

  it.each<[string, Action]>([
    ['a completion retiring the replacement', aCompletion('i-s', 'i-od', { retire: 'replacement' })],
    ['a stray known to be in no group', aTermination('i-s', true)],
    ['a launch', aLaunch('i-od')],
  ])('never refuses %s, which needs no last look', (_, action) => {
    expect(
      refusalAfterLastLook(
        action,
        new Map([
          ['i-s', 'other'],
          ['i-od', 'other'],
        ]),
      ),
    ).toBeUndefined()
  })
})
