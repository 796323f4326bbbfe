/**
 * An open swap, one run further: what the run observes is matched to the rows of core/swap/transitions.ts
 * and each row becomes actions. A run never overlaps another replacer run on its region (all go through
 * the region's FIFO queue), so whatever it finds was left by a run that is over; the writers that remain
 * are the interruption handler (which announces its own steps in the record), people and Auto Scaling
 * (whose changes of desired capacity break the record's arithmetic or show in the scaling activities).
 */

import { TAG_REPLACING_INSTANCE, TAG_SWAP_ID } from '../constants.ts'
import type { Provenance, UntrustedInstance } from '../group/provenance.ts'
import type { DesiredChange, OwnerChanges } from '../group/scaling-activities.ts'
import {
  type HealthObservation,
  hasTrafficSources,
  healthCheckSeconds,
  healthDeadlineSeconds,
  lookAgainSeconds,
  servingOf,
} from '../group/serving.ts'
import type { Action, SwapPair } from '../plan/actions.ts'
import { capacityBackoffMinutes } from '../plan/capacity-backoff.ts'
import type { Group, GroupMember, Instance } from '../types.ts'
import {
  formatSwapRecord,
  judgeRecord,
  readSwapRecord,
  type SwapRecord,
  stepDown,
  unattachedSwapIdOf,
} from './record.ts'
import {
  type PairSituation,
  pairTransition,
  type SwapSituation,
  swapTransition,
  vanishedTransition,
} from './transitions.ts'

export interface RecoveryInput {
  readonly group: Group
  /** Spot members in any state but leaving (an attached replacement may still be Pending). */
  readonly spotMembers: readonly GroupMember[]
  readonly detail: (id: string) => Instance | undefined
  /** Members a replacement may retire: on-demand ones and spot ones flagged at risk or moving. */
  readonly isPartner: (id: string) => boolean
  readonly onDemandIds: ReadonlySet<string>
  readonly minOnDemand: number
  /** Instances the owner protected (scale-in or API termination). */
  readonly isProtected: (id: string) => boolean
  /** InService members, attached replacements included, oldest first. */
  readonly inService: readonly GroupMember[]
  /** Whether an instance is still a member of the group and not leaving it. */
  readonly stillIn: (instanceId: string) => boolean
  /** Set when the group may not be changed this run (stack update, deletion, suspended processes). */
  readonly held: string | undefined
  readonly now: Date
  /**
   * Changes of desired capacity the group's scaling activities show since the swap started. Undefined
   * until read: a plan that would retire something is made again once they are (run-region.ts).
   */
  readonly ownerChanges: OwnerChanges | undefined
  /** Load-balancer health of the attached replacements; undefined until read (see GroupPlan.awaitingHealth). */
  readonly health: HealthObservation | undefined
  /** The group's grace period (the setting, else the group's own): part of the health deadline. */
  readonly graceSeconds: number
  /** For a partner EC2 takes whatever happens (interruption warned): when it must leave, epoch ms. */
  readonly leavesAt: (id: string) => number | undefined
  /** The replacement attempt recorded on an instance (TAG_REPLACEMENT_ATTEMPT), 0 when none. */
  readonly attemptOf: (id: string) => number
  /**
   * Whether a member named as a replacement is spotswap's launch for its partner (core/group/provenance.ts):
   * a pair whose replacement is not is no pair; it is dropped and reported, never retired for.
   */
  readonly provenanceOf: (replacementId: string, partnerId: string) => Provenance
  /**
   * Whether something spotswap can see accounts for units the record holds beyond its attached pairs:
   * an instance carrying the swap's id, or a partner whose recorded replacement is gone.
   */
  readonly corroborates: (record: SwapRecord) => boolean
}

export interface Recovery {
  readonly actions: readonly Action[]
  /** Members named as replacements of an open swap that provenance refused: no pairs, reported. */
  readonly untrusted?: readonly UntrustedInstance[]
  /** Where the swap stands: the row of SWAP_TRANSITIONS that applied. */
  readonly situation: SwapSituation
  /** Partners of attached replacements: they must not get another one. */
  readonly halfDonePartners: ReadonlySet<string>
  readonly halfDoneReplacements: readonly string[]
  /** On-demand instances this run retires: they no longer count toward what may be replaced. */
  readonly retiringOnDemand: number
  /** Members this run gives back: they get no replacement, move or release of their own. */
  readonly givingBack: ReadonlySet<string>
  /** A swap is still open (record or half-done pairs): no new swap starts until it is over. */
  readonly open: boolean
  /** Why the open swap waits this run, if it does. */
  readonly waiting: string | undefined
  /** Replacements whose serving the plan waits for: their health must be read (see RecoveryInput.health). */
  readonly awaitingHealth: readonly string[]
  /** When to look again, seconds from now: a replacement should serve by then (or its deadline has come). */
  readonly lookAgainSeconds: number | undefined
  /**
   * The id of the open swap when nothing shows its launches ever joined the group: its record never said
   * the attach was done and nothing of it is attached, and either desired capacity is still the owner's
   * or the swap closes this run without giving a unit back. Launches carrying it stay spotswap's to attach
   * or clean up, and a close unnames them. Any other launch outside the group carrying a swap's id joined
   * the group and was taken out since (core/group/provenance.ts).
   */
  readonly unattachedSwapId?: string
  /**
   * Set when this run's actions close the swap having finished it: the desired capacity and MaxSize the
   * group has once they are done, so the next swap can start in the same run, after them.
   */
  readonly closes?: { readonly desired: number; readonly maxSize: number }
}

