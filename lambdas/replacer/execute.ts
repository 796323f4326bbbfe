/**
 * Execute: carries out one group's actions through the port, in a safe order, and reports each outcome.
 * A failed action never leads to a terminated on-demand instance: retirement only follows a successful
 * attach. Whatever is left half-done is visible in AWS (tags, MaxSize record) and finished next run.
 */
import { isNotFound, isTransient } from '../aws/errors.ts'
import { ATTACH_DETACH_CHUNK } from '../aws/limits.ts'
import { chunk } from '../aws/paginate.ts'
import {
  TAG_JOINED_GROUP,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_NO_SPOT_CAPACITY_UNTIL,
  TAG_RELEASED_SWAP_ID,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP,
  TAG_SWAP_ID,
} from '../core/constants.ts'
import type {
  Action,
  CloseSwapAction,
  CompleteSwapAction,
  GiveBackAction,
  ReleasePairAction,
  SettleMembersAction,
  SwapAction,
  TerminateSpotAction,
} from '../core/plan/actions.ts'
import { waitsForRoom } from '../core/plan/launch-room.ts'
import type { CloudPort } from '../core/port.ts'
import { blockedBy, executionOrder } from '../core/region/execution-order.ts'
import { lastLookAt, refusalAfterLastLook } from '../core/region/last-look.ts'
import { formatSwapRecord, readSwapRecord, SWAP_RECORD_TAGS } from '../core/swap/record.ts'
import { runEcsState } from './execute-ecs.ts'
import { launchSpot, releaseDoomed } from './execute-launch.ts'
import { runMaintenance } from './execute-maintenance.ts'
import { runRevert } from './execute-revert.ts'
import { describeError, type Outcome } from './outcome.ts'

const closeSwap = async (cloud: CloudPort, action: CloseSwapAction): Promise<Outcome> => {
  // Before the record goes: a run cut short in between closes the swap again and unnames them then.
  if (action.unname !== undefined && action.unname.length > 0)
    await cloud.untagInstances(action.unname, [TAG_SWAP_ID])
  if (action.maxSize !== undefined) await cloud.setMaxSize(action.group, action.maxSize)
  if (action.heldRaise === undefined) {
    await cloud.untagGroup(action.group, SWAP_RECORD_TAGS)
    return { action, status: 'done' }
  }
  // After MaxSize: a run cut short in between leaves the swap's record, whose `raised` MaxSize is no
  // longer the group's, so the rest is not put back (fail closed); before it, a record whose `raised` is not
  // the group's MaxSize would read as an owner's change of the raise still standing.
  await cloud.tagGroup(action.group, { [TAG_SWAP]: action.heldRaise })
  await cloud.untagGroup(
    action.group,
    SWAP_RECORD_TAGS.filter((key) => key !== TAG_SWAP),
  )
  return { action, status: 'done', detail: `MaxSize held at ${action.maxSize}: ${action.heldRaise}` }
}

/**
 * The replacement is a member spotswap attached: recorded as such first, with its swap's id, since the
 * partner's link proves it until then, so one never seen serving leaves at the same deadline
 * (core/swap/never-served.ts), also when a run is cut short in between (chaos seeds 5288, 5342, 7045).
 */
const releasePair = async (cloud: CloudPort, action: ReleasePairAction): Promise<Outcome> => {
  const tags: Record<string, string> = { [TAG_JOINED_GROUP]: action.group }
  if (action.swapId !== undefined) tags[TAG_RELEASED_SWAP_ID] = action.swapId
  await cloud.tagInstances([action.pair.spotInstanceId], tags)
  await cloud.untagInstances([action.pair.spotInstanceId], [TAG_REPLACING_INSTANCE, TAG_SWAP_ID])
  if (action.backOffPartnerUntil === undefined)
    return { action, status: 'done', detail: `released ${action.pair.spotInstanceId}` }
  await cloud.tagInstances([action.pair.onDemandInstanceId], {
    [TAG_NO_SPOT_CAPACITY_UNTIL]: action.backOffPartnerUntil,
  })
  return {
    action,
    status: 'done',
    detail: `released ${action.pair.spotInstanceId}; ${action.pair.onDemandInstanceId} backs off until ${action.backOffPartnerUntil}`,
  }
}

