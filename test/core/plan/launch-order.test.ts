import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TAG_NO_SPOT_CAPACITY_UNTIL } from '../../../lambdas/core/constants.ts'
import { launchOrder } from '../../../lambdas/core/plan/launch-order.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { anInstance, memberOf, minutesAgo, onDemandFleet } from '../../builders/world.ts'

const orderOf = (fleet: readonly Instance[], doomed: ReadonlySet<string> = new Set()): string[] =>
  launchOrder(
    fleet.map((i) => memberOf(i)),
    new Map(fleet.map((i) => [i.id, i])),
    doomed,
  ).map((e) => e.instance.id)

const backedOff = (instance: Instance, minutesBeforeNow: number): Instance => ({
  ...instance,
  tags: { [TAG_NO_SPOT_CAPACITY_UNTIL]: minutesAgo(minutesBeforeNow).toISOString() },
})

describe('launchOrder', () => {
  it('takes the instances that never lacked spot capacity first, then the least recently backed off', () => {
    const [oldest, middle, newest] = onDemandFleet(3) as [Instance, Instance, Instance]
    expect(orderOf([newest, oldest, middle])).toEqual([oldest.id, middle.id, newest.id])
    expect(orderOf([backedOff(oldest, 1), backedOff(middle, 20), newest])).toEqual([
      newest.id,
      middle.id,
      oldest.id,
    ])
  })

  it('puts doomed members first, then at-risk spot members, then on-demand ones', () => {
    const [onDemand] = onDemandFleet(1) as [Instance]
    const atRisk = anInstance({ lifecycle: 'spot', launchTime: minutesAgo(10) })
    const doomed = anInstance({ lifecycle: 'spot', launchTime: minutesAgo(5) })
    expect(orderOf([onDemand, atRisk, doomed], new Set([doomed.id]))).toEqual([
      doomed.id,
      atRisk.id,
      onDemand.id,
    ])
  })

  it('in a group ECS manages, takes the members running the fewest tasks first, then the oldest', () => {
    const [full, emptier, emptiest] = onDemandFleet(3) as [Instance, Instance, Instance]
    const tasks = new Map([
      [full.id, 4],
      [emptier.id, 2],
      [emptiest.id, 2],
    ])
    const fleet = [full, emptier, emptiest]
    const order = launchOrder(
      fleet.map((i) => memberOf(i)),
      new Map(fleet.map((i) => [i.id, i])),
      new Set(),
      (id) => tasks.get(id) ?? 0,
    ).map((e) => e.instance.id)
    expect(order).toEqual([emptier.id, emptiest.id, full.id])
    // Without ECS, the oldest first.
    expect(orderOf(fleet)).toEqual([full.id, emptier.id, emptiest.id])
  })

  it('leaves out members whose details were not seen', () => {
    const [seen, unseen] = onDemandFleet(2) as [Instance, Instance]
    expect(
      launchOrder([memberOf(seen), memberOf(unseen)], new Map([[seen.id, seen]]), new Set()).map(
        (e) => e.instance.id,
      ),
    ).toEqual([seen.id])
  })

  it('gives the same order whatever order the members come in, already in order or not', () => {
    const urgencyOf = (i: Instance, doomed: ReadonlySet<string>) =>
      doomed.has(i.id) ? 0 : i.lifecycle === 'spot' ? 1 : 2
    const backoffOf = (i: Instance) =>
      Date.parse(i.tags[TAG_NO_SPOT_CAPACITY_UNTIL] ?? '') || Number.NEGATIVE_INFINITY
    // The order spelled out: urgency, then the least recent back-off, then the oldest, then the id.
    const expected = (fleet: readonly Instance[], doomed: ReadonlySet<string>) =>
      [...fleet]
        .sort(
          (a, b) =>
            urgencyOf(a, doomed) - urgencyOf(b, doomed) ||
            (backoffOf(a) === backoffOf(b) ? 0 : backoffOf(a) < backoffOf(b) ? -1 : 1) ||
            a.launchTime.getTime() - b.launchTime.getTime() ||
            (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
        )
        .map((i) => i.id)
    const member = fc.record({
      spot: fc.boolean(),
      doomed: fc.boolean(),
      launchedMinutesAgo: fc.integer({ min: 0, max: 3 }),
      backedOffMinutesAgo: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
    })
    fc.assert(
      fc.property(fc.array(member, { maxLength: 12 }), fc.boolean(), (members, presorted) => {
        const fleet = members.map((m, index) => {
          const instance = anInstance({
            id: `i-${String(index).padStart(17, '0')}`,
            lifecycle: m.spot ? 'spot' : 'on-demand',
            launchTime: minutesAgo(m.launchedMinutesAgo),
          })
          return m.backedOffMinutesAgo === undefined ? instance : backedOff(instance, m.backedOffMinutesAgo)
        })
        const doomed = new Set(
          fleet.filter((_, i) => members[i]?.doomed && members[i]?.spot).map((i) => i.id),
        )
        const order = expected(fleet, doomed)
        const given = presorted ? order.map((id) => fleet.find((i) => i.id === id) as Instance) : fleet
        expect(orderOf(given, doomed)).toEqual(order)
      }),
      { numRuns: 500 },
    )
  })
})
