/**
 * planGroup: the replacer's decision for one group, a pure function of what was observed and `now`.
 * Order of concerns: undo what a crashed run left half-done, tidy spot instances launched earlier,
 * swap the ones that are ready, then start new replacements within the on-demand minimum and the
 * in-flight budget.
 */

import {
  GRACE_SLACK_SECONDS,
  PLAN_WORK_UNITS_PER_GROUP,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP_ID,
} from '../constants.ts'
import { ecsProtectionUnread, keptFromSwap, leftoverUndrains } from '../ecs/drain-view.ts'
import {
  isUnverifiedLaunch,
  sortLaunches,
  type UntrustedInstance,
  untrustedReason,
} from '../group/provenance.ts'
import { unconfirmedReason } from '../interruption/confirmation.ts'
import { planMaintenance } from '../maintenance/plan.ts'
import { planRevert } from '../revert/plan.ts'
import { withSwapAhead } from '../swap/launched-ahead.ts'
import { judgeNeverServed, pairedAfter } from '../swap/never-served.ts'
import type { Recovery } from '../swap/recovery.ts'
import type { GroupMember, Instance } from '../types.ts'
import type { Action, GroupPlan } from './actions.ts'
import { attachWaitSeconds } from './attach-wait.ts'
import { budgetExceededPlan } from './budget-exceeded.ts'
import { movableMembers } from './cheaper-pool.ts'
import { releaseDoomed } from './doomed-release.ts'
import { groupFigures } from './figures.ts'
import { inFlightLimit, judgedBeyondInService } from './group-sizes.ts'
import { formatSkip, groupSkip, RETIRES_NEVER_SERVED } from './group-skip.ts'
import { groupView } from './group-view.ts'
import { keepReplacements } from './kept-replacements.ts'
import { markRoomFreedThisRun } from './launch-room.ts'
import { planLaunches } from './launches.ts'
import { onDemandStatuses } from './liveness.ts'
import { recoverOpenSwap } from './open-swap.ts'
import type { PlanInput } from './plan-input.ts'
import type { InstanceSkip } from './reasons.ts'
import { projectedSaving } from './selection-cache.ts'
import { earlyLook, startSwaps, staysOpen } from './swap-start.ts'
import { PlanBudgetExceededError, WorkMeter } from './work-budget.ts'

export type { PlanInput } from './plan-input.ts'

/**
 * planGroup within the group's work budget (PlanInput.workUnits): a group whose plan would take more is
 * skipped (`plan-budget-exceeded`), nothing done to it this run, and the region's other groups proceed.
 */
export const planGroup = (input: PlanInput): GroupPlan => {
  const meter = new WorkMeter(input.workUnits ?? PLAN_WORK_UNITS_PER_GROUP)
  try {
    const plan = planWithin(input, meter)
    // A marker that could not be verified is neither believed nor dismissed: the group is left as it is
    // (what the plan would do with the marker absent, a release or a termination, may be wrong).
    return input.markersUnverifiable === undefined ? plan : { ...plan, actions: [] }
  } catch (error) {
    if (!(error instanceof PlanBudgetExceededError)) throw error
    return budgetExceededPlan(input, error)
  }
}

/**
 * Terminates a launch the plan drops: it is no longer in flight and takes no part of the budget. Made once
 * per plan, unnamed (see group-view.ts).
 */
const dropping =
  (group: string, actions: Action[], terminated: Set<string>) =>
  (instance: Instance, reason: string): void => {
    terminated.add(instance.id)
    actions.push({ kind: 'terminate-spot', group, instanceId: instance.id, reason })
  }

/**
 * A refused launch as the plan reports it. One that carries the open swap's id while only the scaling
 * activities can tell whether that swap attached it (`swap-undecided`, core/swap/recover.ts, chaos seed
 * 2148) waits with the swap: judged once they are read, and not reported as a launch that is not
 * spotswap's.
 */
const refusedSkip = (suspect: UntrustedInstance, recovery: Recovery): InstanceSkip =>
  suspect.code === 'swap-undecided'
    ? {
        instanceId: suspect.instanceId,
        code: 'swap-waits',
        reason: `${recovery.waiting ?? 'swap waits'}; ${suspect.detail}, so it is neither attached nor terminated until they are read`,
      }
    : { instanceId: suspect.instanceId, code: 'not-spotswaps-launch', reason: untrustedReason(suspect) }

