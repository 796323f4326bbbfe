/**
 * planGroup: the replacer's decision for one group, a pure function of what was observed and `now`.
 * Order of concerns: undo what a crashed run left half-done, tidy spot instances launched earlier,
 * swap the ones that are ready, then start new replacements within the on-demand minimum and the
 * in-flight budget.
 */

import type { GroupConfig } from '../config/config.ts'
import { cronAllowsAction } from '../config/cron.ts'
import { isBeingDeleted, isLeavingGroup, staysInGroup } from '../config/managed.ts'
import {
  CHEAPER_POOL_MIN_AGE_MINUTES,
  DOOMED_SWAP_DEADLINE_SECONDS,
  GRACE_SLACK_SECONDS,
  HEALTH_POLL_SECONDS,
  ORPHAN_SCHEDULE_PERIODS,
  PLAN_WORK_UNITS_PER_GROUP,
  TAG_INTERRUPTION_WARNED,
  TAG_REBALANCE_AT_RISK,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP_ID,
} from '../constants.ts'
import { activeRefresh } from '../group/instance-refresh.ts'
import {
  corroboratesRecord,
  launchProvenance,
  membersToSettle,
  sortLaunches,
  untrustedReason,
} from '../group/provenance.ts'
import { blockingSuspensions } from '../group/suspended-processes.ts'
import { formatSwapRecord, type SwapRecord, swapIdAt } from '../swap/record.ts'
import { recoverSwaps } from '../swap/recover.ts'
import type { Group, GroupMember, Instance } from '../types.ts'
import type { Action, GroupPlan, GroupSkip, GroupSkipCode, InstanceSkip, SwapPair } from './actions.ts'
import { attemptNumber } from './attempts.ts'
import { groupFigures } from './figures.ts'
import { inFlightLimit, minOnDemandCount } from './group-sizes.ts'
import { planLaunches } from './launches.ts'
import { onDemandStatuses } from './liveness.ts'
import { byLaunchTimeThenId, type PlanInput } from './plan-input.ts'
import { compareCodePoints } from './selection.ts'
import { projectedSaving } from './selection-cache.ts'
import { PlanBudgetExceededError, WorkMeter } from './work-budget.ts'

export type { PlanInput } from './plan-input.ts'

/**
 * Skips that also hold an open swap: CloudFormation or the owner hold the group, or what the swap needs
 * to see cannot be seen. Finishing a swap only gives back what spotswap itself changed, so it goes on
 * outside the cron window and at desired 0.
 */
const HOLDS_OPEN_SWAP: ReadonlySet<GroupSkipCode> = new Set([
  'group-being-deleted',
  'cloudformation-stack-in-progress',
  'traffic-source-health-unreadable',
  'processes-suspended',
])

const LAUNCHING_TRANSITION = 'autoscaling:EC2_INSTANCE_LAUNCHING'

export const formatSkip = (skip: GroupSkip): string => `${skip.code} (${skip.detail})`