const partnersOf = (pairs: readonly SwapPair[]): Set<string> =>
  new Set(pairs.map((p) => p.onDemandInstanceId))

const base = (situation: SwapSituation, open: boolean, halfDone: readonly SwapPair[]): Recovery => ({
  actions: [],
  situation,
  halfDonePartners: new Set(halfDone.map((p) => p.onDemandInstanceId)),
  halfDoneReplacements: halfDone.map((p) => p.spotInstanceId),
  retiringOnDemand: 0,
  givingBack: new Set(),
  open,
  waiting: undefined,
  awaitingHealth: [],
  lookAgainSeconds: undefined,
})

const waitFor = (situation: SwapSituation, halfDone: readonly SwapPair[], detail?: string): Recovery => ({
  ...base(situation, true, halfDone),
  waiting: `swap waits (${situation}): ${detail ?? swapTransition(situation).why}`,
})

export const recoverSwaps = (input: RecoveryInput): Recovery => {
  const onGroup = validated(readSwapRecord(input.group.tags), input.group, input.now)
  // The pairs: attached replacements naming a partner that is still to be retired. With a record of
  // version 2, only the ones carrying its id; others are left from another swap and are released.
  const untrusted: UntrustedInstance[] = []
  const named: SwapPair[] = input.spotMembers.flatMap((m) => {
    const partner = input.detail(m.instanceId)?.tags[TAG_REPLACING_INSTANCE]
    if (partner === undefined || !input.isPartner(partner)) return []
    const verdict = input.provenanceOf(m.instanceId, partner)
    if (verdict.ours) return [{ spotInstanceId: m.instanceId, onDemandInstanceId: partner }]
    untrusted.push({ instanceId: m.instanceId, code: verdict.code, detail: verdict.detail })
    return []
  })
  let recovered = recoverNamed(input, onGroup, named)
  // While the open swap shows no attach (nothing attached, desired still the owner's), its launches are
  // still spotswap's: a swap id alone must not make them look attached (chaos seed 1458: the attach
  // failed, and its launch was refused and replaced a second time).
  // Only for a record believed (validated above): the same reading as `unattachedSwapIdOf` for strays.
  const unattached = onGroup.kind === 'read' ? unattachedSwapIdOf(input.group) : undefined
  if (
    unattached !== undefined &&
    recovered.unattachedSwapId === undefined &&
    recovered.halfDoneReplacements.length === 0
  )
    recovered = { ...recovered, unattachedSwapId: unattached }
  return untrusted.length === 0 ? recovered : { ...recovered, untrusted }
}

