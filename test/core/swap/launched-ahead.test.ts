import { describe, expect, it } from 'vitest'
import type { Action, LaunchSpotAction } from '../../../lambdas/core/plan/actions.ts'
import { type SwapAheadInput, withSwapAhead } from '../../../lambdas/core/swap/launched-ahead.ts'
import { readSwapRecord, type SwapRecord } from '../../../lambdas/core/swap/record.ts'
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
  it('records a pair ahead of each doomed member’s launch, at the owner’s desired, with no MaxSize raise', () => {
    const launches = [launch('i-a', true), launch('i-b', true), launch('i-c', false)]
    const recorded = ahead(withSwapAhead(input(), launches))
    expect(recorded.map((a) => a.replacing)).toEqual(['i-a', 'i-b'])
    const [first, second] = recorded
    expect(second?.swapAhead).toEqual(first?.swapAhead)
    const onGroup = readSwapRecord({ 'spotswap:swap': first?.swapAhead?.swapRecord ?? '' })
    expect(onGroup).toMatchObject({
      kind: 'read',
      record: { id: first?.swapAhead?.swapId, phase: 'attaching', pairs: 2, ownerDesired: 4 },
    })
    expect(onGroup.kind === 'read' && onGroup.record.originalMaxSize).toBeUndefined()
  })

  const recordedAhead = (extra: Partial<SwapRecord> = {}): SwapRecord => ({
    version: 2,
    id: 's1',
    phase: 'attaching',
    ownerDesired: 4,
    pairs: 1,
    step: undefined,
    originalMaxSize: undefined,
    raisedMaxSize: undefined,
    startedAt: new Date(NOW.getTime() - 20_000),
    ...extra,
  })

  it('adds the pair of a member interrupted while a swap recorded ahead is open to that record', () => {
    const recorded = ahead(
      withSwapAhead(input({ swapOpen: true, launchedAhead: recordedAhead() }), [launch('i-a', true)]),
    )
    expect(recorded.map((a) => a.swapAhead?.swapId)).toEqual(['s1'])
    expect(readSwapRecord({ 'spotswap:swap': recorded[0]?.swapAhead?.swapRecord ?? '' })).toMatchObject({
      kind: 'read',
      record: {
        id: 's1',
        phase: 'attaching',
        pairs: 2,
        ownerDesired: 4,
        startedAt: recordedAhead().startedAt,
      },
    })
  })

  it.each<[string, Partial<SwapRecord>]>([
    ['it raised MaxSize', { originalMaxSize: 4, raisedMaxSize: 5 }],
    ['its owner figure is not the group’s desired', { ownerDesired: 3 }],
  ])('adds nothing to a swap recorded ahead when %s', (_, extra) => {
    const open = input({ swapOpen: true, launchedAhead: recordedAhead(extra) })
    expect(ahead(withSwapAhead(open, [launch('i-a', true)]))).toEqual([])
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