/** Why the group must not be acted on now (launches and swaps); undefined when it may. */
export const groupSkip = (input: PlanInput): GroupSkip | undefined => {
  const { group, config, now } = input
  if (isBeingDeleted(group))
    return { code: 'group-being-deleted', detail: group.status ?? 'Delete in progress' }
  if (group.desiredCapacity === 0) return { code: 'desired-capacity-zero', detail: 'desired capacity is 0' }
  if (input.stackStatus?.endsWith('_IN_PROGRESS'))
    return { code: 'cloudformation-stack-in-progress', detail: input.stackStatus }
  // A swap retires a partner only once its replacement serves: where that cannot be seen, no swap starts.
  if (group.trafficSources.unreadable.length > 0)
    return { code: 'traffic-source-health-unreadable', detail: group.trafficSources.unreadable.join(', ') }
  const suspended = blockingSuspensions(group)
  if (suspended.length > 0) return { code: 'processes-suspended', detail: suspended.join(', ') }
  // A swap counts one unit per instance (attach +1, retire -1); with weights an attach adds the
  // replacement's weight (https://docs.aws.amazon.com/autoscaling/ec2/userguide/asg-instance-weighting.html).
  const weighted = (group.mixedInstancesPolicy?.overrides ?? []).filter((o) => o.weightedCapacity !== 1)
  if (weighted.length > 0)
    return {
      code: 'weighted-capacity',
      detail: `${weighted.map((o) => `${o.instanceType}=${o.weightedCapacity}`).join(', ')}: a swap counts instances, not capacity units`,
    }
  // AttachInstances skips EC2_INSTANCE_LAUNCHING hooks: a replacement would miss the group's bootstrap or
  // deployment gate (https://docs.aws.amazon.com/autoscaling/ec2/userguide/lifecycle-hooks-overview.html).
  const launching = (input.lifecycleHooks ?? []).filter((h) => h.transition === LAUNCHING_TRANSITION)
  if (launching.length > 0 && !config.ignoreLaunchHooks)
    return {
      code: 'launch-hooks',
      detail: `${launching.map((h) => h.name).join(', ')}: an attached replacement would skip them; IGNORE_LAUNCH_HOOKS=true (or the tag autospotting_ignore_launch_hooks) swaps anyway`,
    }
  // A refresh replaces the group's instances itself: a swap now would be replaced again, or fight it.
  const refresh = activeRefresh(input.instanceRefresh)
  if (refresh !== undefined) return { code: 'instance-refresh', detail: `${refresh.id} is ${refresh.status}` }
  if (input.instanceRefresh?.kind === 'throttled')
    return {
      code: 'instance-refresh-unknown',
      detail: `reading its instance refreshes was throttled (${input.instanceRefresh.error}); next run reads again`,
    }
  if (!cronAllowsAction(config.cronSchedule, config.cronTimezone, config.cronScheduleState, now)) {
    return {
      code: 'outside-cron-window',
      detail: `${config.cronSchedule.raw} ${config.cronTimezone}, state ${config.cronScheduleState}`,
    }
  }
  return undefined
}

/** groupSkip as the text the summary, `plan` and the log show. */
export const groupSkipReason = (input: PlanInput): string | undefined => {
  const skip = groupSkip(input)
  return skip === undefined ? undefined : formatSkip(skip)
}

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
 * A replacement whose grace period ends well before the next scheduled run is swapped in then, not at
 * that run: a grace period shorter than the schedule must not cost a whole period per batch. Not sooner
 * than HEALTH_POLL_SECONDS, and only when it saves at least that much.
 */
const earlyLook = (
  lookAgain: number | undefined,
  warmedIn: number,
  scheduleSeconds: number,
): number | undefined => {
  const at = Math.ceil(Math.max(HEALTH_POLL_SECONDS, warmedIn))
  if (!Number.isFinite(warmedIn) || at > scheduleSeconds - HEALTH_POLL_SECONDS) return lookAgain
  return Math.min(lookAgain ?? at, at)
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
}

