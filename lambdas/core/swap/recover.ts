/**
 * An open swap, one run further: what the run observes is matched to the rows of core/swap/transitions.ts
 * and each row becomes actions. A run never overlaps another replacer run of its group (all go through
 * the group's lane of the FIFO queue, core/region/lanes.ts), so whatever it finds was left by a run that is over; the writers that remain
 * are the interruption handler (which announces its own steps in the record), people and Auto Scaling
 * (whose changes of desired capacity break the record's arithmetic or show in the scaling activities).
 */

import { TAG_REPLACING_INSTANCE, TAG_SWAP_ID } from '../constants.ts'
import type { UntrustedInstance } from '../group/provenance.ts'
import { hasTrafficSources } from '../group/serving.ts'
import type { Action, SwapPair } from '../plan/actions.ts'
import type { Group } from '../types.ts'
import { closeSwap, releaseAction, releaseAndClose } from './closing.ts'
import { finishPairs } from './finish-pairs.ts'
import { launchedAheadOf } from './launched-ahead.ts'
import {
  judgePartialAttach,
  ownerChangeSince,
  type PartialAttach,
  UNATTACHED_REASON,
} from './partial-attach.ts'
import {
  formatSwapRecord,
  judgeRecord,
  maxSizeToRestore,
  readSwapRecord,
  unattachedSwapIdOf,
} from './record.ts'
import { base, mayRelease, partnersOf, type Recovery, type RecoveryInput, waitFor } from './recovery.ts'
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
  if (onGroup.kind === 'read' && onGroup.record.id !== undefined)
    recovered = { ...recovered, recordId: onGroup.record.id }
  return untrusted.length === 0
    ? recovered
    : { ...recovered, untrusted: [...untrusted, ...(recovered.untrusted ?? [])] }
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
  // outside the open swap it is simply no pair any more. One only ECS protects is released as any other.
  const writable = (pair: SwapPair): boolean => mayRelease(input, pair)
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
    releaseAction(input, pair, `${pair.spotInstanceId} was attached by another swap than the open one`),
  )
  const withReleased = (recovery: Recovery): Recovery => ({
    ...recovery,
    actions: [...released, ...recovery.actions],
    halfDonePartners: new Set([...recovery.halfDonePartners, ...partnersOf(keptByOwner)]),
  })

  if (record === undefined) {
    const maxSize = onGroup.kind === 'unreadable' ? onGroup.originalMaxSize : undefined
    const raw = onGroup.kind === 'unreadable' ? onGroup.raw : '(none)'
    // Partners a replacement the close cannot release still names stay held, as on every other path.
    const closed = withReleased(
      releaseAndClose('record-unreadable', input, halfDone, maxSize, `the swap record is ${raw}`),
    )
    const unattachedId = refusedBeforeAttach(input)
    return unattachedId === undefined ? closed : { ...closed, unattachedSwapId: unattachedId }
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
    // Recorded ahead of a doomed member's replacement, both still there: the record is the deadline
    // reminder's proof of the pair, kept until a run swaps the launch in or either is gone.
    const ahead = launchedAheadOf(record, input)
    if (ahead !== undefined)
      return withReleased({
        ...waitFor(
          'launched-ahead',
          [],
          `${ahead.id} was launched under swap ${record.id}; not attached yet`,
        ),
        unattachedSwapId: record.id,
        launchedAhead: record,
        launchedAheadIds: input.launched.filter((i) => i.tags[TAG_SWAP_ID] === record.id).map((i) => i.id),
      })
    return withReleased(
      closingUnconfirmed(closeSwap('attach-not-done', input, record, group.desiredCapacity)),
    )
  }
  // A swap of more than 20 pairs whose later chunks never joined: judged by the pairs desired shows.
  const attach = judgePartialAttach(
    record,
    group.desiredCapacity,
    input.spotMembers.map((m) => input.detail(m.instanceId)),
    input.launched,
  )
  const current = attach.kind === 'partial' ? attach.record : record
  const judged = judgeRecord(current, group.desiredCapacity, halfDone.length, input.stillIn)
  if (!judged.ours) {
    const detail = `desired capacity is ${group.desiredCapacity}, not what the swap record accounts for with ${halfDone.length} half-done pair(s)`
    return withReleased(
      closingUnconfirmed(
        releaseAndClose(
          'owner-resized',
          input,
          halfDone,
          maxSizeToRestore(record, group.maxSize),
          detail,
          group.desiredCapacity <= record.ownerDesired,
        ),
      ),
    )
  }
  if (halfDone.length === 0 && judged.vanished === 0)
    return withReleased(closeSwap('finishing', input, current, group.desiredCapacity))
  // Units to give back with no pair attached: never when what claims to be the swap's pair is not
  // spotswap's launch (an instance carrying the swap's id from another template: a planted pair). When
  // nothing in view speaks either way the unit is given back: a pair whose both sides left through Auto
  // Scaling is out of view within the hour, and refusing left the group one above its owner's size for
  // good (chaos: 56 of 10,000 cases, invariant 4). SECURITY.md's SCP, reserving `spotswap:*` tags to
  // spotswap's roles, is the defence against a record forged with nothing else.
  if (halfDone.length === 0 && !input.corroborates(current))
    return withReleased(
      closingUnconfirmed(
        releaseAndClose(
          'record-unverified',
          input,
          [],
          maxSizeToRestore(record, group.maxSize),
          `the swap record ${formatSwapRecord(current)} holds ${judged.vanished} unit(s)`,
        ),
      ),
    )
  const owner = input.ownerChanges
  // Nothing attached, the record still at its attach, and desired at the owner's plus the pairs: the
  // attach happened and its replacements left since, or it failed and the owner scaled out by as many
  // (chaos seed 2148). Only the scaling activities tell them apart; until they are read nothing is given
  // back, and the launches carrying the swap's id are judged once they are.
  // So does a partial attach: an owner's scale-out by fewer than the pairs reads as one. Its attached
  // replacements' health is asked for with them: the plan made once they are read may retire partners.
  if (
    owner === undefined &&
    record.phase === 'attaching' &&
    (halfDone.length === 0 || attach.kind === 'partial')
  )
    return withReleased({
      ...waitFor('activities-unread', halfDone),
      awaitingActivities: true,
      awaitingHealth: hasTrafficSources(group.trafficSources) ? halfDone.map((p) => p.spotInstanceId) : [],
      undecidedSwapId: record.id,
    })
  if (owner?.kind === 'unreadable')
    return withReleased({
      ...waitFor(
        'activities-unreadable',
        halfDone,
        `the group's scaling activities could not be read (${owner.error})`,
      ),
      undecidedSwapId: record.id,
    })
  const change = owner === undefined ? undefined : ownerChangeSince(owner, record)
  if (change !== undefined) {
    const detail = `desired capacity was changed from ${change.from} to ${change.to} at ${change.at.toISOString()}, after the swap started`
    return withReleased(
      halfDone.length === 0
        ? closingUnconfirmed(closeSwap('owner-changed', input, record, group.desiredCapacity, detail))
        : releaseAndClose('owner-changed', input, halfDone, maxSizeToRestore(record, group.maxSize), detail),
    )
  }
  // The proof that they never joined lasts while the record is at its attach: they go before any step.
  if (attach.kind === 'partial' && attach.unattached.length > 0)
    return withUnattached(
      attach,
      waitFor(
        'attach-partial',
        halfDone,
        `${attach.unattached.length} launch(es) of ${attach.record.pairs + attach.unattached.length} never attached`,
      ),
    )
  // Fewer in service than desired is often the owner's own scale-out still booting: when the activities
  // are not read yet, they are read and the group planned again, so an owner's change closes the swap in
  // this run instead of holding its MaxSize raise one more (chaos seed 2630 with redelivery at 210 s).
  if (input.inService.length < group.desiredCapacity)
    return withUnattached(attach, {
      ...waitFor(
        'backfill-booting',
        halfDone,
        `${input.inService.length} in service of desired ${group.desiredCapacity}`,
      ),
      ...(owner === undefined ? { awaitingActivities: true } : {}),
    })
  return withUnattached(attach, finishPairs(input, judged.record, halfDone, judged.vanished))

  /** Released pairs first; then a partial attach's launches proven never attached are terminated. */
  function withUnattached(partial: PartialAttach, recovery: Recovery): Recovery {
    const released = withReleased(recovery)
    if (partial.kind !== 'partial') return released
    const terminations: Action[] = partial.unattached.map((instance) => ({
      kind: 'terminate-spot',
      group: group.name,
      instanceId: instance.id,
      reason: UNATTACHED_REASON,
    }))
    return {
      ...released,
      actions: [...released.actions, ...terminations],
      unattachedLaunches: partial.unattached,
      untrusted: [...(released.untrusted ?? []), ...partial.undecided],
    }
  }
}

