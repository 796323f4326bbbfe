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

  it('leaves out members whose details were not seen', () => {
    const [seen, unseen] = onDemandFleet(2) as [Instance, Instance]
    expect(
      launchOrder([memberOf(seen), memberOf(unseen)], new Map([[seen.id, seen]]), new Set()).map(
        (e) => e.instance.id,
      ),
    ).toEqual([seen.id])
  })
})
