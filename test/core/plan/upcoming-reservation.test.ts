import { describe, expect, it } from 'vitest'
import { memberCoverage } from '../../../lambdas/core/commitments/coverage.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { launches } from '../../builders/actions.ts'
import { commitments, reservation, usage } from '../../builders/commitments.ts'
import { config, onDemandFleet, planInput, realOnDemandPrices } from '../../builders/world.ts'

const generous = config({ maxReplacementsInFlight: { kind: 'count', value: 10 } })

/** An open reservation of one slot in the newest member's type and zone, yet to start. */
const upcomingFor = (fleet: readonly Instance[], keepShare: number) => {
  const newest = fleet[fleet.length - 1] as Instance
  return memberCoverage(
    [...fleet]
      .reverse()
      .map((i) =>
        usage(i.id, i.type, { zone: i.zone, onDemandRateUsd: realOnDemandPrices().get(i.type) ?? 0 }),
      ),
    commitments({
      upcomingReservations: [
        {
          ...reservation('cr-soon', newest.type, {
            zone: newest.zone,
            startsAt: new Date('2026-06-01T06:00:00Z'),
          }),
          keepShare,
        },
      ],
    }),
  )
}

describe('planGroup with an open Capacity Reservation yet to start', () => {
  it('keeps the member it will take while no spot type is cheaper than its keep share of the rate', () => {
    const fleet = onDemandFleet(3)
    const plan = planGroup(planInput(fleet, { config: generous, commitments: upcomingFor(fleet, 0.001) }))
    expect(launches(plan.actions).map((a) => a.replacing)).toEqual([fleet[0]?.id, fleet[1]?.id])
    const kept = plan.onDemand.filter((s) => s.code === 'commitment-covered')
    expect(kept.map((s) => s.instanceId)).toEqual([fleet[2]?.id])
    expect(kept[0]?.detail).toMatch(/^starts 2026-06-01T06:00:00.000Z: capacity-reservation cr-soon/)
    expect(kept[0]?.detail).toMatch(/no compatible spot type is cheaper$/)
  })

  it('says it is kept for the reservation, not waiting on the budget, when the budget stops the round first', () => {
    const fleet = onDemandFleet(3)
    const one = config({ maxReplacementsInFlight: { kind: 'count', value: 1 } })
    const plan = planGroup(planInput(fleet, { config: one, commitments: upcomingFor(fleet, 0.001) }))
    expect(launches(plan.actions).map((a) => a.replacing)).toEqual([fleet[0]?.id])
    const codes = Object.fromEntries(plan.onDemand.map((s) => [s.instanceId, s.code]))
    expect(codes[fleet[1]?.id ?? '']).toBe('in-flight-budget')
    expect(codes[fleet[2]?.id ?? '']).toBe('commitment-covered')
    const kept = plan.onDemand.find((s) => s.instanceId === fleet[2]?.id)
    expect(kept?.detail).toMatch(/^starts 2026-06-01T06:00:00.000Z: capacity-reservation cr-soon/)
    expect(kept?.detail).toMatch(/no compatible spot type is cheaper$/)
  })

  it('says so too when replacements under way take the whole budget', () => {
    const fleet = onDemandFleet(3)
    const none = config({ maxReplacementsInFlight: { kind: 'count', value: 0 } })
    const plan = planGroup(planInput(fleet, { config: none, commitments: upcomingFor(fleet, 0.001) }))
    expect(launches(plan.actions)).toEqual([])
    const codes = plan.onDemand.map((s) => [s.instanceId, s.code])
    expect(codes).toEqual([
      [fleet[0]?.id, 'in-flight-budget'],
      [fleet[1]?.id, 'in-flight-budget'],
      [fleet[2]?.id, 'commitment-covered'],
    ])
  })

  it('still waits on the budget when a spot type is cheaper than keeping it', () => {
    const fleet = onDemandFleet(3)
    const one = config({ maxReplacementsInFlight: { kind: 'count', value: 1 } })
    const plan = planGroup(planInput(fleet, { config: one, commitments: upcomingFor(fleet, 0.999) }))
    expect(launches(plan.actions).map((a) => a.replacing)).toEqual([fleet[0]?.id])
    expect(plan.onDemand.filter((s) => s.code === 'in-flight-budget').map((s) => s.instanceId)).toEqual([
      fleet[1]?.id,
      fleet[2]?.id,
    ])
  })

  it('replaces it when its start is so far off that a spot type costs less than keeping it', () => {
    const fleet = onDemandFleet(3)
    const plan = planGroup(planInput(fleet, { config: generous, commitments: upcomingFor(fleet, 0.999) }))
    expect(launches(plan.actions).map((a) => a.replacing)).toEqual(fleet.map((i) => i.id))
  })
})
