import { describe, expect, it } from 'vitest'
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
    { phase: 'raising', ownerDesired: 3, since: T0 },
    { phase: 'retiring', ownerDesired: 3, step: 'i-0123456789abcdef0' },
    { phase: 'done' },
  ])('reads back what it writes: %j', (marker) => {
    expect(parseRevertMarker(formatRevertMarker(marker))).toEqual(marker)
  })

  it.each([
    'v2 phase=requested',
    'v1 phase=undone',
    'v1 phase=raising owner=3',
    'v1 phase=raising owner=x since=2026-01-01T00:00:00.000Z',
    'v1 phase=retiring owner=3 step=not-an-instance',
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
      marker: { phase: 'raising', ownerDesired: 2, since: T0 },
      desiredCapacity: 3,
    })
  })

  it('waits while the new on-demand member does not serve', () => {
    const step = revertStep(
      input({
        marker: { phase: 'raising', ownerDesired: 2, since: T0 },
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
        marker: { phase: 'raising', ownerDesired: 2, since: T0 },
        desiredCapacity: 3,
        members: [S2, S1, onDemand(NEW, 1, true)],
        now: at(5),
      }),
    )
    expect(step).toMatchObject({
      kind: 'retire',
      instanceId: S1.instanceId,
      marker: { phase: 'retiring', ownerDesired: 2, step: S1.instanceId },
    })
  })

  it('takes the raise back with its own member when it never serves by the deadline', () => {
    const step = revertStep(
      input({
        marker: { phase: 'raising', ownerDesired: 2, since: T0 },
        desiredCapacity: 3,
        members: [S1, S2, onDemand(NEW, 1, false)],
        now: at(16),
      }),
    )
    expect(step).toMatchObject({ kind: 'retire', instanceId: NEW })
  })

  it('raises again after a run stopped between the marker and the raise, and gives up past the deadline', () => {
    const marker: RevertMarker = { phase: 'raising', ownerDesired: 2, since: T0 }
    expect(revertStep(input({ marker, now: at(5) }))).toEqual({ kind: 'raise', marker, desiredCapacity: 3 })
    expect(revertStep(input({ marker, now: at(16) }))).toMatchObject({
      kind: 'mark',
      marker: { phase: 'requested' },
    })
  })

  it('takes nothing back when someone else resized the group during a raise', () => {
    const step = revertStep(
      input({
        marker: { phase: 'raising', ownerDesired: 2, since: T0 },
        desiredCapacity: 5,
        members: [S1, S2, onDemand(NEW, 1, true)],
      }),
    )
    expect(step).toMatchObject({ kind: 'mark', marker: { phase: 'requested' } })
  })

  it('does the announced step again when its member is still in and the unit still held', () => {
    const marker: RevertMarker = { phase: 'retiring', ownerDesired: 2, step: S1.instanceId }
    expect(revertStep(input({ marker, desiredCapacity: 3, members: [S1, S2] }))).toMatchObject({
      kind: 'retire',
      instanceId: S1.instanceId,
    })
  })

  it('goes on to the next raise once the step is done, and is done when no spot member is left', () => {
    const marker: RevertMarker = { phase: 'retiring', ownerDesired: 2, step: S1.instanceId }
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
})
