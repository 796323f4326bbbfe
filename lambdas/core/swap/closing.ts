/** Closing a swap: its pairs released when nothing may be retired, then MaxSize back and the record dropped. */
import { TAG_SWAP_ID } from '../constants.ts'
import type { Action, SwapPair } from '../plan/actions.ts'
import type { Group } from '../types.ts'
import { formatSwapRecord, maxSizeToRestore, type SwapRecord } from './record.ts'
import { base, type Recovery, type RecoveryInput } from './recovery.ts'
import { type SwapSituation, swapTransition } from './transitions.ts'
export const releaseAction = (
  input: Pick<RecoveryInput, 'group' | 'detail'>,
  pair: SwapPair,
  why: string,
): Action => ({
  kind: 'release-pair',
  group: input.group.name,
  pair,
  swapId: input.detail(pair.spotInstanceId)?.tags[TAG_SWAP_ID],
  reason: `${why}: the pair is released (both stay)`,
})

/** Nothing retired: each pair released, then the swap closed (MaxSize put back if `originalMaxSize` says so, record dropped). */
export const releaseAndClose = (
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
    .map((pair) => releaseAction(input, pair, why))
  const close = closeAction(
    input.group,
    originalMaxSize,
    input.group.desiredCapacity,
    `swap closed (${situation})`,
  )
  return { ...base(situation, true, halfDone), actions: [...actions, close] }
}

export const closeAction = (
  group: Group,
  originalMaxSize: number | undefined,
  desired: number,
  reason: string,
): Action => ({
  kind: 'close-swap',
  group: group.name,
  // Never below desired capacity (what it will be once this run's steps are done): a MaxSize below it
  // would lower desired and terminate members (API_UpdateAutoScalingGroup).
  maxSize: originalMaxSize === undefined ? undefined : Math.max(originalMaxSize, desired),
  reason,
})

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
  const reason =
    situation === 'finishing'
      ? `swap closed (${formatSwapRecord(record)})`
      : `swap closed (${situation}): ${why}`
  return {
    ...base(situation, true, []),
    actions: [closeAction(input.group, maxSizeToRestore(record, input.group.maxSize), desired, reason)],
  }
}
