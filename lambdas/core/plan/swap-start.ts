/**
 * Starting a swap: which launched replacements are ready to be attached in place of their partners (past
 * the attach wait of attach-wait.ts, running, the group not held), the swap action that attaches them, and
 * when to look again: once they serve, or when a replacement still warming up will be ready before the
 * next run.
 */

import {
  DOOMED_SWAP_DEADLINE_SECONDS,
  GRACE_SLACK_SECONDS,
  HEALTH_POLL_SECONDS,
  ORPHAN_SCHEDULE_PERIODS,
} from '../constants.ts'
import { joinRecords } from '../swap/joining.ts'
import { formatSwapRecord, type SwapRecord, swapIdAt } from '../swap/record.ts'
import type { Recovery } from '../swap/recovery.ts'
import type { Group, Instance } from '../types.ts'
import type { Action, SwapPair } from './actions.ts'
import type { InstanceSkip } from './reasons.ts'

export interface SwapStartInput {
  readonly group: Group
  readonly now: Date
  /** Partner → its replacement, launched and kept by this plan, oldest partners first. */
  readonly wanted: readonly (readonly [string, Instance])[]
  /** Members EC2 interrupts within two minutes, and when each was warned (ms). */
  readonly doomedIds: ReadonlySet<string>
  readonly warnedAt: (id: string) => number
  /** Too close to the interruption for a swap to be over before EC2 takes the member. */
  readonly tooLate: (id: string) => boolean
  readonly isProtected: (id: string) => boolean
  /**
   * Why whether a partner is protected for good could not be told this run (a read it needs failed), if
   * so: its replacement waits, up to its orphan deadline, rather than being terminated as kept.
   */
  readonly protectionUnread?: (id: string) => string | undefined
  /** Terminates a replacement, with the reason. */
  readonly terminate: (instance: Instance, reason: string) => void
  /** Why the group is not acted on now, if it is not. */
  readonly skipped: string | undefined
  readonly recovery: Pick<
    Recovery,
    | 'open'
    | 'closes'
    | 'givingBack'
    | 'actions'
    | 'lookAgainSeconds'
    | 'launchedAhead'
    | 'launchedAheadIds'
    | 'joinable'
  >
  /** Members in service. */
  readonly inService: number
  readonly instanceSkips: InstanceSkip[]
  readonly actions: Action[]
  readonly grace: number
  /** Seconds a replacement runs before it is attached (attach-wait.ts). */
  readonly attachWait: number
  readonly scheduleSeconds: number
}

export interface SwapStart {
  readonly ready: readonly SwapPair[]
  /** Pairs attached into the open swap this run (core/swap/joining.ts). */
  readonly joining: readonly SwapPair[]
  /** Seconds until the first replacement warming up may be swapped in (see earlyLook). */
  readonly warmedIn: number
  readonly lookAgain: number | undefined
}

/**
 * A replacement whose attach wait ends well before the next scheduled run is swapped in then, not at
 * that run: a wait shorter than the schedule must not cost a whole period per batch. Not sooner
 * than HEALTH_POLL_SECONDS, and only when it saves at least that much.
 */
export const earlyLook = (
  lookAgain: number | undefined,
  warmedIn: number,
  scheduleSeconds: number,
): number | undefined => {
  const at = Math.ceil(Math.max(HEALTH_POLL_SECONDS, warmedIn))
  if (!Number.isFinite(warmedIn) || at > scheduleSeconds - HEALTH_POLL_SECONDS) return lookAgain
  return Math.min(lookAgain ?? at, at)
}

/**
 * The open swap is still open once this run's actions are done: it does not close in this run. A swap that
 * closes lets the replacements launched behind it be looked at when they end their attach wait.
 */
export const staysOpen = (recovery: Pick<Recovery, 'open' | 'closes'>): boolean =>
  recovery.open && recovery.closes === undefined

