import { describe, expect, it } from 'vitest'
import { type MemberCoverage, memberCoverage } from '../../../lambdas/core/commitments/coverage.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { launches } from '../../builders/actions.ts'
import { commitments, ri, usage } from '../../builders/commitments.ts'
import { config, onDemandFleet, planInput, realOnDemandPrices } from '../../builders/world.ts'

const generous = config({ maxReplacementsInFlight: { kind: 'count', value: 10 } })

/** The fleet as usage lines of managed members, newest first (the ones the planner replaces last). */
const covered = (fleet: readonly Instance[], count: number, type = 'm5.large') =>
  memberCoverage(
    [...fleet]
      .reverse()
      .map((i) =>
        usage(i.id, i.type, { zone: i.zone, onDemandRateUsd: realOnDemandPrices().get(i.type) ?? 0 }),
      ),
    commitments({ reservedInstances: [ri('ri-1', type, { count })] }),
  )

const handMade = (instance: Instance, effectiveRateUsd: number): ReadonlyMap<string, MemberCoverage> =>
  new Map([
    [
      instance.id,
      {
        instanceId: instance.id,
        listRateUsd: realOnDemandPrices().get(instance.type) ?? 0,
        effectiveRateUsd,
        coveredShare: 0.5,
        by: [
          { kind: 'reserved-instances', id: 'ri-1', attributes: 'regional m5.large', managedCovered: 0.5 },
        ],
      },
    ],
  ])

describe('planGroup with commitments', () => {
  it('keeps the members a Reserved Instance pays for and replaces the rest', () => {
    const fleet = onDemandFleet(4)
    const plan = planGroup(planInput(fleet, { config: generous, commitments: covered(fleet, 2) }))
    expect(launches(plan.actions).map((a) => a.replacing)).toEqual([fleet[0]?.id, fleet[1]?.id])
    const kept = plan.onDemand.filter((s) => s.code === 'commitment-covered')
    expect(kept.map((s) => s.instanceId)).toEqual([fleet[2]?.id, fleet[3]?.id])
    expect(kept[0]?.detail).toMatch(/^100% of its hour paid by reserved-instances ri-1 \(regional m5.large/)
    // Covered outright: kept without weighing any spot type.
    expect(kept[0]?.detail).toMatch(/\$0\/h after commitments vs \$0.096\/h list$/)
    expect(kept[0]?.projectedHourlySavingsUsd).toBeUndefined()
  })

  it('starts nothing in a group whose on-demand members are all covered: it has converged', () => {
    const fleet = onDemandFleet(3)
    const plan = planGroup(planInput(fleet, { config: generous, commitments: covered(fleet, 3) }))
    expect(plan.actions).toEqual([])
    expect(new Set(plan.onDemand.map((s) => s.code))).toEqual(new Set(['commitment-covered']))
  })

  it('says a covered member is covered, not kept for the minimum, when the minimum stops the launches', () => {
    const fleet = onDemandFleet(4)
    const plan = planGroup(
      planInput(fleet, {
        config: config({ ...generous, minOnDemandNumber: 3 }),
        commitments: covered(fleet, 1),
      }),
    )
    expect(launches(plan.actions).map((a) => a.replacing)).toEqual([fleet[0]?.id])
    expect(plan.onDemand.map((s) => s.code)).toEqual([
      'launching',
      'on-demand-minimum',
      'on-demand-minimum',
      'commitment-covered',
    ])
  })

  it('keeps a partly covered member when no spot type is cheaper than what it costs after commitments', () => {
    const [member] = onDemandFleet(1, 'm5.xlarge') as [Instance]
    const plan = planGroup(planInput([member], { config: generous, commitments: handMade(member, 0.001) }))
    expect(launches(plan.actions)).toEqual([])
    expect(plan.onDemand[0]?.code).toBe('commitment-covered')
    expect(plan.onDemand[0]?.detail).toMatch(/no compatible spot type is cheaper$/)
  })

  it('replaces a partly covered member when spot is cheaper still, and expects the saving after commitments', () => {
    const [member] = onDemandFleet(1, 'm5.xlarge') as [Instance]
    const plan = planGroup(planInput([member], { config: generous, commitments: handMade(member, 0.15) }))
    const [launch] = launches(plan.actions)
    const [listed] = launches(planGroup(planInput([member], { config: generous })).actions)
    expect(launch?.replacing).toBe(member.id)
    // The same first choice, fewer behind it (only those cheaper than $0.15), and the saving is what the
    // member costs after commitments less the spot price, not its list price less the spot price.
    expect(launch?.overrides[0]).toEqual(listed?.overrides[0])
    expect(launch?.overrides.length).toBeLessThan(listed?.overrides.length ?? 0)
    const list = realOnDemandPrices().get('m5.xlarge') ?? 0
    expect((listed?.expectedHourlySavingsUsd ?? 0) - (launch?.expectedHourlySavingsUsd ?? 0)).toBeCloseTo(
      list - 0.15,
      9,
    )
  })
})
