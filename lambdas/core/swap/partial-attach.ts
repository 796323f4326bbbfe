/**
 * A swap of more than 20 pairs attaches in chunks of 20 (aws/limits.ts ATTACH_DETACH_CHUNK). When a
 * later chunk is refused, or the run dies between chunks, its record (phase `attaching`) holds every pair
 * while the group holds only the attached ones. What is proven then:
 * - desired capacity: AttachInstances raises it by the number attached, in the same request
 *   (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_AttachInstances.html), so with no change of
 *   the owner's since the swap started (its scaling activities), the swap holds desired minus the owner's
 *   figure: that many pairs, an upper bound the record's `pairs` only gave;
 * - which launches were attached: each confirmed chunk's replacements carry TAG_JOINED_GROUP before the
 *   record counts them (`attached`), so the replacements attached and not confirmed are desired minus the
 *   owner's minus the confirmed ones (`attached`, or the members carrying the tag when more: a run cut
 *   short between the tag and the count). When as many members carry the swap's id without TAG_JOINED_GROUP, every
 *   one of them is still in the group, and no launch outside it carrying the swap's id without that tag
 *   was ever attached: the swap's own launches, terminated (never the owner's, whom a detach leaves
 *   holding a replacement that did join).
 * When the counts differ (an unconfirmed replacement left the group since, or a record written before
 * `attached` was), the launches outside the group are left alone and reported as ever, and the swap goes
 * on with the pairs desired capacity shows.
 */
import { TAG_JOINED_GROUP, TAG_SWAP_ID } from '../constants.ts'
import type { UntrustedInstance } from '../group/provenance.ts'
import type { DesiredChange, OwnerChanges } from '../group/scaling-activities.ts'
import type { Instance } from '../types.ts'
import type { SwapRecord } from './record.ts'

export type PartialAttach =
  /** Not a partial attach: the record is judged as it stands. */
  | { readonly kind: 'none' }
  | {
      readonly kind: 'partial'
      /** The record trimmed to the pairs desired capacity shows attached. */
      readonly record: SwapRecord
      /** The swap's launches outside the group proven never attached: terminated. */
      readonly unattached: readonly Instance[]
      /** The swap's launches outside the group that may have joined it: left alone and reported. */
      readonly undecided: readonly UntrustedInstance[]
    }

export const UNATTACHED_REASON =
  "attach-partial: launched for the open swap, outside the group, and never attached (desired capacity and the confirmed chunks account for every replacement that joined): the swap's own launch, terminated"

const carriesId = (instance: Instance | undefined, id: string): boolean =>
  instance?.lifecycle === 'spot' && instance.tags[TAG_SWAP_ID] === id

const confirmed = (instance: Instance | undefined): boolean => instance?.tags[TAG_JOINED_GROUP] !== undefined

/**
 * `members`: the group's spot members (any state but leaving); `launched`: spotswap's launches for the
 * group outside it, as observed (pending or running).
 */
/**
 * The pairs desired capacity shows attached when a swap's record is at its attach with more than none and
 * fewer than all of them in the group; undefined when it is not such a partial attach.
 */
export const partialUnits = (record: SwapRecord, desired: number): number | undefined => {
  const units = desired - record.ownerDesired
  return record.phase === 'attaching' && record.id !== undefined && units > 0 && units < record.pairs
    ? units
    : undefined
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

/** The last change of desired capacity by someone else since the swap started, if the activities show one. */
export const ownerChangeSince = (
  owner: Extract<OwnerChanges, { kind: 'read' }>,
  record: SwapRecord,
): DesiredChange | undefined => owner.changes.filter((c) => !describesStart(c, record)).at(-1)

/**
 * The record trimmed to the pairs a partial attach holds, once the group's scaling activities since the
 * swap started show no one else's change of desired capacity: then desired capacity above the owner's
 * figure is the swap's attach, unit for unit. Undefined without that proof.
 */
export const provenPartialAttach = (
  record: SwapRecord,
  desired: number,
  owner: OwnerChanges | undefined,
): SwapRecord | undefined => {
  const units = partialUnits(record, desired)
  if (units === undefined || record.startedAt === undefined || owner?.kind !== 'read') return undefined
  return ownerChangeSince(owner, record) === undefined
    ? { ...record, pairs: units, attached: undefined }
    : undefined
}

/**
 * A partial attach's record one pair fewer, still at its attach, announced ahead of a member of it leaving
 * with a decrement: an upper bound on its pairs, as before, that desired capacity and the activities trim
 * (a step down would end the attach, and with it the proof that its other launches never joined).
 */
export const oneFewerAtAttach = (record: SwapRecord, leavingConfirmed: boolean): SwapRecord => {
  const pairs = record.pairs - 1
  const attached = record.attached === undefined ? undefined : record.attached - (leavingConfirmed ? 1 : 0)
  return {
    ...record,
    pairs,
    attached: attached === undefined ? undefined : Math.max(0, Math.min(attached, pairs)),
  }
}

export const judgePartialAttach = (
  record: SwapRecord,
  desired: number,
  members: readonly (Instance | undefined)[],
  launched: readonly Instance[],
): PartialAttach => {
  const id = record.id
  const attachedUnits = partialUnits(record, desired)
  if (attachedUnits === undefined || id === undefined) return { kind: 'none' }
  const trimmed: SwapRecord = { ...record, pairs: attachedUnits, attached: undefined }
  const outside = launched.filter((i) => carriesId(i, id) && !confirmed(i))
  const ofSwap = members.filter((m) => carriesId(m, id))
  const unconfirmedMembers = ofSwap.filter((m) => !confirmed(m)).length
  // A chunk's members are tagged before the record counts them: a run cut short in between leaves more
  // confirmed members than `attached`, each one a unit of this swap's attach.
  const confirmedUnits = Math.max(record.attached ?? 0, ofSwap.length - unconfirmedMembers)
  const unconfirmedUnits = attachedUnits - confirmedUnits
  if (unconfirmedUnits === unconfirmedMembers)
    return { kind: 'partial', record: trimmed, unattached: outside, undecided: [] }
  const detail = `swap ${id} attached ${attachedUnits} of ${record.pairs} pair(s), ${unconfirmedUnits} without confirmation, and ${unconfirmedMembers} of those are in the group`
  return {
    kind: 'partial',
    record: trimmed,
    unattached: [],
    undecided: outside.map((i) => ({
      instanceId: i.id,
      code: 'joined-a-group',
      detail: `${detail}: ${i.id}, carrying its id, may have joined the group and been taken out since`,
    })),
  }
}