/**
 * A record parsed but not believed (an owner's MaxSize below the one it would restore: chaos seed 76) that
 * shows no attach, as `attach-not-done` reads one: at `attaching`, no member carrying its id, desired
 * capacity not above its owner's figure. Its launches are still spotswap's and are unnamed as it closes;
 * unnaming gives nothing a forged record could use, since anyone who can write it can remove the id too.
 */
const refusedBeforeAttach = (input: RecoveryInput): string | undefined => {
  const onGroup = readSwapRecord(input.group.tags)
  if (onGroup.kind !== 'read') return undefined
  const { id, phase, ownerDesired } = onGroup.record
  if (id === undefined || phase !== 'attaching' || input.group.desiredCapacity > ownerDesired)
    return undefined
  const named = input.spotMembers.some((m) => input.detail(m.instanceId)?.tags[TAG_SWAP_ID] === id)
  return named ? undefined : id
}

/**
 * A record is believed only when it is one spotswap could have written for this group now: it did not
 * start in the future, and the MaxSize it would restore is not above the group's (a swap only ever
 * raises MaxSize, so restoring lowers it or leaves it). A record whose original MaxSize is above the
 * group's but would restore nothing (the owner has set MaxSize since, and it is not the swap's raised
 * figure) is still the swap's: an owner's MaxSize alone changes none of its pairs (chaos seed 6314), and
 * the close leaves MaxSize as the owner set it. Anything else is unreadable: its pairs are released,
 * nothing is retired on it, and the MaxSize it names is not applied.
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
      : (maxSizeToRestore(record, group.maxSize) ?? group.maxSize) > group.maxSize ||
          (record.raisedMaxSize === undefined &&
            record.originalMaxSize !== undefined &&
            record.originalMaxSize > group.maxSize)
        ? 'it would raise MaxSize'
        : undefined
  return problem === undefined
    ? onGroup
    : {
        kind: 'unreadable',
        raw: `${formatSwapRecord(record)} (${problem})`,
        originalMaxSize: lowering(maxSizeToRestore(record, group.maxSize)),
      }
}
