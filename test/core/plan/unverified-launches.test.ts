import { describe, expect, it } from 'vitest'
import { TAG_LAUNCH_TEMPLATE_ID } from '../../../lambdas/core/constants.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { launches } from '../../builders/actions.ts'
import { config, onDemandFleet, planInput, spotFor } from '../../builders/world.ts'

/** A launch as moto's CreateFleet leaves it: every spotswap tag, no EC2 launch-template tag. */
const untagged = (partner: Instance): Instance => {
  const launch = spotFor(partner)
  const { [TAG_LAUNCH_TEMPLATE_ID]: _none, ...tags } = launch.tags
  return { ...launch, tags }
}

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
    const plan = planGroup(planInput(fleet, { launched }))
    expect(launches(plan.actions)).toHaveLength(0)
    const waiting = plan.onDemand.filter((s) => s.code === 'in-flight-budget')
    expect(waiting).toHaveLength(6)
    expect(waiting[0]?.detail).toContain(`${launched[0]?.id} (unverified)`)
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
    const plan = planGroup(planInput([tagged, ...fleet.slice(1)], { launched: [forged] }))
    expect(plan.unverified).toBeUndefined()
    expect(launches(plan.actions)).toHaveLength(2)
  })
})
