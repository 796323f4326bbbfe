/**
 * What a swap leaves on a group until it is over: a record (`spotswap:swap-desired=<after>/<pairs>`, and
 * the original MaxSize when it was raised), and spot members attached for partners that are still in
 * service. A run that stopped midway is finished here, by the next run, without ever taking the group
 * below the desired capacity its owner set.
 *
 * The record is written ahead of every change spotswap makes to desired capacity: `<desired + pairs>/
 * <pairs>` before the attach; then, before each step that takes one unit away (retiring a partner,
 * giving back a vanished pair's +1, the interruption handler's decrement), the record that step leads
 * to, one unit and one pair fewer, naming the instance the step takes out (`<after>/<pairs>/<id>`). So
 * the next run can tell what spotswap did from what someone else did (`judgeRecord`): what breaks the
 * record's arithmetic is the owner's resize or a scale-in that took one side of a pair, and so is a
 * change of desired capacity the group's scaling activities show since the swap started; then the
 * owner's capacity stands. See docs/reliability.md, "How a swap survives a crash".
 */
import type { Action, SwapPair } from './actions.ts'
import {
  TAG_ORIGINAL_MAX_SIZE,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP_DESIRED,
  TAG_SWAP_STARTED,
} from './constants.ts'
import { capacityBackoffMinutes } from './launches.ts'
import type { OwnerChanges } from './scaling-activities.ts'
import {
  type HealthObservation,
  hasTrafficSources,
  healthCheckSeconds,
  healthDeadlineSeconds,
  lookAgainSeconds,
  servingOf,
} from './serving.ts'
import type { Group, GroupMember, Instance } from './types.ts'

export interface RecoveryInput {
  readonly group: Group
  /** Spot members in any state but leaving (an attached replacement may still be Pending). */
  readonly spotMembers: readonly GroupMember[]
  readonly detail: (id: string) => Instance | undefined
  /** Members a replacement may retire: on-demand ones and spot ones flagged at risk. */
  readonly isPartner: (id: string) => boolean
  readonly onDemandIds: ReadonlySet<string>
  readonly minOnDemand: number
  /** Partners the owner protected (scale-in or API termination) since the swap started. */
  readonly isProtected: (id: string) => boolean
  /** InService members, attached replacements included, oldest first. */
  readonly inService: readonly GroupMember[]
  /** Whether an instance is still a member of the group and not leaving it. */
  readonly stillIn: (instanceId: string) => boolean
  /** Set when the group may not be changed this run; the record then waits. */
  readonly skipped: string | undefined
  readonly now: Date
  readonly scheduleMinutes: number
  /**
   * Changes of desired capacity the group's scaling activities show since the swap started. Undefined
   * until read: a plan that would retire something is made again once they are (run-region.ts).
   */
  readonly ownerChanges: OwnerChanges | undefined
  /**
   * Load-balancer health of the attached replacements; undefined until read (the replacer reads it only
   * for groups with load balancers and attached replacements, and plans such a group again with it).
   */
  readonly health: HealthObservation | undefined
  /** The group's grace period (the setting, else the group's own): part of the health deadline. */
  readonly graceSeconds: number
  /**
   * For a partner EC2 takes whatever happens (interruption warned): when it must leave, serving
   * replacement or not (DOOMED_SWAP_DEADLINE_SECONDS after the warning), epoch ms; undefined otherwise.
   */
  readonly leavesAt: (id: string) => number | undefined
  /** The replacement attempt recorded on an instance (TAG_REPLACEMENT_ATTEMPT), 0 when none. */
  readonly attemptOf: (id: string) => number
}

export interface Recovery {
  readonly actions: readonly Action[]
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
}

export interface SwapRecord {
  /** Desired capacity spotswap expects now: the owner's desired plus `pairs`. */
  readonly after: number
  /** Attached pairs still counted in `after`. */
  readonly pairs: number
  /**
   * The instance the last announced step takes out of the group (set once the attach succeeded and a
   * step down was announced); still in the group = that step has not happened.
   */
  readonly step: string | undefined
}

export const formatSwapRecord = (record: SwapRecord): string =>
  `${record.after}/${record.pairs}${record.step === undefined ? '' : `/${record.step}`}`

export const parseSwapRecord = (raw: string | undefined): SwapRecord | undefined => {
  const match = /^(\d{1,9})\/(\d{1,9})(?:\/(i-[0-9a-f]{8,17}))?$/.exec(raw ?? '')
  if (!match) return undefined
  const record = { after: Number(match[1]), pairs: Number(match[2]), step: match[3] }
  return record.pairs <= record.after ? record : undefined
}