const recoverNamed = (
  input: RecoveryInput,
  onGroup: ReturnType<typeof readSwapRecord>,
  named: readonly SwapPair[],
): Recovery => {
  // No record and no pair, as in most groups of a run: no swap, and nothing to sort out for one.
  if (onGroup.kind === 'none' && named.length === 0) return base('no-swap', false, [])
  const { group } = input
  const record = onGroup.kind === 'read' ? onGroup.record : undefined
  const ofThisSwap = (pair: SwapPair): boolean =>
    record?.id === undefined || input.detail(pair.spotInstanceId)?.tags[TAG_SWAP_ID] === record.id
  // A replacement the owner protected cannot have its pair tags removed (spotswap writes nothing on it):
  // outside the open swap it is simply no pair any more.
  const writable = (pair: SwapPair): boolean => !input.isProtected(pair.spotInstanceId)
  const halfDone = record === undefined ? named.filter(writable) : named.filter(ofThisSwap)
  const foreign = record === undefined ? [] : named.filter((pair) => !ofThisSwap(pair) && writable(pair))
  const open = onGroup.kind !== 'none' || halfDone.length > 0
  // Partners named by a replacement the owner protected outside the open swap: spotswap cannot untag it,
  // so they count as replaced and get no second replacement.
  const keptByOwner = named.filter((pair) => !halfDone.includes(pair) && !foreign.includes(pair))
  if (!open) return { ...base('no-swap', false, []), halfDonePartners: partnersOf(keptByOwner) }
  if (input.held !== undefined)
    return {
      ...waitFor('group-held', halfDone, input.held),
      halfDonePartners: partnersOf([...halfDone, ...keptByOwner]),
    }
  const released = foreign.map((pair) =>
    releaseAction(group, pair, `${pair.spotInstanceId} was attached by another swap than the open one`),
  )
  const withReleased = (recovery: Recovery): Recovery => ({
    ...recovery,
    actions: [...released, ...recovery.actions],
    halfDonePartners: new Set([...recovery.halfDonePartners, ...partnersOf(keptByOwner)]),
  })

  if (record === undefined) {
    const maxSize = onGroup.kind === 'unreadable' ? onGroup.originalMaxSize : undefined
    const raw = onGroup.kind === 'unreadable' ? onGroup.raw : '(none)'
    return releaseAndClose('record-unreadable', input, halfDone, maxSize, `the swap record is ${raw}`)
  }
  // A swap that never recorded its attach done and has nothing attached, closed without giving a unit
  // back: nothing shows its launches joined the group, so they are spotswap's again (unnamed as it closes).
  const unconfirmedId = record.phase === 'attaching' && halfDone.length === 0 ? record.id : undefined
  const closingUnconfirmed = (recovery: Recovery): Recovery =>
    unconfirmedId === undefined ? recovery : { ...recovery, unattachedSwapId: unconfirmedId }
  if (
    record.phase === 'attaching' &&
    halfDone.length === 0 &&
    group.desiredCapacity === record.ownerDesired
  ) {
    return withReleased(
      closingUnconfirmed(closeSwap('attach-not-done', input, record, group.desiredCapacity)),
    )
  }
  const judged = judgeRecord(record, group.desiredCapacity, halfDone.length, input.stillIn)
  if (!judged.ours) {
    const detail = `desired capacity is ${group.desiredCapacity}, not what the swap record accounts for with ${halfDone.length} half-done pair(s)`
    return withReleased(
      closingUnconfirmed(releaseAndClose('owner-resized', input, halfDone, record.originalMaxSize, detail)),
    )
  }
  if (halfDone.length === 0 && judged.vanished === 0)
    return withReleased(closeSwap('finishing', input, record, group.desiredCapacity))
  // Units to give back with no pair attached: never when what claims to be the swap's pair is not
  // spotswap's launch (an instance carrying the swap's id from another template: a planted pair). When
  // nothing in view speaks either way the unit is given back: a pair whose both sides left through Auto
  // Scaling is out of view within the hour, and refusing left the group one above its owner's size for
  // good (chaos: 56 of 10,000 cases, invariant 4). SECURITY.md's SCP, reserving `spotswap:*` tags to
  // spotswap's roles, is the defence against a record forged with nothing else.
  if (halfDone.length === 0 && !input.corroborates(record))
    return withReleased(
      closingUnconfirmed(
        releaseAndClose(
          'record-unverified',
          input,
          [],
          record.originalMaxSize,
          `the swap record ${formatSwapRecord(record)} holds ${judged.vanished} unit(s)`,
        ),
      ),
    )
  const owner = input.ownerChanges
  if (owner?.kind === 'unreadable')
    return withReleased(
      waitFor(
        'activities-unreadable',
        halfDone,
        `the group's scaling activities could not be read (${owner.error})`,
      ),
    )
  const change = owner?.changes.filter((c) => !describesStart(c, record)).at(-1)
  if (change !== undefined) {
    const detail = `desired capacity was changed from ${change.from} to ${change.to} at ${change.at.toISOString()}, after the swap started`
    return withReleased(
      halfDone.length === 0
        ? closingUnconfirmed(closeSwap('owner-changed', input, record, group.desiredCapacity, detail))
        : releaseAndClose('owner-changed', input, halfDone, record.originalMaxSize, detail),
    )
  }
  if (input.inService.length < group.desiredCapacity)
    return withReleased(
      waitFor(
        'backfill-booting',
        halfDone,
        `${input.inService.length} in service of desired ${group.desiredCapacity}`,
      ),
    )
  return withReleased(finishPairs(input, judged.record, halfDone, judged.vanished))
}

/**
 * A record is believed only when it is one spotswap could have written for this group now: it did not
 * start in the future, and the MaxSize it would restore is not above the group's (a swap only ever raises MaxSize, so restoring lowers it or
 * leaves it). Anything else is unreadable: its pairs are released, nothing is retired on it, and the
 * MaxSize it names is not applied.
 */
