/**
 * planGroup: the replacer's decision for one group, a pure function of what was observed and `now`.
 * Order of concerns: undo what a crashed run left half-done, tidy spot instances launched earlier,
 * swap the ones that are ready, then start new replacements within the on-demand minimum and the
 * in-flight budget.
 */

import type { GroupConfig } from '../config/config.ts'
import { isLeavingGroup, staysInGroup } from '../config/managed.ts'
import {
  DOOMED_SWAP_DEADLINE_SECONDS,
  GRACE_SLACK_SECONDS,
  PLAN_WORK_UNITS_PER_GROUP,
  TAG_INTERRUPTION_WARNED,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP_ID,
} from '../constants.ts'
import {
  corroboratesRecord,
  launchProvenance,
  membersToSettle,
  sortLaunches,
  untrustedReason,
} from '../group/provenance.ts'
import { recoverSwaps } from '../swap/recover.ts'
import type { Group, Instance } from '../types.ts'
import type { Action, GroupPlan, InstanceSkip } from './actions.ts'
import { attemptNumber } from './attempts.ts'
import { budgetExceededPlan } from './budget-exceeded.ts'
import { movableMembers } from './cheaper-pool.ts'
import { releaseDoomed } from './doomed-release.ts'
import { groupFigures } from './figures.ts'
import { inFlightLimit, minOnDemandCount } from './group-sizes.ts'
import { formatSkip, groupSkip, HOLDS_OPEN_SWAP } from './group-skip.ts'
import { keepReplacements } from './kept-replacements.ts'
import { planLaunches } from './launches.ts'
import { onDemandStatuses } from './liveness.ts'
import { memberRoles } from './member-roles.ts'
import type { PlanInput } from './plan-input.ts'
import { projectedSaving } from './selection-cache.ts'
import { earlyLook, startSwaps } from './swap-start.ts'
import { PlanBudgetExceededError, WorkMeter } from './work-budget.ts'

export type { PlanInput } from './plan-input.ts'

const gracePeriodSeconds = (group: Group, config: GroupConfig): number =>
  config.gracePeriodSeconds ?? group.healthCheckGracePeriodSeconds

/** MixedInstancesPolicy override types act as the allow list when the user set none. */
const effectiveConfig = (group: Group, config: GroupConfig): GroupConfig => {
  const overrides = group.mixedInstancesPolicy?.overrideTypes ?? []
  return config.allowedInstanceTypes.length === 0 && overrides.length > 0
    ? { ...config, allowedInstanceTypes: overrides }
    : config
}

/**
 * planGroup within the group's work budget (PlanInput.workUnits): a group whose plan would take more is
 * skipped (`plan-budget-exceeded`), nothing done to it this run, and the region's other groups proceed.
 */
export const planGroup = (input: PlanInput): GroupPlan => {
  const meter = new WorkMeter(input.workUnits ?? PLAN_WORK_UNITS_PER_GROUP)
  try {
    return planWithin(input, meter)
  } catch (error) {
    if (!(error instanceof PlanBudgetExceededError)) throw error
    return budgetExceededPlan(input, error)
  }
}

