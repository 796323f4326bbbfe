import { describe, expect, it } from 'vitest'
import type { RefreshObservation } from '../../../lambdas/core/group/instance-refresh.ts'
import type { Action } from '../../../lambdas/core/plan/actions.ts'
import {
  changesCapacity,
  detailsMayChange,
  type GroupDetails,
  refreshHolds,
  retiresForSwap,
  stackNameOf,
  startsReplacements,
} from '../../../lambdas/core/region/details-needed.ts'
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
import { aGroup } from '../../builders/world.ts'

describe('what a plan needs read before it acts', () => {
  it.each<[string, Action, { changes: boolean; starts: boolean; retires: boolean }]>([
    ['a launch', aLaunch('i-1'), { changes: true, starts: true, retires: false }],
    ['a swap', aSwap(['i-s', 'i-1']), { changes: true, starts: true, retires: false }],
    ['a completion', aCompletion('i-s', 'i-1'), { changes: true, starts: false, retires: true }],
    ['a give-back', aGiveBack('i-1'), { changes: true, starts: false, retires: true }],
    ['a released pair', aRelease('i-s', 'i-1'), { changes: true, starts: false, retires: false }],
    ['a closing', aClose(), { changes: true, starts: false, retires: false }],
    ['a doomed release', aDoomedRelease('i-1'), { changes: true, starts: false, retires: false }],
    [
      'a settlement (written to members)',
      aSettlement('i-1'),
      { changes: true, starts: false, retires: false },
    ],
    ['a stray termination alone', aTermination('i-s'), { changes: false, starts: false, retires: false }],
  ])('%s', (_, action, expected) => {
    const plan = aPlan([action])
    expect({
      changes: changesCapacity(plan),
      starts: startsReplacements(plan),
      retires: retiresForSwap(plan),
    }).toEqual(expected)
  })

  it('a plan with nothing to do needs nothing read', () => {
    const plan = aPlan([])
    expect([changesCapacity(plan), startsReplacements(plan), retiresForSwap(plan)]).toEqual([
      false,
      false,
      false,
    ])
  })
})

describe('refreshHolds', () => {
  it.each<[string, RefreshObservation | undefined, boolean]>([
    ['nothing read', undefined, false],
    ['a throttled read (the state is unknown)', { kind: 'throttled', error: 'Throttling' }, true],
    ['an unreadable one (the group goes on)', { kind: 'unreadable', error: 'AccessDenied' }, false],
    ['an active refresh', { kind: 'read', refreshes: [{ id: 'r1', status: 'InProgress' }] }, true],
    ['a finished refresh', { kind: 'read', refreshes: [{ id: 'r1', status: 'Successful' }] }, false],
  ])('%s: %s', (_, refresh, holds) => {
    expect(refreshHolds(refresh)).toBe(holds)
  })
})

describe('detailsMayChange', () => {
  const none: GroupDetails = {
    stackStatuses: new Map(),
    ownerChanges: new Map(),
    hooks: new Map(),
    refreshes: new Map(),
    stacksUnreadable: new Map(),
    hooksUnreadable: new Map(),
  }
  const web = aGroup([], { tags: { 'spot-enabled': 'true', 'aws:cloudformation:stack-name': 'web-stack' } })

  it('finds the stack of a CloudFormation group by its tag', () => {
    expect(stackNameOf(web)).toBe('web-stack')
    expect(stackNameOf(aGroup([]))).toBeUndefined()
  })

  it.each<[string, Partial<GroupDetails>, boolean]>([
    ['nothing was read for it', {}, false],
    ['its stack has a status', { stackStatuses: new Map([['web-stack', 'UPDATE_IN_PROGRESS']]) }, true],
    ['another stack has one', { stackStatuses: new Map([['other', 'UPDATE_IN_PROGRESS']]) }, false],
    [
      'its owner’s changes were read',
      { ownerChanges: new Map([['web', { kind: 'unreadable', error: 'x' }]]) },
      true,
    ],
    [
      'it has a lifecycle hook',
      {
        hooks: new Map([['web', [{ name: 'h', transition: 'autoscaling:EC2_INSTANCE_LAUNCHING' }]]]),
      },
      true,
    ],
    ['its hooks were read and there are none', { hooks: new Map([['web', []]]) }, false],
    ['a refresh holds it', { refreshes: new Map([['web', { kind: 'throttled', error: 'x' }]]) }, true],
    ['its stack’s status could not be read', { stacksUnreadable: new Map([['web-stack', 'x']]) }, true],
    ['another stack’s could not', { stacksUnreadable: new Map([['other', 'x']]) }, false],
    ['its hooks could not be read', { hooksUnreadable: new Map([['web', 'x']]) }, true],
  ])('replans the group when %s: %s', (_, details, expected) => {
    expect(detailsMayChange(web, { ...none, ...details })).toBe(expected)
  })
})