const validated = (
  onGroup: ReturnType<typeof readSwapRecord>,
  group: Group,
  now: Date,
): ReturnType<typeof readSwapRecord> => {
  if (onGroup.kind === 'none') return onGroup
  const lowering = (max: number | undefined): number | undefined =>
    max !== undefined && max <= group.maxSize ? max : undefined
  if (onGroup.kind === 'unreadable') return { ...onGroup, originalMaxSize: lowering(onGroup.originalMaxSize) }
  const { record } = onGroup
  const started = record.startedAt
  const problem =
    started !== undefined && started.getTime() > now.getTime()
      ? 'it started in the future'
      : record.originalMaxSize !== undefined && record.originalMaxSize > group.maxSize
        ? 'it would raise MaxSize'
        : undefined
  return problem === undefined
    ? onGroup
    : {
        kind: 'unreadable',
        raw: `${formatSwapRecord(record)} (${problem})`,
        originalMaxSize: lowering(record.originalMaxSize),
      }
}

/**
 * Activities give whole seconds, so a change in the swap's own second is read as possibly after it. One
 * whose result is the desired capacity the swap recorded as the owner's is the state the swap began from
 * (the run read the group after it): not a change since.
 */
const describesStart = (change: DesiredChange, record: SwapRecord): boolean =>
  record.startedAt !== undefined &&
  Math.floor(change.at.getTime() / 1000) === Math.floor(record.startedAt.getTime() / 1000) &&
  change.to === record.ownerDesired

const releaseAction = (group: Group, pair: SwapPair, why: string): Action => ({
  kind: 'release-pair',
  group: group.name,
  pair,
  reason: `${why}: the pair is released (both stay)`,
})

/** Nothing retired: each pair released, then the swap closed (MaxSize as recorded, record dropped). */
const releaseAndClose = (
  situation: SwapSituation,
  input: RecoveryInput,
  halfDone: readonly SwapPair[],
  originalMaxSize: number | undefined,
  detail: string,
): Recovery => {
  const why = `${detail}: ${swapTransition(situation).why}`
  // A protected replacement keeps its tags: with the record gone it is no pair any more anyway.
  const actions = halfDone
    .filter((pair) => !input.isProtected(pair.spotInstanceId))
    .map((pair) => releaseAction(input.group, pair, why))
  const close = closeAction(
    input.group,
    originalMaxSize,
    input.group.desiredCapacity,
    `swap closed (${situation})`,
  )
  return { ...base(situation, true, halfDone), actions: [...actions, close] }
}

const closeAction = (
  group: Group,
  originalMaxSize: number | undefined,
  desired: number,
  reason: string,
): Action => ({
  kind: 'close-swap',
  group: group.name,
  // Never below desired capacity, which the owner may have raised meanwhile.
  maxSize: originalMaxSize === undefined ? undefined : Math.max(originalMaxSize, desired),
  reason,
})

/** The swap is over: MaxSize back (never below `desired`, what desired capacity will be by then), record dropped. */
const closeSwap = (
  situation: SwapSituation,
  input: RecoveryInput,
  record: SwapRecord,
  desired: number,
  detail?: string,
): Recovery => {
  const why =
    detail === undefined ? swapTransition(situation).why : `${detail}: ${swapTransition(situation).why}`
  const reason =
    situation === 'finishing'
      ? `swap closed (${formatSwapRecord(record)})`
      : `swap closed (${situation}): ${why}`
  return {
    ...base(situation, true, []),
    actions: [closeAction(input.group, record.originalMaxSize, desired, reason)],
  }
}

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
const finishPairs = (
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
    const { situation, detail } = pairSituation(input, pair, keepsMinimum, deadlineMs)
    const row = pairTransition(situation)
    const why = detail === '' ? row.why : `${detail}: ${row.why}`
    if (row.outcome === 'hold') {
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
      const minutes = capacityBackoffMinutes(Math.max(1, input.attemptOf(pair.onDemandInstanceId)))
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
  if (waits.length > 0) return { ...recovery, waiting: waits.join('; ') }
  // Every unit given back: the swap closes once they are (the executor drops the record only if they are).
  const last = actions.at(-1)
  const closing =
    last !== undefined && 'record' in last && last.record !== undefined
      ? last.record
      : formatSwapRecord(record)
  const desiredAfter = group.desiredCapacity - halfDone.length - vanished
  const close = closeAction(group, record.originalMaxSize, desiredAfter, `swap closed (${closing})`)
  const maxSizeAfter = close.kind === 'close-swap' ? (close.maxSize ?? group.maxSize) : group.maxSize
  return {
    ...recovery,
    actions: [...actions, close],
    closes: { desired: desiredAfter, maxSize: maxSizeAfter },
  }
}
