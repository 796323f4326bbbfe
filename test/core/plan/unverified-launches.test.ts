import { describe, expect, it } from 'vitest'
import { TAG_LAUNCH_TEMPLATE_ID, TAG_REPLACED_TYPE } from '../../../lambdas/core/constants.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import { type Instance, spotPriceBook } from '../../../lambdas/core/types.ts'
import { launches } from '../../builders/actions.ts'
import { anInstance, config, minutesAgo, onDemandFleet, planInput, spotFor } from '../../builders/world.ts'

/** A launch as moto's CreateFleet leaves it: every spotswap tag, no EC2 launch-template tag. */
const untagged = (partner: Instance): Instance => {
  const launch = spotFor(partner)
  const { [TAG_LAUNCH_TEMPLATE_ID]: _none, ...tags } = launch.tags
  return { ...launch, tags }
}

/** A set budget of a quarter: these groups have no load balancers, where the default is the whole group. */
const quarter = config({ maxReplacementsInFlight: { kind: 'percent', value: 25 } })

describe('planGroup: launches spotswap made and cannot verify', () => {
  it('gives their partners no new replacement, with a typed reason, and neither attaches nor terminates them', () => {
    const fleet = onDemandFleet(8)
    const [first, second] = fleet as [Instance, Instance]
    const launched = [untagged(first), untagged(second)]
    const plan = planGroup(planInput(fleet, { launched }))
    const replacing = launches(plan.actions).map((a) => a.replacing)
    expect(replacing).not.toContain(first.id)
    expect(replacing).not.toContain(second.id)
    const touched = plan.actions.flatMap((a) => ('instanceId' in a ? [a.instanceId] : []))
    for (const launch of launched) expect(touched).not.toContain(launch.id)
    for (const partner of [first, second])
      expect(plan.onDemand.find((s) => s.instanceId === partner.id)?.code).toBe('unverified-launch')
    expect(plan.unverified?.map((u) => u.instanceId)).toEqual(launched.map((l) => l.id))
  })

  it('count in the in-flight budget: a group of 8 (budget 2) with 2 of them launches nothing more', () => {
    const fleet = onDemandFleet(8)
    const launched = fleet.slice(0, 2).map(untagged)
    const plan = planGroup(planInput(fleet, { launched, config: quarter }))
    expect(launches(plan.actions)).toHaveLength(0)
    const waiting = plan.onDemand.filter((s) => s.code === 'in-flight-budget')
    expect(waiting).toHaveLength(6)
    expect(waiting[0]?.detail).toContain(`${launched[0]?.id} (unverified)`)
  })

  it('count in the default budget of a group without load balancers, the whole group: 8 with 2 launch 6', () => {
    const fleet = onDemandFleet(8)
    const launched = fleet.slice(0, 2).map(untagged)
    const plan = planGroup(planInput(fleet, { launched }))
    expect(launches(plan.actions).map((a) => a.replacing)).toEqual(fleet.slice(2).map((i) => i.id))
  })

  it('leave the rest of the budget to the other members', () => {
    const fleet = onDemandFleet(8)
    const launched = [untagged(fleet[0] as Instance)]
    const plan = planGroup(
      planInput(fleet, {
        launched,
        config: config({ maxReplacementsInFlight: { kind: 'count', value: 3 } }),
      }),
    )
    expect(launches(plan.actions)).toHaveLength(2)
  })

  it('are not a launch that names a partner recording another outcome (someone else’s instance)', () => {
    const fleet = onDemandFleet(8)
    const partner = fleet[0] as Instance
    const forged = untagged(partner)
    const tagged = {
      ...partner,
      tags: {
        ...partner.tags,
        'spotswap:replacement-attempt': '1:i-0fffffffffffffff0@2020-01-01T00:00:00.000Z',
      },
    }
    const plan = planGroup(planInput([tagged, ...fleet.slice(1)], { launched: [forged], config: quarter }))
    expect(plan.unverified).toBeUndefined()
    expect(launches(plan.actions)).toHaveLength(2)
  })

  // Chaos seed 5034: a spot member whose move to a cheaper pool came back unverifiable was moved again every
  // run, each launch left running beside the last.
  it('hold a spot member from moving to a cheaper pool again', () => {
    const member = anInstance({
      lifecycle: 'spot',
      launchTime: minutesAgo(120),
      tags: { [TAG_REPLACED_TYPE]: 'm5.large' },
    })
    const launched = [untagged(member)]
    const plan = planGroup(
      planInput([member], {
        launched,
        spotPrices: spotPriceBook([
          ['m5.large/us-east-1a', 0.05],
          ['m5a.large/us-east-1a', 0.03],
        ]),
        config: config({ maxReplacementsInFlight: { kind: 'count', value: 10 } }),
      }),
    )
    expect(plan.unverified?.map((u) => u.instanceId)).toEqual([launched[0]?.id])
    expect(launches(plan.actions)).toEqual([])
  })

  // Chaos seed 5832: the run that retired a swap's partner counted the replacement beside it in the size the
  // budget is a share of (25% of 5 is 2), and launched a second unverifiable instance for a group of 4.
  it('count against a budget of the group’s own size, not of an open swap’s +1', () => {
    const fleet = onDemandFleet(4)
    const [partner, held] = fleet as [Instance, Instance]
    const attached = spotFor(partner, { launchTime: minutesAgo(30) })
    const plan = planGroup(planInput([...fleet, attached], { launched: [untagged(held)], config: quarter }))
    expect(launches(plan.actions)).toEqual([])
  })
})