/**
 * The refused launches spotswap made and cannot verify (provenance.ts isUnverifiedLaunch), and the
 * partners they hold: each such partner is told why it gets no new replacement.
 */
const unverifiedLaunches = (
  refused: readonly UntrustedInstance[],
  detail: (id: string) => Instance | undefined,
  instanceSkips: InstanceSkip[],
): { readonly launches: readonly UntrustedInstance[]; readonly partners: ReadonlySet<string> } => {
  const launches = refused.filter(isUnverifiedLaunch)
  const partners = new Set<string>()
  for (const suspect of launches) {
    const partner = detail(suspect.instanceId)?.tags[TAG_REPLACING_INSTANCE]
    if (partner === undefined || partners.has(partner)) continue
    partners.add(partner)
    instanceSkips.push({
      instanceId: partner,
      code: 'unverified-launch',
      reason: `unverified-launch: ${suspect.instanceId}, launched to replace it, cannot be verified (${suspect.detail}); no new replacement until it is attached, terminated or gone`,
    })
  }
  return { launches, partners }
}

const NONE: ReadonlySet<string> = new Set()
const NO_PENDING: ReadonlyMap<string, Instance> = new Map()

/**
 * The ids in a set; the shared empty one for none. Most groups of a large run have no open swap and
 * nothing the recovery judged: ten thousand empty sets a run, each kept through the plan, are garbage.
 */
const setOf = (ids: readonly string[]): ReadonlySet<string> => (ids.length === 0 ? NONE : new Set(ids))

/** Launches outside the group the recovery terminates this run (a partial attach's). */
const recoveryTerminations = (recovery: Recovery): string[] =>
  recovery.actions.flatMap((a) => (a.kind === 'terminate-spot' ? [a.instanceId] : []))

/** Launches the recovery judged (a partial attach's, or refused): the plan leaves them to it. */
const judgedBy = (recovery: Recovery): ReadonlySet<string> => {
  const unattached = recovery.unattachedLaunches ?? []
  const untrusted = recovery.untrusted ?? []
  if (unattached.length === 0 && untrusted.length === 0) return NONE
  return new Set([...unattached.map((i) => i.id), ...untrusted.map((u) => u.instanceId)])
}

/**
 * The lists one after another, in order. A new array always (callers may keep or extend it), built
 * without the spread's intermediate iterators: most of these lists are empty.
 */
const joined = <T>(lists: readonly (readonly T[] | undefined)[]): T[] => {
  const all: T[] = []
  for (const list of lists) if (list !== undefined) for (const item of list) all.push(item)
  return all
}

/** What takes the in-flight budget, as a member waiting on it is told (launches.ts budgetWaits). */
const inFlightNames = (
  inFlight: readonly (readonly [string, Instance])[],
  unverified: readonly UntrustedInstance[],
): string[] => {
  const names: string[] = []
  for (const [partner, instance] of inFlight) names.push(`${instance.id} (replacing ${partner})`)
  for (const suspect of unverified) names.push(`${suspect.instanceId} (unverified)`)
  return names
}

/**
 * On-demand partners of the open swap's attached replacements that this run does not retire: they leave
 * once their replacements serve. Those it retires are counted in the recovery's `retiringOnDemand`.
 */
const waitingPartners = (
  onDemand: readonly GroupMember[],
  halfDonePartners: ReadonlySet<string>,
  actions: readonly Action[],
): number => {
  if (halfDonePartners.size === 0) return 0
  const retired = new Set<string>()
  for (const action of actions)
    if (action.kind === 'complete-swap' && action.retire === 'partner')
      retired.add(action.pair.onDemandInstanceId)
  let waiting = 0
  for (const member of onDemand)
    if (halfDonePartners.has(member.instanceId) && !retired.has(member.instanceId)) waiting++
  return waiting
}