/** Retiring the partner: its replacement's membership is looked at once more first (core/region/last-look.ts). */
const completeSwap = async (cloud: CloudPort, action: CompleteSwapAction): Promise<Outcome> => {
  const id = action.retire === 'partner' ? action.pair.onDemandInstanceId : action.pair.spotInstanceId
  if (action.record !== undefined) await cloud.tagGroup(action.group, { [TAG_SWAP]: action.record })
  await cloud.terminateInGroup(id, true)
  if (action.backOffPartnerUntil === undefined) return { action, status: 'done', detail: `retired ${id}` }
  // The replacement is gone with the attach's unit: the back-off only delays the partner's next one.
  await cloud.tagInstances([action.pair.onDemandInstanceId], {
    [TAG_NO_SPOT_CAPACITY_UNTIL]: action.backOffPartnerUntil,
  })
  return {
    action,
    status: 'done',
    detail: `retired ${id} (not serving by its deadline); ${action.pair.onDemandInstanceId} backs off until ${action.backOffPartnerUntil}`,
  }
}

const giveBack = async (cloud: CloudPort, action: GiveBackAction): Promise<Outcome> => {
  await cloud.tagGroup(action.group, { [TAG_SWAP]: action.record })
  await cloud.terminateInGroup(action.instanceId, true)
  return { action, status: 'done', detail: `gave back a vanished pair's unit with ${action.instanceId}` }
}

/** A stray's membership is looked at once more first (core/region/last-look.ts). */
const terminateSpot = async (cloud: CloudPort, action: TerminateSpotAction): Promise<Outcome> => {
  try {
    await cloud.terminateInstances([action.instanceId])
  } catch (error) {
    if (!isNotFound(error)) throw error
    return { action, status: 'done', detail: 'already gone' }
  }
  return { action, status: 'done' }
}

/**
 * Record the swap on the group first (phase `attaching`, with the original MaxSize and the raise when it
 * must be raised), so a run cut short anywhere is finished by the next one; raise MaxSize if needed;
 * attach, chunk by chunk (AttachInstances takes 20 instances at a time,
 * https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_AttachInstances.html), each chunk's
 * replacements named with the swap's id just before its attach, each chunk's
 * replacements recorded as members (TAG_JOINED_GROUP) and, before the next chunk, counted in the record
 * (`attached`); then record that the attach is done (phase `waiting`). So a later run can prove which of
 * the swap's launches never joined when the run stops between chunks (core/swap/partial-attach.ts).
 * Nothing is retired here: a partner leaves only once its replacement serves (core/group/serving.ts),
 * which a load balancer's health checks take time to show, so later runs retire the partners
 * (core/swap/recover.ts). If a chunk fails, MaxSize stays raised: part of the attach may have happened
 * (a response lost to a retry), and a MaxSize put back below the desired capacity it reached would lower
 * desired to it and terminate members (API_UpdateAutoScalingGroup); the swap goes on with the
 * replacements that joined (keepJoined).
 */
const swap = async (cloud: CloudPort, action: SwapAction): Promise<Outcome> => {
  const replacements = action.pairs.map((p) => p.spotInstanceId)
  await cloud.tagGroup(action.group, { [TAG_SWAP]: action.swapRecord })
  if (action.raiseMaxSizeTo !== undefined) await cloud.setMaxSize(action.group, action.raiseMaxSizeTo)
  const chunks = chunk(replacements, ATTACH_DETACH_CHUNK)
  const confirmed: string[] = []
  for (const [index, ids] of chunks.entries()) {
    try {
      // Named chunk by chunk: a run cut short leaves the chunks it never tried unnamed, spotswap's launches
      // still (core/group/provenance.ts), whatever the record becomes; only the chunk in flight is unknown.
      await cloud.tagInstances(ids, { [TAG_SWAP_ID]: action.swapId })
      await cloud.attachInstances(action.group, ids)
    } catch (error) {
      const raised = action.raiseMaxSizeTo === undefined ? '' : `, MaxSize left at ${action.raiseMaxSizeTo}`
      const kept = await keepJoined(cloud, action, replacements, confirmed, !isTransient(error))
      return {
        action,
        status: 'failed',
        detail: `attach not confirmed, nothing retired (the next run judges by the swap record${raised})${kept}: ${describeError(error)}`,
      }
    }
    // Membership history: once in a group, a replacement is never spotswap's to terminate or attach again,
    // even after a person takes it out (core/group/provenance.ts).
    await cloud.tagInstances(ids, { [TAG_JOINED_GROUP]: action.group })
    confirmed.push(...ids)
    if (index < chunks.length - 1)
      await cloud.tagGroup(action.group, { [TAG_SWAP]: attachingRecord(action, confirmed.length) })
  }
  await cloud.tagGroup(action.group, { [TAG_SWAP]: action.attachedRecord })
  // The partners stay until their replacements serve: later runs retire them (complete-swap), restore
  // MaxSize and drop the record once every pair is done.
  return { action, status: 'done', detail: `attached ${replacements.join(', ')}` }
}