const planWithin = (input: PlanInput, meter: WorkMeter): GroupPlan => {
  const { group, now } = input
  const config = effectiveConfig(group, input.config)
  const actions: Action[] = []
  const instanceSkips: InstanceSkip[] = []
  const unknownSubnets = new Set<string>()
  const detail = (id: string): Instance | undefined => input.instances.get(id)
  const roles = memberRoles(group, input.instances)
  const { inService, onDemand, spot, onDemandIds, doomed, doomedIds, atRisk, atRiskIds, movingIds } = roles
  const warnedAt = (id: string): number => Date.parse(detail(id)?.tags[TAG_INTERRUPTION_WARNED] ?? '')
  // Too close to the interruption for a swap to be over before EC2 takes the member.
  const tooLate = (id: string): boolean => now.getTime() >= warnedAt(id) + DOOMED_SWAP_DEADLINE_SECONDS * 1000
  const isPartner = (id: string): boolean => onDemandIds.has(id) || atRiskIds.has(id) || movingIds.has(id)
  // The minimum is the owner's share of the group's own size (MemberRoles.besidePartner).
  const minOnDemand = minOnDemandCount(
    config,
    inService.length - roles.besidePartner,
    group.mixedInstancesPolicy,
  )
  const skip = groupSkip(input)
  const skipped = skip === undefined ? undefined : formatSkip(skip)
  const figures = groupFigures(input, inService, minOnDemand)

  // 1-2. Finish what an earlier run left of a swap (record, MaxSize, attached replacements).
  // Asked only about partners of replacements, so a scan beats building a map for every group.
  const isProtected = (id: string): boolean =>
    input.terminationProtected.has(id) ||
    group.members.some((m) => m.instanceId === id && m.protectedFromScaleIn)
  const attachedSpot = group.members.filter(
    (m) => !isLeavingGroup(m.lifecycleState) && detail(m.instanceId)?.lifecycle === 'spot',
  )
  const recovery = recoverSwaps({
    group,
    spotMembers: attachedSpot,
    inService,
    stillIn: (id) => staysInGroup(group, id),
    detail,
    isPartner,
    onDemandIds,
    minOnDemand,
    isProtected,
    held: skip !== undefined && HOLDS_OPEN_SWAP.has(skip.code) ? skipped : undefined,
    now,
    ownerChanges: input.ownerChanges,
    health: input.health,
    graceSeconds: gracePeriodSeconds(group, config),
    leavesAt: (id) => (doomedIds.has(id) ? warnedAt(id) + DOOMED_SWAP_DEADLINE_SECONDS * 1000 : undefined),
    attemptOf: (id) => attemptNumber(detail(id)?.tags[TAG_REPLACEMENT_ATTEMPT]),
    provenanceOf: (id, partner) => {
      const replacement = detail(id)
      return replacement === undefined
        ? { ours: false, code: 'partner-unseen', detail: `${id} cannot be seen` }
        : launchProvenance(replacement, group, detail(partner), true)
    },
    corroborates: (record) => corroboratesRecord(record, group, detail, input.launched),
  })
  // A swap whose attach never happened unnames its launches as it closes: they are spotswap's again.
  const unname = input.launched
    .filter(
      (i) => recovery.unattachedSwapId !== undefined && i.tags[TAG_SWAP_ID] === recovery.unattachedSwapId,
    )
    .map((i) => i.id)
  actions.push(
    ...recovery.actions.map((a) => (a.kind === 'close-swap' && unname.length > 0 ? { ...a, unname } : a)),
  )
  const { halfDonePartners, givingBack } = recovery
  const halfDoneReplacements = new Set(recovery.halfDoneReplacements)
  if (recovery.waiting !== undefined) {
    // Shown against each replacement that waits, or the group when only desired capacity is owed.
    const waiters = recovery.halfDoneReplacements.length > 0 ? recovery.halfDoneReplacements : [group.name]
    for (const id of waiters)
      instanceSkips.push({ instanceId: id, code: 'swap-waits', reason: recovery.waiting })
  }

  // 3. Spot instances launched earlier and not attached: keep one per partner, drop what is not needed.
  // Launches this plan terminates are no longer in flight: they take no part of the budget.
  const terminated = new Set<string>()
  const terminate = (instance: Instance, reason: string): void => {
    terminated.add(instance.id)
    actions.push({ kind: 'terminate-spot', group: group.name, instanceId: instance.id, reason })
  }
  // Only spotswap's own launches are attached or terminated; anything else tagged like one is reported.
  const sorted = sortLaunches(input.launched, group, detail, recovery.unattachedSwapId)
  const { trusted } = sorted
  const untrusted = [...(recovery.untrusted ?? []), ...sorted.untrusted]
  for (const suspect of untrusted)
    instanceSkips.push({
      instanceId: suspect.instanceId,
      code: 'not-spotswaps-launch',
      reason: untrustedReason(suspect),
    })
  // A launch refused as already attached (it carries a swap's id) while a swap is open may be that swap's,
  // its attach not yet judged (the owner may have resized meanwhile): its partner gets no second
  // replacement until the swap closes (chaos seed 1458).
  const heldByOpenSwap = new Set<string>()
  if (recovery.open)
    for (const suspect of untrusted) {
      const partner = detail(suspect.instanceId)?.tags[TAG_REPLACING_INSTANCE]
      if (suspect.code === 'joined-a-group' && partner !== undefined) heldByOpenSwap.add(partner)
    }
  // Partners retired by this run's recovery are as good as gone: they leave no room for another launch.
  const replaceable = Math.max(0, onDemand.length - recovery.retiringOnDemand - minOnDemand)
  const { pendingByPartner, wanted, wantedForOnDemand } = keepReplacements({
    trusted,
    detail,
    isPartner,
    halfDonePartners,
    roles,
    replaceable,
    minOnDemand,
    terminate,
  })

  const grace = gracePeriodSeconds(group, config)
  const scheduleSeconds = input.scheduleMinutes * 60
  const started = startSwaps({
    group,
    now,
    wanted,
    doomedIds,
    warnedAt,
    isProtected,
    terminate,
    skipped,
    recovery,
    inService: inService.length,
    instanceSkips,
    actions,
    grace,
    scheduleSeconds,
  })
  const { ready } = started
  let { lookAgain, warmedIn } = started

  const released = releaseDoomed({
    group,
    doomed,
    skipped,
    tooLate,
    isProtected,
    kept: [givingBack, halfDonePartners],
    actions,
  })

  // Members of a closed swap joined for good: their launch tags go, so a later detach is never cleaned up.
  if (skipped === undefined && !recovery.open) {
    const isPair = (id: string): boolean => {
      const partner = detail(id)?.tags[TAG_REPLACING_INSTANCE]
      return partner !== undefined && isPartner(partner)
    }
    const settled = membersToSettle(group, detail, isPair, isProtected)
    if (settled.length > 0)
      actions.push({
        kind: 'settle-members',
        group: group.name,
        instanceIds: settled,
        reason: 'joined the group for good (no swap open): launch tags removed, membership recorded',
      })
  }

  // 4. New replacements: at-risk spot members first, then the oldest on-demand ones, within the
  // on-demand minimum and the in-flight budget.
  if (skipped === undefined) {
    // Replacements of doomed members are outside the budget: the capacity goes either way.
    const readyIds = new Set(ready.map((pair) => pair.spotInstanceId))
    const inFlight = wanted.filter(
      ([partner, instance]) =>
        !doomedIds.has(partner) && !readyIds.has(instance.id) && !terminated.has(instance.id),
    )
    const eligible = [...atRisk, ...onDemand].filter(
      (m) =>
        !pendingByPartner.has(m.instanceId) &&
        !halfDonePartners.has(m.instanceId) &&
        !heldByOpenSwap.has(m.instanceId) &&
        !givingBack.has(m.instanceId) &&
        !released.includes(m),
    )
    const movable = movableMembers({
      config,
      replaceable,
      eligible,
      roles,
      busy: [pendingByPartner, halfDonePartners, halfDoneReplacements, givingBack],
      detail,
      now,
    })
    const launches = planLaunches(input, config, {
      budget: inFlightLimit(config.maxReplacementsInFlight, inService.length) - inFlight.length,
      doomed: doomedIds,
      onDemandBudget: replaceable - wantedForOnDemand.filter(([, i]) => !terminated.has(i.id)).length,
      eligible,
      movable,
      spotMembers: spot,
      pendingSpot: wanted.map(([, instance]) => instance),
      targetSpot: inService.length - minOnDemand,
      instanceSkips,
      minOnDemand,
      inFlight: inFlight.map(([partner, instance]) => `${instance.id} (replacing ${partner})`),
      meter,
      unknownSubnets,
    })
    actions.push(...launches)
    if (!recovery.open && ready.length === 0 && launches.some((a) => a.kind === 'launch-spot'))
      warmedIn = Math.min(warmedIn, grace - GRACE_SLACK_SECONDS)
  }
  // A look a swap asks for (health, a doomed partner's deadline), before the warm-up look is added.
  const swapLook = lookAgain
  lookAgain = earlyLook(lookAgain, warmedIn, scheduleSeconds)

  return {
    group: group.name,
    region: group.region,
    skipped,
    ...(skip === undefined ? {} : { skip }),
    actions,
    instanceSkips,
    onDemand: onDemandStatuses({
      onDemand,
      detail,
      actions,
      instanceSkips,
      pending: new Map(wanted),
      halfDonePartners:
        heldByOpenSwap.size === 0 ? halfDonePartners : new Set([...halfDonePartners, ...heldByOpenSwap]),
      waiting: recovery.waiting,
      skip,
      saving: (type, zone) => projectedSaving(input, config, type, zone, meter),
      protection: (id) =>
        group.members.some((m) => m.instanceId === id && m.protectedFromScaleIn)
          ? 'protected-from-scale-in'
          : input.terminationProtected.has(id)
            ? 'api-termination-protection'
            : undefined,
    }),
    figures,
    ...(untrusted.length > 0 ? { untrusted } : {}),
    ...(recovery.awaitingHealth.length > 0 ? { awaitingHealth: recovery.awaitingHealth } : {}),
    ...(recovery.awaitingActivities ? { awaitingActivities: true } : {}),
    ...(unknownSubnets.size > 0 ? { unknownSubnets: [...unknownSubnets].sort() } : {}),
    ...(lookAgain === undefined ? {} : { lookAgainSeconds: lookAgain }),
    ...(lookAgain !== undefined && lookAgain !== swapLook ? { lookAgainFor: 'warm-up' as const } : {}),
  }
}
