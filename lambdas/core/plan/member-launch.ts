/**
 * One eligible member's replacement within a launch round: launched into the best candidate pools of its
 * zone (or of another zone that keeps the group balanced), or skipped with the reason it cannot be.
 */

import { MAX_POOL_SHARE, TAG_NO_SPOT_CAPACITY_UNTIL, TAG_REPLACED_TYPE } from '../constants.ts'
import { ecsMemberSkip } from '../ecs/holds.ts'
import type { GroupMember, Instance } from '../types.ts'
import { poolKey } from '../types.ts'
import { cheaperThanCovered, commitmentSkip, coverageOf } from './commitment-hold.ts'
import { fleetChoices } from './fleet-choices.ts'
import { launchAction } from './launch-action.ts'
import {
  countPool,
  type LaunchRound,
  placementOf,
  selectionFor,
  shiftZones,
  skipMember,
  subnetZones,
} from './launch-round.ts'
import type { PlanInput } from './plan-input.ts'
import type { InstanceSkip } from './reasons.ts'
import { countRejections, noCandidateDetail } from './refusals.ts'
import { balancedElsewhere, type Placement } from './subnets.ts'

/**
 * Why a protected member is never replaced (ECS's tasks, scale-in or termination protection), or
 * undefined. Said of it whether or not a budget stopped the round before its turn: a protected member
 * kept is kept by its protection, not by the on-demand minimum it counts in.
 */
export const protectedSkip = (input: PlanInput, member: GroupMember): InstanceSkip | undefined => {
  const ecsHeld = ecsMemberSkip(input.ecs, member)
  if (ecsHeld !== undefined && ecsHeld !== 'drainable') return ecsHeld
  const instanceId = member.instanceId
  // Protected members are never touched, doomed or not: EC2 takes them and the group backfills. But a
  // member ECS protects in a group spotswap drains in: replaced, drained, then retired (core/ecs/drain.ts).
  if (member.protectedFromScaleIn && ecsHeld !== 'drainable')
    return { instanceId, code: 'protected-from-scale-in', reason: 'protected-from-scale-in' }
  if (input.terminationProtected.has(instanceId))
    return { instanceId, code: 'api-termination-protection', reason: 'api-termination-protection' }
  return undefined
}

/**
 * Why an on-demand member a commitment pays for stays on demand whatever the budgets, or undefined: fully
 * paid for (an open Capacity Reservation, an RI), or no compatible spot type in its zone is cheaper than
 * what it costs after commitments (a Savings Plan's rate, the keep share of a reservation yet to start:
 * core/commitments/upcoming.ts). The same test replaceMember makes, for a member the round stopped before.
 */
export const commitmentHold = (round: LaunchRound, instance: Instance): InstanceSkip | undefined => {
  const coverage = coverageOf(round.input, instance)
  if (coverage === undefined) return undefined
  if (coverage.effectiveRateUsd <= 0) return commitmentSkip(instance.id, coverage)
  const original = round.input.catalog.get(instance.type)
  const onDemandPrice = round.input.onDemandPrices.get(instance.type)
  const placement = placementOf(round, instance)
  if (original === undefined || onDemandPrice === undefined || !placement.ok) return undefined
  const { ranked } = selectionFor(round, instance.type, original, placement.zone, onDemandPrice)
  return ranked.length > 0 &&
    cheaperThanCovered(ranked, coverage, round.config.onDemandPriceMultiplier).length === 0
    ? commitmentSkip(instance.id, coverage, NO_CHEAPER_SPOT)
    : undefined
}

const NO_CHEAPER_SPOT = '; no compatible spot type is cheaper'

/**
 * Why a member the round stopped before (a budget taken) stays on demand anyway: its protection, or a
 * commitment that pays for it; undefined when it only waits.
 */
export const keptAnyway = (round: LaunchRound, member: GroupMember, instance: Instance | undefined) =>
  protectedSkip(round.input, member) ?? (instance === undefined ? undefined : commitmentHold(round, instance))

