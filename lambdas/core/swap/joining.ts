/**
 * Joining an open swap: a replacement that is ready while its group's swap waits for its replacements to
 * serve is attached into that swap as one more pair, rather than waiting for the swap to close
 * (`waiting-for-open-swap`), which cost a group one health-check wait per batch of the in-flight budget.
 *
 * The join is written as a chunked attach is (partial-attach.ts): the record goes back to `attaching`
 * with the new pairs counted and the pairs already in the group confirmed (`attached`), the replacements
 * are tagged with the swap's id and attached, and the record returns to `waiting`. A run cut short before
 * the attach leaves a partial attach that desired capacity and the confirmed count judge, its new launches
 * proven never attached; one cut short after it leaves an attach not recorded as done, as any swap's.
 * The close then settles every pair, and puts back the one raise the swap made, if it made one: a join
 * only fits under the MaxSize standing (joinRecords).
 */
import type { Group } from '../types.ts'
import { recordedDesired, type SwapRecord } from './record.ts'

export interface JoinableInput {
  readonly record: SwapRecord
  readonly group: Pick<Group, 'desiredCapacity'>
  /** Half-done pairs, every one waiting for its replacement to serve. */
  readonly waitingPairs: number
  /** Whether any pair is held, retired, released, or a unit given back this run. */
  readonly anythingElse: boolean
  /** The group's scaling activities were read and show no change of desired capacity by anyone else since the swap started. */
  readonly ownerUnchanged: boolean
  /** The replacements' health is known where the group has load balancers (the check time is read). */
  readonly healthKnown: boolean
  readonly nowMs: number
  /** The swap's health deadline, epoch ms: a pair joined now is held to it as well. */
  readonly deadlineMs: number
  readonly graceSeconds: number
  readonly checkSeconds: number
}

/**
 * The open swap's record when a ready replacement may join it this run: the swap attached all its pairs
 * and waits for them to serve (phase `waiting`, nothing retired nor announced), desired capacity stands
 * at what the record accounts for with no change of the owner's since the swap started (so the join
 * adds no pair to a swap the next run releases), and a replacement attached now still has its grace period and one
 * health-check time before the swap's deadline (a pair joined later would be given up unjudged).
 */
export const joinableRecord = (input: JoinableInput): SwapRecord | undefined => {
  const { record } = input
  if (input.anythingElse || !input.ownerUnchanged || !input.healthKnown || input.waitingPairs === 0)
    return undefined
  if (record.version !== 2 || record.id === undefined || record.phase !== 'waiting') return undefined
  if (record.pairs !== input.waitingPairs || input.group.desiredCapacity !== recordedDesired(record))
    return undefined
  const needsMs = (input.graceSeconds + input.checkSeconds) * 1000
  return input.nowMs + needsMs <= input.deadlineMs ? record : undefined
}

/**
 * The records of `joining` more pairs in the open swap; undefined when they do not fit under the group's
 * MaxSize as it stands. A join never raises MaxSize: the swap's record names one raise, written before
 * MaxSize is set, so a second raise whose write failed would leave the record naming a MaxSize the group
 * never had, and the close could then put back neither (maxSizeToRestore); a join cut short before its
 * attach would leave a raise its trimmed pairs do not need. Where a join would need one, the replacement
 * waits for the swap to close and starts the next, which raises as any swap does.
 */
export const joinRecords = (
  record: SwapRecord,
  group: Pick<Group, 'desiredCapacity' | 'maxSize'>,
  joining: number,
): { readonly attaching: SwapRecord; readonly attached: SwapRecord } | undefined => {
  if (group.desiredCapacity + joining > group.maxSize) return undefined
  const joined: SwapRecord = { ...record, pairs: record.pairs + joining }
  return {
    attaching: { ...joined, phase: 'attaching', attached: record.pairs },
    attached: { ...joined, phase: 'waiting', attached: undefined },
  }
}