/** The record announced ahead of the `steps`-th step down, which takes `instanceId` out. */
export const stepDown = (record: SwapRecord, instanceId: string, steps = 1): SwapRecord => ({
  after: record.after - steps,
  pairs: record.pairs - steps,
  step: instanceId,
})

/**
 * What the record stands for now: an announced step whose instance is still in the group has not
 * happened, so it is undone (one unit and one pair back).
 */
export const currentRecord = (record: SwapRecord, stillIn: (instanceId: string) => boolean): SwapRecord =>
  record.step !== undefined && stillIn(record.step)
    ? { ...record, after: record.after + 1, pairs: record.pairs + 1 }
    : record

/**
 * Whether desired capacity can still be what spotswap's own steps made it, given `halfDone` pairs observed
 * and whether the last announced step's instance is still in the group. Before the first step down,
 * desired stays `after` with every pair half-done. After one, the record stands for what is left (undoing
 * the announced step while its instance is still in: the run stopped between the record and the step).
 * Desired one above that, with the announced instance gone, means it left another way and the step's
 * unit is still held. Then desired is `after` with at most `pairs` half-done: a pair may have vanished
 * without its decrement (one side taken by EC2 while the interruption handler could not leave with it,
 * Auto Scaling backfilling it), and its unit is still held. Anything else (desired not `after`, more
 * half-done pairs than recorded) is someone else's change. The same desired with fewer pairs can also
 * be an owner's scale-in and scale-out in between, so what this judges ours still needs the group's
 * scaling activities to show no change of desired capacity by anyone else (recoverSwaps).
 */
export const judgeRecord = (
  record: SwapRecord,
  desired: number,
  halfDone: number,
  stillIn: (instanceId: string) => boolean,
): { readonly ours: boolean; readonly record: SwapRecord; readonly vanished: number } => {
  const current = currentRecord(record, stillIn)
  // An announced step whose instance left another way (EC2 took it before the step's call, or the call
  // failed) gave nothing back: desired one above what the step leads to says so.
  const stepLost = current === record && record.step !== undefined && desired === record.after + 1
  const now = stepLost ? { ...record, after: record.after + 1, pairs: record.pairs + 1 } : current
  const ours = desired === now.after && halfDone <= now.pairs
  return { ours, record: now, vanished: ours ? now.pairs - halfDone : 0 }
}

const idle = (open: boolean, halfDone: readonly SwapPair[], waiting?: string): Recovery => ({
  actions: [],
  halfDonePartners: new Set(halfDone.map((p) => p.onDemandInstanceId)),
  halfDoneReplacements: halfDone.map((p) => p.spotInstanceId),
  retiringOnDemand: 0,
  givingBack: new Set(),
  open,
  waiting,
  awaitingHealth: [],
  lookAgainSeconds: undefined,
})

export const recoverSwaps = (input: RecoveryInput): Recovery => {
  const { group } = input
  const halfDone: SwapPair[] = input.spotMembers.flatMap((m) => {
    const partner = input.detail(m.instanceId)?.tags[TAG_REPLACING_INSTANCE]
    return partner !== undefined && input.isPartner(partner)
      ? [{ spotInstanceId: m.instanceId, onDemandInstanceId: partner }]
      : []
  })
  const rawRecord = group.tags[TAG_SWAP_DESIRED]
  const recordedMax = group.tags[TAG_ORIGINAL_MAX_SIZE]
  const open = rawRecord !== undefined || recordedMax !== undefined || halfDone.length > 0
  if (!open) return idle(false, halfDone)
  // A skipped group (stack updating, being deleted, processes suspended) is left alone until it is not.
  if (input.skipped !== undefined) return idle(true, halfDone)
  // A swap started moments ago may still be running in an overlapping invocation (a launch-event run, a
  // retry): what it has not yet written would be misread. Its own run finishes it; a crashed one is
  // finished by a run at least half a schedule period later.
  // Once its attach shows (every recorded pair half-done, desired as recorded, no step announced) the
  // swap's own run has nothing left to write: a swap only attaches, later runs retire.
  const startedMs = Date.parse(group.tags[TAG_SWAP_STARTED] ?? '')
  const ageMs = input.now.getTime() - startedMs
  const record = parseSwapRecord(rawRecord)
  const attachShows =
    record !== undefined &&
    record.step === undefined &&
    record.pairs === halfDone.length &&
    group.desiredCapacity === record.after
  if (rawRecord !== undefined && !attachShows && ageMs >= 0 && ageMs < input.scheduleMinutes * 30_000) {
    return idle(true, halfDone, `swap waits: started ${Math.round(ageMs / 1000)} s ago, maybe still running`)
  }

  const judgement =
    record === undefined
      ? undefined
      : judgeRecord(record, group.desiredCapacity, halfDone.length, input.stillIn)

  if (judgement === undefined || !judgement.ours) {
    // The owner changed desired capacity meanwhile (or the record is gone or unreadable): theirs stands.
    if (halfDone.length === 0) return finished(group, rawRecord, recordedMax)
    return release(
      group,
      halfDone,
      rawRecord,
      `desired capacity is ${group.desiredCapacity}, not what the swap record ${TAG_SWAP_DESIRED}=${rawRecord ?? '(none)'} accounts for with ${halfDone.length} half-done pair(s)`,
    )
  }
  const { vanished } = judgement
  if (halfDone.length === 0 && vanished === 0) return finished(group, rawRecord, recordedMax)
  // The record's arithmetic fits, but the owner may have changed desired capacity and back (or by as
  // much as a scale-in took of the pairs): their scaling activities tell.
  const owner = input.ownerChanges
  if (owner?.kind === 'unreadable') {
    return idle(
      true,
      halfDone,
      `swap waits: the group's scaling activities could not be read (${owner.error})`,
    )
  }
  const change = owner?.changes.at(-1)
  if (change !== undefined) {
    const what = `desired capacity was changed from ${change.from} to ${change.to} at ${change.at.toISOString()}, after the swap started`
    return halfDone.length === 0
      ? finished(group, rawRecord, recordedMax, group.desiredCapacity, what)
      : release(group, halfDone, rawRecord, what)
  }

  // Retiring takes capacity out: only while the group has all its desired capacity in service (a backfill
  // still booting, or a replacement attached but still Pending, waits a run).
  if (input.inService.length < group.desiredCapacity) {
    return idle(
      true,
      halfDone,
      `swap waits: ${input.inService.length} in service of desired ${group.desiredCapacity}`,
    )
  }
  return retirePairs(input, judgement.record, halfDone, vanished)
}

