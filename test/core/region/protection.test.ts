import { describe, expect, it } from 'vitest'
import type { Action } from '../../../lambdas/core/plan/actions.ts'
import {
  membersOf,
  PROTECTION_READS_PER_GROUP,
  retiredBy,
  widenProtectionReads,
  withoutUnread,
  withoutUnreadProtection,
} from '../../../lambdas/core/region/protection.ts'
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
  inProgress,
} from '../../builders/plans.ts'
import { aGroup, anInstance, memberOf } from '../../builders/world.ts'

describe('retiredBy', () => {
  it.each<[string, Action, string[]]>([
    ['the member a launch replaces', aLaunch('i-od'), ['i-od']],
    [
      'both sides of each swapped pair (the replacement is named first)',
      aSwap(['i-s', 'i-od']),
      ['i-od', 'i-s'],
    ],
    ['the partner a completion retires', aCompletion('i-s', 'i-od'), ['i-od']],
    [
      'both sides of a completion that retires the replacement',
      aCompletion('i-s', 'i-od', { retire: 'replacement' }),
      ['i-od', 'i-s'],
    ],
    ['both sides of a released pair (its tags are removed)', aRelease('i-s', 'i-od'), ['i-od', 'i-s']],
    ['the member a give-back retires', aGiveBack('i-od'), ['i-od']],
    ['a doomed member that leaves', aDoomedRelease('i-od'), ['i-od']],
    ['every member settled', aSettlement('i-a', 'i-b'), ['i-a', 'i-b']],
    ['nothing for closing a swap', aClose(), []],
    ['nothing for a stray terminated', aTermination('i-s'), []],
  ])('needs the protection of %s', (_, action, ids) => {
    expect([...retiredBy([aPlan([action])])].sort()).toEqual(ids)
  })

  it('gathers the instances of every plan', () => {
    const plans = [aPlan([aLaunch('i-1')]), aPlan([aLaunch('i-2')], { group: 'api' })]
    expect([...retiredBy(plans)].sort()).toEqual(['i-1', 'i-2'])
  })
})

describe('membersOf', () => {
  it.each<[string, Action, string[]]>([
    ['a launch', aLaunch('i-od'), ['i-od']],
    ['a swap', aSwap(['i-s1', 'i-od1'], ['i-s2', 'i-od2']), ['i-od1', 'i-od2']],
    [
      'a completion retiring the replacement',
      aCompletion('i-s', 'i-od', { retire: 'replacement' }),
      ['i-od'],
    ],
    ['a released pair', aRelease('i-s', 'i-od'), ['i-od']],
    ['a give-back', aGiveBack('i-od'), ['i-od']],
    ['a doomed release', aDoomedRelease('i-od'), ['i-od']],
    ['a settlement', aSettlement('i-a'), []],
    ['a stray termination', aTermination('i-s'), []],
  ])('names the on-demand side of %s', (_, action, ids) => {
    expect(membersOf(action)).toEqual(ids)
  })
})