export const startSwaps = (input: SwapStartInput): SwapStart => {
  const { group, now, wanted, doomedIds, warnedAt, tooLate, isProtected, terminate, skipped, recovery } =
    input
  const { instanceSkips, actions, grace, attachWait, scheduleSeconds } = input
  const { givingBack } = recovery
  const inService = input.inService
  // Terminated by the last run before the orphan deadline, not the first one after it.
  const orphanAfterSeconds = grace + (ORPHAN_SCHEDULE_PERIODS - 1) * scheduleSeconds
  const ready: SwapPair[] = []
  // Ready but for the open swap: the next swap starts once this one closes.
  let behindOpenSwap = 0
  // Seconds until the first replacement warming up may be swapped in (see earlyLook below).
  let warmedIn = Number.POSITIVE_INFINITY
  const pastGraceOf = (partner: string, instance: Instance): boolean =>
    doomedIds.has(partner)
      ? !tooLate(partner)
      : (now.getTime() - instance.launchTime.getTime()) / 1000 + GRACE_SLACK_SECONDS >= attachWait
  // Ready but for an open swap.
  const attachable = (partner: string, instance: Instance): boolean =>
    skipped === undefined &&
    !isProtected(partner) &&
    !givingBack.has(partner) &&
    inService >= group.desiredCapacity &&
    instance.state === 'running' &&
    // A doomed partner is gone in two minutes: no grace period is worth waiting for.
    pastGraceOf(partner, instance)
  // A swap recorded ahead of its launch (core/swap/launched-ahead.ts) is started by its launch's attach,
  // under its record: it opens nothing new, and what is ready beside its launch joins it.
  const ahead = recovery.launchedAhead
  // Only with every launch carrying its id ready: one left outside would carry the id of a swap that
  // attached, which no run may attach or terminate any more (core/group/provenance.ts).
  const aheadIds = recovery.launchedAheadIds ?? []
  const aheadStarts =
    ahead !== undefined &&
    aheadIds.length > 0 &&
    aheadIds.every((id) =>
      wanted.some(([partner, instance]) => instance.id === id && attachable(partner, instance)),
    )
  const open = recovery.open && !aheadStarts
  // The open swap waits for its replacements to serve: what is ready joins it (core/swap/joining.ts).
  const joinable = open && staysOpen(recovery) && ahead === undefined ? recovery.joinable : undefined
  const joining: SwapPair[] = []
  for (const [partner, instance] of wanted) {
    const ageSeconds = (now.getTime() - instance.launchTime.getTime()) / 1000
    const pastGrace = pastGraceOf(partner, instance)
    const unread = ageSeconds > orphanAfterSeconds ? undefined : input.protectionUnread?.(partner)
    if (unread !== undefined) {
      instanceSkips.push({
        instanceId: instance.id,
        code: 'swap-waits',
        reason: `swap-waits: replaces ${partner}, whose protection may be ECS's: ${unread}; the next run reads again`,
      })
    } else if (isProtected(partner)) {
      terminate(instance, `partner-protected: ${partner} was protected since its replacement was launched`)
    } else if (
      attachable(partner, instance) &&
      // A swap this run finishes and closes lets the next one start after it, in the same run; not for a
      // replacement at its orphan deadline (that swap waits on the close, and the spare must go now).
      (!open || (recovery.closes !== undefined && ageSeconds <= orphanAfterSeconds))
    ) {
      ready.push({ spotInstanceId: instance.id, onDemandInstanceId: partner })
    } else if (ageSeconds > orphanAfterSeconds) {
      terminate(instance, `not-attachable-in-time: not swapped within ${orphanAfterSeconds}s of launch`)
    } else if (joinable !== undefined && attachable(partner, instance)) {
      joining.push({ spotInstanceId: instance.id, onDemandInstanceId: partner })
    } else if (open && pastGrace && instance.state === 'running') {
      behindOpenSwap++
      instanceSkips.push({
        instanceId: instance.id,
        code: 'waiting-for-open-swap',
        reason: `waiting-for-open-swap: replaces ${partner}; starts once the open swap closes`,
      })
    } else {
      // A swap recorded ahead holds nothing back: its own launch is looked at as it warms up; nor does one
      // a ready replacement may join.
      const staying = staysOpen(recovery) && ahead === undefined && joinable === undefined
      if (!staying && instance.state !== 'pending')
        warmedIn = Math.min(
          warmedIn,
          (instance.launchTime.getTime() - now.getTime()) / 1000 + attachWait - GRACE_SLACK_SECONDS,
        )
      else if (!staying) warmedIn = Math.min(warmedIn, HEALTH_POLL_SECONDS)
      const attachFrom = new Date(instance.launchTime.getTime() + attachWait * 1000).toISOString()
      instanceSkips.push({
        instanceId: instance.id,
        code: 'warming-up',
        reason: `warming-up: replaces ${partner}; attached once running${attachWait > 0 ? `, from ${attachFrom}` : ''}`,
      })
    }
  }
  const joined = joinable === undefined ? undefined : joinRecords(joinable, group, joining.length)
  if (joining.length > 0 && joined === undefined)
    for (const pair of joining) {
      behindOpenSwap++
      instanceSkips.push({
        instanceId: pair.spotInstanceId,
        code: 'waiting-for-open-swap',
        reason: `waiting-for-open-swap: replaces ${pair.onDemandInstanceId}; starts once the open swap closes (joining it would need MaxSize raised)`,
      })
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
    // The swap recorded ahead keeps its id (its launch carries it) and its start.
    const startedAt = aheadStarts ? (ahead.startedAt ?? now) : now
    // A raise an earlier close left held (core/swap/closing.ts heldRaise) goes on in this swap's record.
    const heldFrom = recovery.closes?.originalMaxSize
    const record: SwapRecord = {
      version: 2,
      id: aheadStarts && ahead.id !== undefined ? ahead.id : swapIdAt(startedAt),
      phase: 'attaching',
      ownerDesired: desiredNow,
      pairs: ready.length,
      step: undefined,
      originalMaxSize: heldFrom ?? (raise ? maxSizeNow : undefined),
      raisedMaxSize: raise ? needed : heldFrom === undefined ? undefined : maxSizeNow,
      // Raised further from a held raise: the value it left, so a close can hold it again (record.ts).
      ...(raise && heldFrom !== undefined && maxSizeNow > heldFrom ? { heldMaxSize: maxSizeNow } : {}),
      startedAt,
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
      reason: `spot replacement(s) ran for ${attachWait}s (the attach wait); partners retire once they serve`,
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
  if (joining.length > 0 && joinable?.id !== undefined && joined !== undefined) {
    actions.push({
      kind: 'swap',
      group: group.name,
      pairs: joining,
      originalMaxSize: group.maxSize,
      raiseMaxSizeTo: undefined,
      swapId: joinable.id,
      swapRecord: formatSwapRecord(joined.attaching),
      attachedRecord: formatSwapRecord(joined.attached),
      reason: `spot replacement(s) ran for ${attachWait}s (the attach wait) and join open swap ${joinable.id}; partners retire once they serve`,
    })
    lookAgain = Math.min(lookAgain ?? HEALTH_POLL_SECONDS, HEALTH_POLL_SECONDS)
  }

  return { ready, joining: joined === undefined ? [] : joining, warmedIn, lookAgain }
}
