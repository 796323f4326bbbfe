/**
 * Finishing an open swap pair by pair: each half-done pair's situation (serving, kept, protected, past its
 * deadline) becomes a retirement, a wait or a release, and each vanished pair's unit is given back.
 */

import type { DrainStep } from '../ecs/drain.ts'
import {
  hasTrafficSources,
  healthCheckSeconds,
  healthDeadlineSeconds,
  lookAgainSeconds,
  servingOf,
} from '../group/serving.ts'
import type { Action, SwapPair } from '../plan/actions.ts'
import { capacityBackoffMinutes } from '../plan/capacity-backoff.ts'
import { closeAction } from './closing.ts'
import { joinableRecord } from './joining.ts'
import { ownerChangeSince } from './partial-attach.ts'
import { formatSwapRecord, maxSizeToRestore, type SwapRecord, stepDown } from './record.ts'

import { base, type Recovery, type RecoveryInput } from './recovery.ts'
import { type PairSituation, pairTransition, vanishedTransition } from './transitions.ts'

const pairSituation = (
  input: RecoveryInput,
  pair: SwapPair,
  keepsMinimum: boolean,
  deadlineMs: number,
): { situation: PairSituation; detail: string } => {
  const partnerProtected = input.isProtected(pair.onDemandInstanceId)
  if (!keepsMinimum || partnerProtected) {
    if (input.isProtected(pair.spotInstanceId)) return { situation: 'both-protected', detail: '' }
    return {
      situation: 'partner-kept',
      detail: partnerProtected ? 'the partner is protected' : 'the on-demand minimum keeps the partner',
    }
  }
  return servingSituation(input, pair, deadlineMs)
}

/** A pair whose partner may leave: by whether its replacement serves, and the swap's deadline. */
const servingSituation = (
  input: RecoveryInput,
  pair: SwapPair,
  deadlineMs: number,
): { situation: PairSituation; detail: string } => {
  const nowMs = input.now.getTime()
  const leavesAt = input.leavesAt(pair.onDemandInstanceId)
  if (leavesAt !== undefined && leavesAt <= nowMs) return { situation: 'partner-doomed-now', detail: '' }
  const serving = servingOf(input.group, pair.spotInstanceId, input.health)
  if (serving.serving) return { situation: 'serving', detail: '' }
  // Not read yet: the replacer reads it and plans again; no verdict (nor deadline) on what was not asked.
  if (input.health === undefined && serving.code === 'health-unread')
    return { situation: 'health-unread', detail: serving.detail }
  if (nowMs >= deadlineMs && input.isProtected(pair.spotInstanceId))
    return { situation: 'replacement-protected', detail: serving.detail }
  if (nowMs >= deadlineMs)
    return {
      situation: 'not-serving-by-deadline',
      detail: `${serving.detail} at its deadline ${new Date(deadlineMs).toISOString()}`,
    }
  return {
    situation: serving.code === 'health-unread' ? 'health-unread' : 'not-serving-yet',
    detail: serving.detail,
  }
}

/**
 * Each half-done pair by PAIR_TRANSITIONS (a retirement with a decrement once its replacement serves),
 * then each vanished pair's unit by VANISHED_TRANSITIONS, each step announced in the record first, so a
 * run cut short among them is still recognised as spotswap's; the swap closes once every unit is back.
 */
