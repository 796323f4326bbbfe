import { describe, expect, it } from 'vitest'
import { REVERT_MAX_RAISES } from '../../../lambdas/core/constants.ts'
import {
  formatRevertMarker,
  parseRevertMarker,
  type RevertMarker,
  readRevertMarker,
} from '../../../lambdas/core/revert/marker.ts'
import { type RevertInput, type RevertMember, revertStep } from '../../../lambdas/core/revert/step.ts'

const T0 = new Date('2026-01-01T00:00:00.000Z')
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000)

describe('the revert marker', () => {
  it.each<RevertMarker>([
    { phase: 'requested' },
    { phase: 'requested', failed: 2 },
    { phase: 'raising', ownerDesired: 3, since: T0, until: at(35) },
    { phase: 'raising', ownerDesired: 3, since: T0, until: at(35), failed: 1 },
    { phase: 'retiring', ownerDesired: 3, step: 'i-0123456789abcdef0', until: at(35) },
    { phase: 'retiring', ownerDesired: 3, step: 'i-0123456789abcdef0', until: at(35), failed: 2 },
    { phase: 'stalled', failed: 3, why: 'not-launched' },
    { phase: 'done' },
  ])('reads back what it writes: %j', (marker: RevertMarker) => {
    expect(parseRevertMarker(formatRevertMarker(marker))).toEqual(marker)
  })

  it.each([
    'v2 phase=requested',
    'v1 phase=undone',
    'v1 phase=raising owner=3',
    // A raise or retirement without its deadline (an earlier version's, or a replay of one).
    'v1 phase=raising owner=3 since=2026-01-01T00:00:00.000Z',
    'v1 phase=retiring owner=3 step=i-0123456789abcdef0',
    'v1 phase=requested failed=x',
    'v1 phase=stalled failed=3 why=bored',
    'v1 phase=stalled failed=0 why=not-launched',
    'v1 phase=done failed=1',
    'v1 phase=raising owner=x since=2026-01-01T00:00:00.000Z until=2026-01-01T00:30:00.000Z',
    'v1 phase=retiring owner=3 step=not-an-instance until=2026-01-01T00:30:00.000Z',
    'v1 phase=requested owner=3',
    'v1 phase=done phase=done',
  ])('refuses %j', (raw) => {
    expect(parseRevertMarker(raw)).toBeUndefined()
    expect(readRevertMarker({ 'spotswap:revert': raw })).toEqual({ kind: 'unreadable', raw })
  })

  it('is absent from a group without the tag', () => {
    expect(readRevertMarker({ 'spot-enabled': 'true' })).toEqual({ kind: 'none' })
  })
})

const spot = (n: number, minutes = -100): RevertMember => ({
  instanceId: `i-00000000000000s${n}`.replace('s', '0'),
  lifecycle: 'spot',
  launchTime: at(minutes),
  serving: true,
})
const onDemand = (id: string, minutes: number, serving: boolean): RevertMember => ({
  instanceId: id,
  lifecycle: 'on-demand',
  launchTime: at(minutes),
  serving,
})
const S1 = spot(1, -200)
const S2 = spot(2, -100)
const NEW = 'i-0000000000000aaa1'
/** A raise at T0 whose deadline is 15 minutes later. */
const RAISING: RevertMarker = { phase: 'raising', ownerDesired: 2, since: T0, until: at(15) }

const input = (overrides: Partial<RevertInput>): RevertInput => ({
  marker: { phase: 'requested' },
  desiredCapacity: 2,
  maxSize: 4,
  members: [S1, S2],
  launchesOnDemand: true,
  now: T0,
  deadlineSeconds: 900,
  ...overrides,
})

