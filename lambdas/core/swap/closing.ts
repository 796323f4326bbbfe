/** Closing a swap: its pairs released when nothing may be retired, then MaxSize back and the record dropped. */
import { TAG_SWAP_ID } from '../constants.ts'
import type { Action, SwapPair } from '../plan/actions.ts'
import { capacityBackoffUntil } from '../plan/capacity-backoff.ts'
import type { Group } from '../types.ts'
import { formatSwapRecord, maxSizeToRestore, type SwapRecord, swapIdAt } from './record.ts'
import { base, mayRelease, type Recovery, type RecoveryInput } from './recovery.ts'
import { type SwapSituation, swapTransition } from './transitions.ts'
export const releaseAction = (
  input: Pick<RecoveryInput, 'group' | 'detail'>,
  pair: SwapPair,
  why: string,
  backOffPartnerUntil?: string,
): Action => ({
  kind: 'release-pair',
  group: input.group.name,
  pair,
  swapId: input.detail(pair.spotInstanceId)?.tags[TAG_SWAP_ID],
  ...(backOffPartnerUntil === undefined ? {} : { backOffPartnerUntil }),
  reason: `${why}: the pair is released (both stay)${backOffPartnerUntil === undefined ? '' : `; the partner's next replacement waits until ${backOffPartnerUntil}`}`,
})

/**
 * When a released pair's partner may have its next replacement: after a swap whose unit the owner took
 * back (desired capacity at or below the owner's figure the record holds: a scale-in, such as ECS managed
 * scaling's target tracking, undid the attach's increment), the next swap would be undone the same way
 * and each undo scales in a member. The partner backs off as after a replacement that did not serve
 * (5, 10, 20, then 30 minutes by its attempts).
 */
const undoneBackOff = (input: RecoveryInput, pair: SwapPair): string =>
  capacityBackoffUntil(input.now, Math.max(1, input.attemptOf(pair.onDemandInstanceId)))

/** Nothing retired: each pair released, then the swap closed (MaxSize put back if `originalMaxSize` says so, record dropped). */
export const releaseAndClose = (
  situation: SwapSituation,
  input: RecoveryInput,
  halfDone: readonly SwapPair[],
  originalMaxSize: number | undefined,
  detail: string,
  undone = false,
): Recovery => {
  const why = `${detail}: ${swapTransition(situation).why}`
  // A replacement its owner protected keeps its tags: with the record gone it is no pair any more anyway.
  // One ECS protects (it runs tasks) is released too: kept, its partner would stay on demand for good.
  const actions = halfDone
    .filter((pair) => mayRelease(input, pair))
    .map((pair) => releaseAction(input, pair, why, undone ? undoneBackOff(input, pair) : undefined))
  const close = closeAction(
    input.group,
    originalMaxSize,
    input.group.desiredCapacity,
    `swap closed (${situation})`,
    input.now,
  )
  return { ...base(situation, true, halfDone), actions: [...actions, close] }
}

/**
 * What stays of a raise a close cannot put back whole: desired capacity (the owner's, set while the raise
 * stood) is above the MaxSize the swap raised from, and a MaxSize below desired would lower it and terminate
 * members (API_UpdateAutoScalingGroup). The close leaves MaxSize at desired and this record in place of the
 * swap's: no pairs, `max` still the MaxSize before the raise, `raised` the MaxSize left. A later close puts
 * the rest back once desired allows, while MaxSize is still that value (maxSizeToRestore), and the next swap
 * records the same `max` (core/plan/swap-start.ts).
 */
export const heldRaise = (
  originalMaxSize: number | undefined,
  desired: number,
  now: Date,
): SwapRecord | undefined =>
  originalMaxSize === undefined || originalMaxSize >= desired
    ? undefined
    : {
        version: 2,
        // Its own id: no replacement carries it, so no pair is taken for this record's.
        id: swapIdAt(now),
        phase: 'waiting',
        ownerDesired: desired,
        pairs: 0,
        step: undefined,
        originalMaxSize,
        raisedMaxSize: desired,
        startedAt: now,
      }

export const closeAction = (
  group: Group,
  originalMaxSize: number | undefined,
  desired: number,
  reason: string,
  now: Date,
): Action => {
  const held = heldRaise(originalMaxSize, desired, now)
  return {
    kind: 'close-swap',
    group: group.name,
    // Never below desired capacity (what it will be once this run's steps are done): a MaxSize below it
    // would lower desired and terminate members (API_UpdateAutoScalingGroup).
    maxSize: originalMaxSize === undefined ? undefined : Math.max(originalMaxSize, desired),
    ...(held === undefined ? {} : { heldRaise: formatSwapRecord(held) }),
    reason,
  }
}

/**
 * The MaxSize before the raise, when the record is only a held raise (heldRaise) that nothing changed
 * since: no pairs, MaxSize and desired capacity still the value it left. Nothing is written then: no swap
 * is open, and the next one records the same `max`.
 */
const stillHeld = (record: SwapRecord, group: Group, desired: number): number | undefined =>
  record.pairs === 0 &&
  record.ownerDesired === desired &&
  record.raisedMaxSize === desired &&
  group.maxSize === desired
    ? record.originalMaxSize
    : undefined

/**
 * The swap is over: MaxSize back while it is still the swap's raise (maxSizeToRestore; never below
 * `desired`, what desired capacity will be by then), record dropped.
 */
export const closeSwap = (
  situation: SwapSituation,
  input: RecoveryInput,
  record: SwapRecord,
  desired: number,
  detail?: string,
): Recovery => {
  const why =
    detail === undefined ? swapTransition(situation).why : `${detail}: ${swapTransition(situation).why}`
  const held = stillHeld(record, input.group, desired)
  if (held !== undefined)
    return { ...base('no-swap', false, []), closes: { desired, maxSize: desired, originalMaxSize: held } }
  const reason =
    situation === 'finishing'
      ? `swap closed (${formatSwapRecord(record)})`
      : `swap closed (${situation}): ${why}`
  return {
    ...base(situation, true, []),
    actions: [
      closeAction(input.group, maxSizeToRestore(record, input.group.maxSize), desired, reason, input.now),
    ],
  }
}