/**
 * Someone else changed desired capacity since the swap started: theirs stands, and retiring anything
 * would dip below it. Each pair is released (the replacement stays as an ordinary member, the partner
 * becomes an ordinary on-demand instance, replaced later as usual) and the record is dropped with them.
 */
const release = (
  group: Group,
  halfDone: readonly SwapPair[],
  rawRecord: string | undefined,
  what: string,
): Recovery => {
  const why = `${what}: the owner resized the group, so nothing is retired and the pair is released`
  const actions: Action[] = halfDone.map((pair) => ({
    kind: 'complete-swap',
    group: group.name,
    pair,
    retire: 'none',
    reason: why,
  }))
  const over = finished(group, rawRecord, group.tags[TAG_ORIGINAL_MAX_SIZE])
  return { ...idle(true, halfDone), actions: [...actions, ...over.actions] }
}

/**
 * The swap is over: put MaxSize back (never below desired, which the owner may have raised) and drop the
 * record. `desired` is what desired capacity will be by then; `note` says why, when it is not simply over.
 */
const finished = (
  group: Group,
  rawRecord: string | undefined,
  recordedMax: string | undefined,
  desired = group.desiredCapacity,
  note?: string,
): Recovery => {
  const originalMax = /^\d+$/.test(recordedMax ?? '') ? Number(recordedMax) : undefined
  const maxSize = originalMax === undefined ? undefined : Math.max(originalMax, desired)
  const over = `swap finished (${TAG_SWAP_DESIRED}=${rawRecord ?? '(none)'})`
  return {
    ...idle(true, []),
    actions: [
      {
        kind: 'restore-max-size',
        group: group.name,
        maxSize,
        reason:
          recordedMax !== undefined && originalMax === undefined
            ? `swap finished; unreadable ${TAG_ORIGINAL_MAX_SIZE}=${recordedMax} left MaxSize as it is`
            : note === undefined
              ? over
              : `${note}: the owner's capacity stands, nothing is given back; ${over}`,
      },
    ],
  }
}

/**
 * Retire one side of each half-done pair with a decrement (giving back the attach's +1), then give back
 * the unit of each vanished pair by retiring another member with a decrement, each announced in the
 * record first, so a run cut short among them is still recognised as spotswap's.
 */
