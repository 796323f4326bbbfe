/**
 * A member replaced ahead reaches its deadline while its swap is recorded but not attached: the replacer
 * run that opened the swap died before its attach, and the region's next run waits behind the crashed one.
 * Leaving without a decrement then has the group backfill (on-demand, booting) while the replacement, already
 * running, is terminated later as `partner-gone`. So the deadline reminder finishes the pair itself when it
 * can prove every unit it moves is the swap's: it attaches the replacement (+1), announces the step in the
 * record, and the member leaves with the decrement (−1), as a finished swap's partner would.
 *
 * Only with the group's verified record (core/markers.ts) of a swap at its attach, desired
 * capacity exactly the owner's figure it recorded (nothing attached, no owner's change the record cannot
 * tell from the swap's), and the replacement carrying that swap's id: then the +1 the attach makes is the
 * one the record already holds. Without a record (a run that died before writing it) the reminder never
 * attaches: the interruption handler does not wait for the replacer's lane, so a record it wrote itself
 * could overwrite one a replacer run writes at the same moment, and a +1 without a record is not provably
 * spotswap's. Any doubt leaves as before (without a decrement), with the refusal's code in the detail.
 */
import {
  DOOMED_SWAP_DEADLINE_SECONDS,
  TAG_INTERRUPTION_WARNED,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP,
  TAG_SWAP_ID,
} from '../constants.ts'
import { launchProvenance } from '../group/provenance.ts'
import {
  formatSwapRecord,
  type RecordOnGroup,
  type SwapRecord,
  stepDown,
  unattachedSwapIdOf,
} from '../swap/record.ts'
import type { Group, Instance } from '../types.ts'
import type {
  DecisionContext,
  InterruptionAction,
  InterruptionDecision,
  PendingReplacement,
} from './decision.ts'

export type { PendingReplacement } from './decision.ts'

export type DeadlineAttachRefusal =
  | 'before-deadline'
  | 'no-record'
  | 'record-without-id'
  | 'not-attaching'
  | 'no-pairs'
  | 'desired-not-owners'
  | 'no-maxsize-room'
  | 'replacement-unread'
  | 'no-replacement'
  | 'not-running'
  | 'in-a-group'
  | 'other-swap'
  | 'not-spotswaps-launch'

export type DeadlineAttach =
  | {
      readonly kind: 'attach'
      readonly replacementId: string
      /** The record announced ahead of the member's decrement: the pair settled. */
      readonly record: SwapRecord
      /** One pair of several: the record once the member left, the swap's other pairs still at their attach. */
      readonly remaining?: SwapRecord
    }
  | { readonly kind: 'leave'; readonly code: DeadlineAttachRefusal; readonly detail: string }

export interface DeadlineAttachInput {
  /** The doomed member, its markers verified. */
  readonly member: Instance
  readonly group: Group
  /** The group's record as read from its verified tags. */
  readonly onGroup: RecordOnGroup
  readonly pending: PendingReplacement | undefined
  readonly now: Date
}

const leave = (code: DeadlineAttachRefusal, detail: string): DeadlineAttach => ({
  kind: 'leave',
  code,
  detail,
})

type Proof<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly refusal: DeadlineAttach }

const proven = <T>(value: T): Proof<T> => ({ ok: true, value })
const refused = <T>(code: DeadlineAttachRefusal, detail: string): Proof<T> => ({
  ok: false,
  refusal: leave(code, detail),
})

/** The record, when it proves the swap's one pair is unattached and the +1 of its attach is the swap's own. */
const provenRecord = (onGroup: RecordOnGroup, group: Group): Proof<SwapRecord & { readonly id: string }> => {
  if (onGroup.kind !== 'read')
    return refused('no-record', `no swap record of ${group.name} spotswap can believe`)
  const { record } = onGroup
  const id = record.id
  if (id === undefined)
    return refused('record-without-id', 'the swap record names no swap id: its pair cannot be told')
  if (record.phase !== 'attaching' || record.attached !== undefined)
    return refused('not-attaching', `the swap record is at ${record.phase}, not before its attach`)
  // Before its attach, desired capacity holds none of the record's pairs: the +1 is this pair's alone. The
  // last pair is stepped down; one of several is counted as a confirmed attach (`attached`, its replacement
  // tagged as joined first) until its member left, and the record then holds one pair fewer, still at its
  // attach. A run cut short anywhere in between leaves a partial attach of one, confirmed
  // (core/swap/partial-attach.ts): the swap's other launches are then proven never attached and go, never
  // left outside carrying the id of a swap that reads as attached.
  if (record.pairs < 1) return refused('no-pairs', 'the swap record holds no pair')
  // Desired at the owner's figure shows nothing attached and no change since the record: the +1 is the swap's.
  if (unattachedSwapIdOf(group) !== id)
    return refused(
      'desired-not-owners',
      `desired capacity is ${group.desiredCapacity}, not the owner's ${record.ownerDesired} the record holds`,
    )
  // AttachInstances fails beyond MaxSize (API_AttachInstances). The room must also be there under the
  // MaxSize the record would put back: a replacer run closing the swap meanwhile (attach-not-done) restores
  // it, and a MaxSize below desired lowers desired and terminates a member (API_UpdateAutoScalingGroup).
  // The reminder never raises MaxSize itself.
  const ceiling = Math.min(group.maxSize, record.originalMaxSize ?? group.maxSize)
  if (group.desiredCapacity + 1 > ceiling)
    return refused('no-maxsize-room', `MaxSize ${ceiling} leaves no room for one more`)
  return proven({ ...record, id })
}

