import { describe, expect, it } from 'vitest'
import { memberCoverage } from '../../../lambdas/core/commitments/coverage.ts'
import { rateKey, type SavingsPlan } from '../../../lambdas/core/commitments/types.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { launches } from '../../builders/actions.ts'
import { commitments, plan as savingsPlan, usage } from '../../builders/commitments.ts'
import { config, onDemandFleet, planInput, realOnDemandPrices } from '../../builders/world.ts'

const generous = config({ maxReplacementsInFlight: { kind: 'count', value: 10 } })
const LIST = realOnDemandPrices().get('m5.large') ?? 0
/** The plan's m5.large rate: 37.5% off the list price. */
const RATE = LIST * 0.625

/** The fleet billed with one Compute plan, newest member first (the one the planner replaces last). */
const withPlan = (fleet: readonly Instance[], plan: SavingsPlan) =>
  memberCoverage(
    [...fleet]
      .reverse()
      .map((i) => usage(i.id, i.type, { zone: i.zone, region: 'us-east-1', onDemandRateUsd: LIST })),
    commitments({ savingsPlans: [plan] }),
  )

const compute = (hourlyCommitmentUsd: number): SavingsPlan =>
  savingsPlan('sp-compute', {
    hourlyCommitmentUsd,
    rates: new Map([[rateKey('m5.large', 'us-east-1', 'Linux/UNIX', 'default'), RATE]]),
  })

describe('planGroup with a Savings Plan', () => {
  it('keeps the members the plan pays for at its rate and replaces the rest', () => {
    const fleet = onDemandFleet(3)
    const plan = planGroup(
      planInput(fleet, { config: generous, commitments: withPlan(fleet, compute(RATE)) }),
    )
    expect(launches(plan.actions).map((a) => a.replacing)).toEqual([fleet[0]?.id, fleet[1]?.id])
    const kept = plan.onDemand.find((s) => s.code === 'commitment-covered')
    expect(kept?.instanceId).toBe(fleet[2]?.id)
    expect(kept?.detail).toMatch(/paid by savings-plan sp-compute \(Compute Savings Plan/)
  })

  it('keeps a member the plan pays almost all of: no spot type is cheaper than the rest of its hour', () => {
    const fleet = onDemandFleet(2)
    // All of the newest member's hour and 99.9% of the other's.
    const plan = planGroup(
      planInput(fleet, { config: generous, commitments: withPlan(fleet, compute(RATE * 1.999)) }),
    )
    expect(launches(plan.actions)).toEqual([])
    const older = plan.onDemand.find((s) => s.instanceId === fleet[0]?.id)
    expect(older?.code).toBe('commitment-covered')
    expect(older?.detail).toMatch(/no compatible spot type is cheaper$/)
  })
})