describe('withoutUnread', () => {
  it('keeps every action when no instance it touches is unread', () => {
    const plan = aPlan([aLaunch('i-1'), aSwap(['i-s', 'i-2']), aSettlement('i-3')])
    expect(withoutUnread(plan, new Set(['i-other']))).toEqual(plan)
  })

  it('drops the launch for an unread member, and says the member waits for the next run', () => {
    const plan = aPlan([aLaunch('i-1'), aLaunch('i-2')], { onDemand: [inProgress('i-1'), inProgress('i-2')] })
    const kept = withoutUnread(plan, new Set(['i-1']))
    expect(kept.actions).toEqual([aLaunch('i-2')])
    expect(kept.onDemand).toEqual([
      expect.objectContaining({ instanceId: 'i-1', code: 'protection-unread', progress: false }),
      inProgress('i-2'),
    ])
  })

  it('says which read failed, and why, for a member that waits on an instance whose read failed', () => {
    const plan = aPlan([aLaunch('i-1'), aSwap(['i-s', 'i-2'])], {
      onDemand: [inProgress('i-1'), inProgress('i-2')],
    })
    const kept = withoutUnread(plan, new Set(['i-1', 'i-s']), new Map([['i-s', 'InternalError: try again']]))
    expect(kept.actions).toEqual([])
    expect(kept.onDemand).toEqual([
      expect.objectContaining({ instanceId: 'i-1', code: 'protection-unread', progress: false }),
      expect.objectContaining({
        instanceId: 'i-2',
        code: 'protection-unreadable',
        detail: expect.stringContaining('i-s (InternalError: try again) could not be read'),
        progress: false,
      }),
    ])
  })

  it.each([
    ['its on-demand side', 'i-od'],
    ['its replacement', 'i-s'],
  ])('drops a swap when %s is unread', (_, unread) => {
    const plan = aPlan([aSwap(['i-s', 'i-od'])], { onDemand: [inProgress('i-od')] })
    const kept = withoutUnread(plan, new Set([unread]))
    expect(kept.actions).toEqual([])
    expect(kept.onDemand[0]?.code).toBe('protection-unread')
  })

  it.each<[string, Action]>([
    ['a completion', aCompletion('i-s1', 'i-unread')],
    ['a completion retiring the replacement', aCompletion('i-unread', 'i-od1', { retire: 'replacement' })],
    ['a give-back', aGiveBack('i-unread')],
  ])(
    'leaves every step down of the swap, and its closing, for later when %s touches an unread instance',
    (_, unreadStep) => {
      const plan = aPlan([
        unreadStep,
        aCompletion('i-s2', 'i-od2'),
        aGiveBack('i-od3'),
        aClose(),
        aLaunch('i-4'),
      ])
      expect(withoutUnread(plan, new Set(['i-unread'])).actions).toEqual([aLaunch('i-4')])
    },
  )

  // Chaos seed 205: the new swap's record took the open one's place; its pairs were then released as
  // another swap's, and the new swap's unconfirmed launches read as attached (orphans).
  it('leaves the swap that would start after the closing for later, with the swap’s steps it waits on', () => {
    const plan = aPlan(
      [aCompletion('i-s1', 'i-unread'), aClose(), aSwap(['i-s2', 'i-od2']), aLaunch('i-4')],
      { onDemand: [inProgress('i-od2')] },
    )
    const kept = withoutUnread(plan, new Set(['i-unread']))
    expect(kept.actions).toEqual([aLaunch('i-4')])
    expect(kept.onDemand[0]?.code).toBe('protection-unread')
  })

  it('keeps a completion whose replacement is unread when it retires the partner (the replacement stays)', () => {
    const plan = aPlan([aCompletion('i-s', 'i-od')])
    expect(withoutUnread(plan, new Set(['i-s'])).actions).toEqual(plan.actions)
  })

  it('drops only the release of a pair whose replacement is unread, and the swap’s closing with it', () => {
    const plan = aPlan([aRelease('i-unread', 'i-od1'), aRelease('i-s2', 'i-od2'), aClose()])
    expect(withoutUnread(plan, new Set(['i-unread'])).actions).toEqual([aRelease('i-s2', 'i-od2')])
  })

  it.each<[string, Action]>([
    ['a doomed member’s release', aDoomedRelease('i-unread')],
    ['a settlement with one unread member', aSettlement('i-read', 'i-unread')],
  ])('drops %s', (_, action) => {
    expect(withoutUnread(aPlan([action]), new Set(['i-unread'])).actions).toEqual([])
  })

  it('keeps the termination of a stray, which needs no protection read', () => {
    const plan = aPlan([aTermination('i-unread')])
    expect(withoutUnread(plan, new Set(['i-unread'])).actions).toEqual(plan.actions)
  })
})

describe('withoutUnreadProtection', () => {
  it('returns the plans as they are when every instance they touch was read', () => {
    const plans = [aPlan([aLaunch('i-1')])]
    expect(withoutUnreadProtection(plans, new Set(['i-1']))).toBe(plans)
  })

  it('drops from each plan what touches an instance not read', () => {
    const plans = [aPlan([aLaunch('i-1'), aLaunch('i-2')]), aPlan([aLaunch('i-3')], { group: 'api' })]
    const kept = withoutUnreadProtection(plans, new Set(['i-2']))
    expect(kept.map((p) => p.actions)).toEqual([[aLaunch('i-2')], []])
  })
})

describe('widenProtectionReads', () => {
  const onDemand = [anInstance(), anInstance(), anInstance()]
  const spot = anInstance({ lifecycle: 'spot' })
  const instances = new Map([...onDemand, spot].map((i) => [i.id, i]))
  const web = aGroup([...onDemand, spot].map((i) => memberOf(i)))
  const api = aGroup([memberOf(anInstance())], { name: 'api' })
  const [first, second, third] = onDemand.map((i) => i.id) as [string, string, string]

  it('reads the other on-demand members of a group where one turned out protected, not its spot ones', () => {
    const widened = widenProtectionReads([web, api], new Set([first]), instances, new Set([first]))
    expect(widened).toEqual({ withProtected: ['web'], alsoRead: [second, third] })
  })

  it('does not read a member again', () => {
    const widened = widenProtectionReads([web], new Set([first]), instances, new Set([first, second]))
    expect(widened.alsoRead).toEqual([third])
  })

  it('reads nothing more where no member is protected', () => {
    expect(widenProtectionReads([web, api], new Set(), instances, new Set())).toEqual({
      withProtected: [],
      alsoRead: [],
    })
  })

  it(`reads at most ${PROTECTION_READS_PER_GROUP} members of a group per round`, () => {
    const many = Array.from({ length: PROTECTION_READS_PER_GROUP + 5 }, () => anInstance())
    const big = aGroup(many.map((i) => memberOf(i)))
    const all = new Map(many.map((i) => [i.id, i]))
    const protectedId = (many[0] as { id: string }).id
    const widened = widenProtectionReads([big], new Set([protectedId]), all, new Set([protectedId]))
    expect(widened.alsoRead).toEqual(many.slice(1, PROTECTION_READS_PER_GROUP + 1).map((i) => i.id))
  })
})
