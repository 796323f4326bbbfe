/**
 * The plan of a group whose planning ran out of work units (PlanInput.workUnits): nothing done to it this
 * run, every on-demand member shown as held by the skip, its figures as they are.
 */

import type { GroupPlan } from './actions.ts'
import { groupFigures } from './figures.ts'
import { minOnDemandCount } from './group-sizes.ts'
import { formatSkip } from './group-skip.ts'
import type { PlanInput } from './plan-input.ts'
import type { GroupSkip } from './reasons.ts'
import type { PlanBudgetExceededError } from './work-budget.ts'

export const budgetExceededPlan = (input: PlanInput, error: PlanBudgetExceededError): GroupPlan => {
  const { group } = input
  const inService = group.members.filter((m) => m.lifecycleState === 'InService')
  const minOnDemand = minOnDemandCount(input.config, inService.length, group.mixedInstancesPolicy)
  const skip: GroupSkip = { code: 'plan-budget-exceeded', detail: error.message }
  const onDemand = inService.filter((m) => input.instances.get(m.instanceId)?.lifecycle === 'on-demand')
  return {
    group: group.name,
    region: group.region,
    skipped: formatSkip(skip),
    skip,
    actions: [],
    instanceSkips: [],
    onDemand: onDemand.map((m) => ({
      instanceId: m.instanceId,
      type: input.instances.get(m.instanceId)?.type ?? m.instanceType ?? 'unknown',
      zone: input.instances.get(m.instanceId)?.zone ?? m.zone,
      code: 'group-skipped' as const,
      detail: `${skip.code}: ${skip.detail}`,
      progress: false,
    })),
    figures: groupFigures(input, inService, minOnDemand),
  }
}
