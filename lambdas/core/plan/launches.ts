/**
 * New replacements: which members get a spot replacement this run, within the in-flight budget and the
 * on-demand minimum, most urgent first; then, with what is left of the budget, a spot member moved to a
 * markedly cheaper pool. Pure, like the rest of the planner.
 */

import type { GroupConfig } from '../config/config.ts'
import { CHEAPER_POOL_MOVES_PER_RUN, MAX_POOL_SHARE, TAG_REPLACING_INSTANCE } from '../constants.ts'
import { runningTasksOf } from '../ecs/drain-order.ts'
import { poolKey } from '../types.ts'
import type { LaunchSpotAction, ReleaseDoomedAction } from './actions.ts'
import { moveCandidates } from './cheaper-pool.ts'
import { fleetChoices } from './fleet-choices.ts'
import { launchAction } from './launch-action.ts'
import { launchOrder } from './launch-order.ts'
import {
  countPool,
  type LaunchBudget,
  launchRound,
  placementOf,
  releaseDoomed,
  selectionFor,
  shiftZones,
} from './launch-round.ts'
import { keptAnyway, replaceMember } from './member-launch.ts'
import type { PlanInput } from './plan-input.ts'
import type { InstanceSkip } from './reasons.ts'

export type { LaunchBudget } from './launch-round.ts'

/**
 * A member waits for the in-flight budget: named with what takes it (`i-1 (replacing i-9), ...`). The
 * reason is built once per number of launches, not once per waiting member: in a large first run most
 * members of every group wait, and all of them on the same launches.
 */
const budgetWaits = (
  budget: LaunchBudget,
  launches: readonly (LaunchSpotAction | ReleaseDoomedAction)[],
): ((instanceId: string) => InstanceSkip) => {
  let known: { readonly launches: number; readonly reason: string } | undefined
  return (instanceId) => {
    if (known === undefined || known.launches !== launches.length) {
      const names = [...budget.inFlight]
      for (const l of launches) if (l.kind === 'launch-spot') names.push(`a launch for ${l.replacing}`)
      const limit = Math.max(0, budget.budget) + budget.inFlight.length
      const takenBy = names.length === 0 ? 'nothing (the limit is 0)' : names.join(', ')
      known = {
        launches: launches.length,
        reason: `in-flight-budget: ${limit} replacement(s) at a time, taken by ${takenBy}`,
      }
    }
    return { instanceId, code: 'in-flight-budget', reason: known.reason }
  }
}

export const planLaunches = (
  input: PlanInput,
  config: GroupConfig,
  budget: LaunchBudget,
): (LaunchSpotAction | ReleaseDoomedAction)[] => {
  const { group } = input
  const round = launchRound(input, config, budget)
  const { launches } = round
  const waitsOnBudget = budgetWaits(budget, launches)
  if (budget.budget <= 0 && budget.doomed.size === 0) {
    // Replacements under way take the whole budget: every member waits on them, and is told so, but for
    // one its protection or a commitment keeps anyway.
    for (const member of budget.eligible)
      budget.instanceSkips.push(
        keptAnyway(round, member, input.instances.get(member.instanceId)) ?? waitsOnBudget(member.instanceId),
      )
    return launches
  }
  if (!group.launchTemplate && !group.launchConfigurationName && !group.mixedInstancesPolicy) {
    for (const member of budget.eligible)
      budget.instanceSkips.push({
        instanceId: member.instanceId,
        code: 'no-launch-template',
        reason: 'no-launch-template: the group has no template or configuration',
      })
    for (const member of budget.eligible)
      if (
        budget.doomed.has(member.instanceId) &&
        !member.protectedFromScaleIn &&
        !input.terminationProtected.has(member.instanceId)
      )
        releaseDoomed(round, group, member.instanceId, 'the group has no launch template or configuration')
    return launches
  }
  for (const pending of budget.pendingSpot) {
    const partner = input.instances.get(pending.tags[TAG_REPLACING_INSTANCE] ?? '')
    if (partner !== undefined) shiftZones(round, partner.zone, pending.zone)
  }
  const moves = moveCandidates(
    input,
    config,
    budget.movable,
    (baseType, original, zone, onDemandPrice) => selectionFor(round, baseType, original, zone, onDemandPrice),
    (instance) => placementOf(round, instance),
  )
  // Nothing to replace (a converged group): no pools to count, no dates to format.
  if (budget.eligible.length === 0 && moves.length === 0) return launches
  for (const member of budget.spotMembers) {
    const instance = input.instances.get(member.instanceId)
    if (instance) countPool(round, poolKey(instance.type, instance.zone))
  }
  for (const instance of budget.pendingSpot) countPool(round, poolKey(instance.type, instance.zone))

  const eligible = launchOrder(budget.eligible, input.instances, budget.doomed, runningTasksOf(input.ecs))
  // Where the loop stopped, and why: the members after it wait, and are told so (core/plan/liveness.ts).
  let stopped: { readonly at: number; readonly code: 'in-flight-budget' | 'on-demand-minimum' } | undefined
  for (const [index, { member, instance }] of eligible.entries()) {
    if (!budget.doomed.has(instance.id) && round.budgeted >= budget.budget) {
      stopped = { at: index, code: 'in-flight-budget' }
      break
    }
    if (instance.lifecycle === 'on-demand' && round.onDemandLaunches >= budget.onDemandBudget) {
      stopped = { at: index, code: 'on-demand-minimum' }
      break
    }
    replaceMember(round, member, instance)
  }

  if (stopped !== undefined) {
    for (const { member, instance } of eligible.slice(stopped.at)) {
      if (budget.doomed.has(instance.id)) continue
      // Kept by its protection or a commitment whatever stopped the round: it counts in the minimum, not
      // as one kept for it, and does not wait on the budget.
      budget.instanceSkips.push(
        keptAnyway(round, member, instance) ??
          (stopped.code === 'in-flight-budget'
            ? waitsOnBudget(instance.id)
            : {
                instanceId: instance.id,
                code: 'on-demand-minimum',
                reason: `on-demand-minimum: the group keeps ${budget.minOnDemand} on-demand instance(s)`,
              }),
      )
    }
  }

  // Last, with what is left of the budget: spot members a pool with room is markedly cheaper than.
  const cap = Math.max(1, Math.ceil(budget.targetSpot * (input.maxPoolShare ?? MAX_POOL_SHARE)))
  let moved = 0
  for (const move of moves) {
    if (round.budgeted >= budget.budget || moved >= CHEAPER_POOL_MOVES_PER_RUN) break
    const open = move.cheaper.filter((c) => (round.poolCounts.get(c.pool) ?? 0) < cap)
    if (open.length === 0) continue
    const choices = fleetChoices(
      open,
      round.poolCounts,
      budget.targetSpot,
      input.maxPoolShare ?? MAX_POOL_SHARE,
      move.subnetId,
    )
    round.budgeted++
    moved++
    countPool(round, choices.first.pool)
    launches.push(
      launchAction(input, config, move.instance, move.baseType, choices, {
        doomed: false,
        expectedHourlySavingsUsd: move.ownPrice - choices.first.spotPriceUsd,
        reason: `spot ${move.instance.type} at $${move.ownPrice}; ${choices.first.instanceType} at $${choices.first.spotPriceUsd} is at least ${config.cheaperPoolMinSavingPercentage}% cheaper`,
      }),
    )
  }
  return launches
}