const planWithin = (input: PlanInput, meter: WorkMeter): GroupPlan => {
  const { group, now } = input
  const config = effectiveConfig(group, input.config)
  const actions: Action[] = []
  const instanceSkips: InstanceSkip[] = []
  const unknownSubnets = new Set<string>()
  const detail = (id: string): Instance | undefined => input.instances.get(id)
  const inService = group.members.filter((m) => m.lifecycleState === 'InService')
  const onDemand: GroupMember[] = []
  const spot: GroupMember[] = []
  for (const member of inService) {
    const lifecycle = detail(member.instanceId)?.lifecycle
    if (lifecycle === 'on-demand') onDemand.push(member)
    else if (lifecycle === 'spot') spot.push(member)
  }
  const onDemandIds = new Set(onDemand.map((m) => m.instanceId))
  // Spot members EC2 will interrupt within two minutes, which the interruption handler left in service for
  // us to replace ahead of the interruption.
  const warnedAt = (id: string): number => Date.parse(detail(id)?.tags[TAG_INTERRUPTION_WARNED] ?? '')
  const doomed = spot.filter((m) => detail(m.instanceId)?.tags[TAG_INTERRUPTION_WARNED] !== undefined)
  const doomedIds = new Set(doomed.map((m) => m.instanceId))
  // Too close to the interruption for a swap to be over before EC2 takes the member.
  const tooLate = (id: string): boolean => now.getTime() >= warnedAt(id) + DOOMED_SWAP_DEADLINE_SECONDS * 1000
  // Those and the ones flagged after a rebalance recommendation: replaced like on-demand ones (into
  // another pool), without counting against the on-demand minimum.
  const atRisk = spot.filter(
    (m) => doomedIds.has(m.instanceId) || detail(m.instanceId)?.tags[TAG_REBALANCE_AT_RISK] !== undefined,
  )
  const atRiskIds = new Set(atRisk.map((m) => m.instanceId))
  // Spot members a replacement was launched for to move them to a cheaper pool: its partners, too.
  const movingIds = new Set(
    spot
      .filter(
        (m) =>
          !atRiskIds.has(m.instanceId) && detail(m.instanceId)?.tags[TAG_REPLACEMENT_ATTEMPT] !== undefined,
      )
      .map((m) => m.instanceId),
  )
  const isPartner = (id: string): boolean => onDemandIds.has(id) || atRiskIds.has(id) || movingIds.has(id)
  // The minimum is the owner's share of the group's own size: a replacement attached beside its partner
  // (an open swap's +1) is not counted, or a percentage that rounds up for the larger size would keep
  // the partner and retire the replacement, and the next run launch again (seed 20867: 33.3% of 1 is 0,
  // of 2 is 1).
  const inServiceIds = new Set(inService.map((m) => m.instanceId))
  const besidePartner = spot.filter((m) => {
    const partner = detail(m.instanceId)?.tags[TAG_REPLACING_INSTANCE]
    return partner !== undefined && inServiceIds.has(partner)
  }).length
  const minOnDemand = minOnDemandCount(config, inService.length - besidePartner, group.mixedInstancesPolicy)
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
  const terminate = (instance: Instance, reason: string): void => {
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
  const pendingByPartner = new Map<string, Instance>()
  for (const instance of trusted.sort(byLaunchTimeThenId)) {
    const partner = instance.tags[TAG_REPLACING_INSTANCE]
    if (partner === undefined || !isPartner(partner)) {
      terminate(instance, 'partner-gone: the instance it was launched to replace is no longer in service')
    } else if (halfDonePartners.has(partner)) {
      terminate(instance, `duplicate-replacement: ${partner} already has an attached replacement`)
    } else if (pendingByPartner.has(partner)) {
      terminate(
        instance,
        `duplicate-replacement: ${pendingByPartner.get(partner)?.id} already replaces ${partner}`,
      )
    } else {
      pendingByPartner.set(partner, instance)
    }
  }
  // Partners retired by this run's recovery are as good as gone: they leave no room for another launch.
  const replaceable = Math.max(0, onDemand.length - recovery.retiringOnDemand - minOnDemand)
  // The oldest partners keep their replacements; the newest on-demand instances are the ones kept.
  // Replacements of at-risk spot members are always wanted: they do not change the on-demand count.
  const pending = [...pendingByPartner.entries()].sort(([a], [b]) => {
    const ia = detail(a)
    const ib = detail(b)
    return ia && ib ? byLaunchTimeThenId(ia, ib) : compareCodePoints(a, b)
  })
  const pendingForAtRisk = pending.filter(([partner]) => atRiskIds.has(partner) || movingIds.has(partner))
  const pendingForOnDemand = pending.filter(([partner]) => onDemandIds.has(partner))
  for (const [, instance] of pendingForOnDemand.slice(replaceable)) {
    terminate(instance, `not-needed: the group must keep ${minOnDemand} on-demand instance(s)`)
  }
  const wantedForOnDemand = pendingForOnDemand.slice(0, replaceable)
  const wanted = [...pendingForAtRisk, ...wantedForOnDemand]

  const grace = gracePeriodSeconds(group, config)
  const scheduleSeconds = input.scheduleMinutes * 60
  // Terminated by the last run before the orphan deadline, not the first one after it.
  const orphanAfterSeconds = grace + (ORPHAN_SCHEDULE_PERIODS - 1) * scheduleSeconds
  const ready: SwapPair[] = []
  // Ready but for the open swap: the next swap starts once this one closes.
  let behindOpenSwap = 0
  // Seconds until the first replacement warming up may be swapped in (see earlyLook below).
  let warmedIn = Number.POSITIVE_INFINITY
  for (const [partner, instance] of wanted) {
    const ageSeconds = (now.getTime() - instance.launchTime.getTime()) / 1000
    const pastGrace = doomedIds.has(partner) ? !tooLate(partner) : ageSeconds + GRACE_SLACK_SECONDS >= grace
    if (isProtected(partner)) {
      terminate(instance, `partner-protected: ${partner} was protected since its replacement was launched`)
    } else if (
      skipped === undefined &&
      // A swap this run finishes and closes lets the next one start after it, in the same run; not for a
      // replacement at its orphan deadline (that swap waits on the close, and the spare must go now).
      (!recovery.open || (recovery.closes !== undefined && ageSeconds <= orphanAfterSeconds)) &&
      !givingBack.has(partner) &&
      inService.length >= group.desiredCapacity &&
      instance.state === 'running' &&
      // A doomed partner is gone in two minutes: no grace period is worth waiting for.
      pastGrace
    ) {
      ready.push({ spotInstanceId: instance.id, onDemandInstanceId: partner })
    } else if (ageSeconds > orphanAfterSeconds) {
      terminate(instance, `not-attachable-in-time: not swapped within ${orphanAfterSeconds}s of launch`)
    } else if (recovery.open && pastGrace && instance.state === 'running') {
      behindOpenSwap++
      instanceSkips.push({
        instanceId: instance.id,
        code: 'waiting-for-open-swap',
        reason: `waiting-for-open-swap: replaces ${partner}; starts once the open swap closes`,
      })
    } else {
      if (!recovery.open && instance.state !== 'pending')
        warmedIn = Math.min(
          warmedIn,
          (instance.launchTime.getTime() - now.getTime()) / 1000 + grace - GRACE_SLACK_SECONDS,
        )
      else if (!recovery.open) warmedIn = Math.min(warmedIn, HEALTH_POLL_SECONDS)
      const graceUntil = new Date(instance.launchTime.getTime() + grace * 1000).toISOString()
      instanceSkips.push({
        instanceId: instance.id,
        code: 'warming-up',
        reason: `warming-up: replaces ${partner}; grace until ${graceUntil}`,
      })
    }
  }
  let lookAgain = recovery.lookAgainSeconds
  // The open swap closes in this run: the replacements behind it start their swap at the next look.
  if (behindOpenSwap > 0 && recovery.actions.some((a) => a.kind === 'close-swap'))
    lookAgain = Math.min(lookAgain ?? HEALTH_POLL_SECONDS, HEALTH_POLL_SECONDS)
  if (ready.length > 0) {
    // After this run's close, when there is one: desired back at the owner's, MaxSize restored.
    const desiredNow = recovery.closes?.desired ?? group.desiredCapacity
    const maxSizeNow = recovery.closes?.maxSize ?? group.maxSize
    const needed = desiredNow + ready.length
    const raise = needed > maxSizeNow
    const record: SwapRecord = {
      version: 2,
      id: swapIdAt(now),
      phase: 'attaching',
      ownerDesired: desiredNow,
      pairs: ready.length,
      step: undefined,
      originalMaxSize: raise ? maxSizeNow : undefined,
      startedAt: now,
    }
    actions.push({
      kind: 'swap',
      group: group.name,
      pairs: ready,
      originalMaxSize: maxSizeNow,
      raiseMaxSizeTo: raise ? needed : undefined,
      swapId: record.id as string,
      swapRecord: formatSwapRecord(record),
      attachedRecord: formatSwapRecord({ ...record, phase: 'waiting' }),
      reason: `spot replacement(s) ran for the ${grace}s grace period; partners retire once they serve`,
    })
    // The partners retire once the replacements serve: look then, or when a doomed partner must leave.
    const doomedLeave = ready
      .filter((pair) => doomedIds.has(pair.onDemandInstanceId))
      .map(
        (pair) =>
          (warnedAt(pair.onDemandInstanceId) + DOOMED_SWAP_DEADLINE_SECONDS * 1000 - now.getTime()) / 1000,
      )
    // The first look reads the load balancers' health-check settings, which time the next one.
    lookAgain = Math.ceil(Math.max(HEALTH_POLL_SECONDS / 2, Math.min(HEALTH_POLL_SECONDS, ...doomedLeave)))
  }

  // Doomed members that can no longer be swapped out (too late, or the group is not acted on now: cron
  // window, suspended processes, a stack update) leave at once, as the interruption handler would have
  // made them, rather than wait for EC2.
  // A doomed partner of an attached replacement leaves through the swap (with the attach's unit).
  const released = (skipped === undefined ? doomed.filter((m) => tooLate(m.instanceId)) : doomed).filter(
    (m) => !givingBack.has(m.instanceId) && !halfDonePartners.has(m.instanceId),
  )
  if (!isBeingDeleted(group))
    for (const member of released)
      if (!isProtected(member.instanceId))
        actions.push({
          kind: 'release-doomed',
          group: group.name,
          instanceId: member.instanceId,
          reason: `interrupted soon and not replaced ahead: ${skipped ?? `more than ${DOOMED_SWAP_DEADLINE_SECONDS}s since the warning`}`,
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
    const stillPending = wanted.filter(
      ([partner, instance]) => !doomedIds.has(partner) && !readyIds.has(instance.id),
    ).length
    const eligible = [...atRisk, ...onDemand].filter(
      (m) =>
        !pendingByPartner.has(m.instanceId) &&
        !halfDonePartners.has(m.instanceId) &&
        !heldByOpenSwap.has(m.instanceId) &&
        !givingBack.has(m.instanceId) &&
        !released.includes(m),
    )
    // Moves only in a group with nothing else to replace, so they never hold the budget on-demand and
    // at-risk members need (one that backs off still counts); not even looked for otherwise.
    const movesAllowed =
      config.cheaperPoolMinSavingPercentage > 0 &&
      replaceable === 0 &&
      !eligible.some((m) => atRiskIds.has(m.instanceId))
    const movable = !movesAllowed
      ? []
      : spot.filter(
          (m) =>
            !atRiskIds.has(m.instanceId) &&
            !pendingByPartner.has(m.instanceId) &&
            !halfDonePartners.has(m.instanceId) &&
            !halfDoneReplacements.has(m.instanceId) &&
            !givingBack.has(m.instanceId) &&
            now.getTime() - (detail(m.instanceId)?.launchTime.getTime() ?? now.getTime()) >=
              CHEAPER_POOL_MIN_AGE_MINUTES * 60_000,
        )
    const launches = planLaunches(input, config, {
      budget: inFlightLimit(config.maxReplacementsInFlight, inService.length) - stillPending,
      doomed: doomedIds,
      onDemandBudget: replaceable - wantedForOnDemand.length,
      eligible,
      movable,
      spotMembers: spot,
      pendingSpot: wanted.map(([, instance]) => instance),
      targetSpot: inService.length - minOnDemand,
      instanceSkips,
      minOnDemand,
      inFlight: wanted.flatMap(([partner, instance]) =>
        doomedIds.has(partner) || readyIds.has(instance.id) ? [] : [`${instance.id} (replacing ${partner})`],
      ),
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
    ...(unknownSubnets.size > 0 ? { unknownSubnets: [...unknownSubnets].sort() } : {}),
    ...(lookAgain === undefined ? {} : { lookAgainSeconds: lookAgain }),
    ...(lookAgain !== undefined && lookAgain !== swapLook ? { lookAgainFor: 'warm-up' as const } : {}),
  }
}