/** The swap's record at `attaching` with `attached` confirmed replacements (core/swap/partial-attach.ts). */
const attachingRecord = (action: SwapAction, attached: number): string => {
  const onGroup = readSwapRecord({ [TAG_SWAP]: action.swapRecord })
  // A join (core/swap/joining.ts) counts the pairs the swap had in the group before it as confirmed.
  return onGroup.kind === 'read'
    ? formatSwapRecord({ ...onGroup.record, attached: (onGroup.record.attached ?? 0) + attached })
    : action.swapRecord
}

/**
 * After a failed chunk, the replacements not confirmed yet are read once. If some joined anyway (a
 * response lost to a retry), they are recorded as members; the others never joined: the swap's own
 * launches, terminated when some joined or AWS refused the chunk (their partners get new ones later; kept,
 * they would wait behind the open swap past their attach deadline, or be refused again). Then the record
 * holds the joined pairs only,
 * so desired capacity matches it and the next run finishes them. If the read fails, nothing more is
 * written: the record stays as it was, for the next run to judge (core/swap/partial-attach.ts).
 */
const keepJoined = async (
  cloud: CloudPort,
  action: SwapAction,
  replacements: readonly string[],
  confirmed: readonly string[],
  refused: boolean,
): Promise<string> => {
  const onGroup = readSwapRecord({ [TAG_SWAP]: action.attachedRecord })
  if (onGroup.kind !== 'read') return ''
  const unconfirmed = replacements.filter((id) => !confirmed.includes(id))
  let joinedNow: string[]
  try {
    const groups = await cloud.groupOfInstances(unconfirmed)
    joinedNow = unconfirmed.filter((id) => groups.get(id) === action.group)
    // In another group, or unseen: not provably the swap's to terminate.
    const strangers = unconfirmed.filter((id) => groups.has(id) && groups.get(id) !== action.group)
    if (strangers.length > 0) return `; ${strangers.join(', ')} in another group, nothing more written`
  } catch (error) {
    return `; membership not read (${describeError(error)})`
  }
  const joined = [...confirmed, ...joinedNow]
  const left = unconfirmed.filter((id) => !joinedNow.includes(id))
  // None joined after a passing failure: the record, still at its attach with desired the owner's, closes
  // next run (attach-not-done) and a later swap attaches them. Refused, they would be refused again.
  if (joined.length === 0 && !refused) return `; none joined${await undoJoin(cloud, action, unconfirmed)}`
  if (joinedNow.length > 0) await cloud.tagInstances(joinedNow, { [TAG_JOINED_GROUP]: action.group })
  // Before the record drops their pairs: a run cut short in between leaves them for the next run to prove.
  if (left.length > 0) await cloud.terminateInstances(left)
  const terminated = left.length > 0 ? `; terminated ${left.join(', ')}, never attached` : ''
  if (joined.length === 0) return `; none joined${terminated}`
  // A join's record also holds the pairs the swap had in the group before it (chaos seed 22429: counted
  // out, desired capacity stood 20 above the record, which the next run read as the owner's resize).
  await cloud.tagGroup(action.group, {
    [TAG_SWAP]: formatSwapRecord({ ...onGroup.record, pairs: pairsBeforeJoin(action) + joined.length }),
  })
  return `; ${joined.length} of ${replacements.length} joined, the swap goes on with them${terminated}`
}

/** The pairs the swap had in the group before this action: a join's record counts them as `attached`. */
const pairsBeforeJoin = (action: SwapAction): number => {
  const joining = readSwapRecord({ [TAG_SWAP]: action.swapRecord })
  return joining.kind === 'read' ? (joining.record.attached ?? 0) : 0
}

/**
 * A join (its record counts pairs already in the group as `attached`) none of whose launches joined, as the
 * membership read shows: the open swap is as it was before, so its record goes back to `waiting` with those
 * pairs, and the launches are unnamed first, spotswap's own again, for a later swap to attach or a run to
 * terminate. Kept named, they outlived the swap as launches that seemed to have joined it and left (chaos
 * seed 20287: refused, they held no partner once it closed, and their partners were replaced twice). A run
 * cut short between the two leaves a partial attach without launches, which the next run trims.
 */
const undoJoin = async (
  cloud: CloudPort,
  action: SwapAction,
  launches: readonly string[],
): Promise<string> => {
  const attached = readSwapRecord({ [TAG_SWAP]: action.attachedRecord })
  const before = pairsBeforeJoin(action)
  if (attached.kind !== 'read' || before === 0 || launches.length === 0) return ''
  await cloud.untagInstances([...launches], [TAG_SWAP_ID])
  await cloud.tagGroup(action.group, { [TAG_SWAP]: formatSwapRecord({ ...attached.record, pairs: before }) })
  return `; the join is undone: ${launches.join(', ')} unnamed, the swap goes on with its ${before} pair(s)`
}