const planWithin = (input: PlanInput, meter: WorkMeter): GroupPlan => {
  const { group, now } = input
  const view = groupView(input)
  const { config, roles, minOnDemand, detail, isPartner, isProtected } = view
  const { inService, onDemand, spot, doomed, doomedIds, atRisk } = roles
  const actions: Action[] = []
  const instanceSkips: InstanceSkip[] = []
  const unknownSubnets = new Set<string>()
  // A revert the owner asked for (core/revert/plan.ts): no swap or launch starts while it goes, or after.
  const revert = planRevert({
    group,
    now,
    detail,
    isProtected,
    health: input.health,
    graceSeconds: view.graceSeconds,
  })
  const skip = groupSkip(input) ?? revert.skip ?? input.regionReadSkip
  const skipped = skip === undefined ? undefined : formatSkip(skip)
  const figures = groupFigures(input, inService, minOnDemand)

  // 1-2. Finish what an earlier run left of a swap (record, MaxSize, attached replacements).
  const recovery = recoverOpenSwap(view, skip, skipped, actions, instanceSkips)
  const { halfDonePartners, givingBack } = recovery
  actions.push(...leftoverUndrains(view, recovery.halfDoneReplacements))
  const halfDoneReplacements = setOf(recovery.halfDoneReplacements)

  // 3. Spot instances launched earlier and not attached: keep one per partner, drop what is not needed.
  // Launches this plan terminates are no longer in flight: they take no part of the budget.
  const terminated = new Set<string>()
  const terminate = dropping(group.name, actions, terminated)
  // Only spotswap's own launches are attached or terminated; anything else tagged like one is reported.
  // Launches the recovery judged (a partial attach's: terminated, or left alone and reported) are its.
  const judgedByRecovery = judgedBy(recovery)
  const launched =
    judgedByRecovery.size === 0 ? input.launched : input.launched.filter((i) => !judgedByRecovery.has(i.id))
  const sorted = sortLaunches(launched, group, detail, {
    unattached: recovery.unattachedSwapId,
    undecided: recovery.undecidedSwapId,
  })
  const { trusted } = sorted
  const refused =
    recovery.untrusted === undefined ? sorted.untrusted : [...recovery.untrusted, ...sorted.untrusted]
  const untrusted = refused.filter((suspect) => suspect.code !== 'swap-undecided')
  for (const suspect of refused) instanceSkips.push(refusedSkip(suspect, recovery))
  // Tagged as warned, not confirmed by EC2: not doomed, only said (plan, log, UntrustedMarkers).
  for (const { instanceId } of roles.unconfirmed)
    instanceSkips.push({ instanceId, ...unconfirmedReason(instanceId, input.interruptions) })
  // A launch refused as already attached (it carries a swap's id) while a swap is open may be that swap's,
  // its attach not yet judged (the owner may have resized meanwhile): its partner gets no second
  // replacement until the swap closes (chaos seed 1458).
  const heldByOpenSwap = new Set<string>()
  for (const instance of recovery.unattachedLaunches ?? []) {
    const partner = instance.tags[TAG_REPLACING_INSTANCE]
    if (partner !== undefined) heldByOpenSwap.add(partner)
  }
  // Any instance carrying the open swap's id, a launch or a member (leaving ones too), is its evidence until
  // the swap is judged: its partner's next replacement would rewrite the partner's record of it and leave
  // the swap's unit looking planted (chaos seed 1129: an attached replacement interrupted and leaving,
  // its partner replaced again, the unit never given back).
  if (recovery.recordId !== undefined) {
    const carriers = [...input.launched, ...group.members.map((m) => detail(m.instanceId))]
    for (const instance of carriers) {
      const partner = instance?.tags[TAG_REPLACING_INSTANCE]
      if (partner !== undefined && instance?.tags[TAG_SWAP_ID] === recovery.recordId)
        heldByOpenSwap.add(partner)
    }
  }
  // Such a launch may be the open swap's, never attached: until the swap is judged it is a spot instance
  // spotswap launched outside the group, so it takes its room in the in-flight budget (chaos seed 8971).
  let maybeTheSwaps = 0
  if (recovery.open)
    for (const suspect of refused) {
      const partner = detail(suspect.instanceId)?.tags[TAG_REPLACING_INSTANCE]
      const mayBeTheSwaps = suspect.code === 'joined-a-group' || suspect.code === 'swap-undecided'
      if (mayBeTheSwaps) maybeTheSwaps++
      if (mayBeTheSwaps && partner !== undefined) heldByOpenSwap.add(partner)
    }
  // Launches spotswap made and cannot verify hold their partners and take part of the budget (provenance.ts).
  const unverified = unverifiedLaunches(sorted.untrusted, detail, instanceSkips)
  // Partners retired by this run's recovery are as good as gone, and so are those of attached replacements
  // still waiting to serve: none leaves room for another launch (scheduled-retirement's `after` group
  // launched for both members its minimum keeps while its first pairs waited, then terminated them).
  const replaceable = Math.max(
    0,
    onDemand.length -
      recovery.retiringOnDemand -
      waitingPartners(onDemand, halfDonePartners, actions) -
      minOnDemand,
  )
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

  const grace = view.graceSeconds
  const attachWait = attachWaitSeconds(group, config.gracePeriodSeconds)
  const scheduleSeconds = input.scheduleMinutes * 60
  const started = startSwaps({
    group,
    now,
    wanted,
    doomedIds,
    warnedAt: view.warnedAt,
    tooLate: view.tooLate,
    // A partner ECS protects and a drain swap drains is not kept (core/ecs/drain.ts).
    isProtected: keptFromSwap(view),
    protectionUnread: ecsProtectionUnread(view),
    terminate,
    skipped,
    recovery,
    inService: inService.length,
    instanceSkips,
    actions,
    grace,
    attachWait,
    scheduleSeconds,
  })
  const { ready } = started
  // Replacements this run attaches, in a swap of their own or into the open one: no longer in flight.
  const attaching = [...ready, ...started.joining]
  let { lookAgain, warmedIn } = started

  const released = releaseDoomed({
    group,
    doomed,
    skipped,
    skipCode: skip?.code,
    tooLate: view.tooLate,
    isProtected,
    kept: [givingBack, halfDonePartners],
    actions,
  })

  // Members spotswap attached, outside the open swap's pairs: settled once seen serving (their launch tags
  // go, so a later detach is never cleaned up), gone without a decrement if never by their deadline.
  const neverServed =
    skip === undefined || RETIRES_NEVER_SERVED.has(skip.code)
      ? judgeNeverServed({
          group,
          now,
          detail,
          isProtected,
          isPair: pairedAfter(view.replacesPartner, actions),
          health: input.health,
          graceSeconds: grace,
          scheduleSeconds: input.scheduleMinutes * 60,
        })
      : undefined
  if (neverServed !== undefined && !recovery.open && neverServed.served.length > 0)
    actions.push({
      kind: 'settle-members',
      group: group.name,
      instanceIds: neverServed.served,
      reason:
        'joined the group for good (seen serving, no swap open): launch tags removed, membership recorded',
    })
  for (const { instanceId, reason } of neverServed?.leave ?? [])
    actions.push({ kind: 'release-doomed', group: group.name, instanceId, reason })
  const judgeAgain = neverServed?.lookAgainSeconds
  if (judgeAgain !== undefined) lookAgain = Math.min(lookAgain ?? judgeAgain, judgeAgain)
  // Members with an EC2 scheduled event (core/maintenance/plan.ts): an open replacement holds new launches.
  const maintenance = planMaintenance({
    group,
    now,
    detail,
    isProtected,
    graceSeconds: grace,
    events: input.scheduledEvents,
    enabled: config.replaceScheduled,
    onDemand,
    spot,
    health: input.health,
  })
  if (skipped === undefined) actions.push(...maintenance.actions)
  const awaitingHealth = joined([
    recovery.awaitingHealth,
    neverServed?.awaitingHealth,
    maintenance.awaitingHealth,
    revert.awaitingHealth,
  ])

  // 4. New replacements: at-risk spot members first, then the oldest on-demand ones (in a group ECS
  // manages, those running the fewest tasks first), within the on-demand minimum and the in-flight budget.
  if (skipped === undefined && !maintenance.holds) {
    // Replacements of doomed members are outside the budget: the capacity goes either way.
    const readyIds = new Set(attaching.map((pair) => pair.spotInstanceId))
    const inFlight = wanted.filter(
      ([partner, instance]) =>
        !doomedIds.has(partner) && !readyIds.has(instance.id) && !terminated.has(instance.id),
    )
    const eligible = joined([atRisk, onDemand]).filter(
      (m) =>
        !pendingByPartner.has(m.instanceId) &&
        !halfDonePartners.has(m.instanceId) &&
        !heldByOpenSwap.has(m.instanceId) &&
        !unverified.partners.has(m.instanceId) &&
        !givingBack.has(m.instanceId) &&
        !released.includes(m),
    )
    const movable = movableMembers({
      config,
      replaceable,
      eligible,
      roles,
      // A partner an unverifiable launch holds moves no more than it is replaced (seed 5034).
      busy: [pendingByPartner, halfDonePartners, halfDoneReplacements, givingBack, unverified.partners],
      detail,
      now,
    })
    // A share of the group's own size, as the minimum is: an open swap's replacement beside its partner
    // is not counted, or the run that retires the partner launches for a size the group loses (seed 5832).
    const budget =
      inFlightLimit(
        config.maxReplacementsInFlight,
        inService.length - roles.besidePartner,
        judgedBeyondInService(group.trafficSources, group.tags),
      ) -
      inFlight.length -
      unverified.launches.length -
      maybeTheSwaps
    const launches = planLaunches(input, config, {
      budget,
      doomed: doomedIds,
      onDemandBudget: replaceable - wantedForOnDemand.filter(([, i]) => !terminated.has(i.id)).length,
      eligible,
      movable,
      spotMembers: spot,
      pendingSpot: wanted.map(([, instance]) => instance),
      targetSpot: inService.length - minOnDemand,
      instanceSkips,
      minOnDemand,
      inFlight: inFlightNames(inFlight, unverified.launches),
      meter,
      unknownSubnets,
    })
    // The swap's replacements and the launches this plan drops are in flight until its writes succeed.
    const swapId = actions.find((a) => a.kind === 'swap')?.swapId
    const freedBySwap = attaching.filter((pair) => !doomedIds.has(pair.onDemandInstanceId)).length
    const launching = markRoomFreedThisRun(launches, budget, {
      swapId,
      // The recovery's own terminations (a partial attach's launches) free room as the plan's do: a launch
      // in it waits for them too, or it is made beside a launch whose termination failed (seed 5295).
      terminated: [...terminated, ...recoveryTerminations(recovery)],
      freedBySwap,
    })
    // A doomed member's replacement records its swap as it launches (core/swap/launched-ahead.ts).
    actions.push(
      ...withSwapAhead(
        {
          group,
          now,
          // A held raise (closing.ts heldRaise) stands in the record: never write over it ahead.
          swapOpen: recovery.open || recovery.closes?.originalMaxSize !== undefined,
          launchedAhead: recovery.launchedAhead,
          actions,
          leavesAt: (id) => view.leavesAt(id),
        },
        launching,
      ),
    )
    if (!staysOpen(recovery) && ready.length === 0 && launches.some((a) => a.kind === 'launch-spot'))
      warmedIn = Math.min(warmedIn, attachWait - GRACE_SLACK_SECONDS)
  }
  // A raise for a scheduled event only in a group where nothing else changes desired capacity.
  const quiet =
    !recovery.open && input.launched.length === 0 && !actions.some((a) => a.kind !== 'maintenance')
  if (skipped === undefined && maintenance.start !== undefined && quiet) actions.push(maintenance.start)
  if (skip?.code === 'reverting' && quiet && actions.length === 0) actions.push(...revert.actions)
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
      pending: wanted.length === 0 ? NO_PENDING : new Map(wanted),
      halfDonePartners:
        heldByOpenSwap.size === 0 ? halfDonePartners : new Set([...halfDonePartners, ...heldByOpenSwap]),
      waiting: recovery.waiting,
      skip,
      maintenance: maintenance.holds ? { replacing: maintenance.replacing } : undefined,
      // A method, not a named arrow function (see group-view.ts).
      saving(type, zone) {
        return projectedSaving(input, config, type, zone, meter)
      },
      protection: view.protection,
    }),
    figures,
    ...(untrusted.length > 0 ? { untrusted } : {}),
    ...(unverified.launches.length > 0 ? { unverified: unverified.launches } : {}),
    ...(awaitingHealth.length > 0 ? { awaitingHealth } : {}),
    ...(maintenance.scheduled.length > 0 ? { scheduled: maintenance.scheduled } : {}),
    ...(recovery.awaitingActivities ? { awaitingActivities: true } : {}),
    ...(unknownSubnets.size > 0 ? { unknownSubnets: [...unknownSubnets].sort() } : {}),
    ...(lookAgain === undefined ? {} : { lookAgainSeconds: lookAgain }),
    ...(lookAgain !== undefined && lookAgain !== swapLook ? { lookAgainFor: 'warm-up' as const } : {}),
    ...(lookAgain !== undefined && lookAgain !== swapLook && swapLook !== undefined
      ? { swapLookSeconds: swapLook }
      : {}),
  }
}
