/**
 * A launch in the room this run's attach or terminations free waits unless each of those writes was done
 * in the same run: failed, or held back from the plan (an unreadable termination protection drops a swap,
 * core/region/protection.ts; chaos seed 60), its room is still taken.
 */
import { describe, expect, it } from 'vitest'
import type { Action } from '../../../lambdas/core/plan/actions.ts'
import { markRoomFreedThisRun, waitsForRoom } from '../../../lambdas/core/plan/launch-room.ts'
import { aLaunch } from '../../builders/plans.ts'

const swapDone = { kind: 'swap', swapId: 's-1' } as unknown as Action
const terminated = (instanceId: string) => ({ kind: 'terminate-spot', instanceId }) as unknown as Action

describe('markRoomFreedThisRun', () => {
  it('marks the budgeted launches beyond the room left while the swap and terminations are pending', () => {
    const launches = [aLaunch('i-1'), aLaunch('i-2'), aLaunch('i-3', { releaseIfNotLaunched: true })]
    const marked = markRoomFreedThisRun(launches, 2, { swapId: 's-1', terminated: ['i-9'], freedBySwap: 0 })
    expect(marked.map((l) => (l.kind === 'launch-spot' ? l.roomFreedBy : undefined))).toEqual([
      undefined,
      { swapId: undefined, terminated: ['i-9'] },
      undefined,
    ])
  })
})

describe('waitsForRoom', () => {
  const launch = aLaunch('i-1', { roomFreedBy: { swapId: 's-1', terminated: ['i-9'] } })

  it.each([
    ['nothing was done (the swap held back)', [], true],
    ['only the swap attached', [swapDone], true],
    ['only the termination was done', [terminated('i-9')], true],
    ['both were done', [swapDone, terminated('i-9')], false],
  ] as const)('when %s: %s', (_when, done, waits) => {
    expect(waitsForRoom(launch, done)).toBe(waits)
  })

  it('never holds a launch within the room it has', () => {
    expect(waitsForRoom(aLaunch('i-1'), [])).toBe(false)
  })
})
