/** Which leave of a warned member ECS drains waits for its deadline (core/ecs/interruption-drain.ts). */
import { describe, expect, it } from 'vitest'
import { DOOMED_SWAP_DEADLINE_SECONDS } from '../../../lambdas/core/constants.ts'
import { leaveAtDeadline } from '../../../lambdas/core/ecs/interruption-drain.ts'
import type { InterruptionAction, InterruptionSignal } from '../../../lambdas/core/interruption/decision.ts'

const NOW = new Date('2026-01-01T00:00:10Z')
const warning: InterruptionSignal = {
  kind: 'spot-interruption',
  instanceId: 'i-1',
  instanceAction: 'terminate',
  warnedAt: new Date('2026-01-01T00:00:00Z'),
}
const leave = (decrement: boolean): InterruptionAction => ({
  kind: 'terminate-in-group',
  instanceId: 'i-1',
  group: 'web',
  decrement,
})
const untag: InterruptionAction = { kind: 'untag-instance', instanceId: 'i-1', keys: ['launched-for-asg'] }

describe('leaveAtDeadline', () => {
  it('turns a leave without a decrement into the reminder at the deadline, counted from the warning', () => {
    expect(leaveAtDeadline([untag, leave(false)], warning, NOW)).toEqual([
      untag,
      {
        kind: 'request-runs',
        instanceId: 'i-1',
        group: 'web',
        delaysSeconds: [],
        deadlineInSeconds: DOOMED_SWAP_DEADLINE_SECONDS - 10,
        otherwise: leave(false),
      },
    ])
  })

  it.each([
    ['a leave with a decrement (a swap unit given back)', [leave(true)], warning, NOW],
    [
      'a detach',
      [{ kind: 'detach', instanceId: 'i-1', group: 'web', decrement: false } as InterruptionAction],
      warning,
      NOW,
    ],
    [
      'a leave announced in the swap record',
      [
        { kind: 'record-swap', instanceId: 'i-1', group: 'web', tags: {} } as InterruptionAction,
        leave(false),
      ],
      warning,
      NOW,
    ],
    ['the reminder itself', [leave(false)], { ...warning, deadline: true }, NOW],
    [
      'a warning whose deadline has passed',
      [leave(false)],
      warning,
      new Date(NOW.getTime() + DOOMED_SWAP_DEADLINE_SECONDS * 1000),
    ],
  ] as const)('leaves at once for %s', (_what, actions, signal, now) => {
    expect(leaveAtDeadline(actions, signal, now)).toBeUndefined()
  })
})
