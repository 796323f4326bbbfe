import { describe, expect, it } from 'vitest'
import type { Action } from '../../../lambdas/core/plan/actions.ts'
import { blockedBy, executionOrder, executionWaves } from '../../../lambdas/core/region/execution-order.ts'
import {
  aClose,
  aCompletion,
  aDoomedRelease,
  aGiveBack,
  aLaunch,
  aRelease,
  aSettlement,
  aSwap,
  aTermination,
} from '../../builders/plans.ts'

/** One action of each kind but the give-back and release, in the reverse of their order. */
const planned: Action[] = [
  aSettlement('i-9'),
  aDoomedRelease('i-8'),
  aLaunch('i-7'),
  aSwap(['i-s6', 'i-6']),
  aTermination('i-s5'),
  aClose(),
  aCompletion('i-s4', 'i-4'),
]

describe('executionOrder', () => {
  it('runs the steps down of a swap first, then its closing, strays, new swaps, launches, releases, settlements', () => {
    expect(executionOrder(planned).map((a) => a.kind)).toEqual([
      'complete-swap',
      'close-swap',
      'terminate-spot',
      'swap',
      'launch-spot',
      'release-doomed',
      'settle-members',
    ])
  })

  it('keeps the plan’s order among the steps down, as their records were numbered', () => {
    const steps = [
      aGiveBack('i-1'),
      aCompletion('i-s2', 'i-2'),
      aRelease('i-s3', 'i-3'),
      aCompletion('i-s4', 'i-4'),
    ]
    expect(executionOrder([aLaunch('i-0'), ...steps])).toEqual([...steps, aLaunch('i-0')])
  })

  it('leaves the plan’s own list as it was', () => {
    const planned = [aLaunch('i-1'), aClose()]
    executionOrder(planned)
    expect(planned.map((a) => a.kind)).toEqual(['launch-spot', 'close-swap'])
  })
})

describe('blockedBy', () => {
  it.each<[Action['kind'], Action['kind'][], Action['kind'] | undefined]>([
    ['complete-swap', [], undefined],
    ['complete-swap', ['complete-swap'], 'complete-swap'],
    ['give-back', ['complete-swap'], 'complete-swap'],
    ['complete-swap', ['give-back'], 'give-back'],
    ['release-pair', ['give-back'], 'give-back'],
    ['close-swap', ['complete-swap'], 'complete-swap'],
    ['swap', ['close-swap'], 'close-swap'],
    ['swap', ['give-back'], 'give-back'],
    // A release or a closing that failed stops no step down; launches and strays stop nothing.
    ['complete-swap', ['release-pair', 'close-swap', 'launch-spot'], undefined],
    ['launch-spot', ['complete-swap', 'close-swap', 'swap'], undefined],
    ['terminate-spot', ['complete-swap'], undefined],
    ['settle-members', ['complete-swap'], undefined],
  ])('%s after %j failed: blocked by %s', (kind, failed, blocker) => {
    expect(blockedBy(kind, new Set(failed))).toBe(blocker)
  })
})

describe('executionWaves', () => {
  it('settles earlier runs’ work first and starts new work last, each group’s order kept', () => {
    const { settling, starting } = executionWaves(planned)
    expect(settling.map((a) => a.kind)).toEqual(['swap', 'terminate-spot', 'close-swap', 'complete-swap'])
    expect(starting.map((a) => a.kind)).toEqual(['settle-members', 'release-doomed', 'launch-spot'])
    expect([...executionOrder(settling), ...executionOrder(starting)]).toEqual(executionOrder(planned))
  })
})