const retirePairs = (
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
  const startedMs = Date.parse(group.tags[TAG_SWAP_STARTED] ?? '')
  const health = input.health?.kind === 'read' ? input.health.health : undefined
  const checkSeconds = healthCheckSeconds(health?.settings.values() ?? [])
  // A swap whose start cannot be read has no time left to wait: a replacement that does not serve leaves.
  const deadlineMs = Number.isNaN(startedMs)
    ? input.now.getTime()
    : startedMs + healthDeadlineSeconds(input.graceSeconds, checkSeconds) * 1000
  const nowMs = input.now.getTime()
  for (const pair of halfDone) {
    if (blocked !== undefined) break
    const partnerIsOnDemand = input.onDemandIds.has(pair.onDemandInstanceId)
    const keepsMinimum = !partnerIsOnDemand || onDemandLeft - 1 >= input.minOnDemand
    const partnerProtected = input.isProtected(pair.onDemandInstanceId)
    let retirePartner = keepsMinimum && !partnerProtected
    // Both sides protected by the owner: neither may go, so this pair and the ones after it wait.
    if (!retirePartner && input.isProtected(pair.spotInstanceId)) {
      blocked = 'swap waits: both sides of a pair are protected'
      break
    }
    let reason = retirePartner
      ? 'its spot replacement serves; retiring the partner'
      : partnerProtected
        ? 'the partner was protected since the swap started; retiring the replacement instead'
        : 'retiring the partner would break the on-demand minimum; retiring the replacement instead'
    let backOffPartnerUntil: string | undefined
    // Serve before retire: the partner leaves only once its replacement receives traffic. A doomed partner
    // is the exception: EC2 takes it at its deadline whatever happens, so it leaves then.
    const leavesAt = input.leavesAt(pair.onDemandInstanceId)
    if (retirePartner && leavesAt !== undefined && leavesAt <= nowMs) {
      reason = 'EC2 interrupts the partner now, so it leaves whether its replacement serves yet or not'
    } else if (retirePartner) {
      const serving = servingOf(group, pair.spotInstanceId, input.health)
      if (!serving.serving) {
        if (hasTrafficSources(group.trafficSources)) awaitingHealth.push(pair.spotInstanceId)
        if (serving.code === 'health-unread' || nowMs < deadlineMs) {
          // Unread health is no verdict: the pair waits (never a retirement on what could not be seen).
          waits.push(`waiting-to-serve: ${serving.detail}`)
          const attachedMs = Number.isNaN(startedMs) ? nowMs : startedMs
          const inSeconds = lookAgainSeconds(
            attachedMs,
            checkSeconds,
            Math.max(Math.min(deadlineMs, leavesAt ?? deadlineMs), nowMs),
            nowMs,
          )
          lookAgain = Math.min(lookAgain ?? inSeconds, inSeconds)
          continue
        }
        // Not serving by its deadline (a broken image, a failing health check): the replacement leaves with
        // the attach's unit, the partner stays, and the partner gets no other replacement for a while.
        retirePartner = false
        const minutes = capacityBackoffMinutes(Math.max(1, input.attemptOf(pair.onDemandInstanceId)))
        backOffPartnerUntil = new Date(nowMs + minutes * 60_000).toISOString()
        reason = `not-serving-by-deadline: ${serving.detail} at its deadline ${new Date(deadlineMs).toISOString()}; retiring the replacement and keeping the partner, whose next replacement waits until ${backOffPartnerUntil}`
      }
    }
    if (retirePartner && partnerIsOnDemand) {
      onDemandLeft--
      retiringOnDemand++
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
      reason,
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
      blocked = `swap waits: no member may leave to give back a vanished pair's unit (protected, or the on-demand minimum)`
      break
    }
    if (onDemand !== undefined) {
      onDemandLeft--
      retiringOnDemand++
    }
    actions.push({
      kind: 'give-back',
      group: group.name,
      instanceId: member.instanceId,
      record: formatSwapRecord(stepDown(record, member.instanceId, ++steps)),
      reason: `a pair of the swap vanished without its decrement (desired capacity still holds its unit, and no one else changed it since the swap started); ${member.instanceId} leaves with a decrement`,
    })
  }
  const givingBack = new Set(actions.flatMap((a) => (a.kind === 'give-back' ? [a.instanceId] : [])))
  const waitingFor = { awaitingHealth, lookAgainSeconds: lookAgain }
  if (blocked !== undefined)
    return { ...idle(true, halfDone, blocked), actions, retiringOnDemand, givingBack, ...waitingFor }
  if (waits.length > 0)
    return { ...idle(true, halfDone, waits.join('; ')), actions, retiringOnDemand, givingBack, ...waitingFor }
  // Every unit given back: the swap is over once they are (the executor drops the record only if they are).
  const after = finished(
    group,
    rawRecordOf(actions, record),
    group.tags[TAG_ORIGINAL_MAX_SIZE],
    group.desiredCapacity - halfDone.length - vanished,
  )
  return { ...idle(true, halfDone), actions: [...actions, ...after.actions], retiringOnDemand, givingBack }
}

/** The record the last of these actions announces (the record itself when there are none). */
const rawRecordOf = (actions: readonly Action[], record: SwapRecord): string => {
  const last = actions.at(-1)
  return (last?.kind === 'complete-swap' || last?.kind === 'give-back') && last.record !== undefined
    ? last.record
    : formatSwapRecord(record)
}