describe('revertStep', () => {
  it('raises desired capacity by one, announcing it first', () => {
    expect(revertStep(input({}))).toEqual({
      kind: 'raise',
      marker: RAISING,
      desiredCapacity: 3,
    })
  })

  it('waits while the new on-demand member does not serve', () => {
    const step = revertStep(
      input({
        marker: RAISING,
        desiredCapacity: 3,
        members: [S1, S2, onDemand(NEW, 1, false)],
        now: at(3),
      }),
    )
    expect(step).toEqual({ kind: 'wait', reason: `${NEW} does not serve yet` })
  })

  it('retires the oldest spot member with the unit once the new member serves', () => {
    const step = revertStep(
      input({
        marker: RAISING,
        desiredCapacity: 3,
        members: [S2, S1, onDemand(NEW, 1, true)],
        now: at(5),
      }),
    )
    expect(step).toMatchObject({
      kind: 'retire',
      instanceId: S1.instanceId,
      marker: { phase: 'retiring', ownerDesired: 2, step: S1.instanceId, until: at(15) },
    })
  })

  it('takes the raise back with its own member when it never serves by the deadline', () => {
    const step = revertStep(
      input({
        marker: RAISING,
        desiredCapacity: 3,
        members: [S1, S2, onDemand(NEW, 1, false)],
        now: at(16),
      }),
    )
    expect(step).toMatchObject({ kind: 'retire', instanceId: NEW })
  })

  it('raises again after a run stopped between the marker and the raise, and gives up past the deadline', () => {
    const marker = RAISING
    expect(revertStep(input({ marker, now: at(5) }))).toEqual({ kind: 'raise', marker, desiredCapacity: 3 })
    expect(revertStep(input({ marker, now: at(16) }))).toMatchObject({
      kind: 'mark',
      marker: { phase: 'requested' },
    })
  })

  it('takes nothing back when someone else resized the group during a raise', () => {
    const step = revertStep(
      input({
        marker: RAISING,
        desiredCapacity: 5,
        members: [S1, S2, onDemand(NEW, 1, true)],
      }),
    )
    expect(step).toMatchObject({ kind: 'mark', marker: { phase: 'requested' } })
  })

  it('does the announced step again when its member is still in and the unit still held', () => {
    const marker: RevertMarker = {
      phase: 'retiring',
      ownerDesired: 2,
      step: S1.instanceId,
      until: at(15),
    }
    expect(revertStep(input({ marker, desiredCapacity: 3, members: [S1, S2] }))).toMatchObject({
      kind: 'retire',
      instanceId: S1.instanceId,
    })
  })

  it('goes on to the next raise once the step is done, and is done when no spot member is left', () => {
    const marker: RevertMarker = {
      phase: 'retiring',
      ownerDesired: 2,
      step: S1.instanceId,
      until: at(15),
    }
    expect(
      revertStep(input({ marker, desiredCapacity: 2, members: [S2, onDemand(NEW, 1, true)] })),
    ).toMatchObject({ kind: 'raise', desiredCapacity: 3 })
    expect(
      revertStep(
        input({
          marker,
          desiredCapacity: 2,
          members: [onDemand('i-0000000000000bbb1', -9, true), onDemand(NEW, 1, true)],
        }),
      ),
    ).toMatchObject({ kind: 'mark', marker: { phase: 'done' } })
  })

  it.each([
    [{ launchesOnDemand: false }, 'revert-would-launch-spot'],
    [{ desiredCapacity: 4, maxSize: 4 }, 'revert-at-max-size'],
  ])('refuses to raise when %j', (overrides, code) => {
    const step = revertStep(input(overrides))
    expect(step.kind).toBe('refuse')
    expect('reason' in step && step.reason).toContain(code)
  })

  it('leaves a reverted group alone', () => {
    expect(revertStep(input({ marker: { phase: 'done' } })).kind).toBe('wait')
  })

  it('carries the deadline of a raise into the retirement it ends in', () => {
    const step = revertStep(
      input({ marker: RAISING, desiredCapacity: 3, members: [S1, onDemand(NEW, 1, true)] }),
    )
    expect(step).toMatchObject({ marker: { phase: 'retiring', until: at(15) } })
    expect(step).not.toHaveProperty('marker.failed')
  })
})

describe('revertStep when raises keep failing', () => {
  const failing = (failed: number): RevertMarker => ({ ...RAISING, failed })

  it('gives back a raise Auto Scaling launched nothing for by its deadline, and retires no one', () => {
    expect(revertStep(input({ marker: RAISING, desiredCapacity: 3, now: at(16) }))).toEqual({
      kind: 'give-back',
      marker: RAISING,
      desiredCapacity: 2,
      reason: expect.stringContaining('launched no member'),
    })
  })

  it('waits, holding the raise, until its deadline', () => {
    expect(revertStep(input({ marker: RAISING, desiredCapacity: 3, now: at(15) })).kind).toBe('wait')
  })

  it('counts a raise given back, and raises again with the count', () => {
    expect(revertStep(input({ marker: RAISING, now: at(16) }))).toMatchObject({
      kind: 'mark',
      marker: { phase: 'requested', failed: 1 },
    })
    expect(revertStep(input({ marker: { phase: 'requested', failed: 1 }, now: at(20) }))).toMatchObject({
      kind: 'raise',
      marker: { phase: 'raising', failed: 1, since: at(20), until: at(35) },
      desiredCapacity: 3,
    })
  })

  it(`stalls after ${REVERT_MAX_RAISES} raises in a row that launched nothing, with desired capacity the owner's`, () => {
    const step = revertStep(input({ marker: failing(REVERT_MAX_RAISES - 1), now: at(16) }))
    expect(step).toMatchObject({
      kind: 'mark',
      marker: { phase: 'stalled', failed: REVERT_MAX_RAISES, why: 'not-launched' },
    })
    expect('reason' in step && step.reason).toMatch(/^revert-stalled: .*spotswap revert/)
  })

  it('counts a raised member that never served as it leaves, and stalls once it has left', () => {
    const members = [S1, S2, onDemand(NEW, 1, false)]
    expect(
      revertStep(input({ marker: failing(REVERT_MAX_RAISES - 1), desiredCapacity: 3, members, now: at(16) })),
    ).toMatchObject({
      kind: 'retire',
      instanceId: NEW,
      marker: { phase: 'retiring', step: NEW, failed: REVERT_MAX_RAISES },
    })
    const left: RevertMarker = {
      phase: 'retiring',
      ownerDesired: 2,
      step: NEW,
      until: at(15),
      failed: REVERT_MAX_RAISES,
    }
    expect(revertStep(input({ marker: left, now: at(21) }))).toMatchObject({
      kind: 'mark',
      marker: { phase: 'stalled', failed: REVERT_MAX_RAISES, why: 'not-serving' },
    })
  })

  it('starts the count over once a raise serves', () => {
    const members = [S1, S2, onDemand(NEW, 1, true)]
    const step = revertStep(input({ marker: failing(2), desiredCapacity: 3, members, now: at(5) }))
    expect(step).toMatchObject({ kind: 'retire', instanceId: S1.instanceId })
    expect(step).not.toHaveProperty('marker.failed')
  })

  it('does nothing in a stalled revert, and says how to retry', () => {
    const step = revertStep(input({ marker: { phase: 'stalled', failed: 3, why: 'not-launched' } }))
    expect(step).toEqual({ kind: 'wait', reason: expect.stringContaining('run `spotswap revert` again') })
  })
})