/** The replacement, when it is the swap's pair for this member, spotswap's launch, running and in no group. */
const provenReplacement = (
  { member, group, pending }: DeadlineAttachInput,
  swapId: string,
): Proof<Instance> => {
  if (pending === undefined) return refused('no-replacement', `${member.id} records no replacement`)
  if (pending.kind === 'unread')
    return refused('replacement-unread', `its replacement could not be read (${pending.error})`)
  const replacement = pending.instance
  if (replacement === undefined) return refused('no-replacement', `${member.id}'s replacement is gone`)
  // AttachInstances takes running instances only (attach-instance-asg).
  if (replacement.state !== 'running')
    return refused('not-running', `${replacement.id} is ${replacement.state}, not running`)
  if (pending.memberOf !== undefined)
    return refused('in-a-group', `${replacement.id} is already in ${pending.memberOf}`)
  if (
    replacement.tags[TAG_SWAP_ID] !== swapId ||
    replacement.tags[TAG_REPLACING_INSTANCE] !== member.id ||
    replacement.tags[TAG_LAUNCHED_FOR_GROUP] !== group.name
  )
    return refused('other-swap', `${replacement.id} is not the pair of swap ${swapId} replacing ${member.id}`)
  const verdict = launchProvenance(replacement, group, member, { unattached: swapId })
  if (!verdict.ours) return refused('not-spotswaps-launch', `${verdict.code}: ${verdict.detail}`)
  return proven(replacement)
}

/**
 * Whether the deadline reminder attaches `member`'s replacement before the member leaves with the
 * decrement, or leaves as before. Only once the deadline has passed by the member's verified warning
 * time: from then on no replacer run swaps the replacement in for it (too late for a swap,
 * core/plan/group-view.ts), so the reminder's attach and a replacer's do not race.
 */
export const attachAtDeadline = (input: DeadlineAttachInput): DeadlineAttach => {
  const { member, group, onGroup, now } = input
  const warnedMs = Date.parse(member.tags[TAG_INTERRUPTION_WARNED] ?? '')
  if (!(now.getTime() >= warnedMs + DOOMED_SWAP_DEADLINE_SECONDS * 1000))
    return leave('before-deadline', `${member.id}'s verified warning does not put its deadline past`)
  const record = provenRecord(onGroup, group)
  if (!record.ok) return record.refusal
  const replacement = provenReplacement(input, record.value.id)
  if (!replacement.ok) return replacement.refusal
  const replacementId = replacement.value.id
  const proof = record.value
  if (proof.pairs === 1) return { kind: 'attach', replacementId, record: stepDown(proof, member.id) }
  return {
    kind: 'attach',
    replacementId,
    record: { ...proof, attached: 1 },
    remaining: { ...proof, pairs: proof.pairs - 1, attached: undefined },
  }
}

/** Whether a deadline needs the replacement read: only while the group's record shows a swap before its attach. */
export const needsPendingReplacement = (group: Group): boolean => unattachedSwapIdOf(group) !== undefined

/**
 * The reminder's actions once the attach is proven: the replacement attached (or, if that fails, the member
 * leaves as before and nothing more is done), the step announced in the record, then the member leaves
 * with the decrement. A run cut short after the attach leaves the record at its attach with desired one
 * above the owner's and the pair in the group, as a replacer run cut short after its own attach does.
 */
export const attachAndLeave = (
  context: DecisionContext,
  attach: Extract<DeadlineAttach, { kind: 'attach' }>,
  leaveKind: 'terminate-in-group' | 'detach',
  before: readonly InterruptionAction[],
): Extract<InterruptionDecision, { outcome: 'act' }> => {
  const { instance, group, configErrors } = context
  const leaving = { instanceId: instance.id, group: group.name }
  return {
    outcome: 'act',
    reason: 'interrupted-member',
    group: group.name,
    detail: `deadline of a member replaced ahead for ${instance.id} in ${group.name}: its swap's replacement ${attach.replacementId} was never attached: attached now, and ${leaveKind} with a decrement (without one if the attach fails)`,
    configErrors,
    actions: [
      ...before,
      {
        kind: 'attach-replacement',
        instanceId: attach.replacementId,
        group: group.name,
        otherwise: { kind: leaveKind, ...leaving, decrement: false },
      },
      { kind: 'record-swap', ...leaving, tags: { [TAG_SWAP]: formatSwapRecord(attach.record) } },
      { kind: leaveKind, ...leaving, decrement: true },
      ...(attach.remaining === undefined
        ? []
        : [
            {
              kind: 'record-swap' as const,
              ...leaving,
              tags: { [TAG_SWAP]: formatSwapRecord(attach.remaining) },
            },
          ]),
    ],
  }
}