export const finishPairs = (
  input: RecoveryInput,
  record: SwapRecord,
  halfDone: readonly SwapPair[],
  vanished: number,
): Recovery => {
  const { group } = input
  const actions: Action[] = []
  let onDemandLeft = input.onDemandIds.size
  let retiringOnDemand = 0
  let blocked: string | undefined
  let pairHeld = false
  // Each step down is announced as the one after the previous step: pairs that wait take no number.
  let steps = 0
  const waits: string[] = []
  const awaitingHealth: string[] = []
  let lookAgain: number | undefined
  const nowMs = input.now.getTime()
  const startedMs = record.startedAt?.getTime() ?? Number.NaN
  const health = input.health?.kind === 'read' ? input.health.health : undefined
  const checkSeconds = healthCheckSeconds(health?.settings.values() ?? [])
  // A swap whose start is not recorded has no time left to wait: a replacement that does not serve leaves.
  const deadlineMs = Number.isNaN(startedMs)
    ? nowMs
    : startedMs + healthDeadlineSeconds(input.graceSeconds, checkSeconds) * 1000
  for (const pair of halfDone) {
    const partnerIsOnDemand = input.onDemandIds.has(pair.onDemandInstanceId)
    const keepsMinimum = !partnerIsOnDemand || onDemandLeft - 1 >= input.minOnDemand
    // A partner ECS protects is drained first (core/ecs/drain.ts); its write goes before the row's own.
    const drained = input.ecsDrain?.(pair, keepsMinimum, deadlineMs)
    // With managed draining the partner leaves as any other, once its replacement serves (ECS's hook drains
    // it then): until then the ordinary row decides (wait, or retire the replacement at its deadline).
    const managed =
      drained?.situation === 'ecs-managed-draining' ? servingSituation(input, pair, deadlineMs) : undefined
    const drain: DrainStep | undefined =
      managed === undefined || managed.situation === 'serving' ? drained : managed
    const { situation, detail } = drain ?? pairSituation(input, pair, keepsMinimum, deadlineMs)
    if (drain?.action !== undefined) actions.push(drain.action)
    const row = pairTransition(situation)
    const why = detail === '' ? row.why : `${detail}: ${row.why}`
    if (row.outcome === 'hold') {
      pairHeld = true
      waits.push(`held (${situation}): ${why}`)
      continue
    }
    if (row.outcome === 'wait') {
      if (hasTrafficSources(group.trafficSources)) awaitingHealth.push(pair.spotInstanceId)
      waits.push(`waiting-to-serve (${situation}): ${why}`)
      const attachedMs = Number.isNaN(startedMs) ? nowMs : startedMs
      const until = Math.min(deadlineMs, input.leavesAt(pair.onDemandInstanceId) ?? deadlineMs)
      const inSeconds = lookAgainSeconds(attachedMs, checkSeconds, Math.max(until, nowMs), nowMs)
      lookAgain = Math.min(lookAgain ?? inSeconds, inSeconds)
      continue
    }
    const retirePartner = row.outcome === 'retire-partner'
    if (retirePartner && partnerIsOnDemand) {
      onDemandLeft--
      retiringOnDemand++
    }
    let backOffPartnerUntil: string | undefined
    if (row.outcome === 'retire-replacement-and-back-off') {
      const minutes =
        drain?.backOffMinutes ?? capacityBackoffMinutes(Math.max(1, input.attemptOf(pair.onDemandInstanceId)))
      backOffPartnerUntil = new Date(nowMs + minutes * 60_000).toISOString()
    }
    steps++
    actions.push({
      kind: 'complete-swap',
      group: group.name,
      pair,
      retire: retirePartner ? 'partner' : 'replacement',
      record: formatSwapRecord(
        stepDown(record, retirePartner ? pair.onDemandInstanceId : pair.spotInstanceId, steps),
      ),
      ...(backOffPartnerUntil === undefined ? {} : { backOffPartnerUntil }),
      reason: `${situation}: ${why}${backOffPartnerUntil === undefined ? '' : `; the partner's next replacement waits until ${backOffPartnerUntil}`}`,
    })
  }
  // Members outside the pairs, on-demand ones first while above the minimum, oldest first.
  const inPairs = new Set(halfDone.flatMap((p) => [p.spotInstanceId, p.onDemandInstanceId]))
  const free = input.inService.filter((m) => !inPairs.has(m.instanceId) && !input.isProtected(m.instanceId))
  const freeOnDemand = free.filter((m) => input.onDemandIds.has(m.instanceId))
  const freeOther = free.filter((m) => !input.onDemandIds.has(m.instanceId))
  for (let n = 0; n < vanished && blocked === undefined; n++) {
    const onDemand = onDemandLeft - 1 >= input.minOnDemand ? freeOnDemand.shift() : undefined
    const member = onDemand ?? freeOther.shift()
    if (member === undefined) {
      blocked = `swap waits (no-member-may-leave): ${vanishedTransition('no-member-may-leave').why}`
      break
    }
    if (onDemand !== undefined) {
      onDemandLeft--
      retiringOnDemand++
    }
    steps++
    actions.push({
      kind: 'give-back',
      group: group.name,
      instanceId: member.instanceId,
      record: formatSwapRecord(stepDown(record, member.instanceId, steps)),
      reason: `member-may-leave: ${vanishedTransition('member-may-leave').why}; ${member.instanceId} leaves with a decrement`,
    })
  }
  const givingBack = new Set(actions.flatMap((a) => (a.kind === 'give-back' ? [a.instanceId] : [])))
  const recovery = {
    ...base('finishing', true, halfDone),
    actions,
    retiringOnDemand,
    givingBack,
    awaitingHealth,
    lookAgainSeconds: lookAgain,
  }
  if (blocked !== undefined) return { ...recovery, waiting: blocked }
  if (waits.length > 0) {
    const joinable = joinableRecord({
      record,
      group,
      waitingPairs: halfDone.length,
      anythingElse: pairHeld || actions.length > 0 || vanished > 0,
      // A join is judged later against the swap's start: an owner's change since must show first.
      ownerUnchanged:
        input.ownerChanges?.kind === 'read' && ownerChangeSince(input.ownerChanges, record) === undefined,
      healthKnown: !hasTrafficSources(group.trafficSources) || input.health?.kind === 'read',
      nowMs,
      deadlineMs,
      graceSeconds: input.graceSeconds,
      checkSeconds,
    })
    // A swap that could be joined but for its unread activities asks for them: the plan is made again.
    const readActivities =
      input.ownerChanges === undefined &&
      joinableRecord({
        record,
        group,
        waitingPairs: halfDone.length,
        anythingElse: pairHeld || actions.length > 0 || vanished > 0,
        ownerUnchanged: true,
        healthKnown: !hasTrafficSources(group.trafficSources) || input.health?.kind === 'read',
        nowMs,
        deadlineMs,
        graceSeconds: input.graceSeconds,
        checkSeconds,
      }) !== undefined
    return {
      ...recovery,
      waiting: waits.join('; '),
      ...(joinable === undefined ? {} : { joinable }),
      ...(readActivities ? { awaitingActivities: true } : {}),
    }
  }
  // Every unit given back: the swap closes once they are (the executor drops the record only if they are).
  const last = actions.at(-1)
  const closing =
    last !== undefined && 'record' in last && last.record !== undefined
      ? last.record
      : formatSwapRecord(record)
  const desiredAfter = group.desiredCapacity - halfDone.length - vanished
  const restore = maxSizeToRestore(record, group.maxSize)
  const close = closeAction(group, restore, desiredAfter, `swap closed (${closing})`, input.now)
  const maxSizeAfter = close.kind === 'close-swap' ? (close.maxSize ?? group.maxSize) : group.maxSize
  const held = close.kind === 'close-swap' && close.heldRaise !== undefined ? restore : undefined
  return {
    ...recovery,
    actions: [...actions, close],
    closes: {
      desired: desiredAfter,
      maxSize: maxSizeAfter,
      ...(held === undefined ? {} : { originalMaxSize: held }),
    },
  }
}