/** The membership first: a run cut short in between leaves the evidence, not the launch tags alone. */
const settleMembers = async (cloud: CloudPort, action: SettleMembersAction): Promise<Outcome> => {
  await cloud.tagInstances(action.instanceIds, { [TAG_JOINED_GROUP]: action.group })
  await cloud.untagInstances(action.instanceIds, [TAG_LAUNCHED_FOR_GROUP, TAG_REPLACING_INSTANCE])
  return { action, status: 'done', detail: `settled ${action.instanceIds.join(', ')}` }
}

/**
 * The last look is a read-then-act guard: only the executor can make it, right before the act, so the
 * read is here while what it allows is decided in core/region/last-look.ts.
 */
const refusedOnLastLook = async (cloud: CloudPort, action: Action): Promise<string | undefined> => {
  const ids = lastLookAt(action)
  if (ids.length === 0) return undefined
  return refusalAfterLastLook(action, await cloud.groupOfInstances(ids))
}

const run = async (cloud: CloudPort, action: Action): Promise<Outcome> => {
  const refusal = await refusedOnLastLook(cloud, action)
  if (refusal !== undefined) return { action, status: 'failed', detail: refusal }
  switch (action.kind) {
    case 'close-swap':
      return closeSwap(cloud, action)
    case 'complete-swap':
      return completeSwap(cloud, action)
    case 'release-pair':
      return releasePair(cloud, action)
    case 'give-back':
      return giveBack(cloud, action)
    case 'terminate-spot':
      return terminateSpot(cloud, action)
    case 'swap':
      return swap(cloud, action)
    case 'launch-spot':
      return launchSpot(cloud, action)
    case 'release-doomed':
      return releaseDoomed(cloud, action)
    case 'settle-members':
      return settleMembers(cloud, action)
    case 'maintenance':
      return runMaintenance(cloud, action)
    case 'revert':
      return runRevert(cloud, action)
    case 'ecs-drain':
    case 'ecs-undrain':
      return runEcsState(cloud, action)
  }
}

export interface ExecuteOptions {
  readonly earlier?: readonly Outcome[]
  readonly mayStart?: () => boolean | Promise<boolean>
}

const doneActions = (earlier: readonly Outcome[], outcomes: readonly Outcome[]): Action[] =>
  [...earlier, ...outcomes].filter((o) => o.status === 'done').map((o) => o.action)

/**
 * Runs a group's actions one after another; an error fails that action only, the rest still run.
 * `earlier`: the outcomes of the group's actions this run made before (its first wave). Once `mayStart`
 * says no (the run's time budget, replacer/time-budget.ts), the rest are not started and get no outcome,
 * as if the run had stopped there.
 */
export const executeActions = async (
  cloud: CloudPort,
  actions: readonly Action[],
  dryRun: boolean,
  { earlier = [], mayStart = () => true }: ExecuteOptions = {},
): Promise<Outcome[]> => {
  const ordered = executionOrder(actions)
  if (dryRun) return ordered.map((action) => ({ action, status: 'planned' }))
  const outcomes: Outcome[] = []
  const failedKinds = new Set<Action['kind']>()
  let overQuota = false
  for (const action of ordered) {
    if (!(await mayStart())) break
    // The quota refuses every launch of the region until spot instances end: one refusal per group and run.
    // A doomed member's launch is still made: its failure is what lets the member leave in time.
    if (overQuota && action.kind === 'launch-spot' && !action.releaseIfNotLaunched) {
      outcomes.push({
        action,
        status: 'failed',
        detail: 'not attempted: the Spot vCPU quota refused a launch first',
      })
      continue
    }
    if (waitsForRoom(action, doneActions(earlier, outcomes))) {
      outcomes.push({
        action,
        status: 'failed',
        detail:
          'not attempted: the attach or termination that was to free its room in the in-flight budget failed',
      })
      continue
    }
    const blocker = blockedBy(action.kind, failedKinds)
    if (blocker !== undefined) {
      failedKinds.add(action.kind)
      outcomes.push({ action, status: 'failed', detail: `not attempted: a ${blocker} action failed first` })
      continue
    }
    try {
      const outcome = await run(cloud, action)
      if (outcome.status === 'failed') failedKinds.add(action.kind)
      if (outcome.overQuota === true) overQuota = true
      outcomes.push(outcome)
    } catch (error) {
      failedKinds.add(action.kind)
      outcomes.push({ action, status: 'failed', detail: describeError(error) })
    }
  }
  return outcomes
}