/** Plans `member`'s replacement, or says why there is none; the caller has checked the budgets. */
export const replaceMember = (round: LaunchRound, member: GroupMember, instance: Instance): void => {
  const { input, budget } = round
  const { group, catalog } = input
  const doomed = budget.doomed.has(instance.id)
  const replacingOnDemand = instance.lifecycle === 'on-demand'
  const held = protectedSkip(input, member)
  if (held !== undefined) {
    budget.instanceSkips.push(held)
    return
  }
  const backoffUntil = Date.parse(instance.tags[TAG_NO_SPOT_CAPACITY_UNTIL] ?? '')
  if (!doomed && backoffUntil > input.now.getTime()) {
    skipMember(
      round,
      instance,
      'spot-capacity-backoff',
      `backed off after its last attempt (no pool had capacity, its replacement did not serve, or the owner's scale-in undid its swap); next try at ${new Date(backoffUntil).toISOString()}`,
    )
    return
  }
  // An at-risk spot member is measured against the on-demand type it once replaced.
  const baseType = replacingOnDemand ? instance.type : (instance.tags[TAG_REPLACED_TYPE] ?? instance.type)
  const original = catalog.get(baseType)
  if (!original) {
    skipMember(round, instance, 'unknown-instance-type', `${baseType} is not in the instance type catalogue`)
    return
  }
  const onDemandPrice = input.onDemandPrices.get(baseType)
  if (onDemandPrice === undefined) {
    skipMember(
      round,
      instance,
      'missing-on-demand-price',
      `no on-demand price for ${baseType}; not replacing blind`,
    )
    return
  }
  const coverage = coverageOf(input, instance)
  if (coverage !== undefined && coverage.effectiveRateUsd <= 0) {
    budget.instanceSkips.push(commitmentSkip(instance.id, coverage))
    return
  }
  const placement = placementOf(round, instance)
  if (!placement.ok) {
    skipMember(round, instance, 'no-subnet-in-group', placement.detail)
    return
  }
  let selection = selectionFor(round, baseType, original, placement.zone, onDemandPrice)
  let zone: Extract<Placement, { ok: true }> = placement
  let elsewhereNote = ''
  // No compatible pool in its zone: an on-demand member may be replaced in another of the group's zones
  // if the group stays balanced (the zone-balanced oracle of the benchmark does the same).
  if (selection.ranked.length === 0 && replacingOnDemand && !doomed) {
    const elsewhere = balancedElsewhere(group, instance, subnetZones(round), round.zoneShift)
    for (const subnet of elsewhere.unknownSubnets) budget.unknownSubnets?.add(subnet)
    for (const other of elsewhere.placements) {
      const there = selectionFor(round, baseType, original, other.zone, onDemandPrice)
      if (there.ranked.length === 0) continue
      selection = there
      zone = other
      break
    }
    elsewhereNote =
      elsewhere.unknownSubnets.length > 0
        ? `; the zones of subnets ${elsewhere.unknownSubnets.join(', ')} are not known yet`
        : elsewhere.zones <= 1
          ? ''
          : elsewhere.placements.length === 0
            ? '; no other zone of the group keeps it balanced'
            : '; no other zone that keeps the group balanced has a compatible pool either'
  }
  if (selection.ranked.length === 0) {
    // Every catalogue type through the filters, once per selection.
    budget.meter?.charge(catalog.size)
    skipMember(
      round,
      instance,
      'no-compatible-spot-type',
      `${noCandidateDetail(catalog, selection, original, instance.zone)}${elsewhereNote}`,
      {
        rejectedBy: countRejections(selection),
      },
    )
    return
  }
  // Never back into the pool AWS just flagged.
  const atRiskPool = replacingOnDemand ? undefined : poolKey(instance.type, instance.zone)
  const allowed =
    atRiskPool === undefined ? selection.ranked : selection.ranked.filter((c) => c.pool !== atRiskPool)
  // A partly covered member costs less than its list price: a spot type dearer than that saves nothing.
  const ranked =
    coverage === undefined
      ? allowed
      : cheaperThanCovered(allowed, coverage, round.config.onDemandPriceMultiplier)
  if (coverage !== undefined && ranked.length === 0) {
    budget.instanceSkips.push(commitmentSkip(instance.id, coverage, NO_CHEAPER_SPOT))
    return
  }
  if (ranked.length === 0) {
    skipMember(round, instance, 'no-compatible-spot-type', 'only the at-risk pool itself is compatible')
    return
  }
  const choices = fleetChoices(
    ranked,
    round.poolCounts,
    budget.targetSpot,
    input.maxPoolShare ?? MAX_POOL_SHARE,
    zone.subnetId,
  )
  const { first } = choices
  shiftZones(round, instance.zone, zone.zone)
  if (replacingOnDemand) round.onDemandLaunches++
  if (!doomed) round.budgeted++
  countPool(round, first.pool)
  round.launches.push(
    launchAction(input, round.config, instance, baseType, choices, {
      doomed,
      expectedHourlySavingsUsd: (coverage?.effectiveRateUsd ?? onDemandPrice) - first.spotPriceUsd,
      reason: replacingOnDemand
        ? `on-demand ${instance.type} above the minimum; ${first.instanceType} spot at $${first.spotPriceUsd} vs $${onDemandPrice} on-demand${zone.zone === instance.zone ? '' : ` in ${zone.zone} (${instance.zone} has no compatible spot pool; the group stays balanced)`}`
        : `spot ${instance.type} ${doomed ? 'interrupted in two minutes' : 'at risk (rebalance recommendation)'}; moving to ${first.instanceType} at $${first.spotPriceUsd}`,
    }),
  )
}
