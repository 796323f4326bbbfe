import { describe, expect, it } from 'vitest'
import type { Action, LaunchSpotAction } from '../../../lambdas/core/plan/actions.ts'
import { type SwapAheadInput, withSwapAhead } from '../../../lambdas/core/swap/launched-ahead.ts'
import { readSwapRecord } from '../../../lambdas/core/swap/record.ts'
import { aLaunch } from '../../builders/plans.ts'
import { aGroup, NOW } from '../../builders/world.ts'

const launch = (replacing: string, doomed: boolean): LaunchSpotAction =>
  aLaunch(replacing, { releaseIfNotLaunched: doomed })

const LEAVES: Record<string, number> = { 'i-a': NOW.getTime() + 60_000, 'i-b': NOW.getTime() + 30_000 }
const input = (overrides: Partial<SwapAheadInput> = {}): SwapAheadInput => ({
  group: aGroup([], { desiredCapacity: 4, maxSize: 4 }),
  now: NOW,
  swapOpen: false,
  actions: [],
  leavesAt: (id) => LEAVES[id],
  ...overrides,
})
const ahead = (actions: readonly Action[]) =>
  actions.flatMap((a) => (a.kind === 'launch-spot' && a.swapAhead !== undefined ? [a] : []))

describe('withSwapAhead', () => {
  it('records one pair ahead of the launch for the doomed member that leaves first, at the owner’s desired', () => {
    const launches = [launch('i-a', true), launch('i-b', true), launch('i-c', false)]
    const [first, ...others] = ahead(withSwapAhead(input(), launches))
    expect(others).toEqual([])
    expect(first?.replacing).toBe('i-b')
    const onGroup = readSwapRecord({ 'spotswap:swap': first?.swapAhead?.swapRecord ?? '' })
    expect(onGroup).toMatchObject({
      kind: 'read',
      record: { id: first?.swapAhead?.swapId, phase: 'attaching', pairs: 1, ownerDesired: 4 },
    })
    expect(onGroup.kind === 'read' && onGroup.record.originalMaxSize).toBeUndefined()
  })

  it.each<[string, Partial<SwapAheadInput>]>([
    ['a swap is open', { swapOpen: true }],
    ['the run changes desired capacity otherwise', { actions: [{ kind: 'give-back' } as unknown as Action] }],
    ['the member is past its deadline', { now: new Date(NOW.getTime() + 120_000) }],
  ])('records nothing when %s', (_, overrides) => {
    expect(ahead(withSwapAhead(input(overrides), [launch('i-a', true)]))).toEqual([])
  })

  it('records nothing for a member that is not doomed', () => {
    expect(ahead(withSwapAhead(input(), [launch('i-c', false)]))).toEqual([])
  })
})
