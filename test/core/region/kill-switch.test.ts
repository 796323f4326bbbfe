import { describe, expect, it } from 'vitest'
import type { Action, GroupPlan } from '../../../lambdas/core/plan/actions.ts'
import {
  allowedBy,
  cleansStrays,
  holdActions,
  type KillSwitchMode,
  parseKillSwitch,
  unreadableKillSwitch,
} from '../../../lambdas/core/region/kill-switch.ts'
import {
  aClose,
  aCompletion,
  aDoomedRelease,
  aGiveBack,
  aLaunch,
  aPlan,
  aRelease,
  aSettlement,
  aSwap,
  aTermination,
} from '../../builders/plans.ts'

const planOf = (actions: readonly Action[]): GroupPlan => aPlan(actions)

describe('parseKillSwitch', () => {
  it.each([
    ['off', 'off'],
    ['on', 'on'],
    ['hard', 'hard'],
    [' ON\n', 'on'],
    ['Hard', 'hard'],
  ])('reads %j as %s', (raw, mode) => {
    expect(parseKillSwitch(raw)).toEqual({ mode })
  })

  it.each(['', 'true', 'stop', 'offf'])('treats %j as on, saying why', (raw) => {
    const read = parseKillSwitch(raw)
    expect(read.mode).toBe('on')
    expect(read.problem).toContain('is not off, on or hard')
  })

  it('treats an unreadable parameter as on, with the error', () => {
    expect(unreadableKillSwitch('AccessDeniedException: no')).toEqual({
      mode: 'on',
      problem: 'kill switch unreadable (AccessDeniedException: no): treated as on',
    })
  })
})

/** One step of a replacement ahead of a scheduled event (core/maintenance/action.ts). */
const aMaintenance = (step: 'raise' | 'retire' | 'close'): Action => ({
  kind: 'maintenance',
  group: 'web',
  step,
  instanceId: 'i-m1',
  reason: 'test',
})

describe('allowedBy', () => {
  const actions: readonly [string, Action, boolean][] = [
    ['launch-spot', aLaunch('i-o1'), false],
    ['swap', aSwap(['i-s1', 'i-o1']), false],
    ['release-doomed', aDoomedRelease('i-s1'), false],
    ['maintenance raise', aMaintenance('raise'), false],
    ['complete-swap', aCompletion('i-s1', 'i-o1'), true],
    ['give-back', aGiveBack('i-o1'), true],
    ['release-pair', aRelease('i-s1', 'i-o1'), true],
    ['close-swap', aClose(), true],
    ['terminate-spot', aTermination('i-s1'), true],
    ['settle-members', aSettlement('i-s1'), true],
    ['maintenance retire', aMaintenance('retire'), true],
    ['maintenance close', aMaintenance('close'), true],
  ]
  it.each(actions)('on: %s runs = %s', (_name, action, runs) => {
    expect(allowedBy('on', action)).toBe(runs)
  })
  it.each(actions)('off runs %s, hard holds it', (_name, action) => {
    expect(allowedBy('off', action)).toBe(true)
    expect(allowedBy('hard', action)).toBe(false)
  })
  it.each([
    ['off', true],
    ['on', true],
    ['hard', false],
  ] as const)('%s: strays cleaned = %s', (mode: KillSwitchMode, cleans) => {
    expect(cleansStrays(mode)).toBe(cleans)
  })
})

describe('holdActions', () => {
  const everything = [
    aCompletion('i-s1', 'i-o1'),
    aGiveBack('i-o2'),
    aRelease('i-s3', 'i-o3'),
    aClose(),
    aTermination('i-s4'),
    aSwap(['i-s5', 'i-o5'], ['i-s6', 'i-o6']),
    aLaunch('i-o7'),
    aDoomedRelease('i-s8'),
    aSettlement('i-s9'),
    aMaintenance('raise'),
    aMaintenance('retire'),
    aMaintenance('close'),
  ]

  it('leaves a plan alone when off', () => {
    const plan = planOf(everything)
    expect(holdActions(plan, 'off')).toEqual({ plan, held: [] })
  })

  it('on: keeps the cleanup, holds what starts, and terminates a held swap’s replacements', () => {
    const { plan, held } = holdActions(planOf(everything), 'on')
    expect(held.map((a) => a.kind)).toEqual(['swap', 'launch-spot', 'release-doomed', 'maintenance'])
    expect(plan.actions.map((a) => a.kind)).toEqual([
      'complete-swap',
      'give-back',
      'release-pair',
      'close-swap',
      'terminate-spot',
      'settle-members',
      'maintenance',
      'maintenance',
      'terminate-spot',
      'terminate-spot',
    ])
    expect(plan.actions.flatMap((a) => (a.kind === 'maintenance' ? [a.step] : []))).toEqual([
      'retire',
      'close',
    ])
    expect(plan.actions.slice(-2).map((a) => (a.kind === 'terminate-spot' ? a.instanceId : ''))).toEqual([
      'i-s5',
      'i-s6',
    ])
  })

  it('hard: holds every action', () => {
    const { plan, held } = holdActions(planOf(everything), 'hard')
    expect(plan.actions).toEqual([])
    expect(held).toHaveLength(everything.length)
  })
})
