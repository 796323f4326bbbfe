import { describe, expect, it } from 'vitest'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import { selectCandidates } from '../../../lambdas/core/plan/selection.ts'
import { PlanBudgetExceededError, WorkMeter } from '../../../lambdas/core/plan/work-budget.ts'
import type { InstanceTypeInfo } from '../../../lambdas/core/types.ts'
import { embeddedCatalog } from '../../../tools/data/catalog.ts'
import {
  anInstance,
  config,
  minutesAgo,
  onDemandFleet,
  planInput,
  realOnDemandPrices,
} from '../../builders/world.ts'

describe('WorkMeter', () => {
  it('counts units and throws a typed error once the budget is spent', () => {
    const meter = new WorkMeter(10)
    meter.charge(10)
    expect(meter.spent).toBe(10)
    expect(() => meter.charge(1)).toThrow(PlanBudgetExceededError)
  })
})

describe('selectCandidates', () => {
  it('charges one unit per filter each priced candidate goes through, the same every time', () => {
    const input = planInput(onDemandFleet(1))
    const ctx = {
      original: embeddedCatalog().get('m5.large') as InstanceTypeInfo,
      zone: 'us-east-1a',
      config: config(),
      spotPrices: input.spotPrices,
      originalOnDemandPrice: realOnDemandPrices().get('m5.large'),
    }
    const first = new WorkMeter(Number.POSITIVE_INFINITY)
    const second = new WorkMeter(Number.POSITIVE_INFINITY)
    selectCandidates(embeddedCatalog(), ctx, first)
    selectCandidates(embeddedCatalog(), ctx, second)
    expect(first.spent).toBeGreaterThan(100)
    expect(second.spent).toBe(first.spent)
  })
})

describe('planGroup over its work budget', () => {
  // Instances of many types in many zones: each one its own selection.
  const types = ['m5.large', 'c5.xlarge', 'r5.large', 't3.medium', 'm6i.large', 'c6i.large']
  const wide = types.flatMap((type, t) =>
    ['us-east-1a', 'us-east-1b', 'us-east-1c'].map((zone, z) =>
      anInstance({ type, zone, launchTime: minutesAgo(1000 - t * 10 - z) }),
    ),
  )

  it('skips the group with a typed reason and no action when the budget is spent', () => {
    const plan = planGroup(planInput(wide, { workUnits: 1000 }))
    expect(plan.skip).toEqual({
      code: 'plan-budget-exceeded',
      detail: expect.stringContaining('1000 work units'),
    })
    expect(plan.actions).toEqual([])
  })

  it('plans the same group normally within the default budget', () => {
    const plan = planGroup(planInput(wide))
    expect(plan.skip).toBeUndefined()
    expect(plan.actions.some((a) => a.kind === 'launch-spot')).toBe(true)
  })
})
