/**
 * Execute: carries out one group's actions through the port, in a safe order, and reports each outcome.
 * A failed action never leads to a terminated on-demand instance: retirement only follows a successful
 * attach. Whatever is left half-done is visible in AWS (tags, MaxSize record) and finished next run.
 */
import { isCapacityErrorCode, isNotFound, isPermanentLaunchErrorCode } from '../aws/errors.ts'
import {
  TAG_JOINED_GROUP,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_NO_SPOT_CAPACITY_UNTIL,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP,
  TAG_SWAP_ID,
} from '../core/constants.ts'
import type {
  Action,
  CloseSwapAction,
  CompleteSwapAction,
  GiveBackAction,
  LaunchSpotAction,
  ReleaseDoomedAction,
  ReleasePairAction,
  SettleMembersAction,
  SwapAction,
  TerminateSpotAction,
} from '../core/plan/actions.ts'
import { attemptTag } from '../core/plan/attempts.ts'
import type { CloudPort } from '../core/port.ts'
import { SWAP_RECORD_TAGS } from '../core/swap/record.ts'

export type OutcomeStatus = 'done' | 'failed' | 'planned'

export interface Outcome {
  readonly action: Action
  readonly status: OutcomeStatus
  readonly detail?: string
  /** For launches: the spot instance and type actually started. */
  readonly instanceId?: string
  readonly instanceType?: string
  /** A launch EC2 refused for a reason it will refuse again (a permission, a parameter, the template). */
  readonly refused?: boolean
}

const ORDER: Record<Action['kind'], number> = {
  // Give-backs follow the pairs' retirements (a stable sort keeps the order the records were numbered in).
  'complete-swap': 2,
  'release-pair': 2,
  'give-back': 2,
  'close-swap': 3,
  'terminate-spot': 4,
  swap: 5,
  'launch-spot': 6,
  'release-doomed': 7,
  'settle-members': 8,
}

/**
 * Actions that must not run once one of these kinds failed in the same group: each step down is
 * announced in the record as the one after the previous step, so the steps stop at the first failure,
 * and the record is dropped only once every step is done.
 */
const STEPS_DOWN: readonly Action['kind'][] = ['complete-swap', 'give-back']
const REQUIRES: Partial<Record<Action['kind'], readonly Action['kind'][]>> = {
  'complete-swap': STEPS_DOWN,
  'release-pair': STEPS_DOWN,
  'give-back': STEPS_DOWN,
  'close-swap': STEPS_DOWN,
  // A swap that starts in the run that closed the last one is sized against the closed one's outcome.
  swap: [...STEPS_DOWN, 'close-swap'],
}

const describeError = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error)

const closeSwap = async (cloud: CloudPort, action: CloseSwapAction): Promise<Outcome> => {
  // Before the record goes: a run cut short in between closes the swap again and unnames them then.
  if (action.unname !== undefined && action.unname.length > 0)
    await cloud.untagInstances(action.unname, [TAG_SWAP_ID])
  if (action.maxSize !== undefined) await cloud.setMaxSize(action.group, action.maxSize)
  await cloud.untagGroup(action.group, SWAP_RECORD_TAGS)
  return { action, status: 'done' }
}

const releasePair = async (cloud: CloudPort, action: ReleasePairAction): Promise<Outcome> => {
  await cloud.untagInstances([action.pair.spotInstanceId], [TAG_REPLACING_INSTANCE, TAG_SWAP_ID])
  return { action, status: 'done', detail: `released ${action.pair.spotInstanceId}` }
}

const completeSwap = async (cloud: CloudPort, action: CompleteSwapAction): Promise<Outcome> => {
  const id = action.retire === 'partner' ? action.pair.onDemandInstanceId : action.pair.spotInstanceId
  if (action.retire === 'partner') {
    // The interruption handler may have taken the replacement out since it was observed (with its own
    // decrement): then retiring the partner would take the pair's capacity twice.
    const groups = await cloud.groupOfInstances([action.pair.spotInstanceId])
    if (groups.get(action.pair.spotInstanceId) !== action.group) {
      return {
        action,
        status: 'failed',
        detail: `not retired: ${action.pair.spotInstanceId} left the group since it was observed`,
      }
    }
  }
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

/**
 * ec2:TerminateInstances only for a spot instance that never joined a group: one that is a member of any
 * group now (attached since it was observed, by anyone) is left to that group, whose termination hooks
 * and draining a TerminateInstances would skip.
 */
const terminateSpot = async (cloud: CloudPort, action: TerminateSpotAction): Promise<Outcome> => {
  const owner = action.inNoGroup
    ? undefined
    : (await cloud.groupOfInstances([action.instanceId])).get(action.instanceId)
  if (owner !== undefined)
    return {
      action,
      status: 'failed',
      detail: `not terminated: ${action.instanceId} is a member of ${owner}`,
    }
  try {
    await cloud.terminateInstances([action.instanceId])
  } catch (error) {
    if (!isNotFound(error)) throw error
    return { action, status: 'done', detail: 'already gone' }
  }
  return { action, status: 'done' }
}

/**
 * Record the swap on the group first (phase `attaching`, with the original MaxSize when it must be
 * raised), so a run cut short anywhere is finished by the next one; name the swap on each replacement;
 * raise MaxSize if needed; attach; then record that the attach is done (phase `waiting`). Nothing is
 * retired here: a partner leaves only once its replacement serves (core/group/serving.ts), which a load
 * balancer's health checks take time to show, so later runs retire the partners (core/swap/recover.ts).
 * If the attach fails, the record stays for the next run to judge.
 */
const swap = async (cloud: CloudPort, action: SwapAction): Promise<Outcome> => {
  const raised = action.raiseMaxSizeTo !== undefined
  const replacements = action.pairs.map((p) => p.spotInstanceId)
  await cloud.tagGroup(action.group, { [TAG_SWAP]: action.swapRecord })
  await cloud.tagInstances(replacements, { [TAG_SWAP_ID]: action.swapId })
  if (action.raiseMaxSizeTo !== undefined) await cloud.setMaxSize(action.group, action.raiseMaxSizeTo)
  try {
    await cloud.attachInstances(action.group, replacements)
  } catch (error) {
    // Auto Scaling refuses a MaxSize below desired capacity, which an attach that did happen raised: then
    // the record restores it later.
    const restored = raised ? await putBackMaxSize(cloud, action) : ''
    return {
      action,
      status: 'failed',
      detail: `attach not confirmed, nothing retired (the next run judges by the swap record)${restored}: ${describeError(error)}`,
    }
  }
  // Membership history: once in a group, a replacement is never spotswap's to terminate or attach again,
  // even after a person takes it out (core/group/provenance.ts).
  await cloud.tagInstances(replacements, { [TAG_JOINED_GROUP]: action.group })
  await cloud.tagGroup(action.group, { [TAG_SWAP]: action.attachedRecord })
  // The partners stay until their replacements serve: later runs retire them (complete-swap), restore
  // MaxSize and drop the record once every pair is done.
  return { action, status: 'done', detail: `attached ${replacements.join(', ')}` }
}

const putBackMaxSize = async (cloud: CloudPort, action: SwapAction): Promise<string> => {
  try {
    await cloud.setMaxSize(action.group, action.originalMaxSize)
    return `; MaxSize back to ${action.originalMaxSize}`
  } catch (error) {
    return `; MaxSize left raised (${describeError(error)})`
  }
}

/** The membership first: a run cut short in between leaves the evidence, not the launch tags alone. */
const settleMembers = async (cloud: CloudPort, action: SettleMembersAction): Promise<Outcome> => {
  await cloud.tagInstances(action.instanceIds, { [TAG_JOINED_GROUP]: action.group })
  await cloud.untagInstances(action.instanceIds, [TAG_LAUNCHED_FOR_GROUP, TAG_REPLACING_INSTANCE])
  return { action, status: 'done', detail: `settled ${action.instanceIds.join(', ')}` }
}

/**
 * Out of the group without a decrement: the group backfills now rather than when EC2 takes the member.
 * Through Auto Scaling, so its termination hooks and load-balancer draining run in the time left
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_TerminateInstanceInAutoScalingGroup.html).
 */
const releaseDoomed = async (cloud: CloudPort, action: ReleaseDoomedAction): Promise<Outcome> => {
  try {
    await cloud.terminateInGroup(action.instanceId, false)
  } catch (error) {
    if (!isNotFound(error)) throw error
    return { action, status: 'done', detail: 'already gone' }
  }
  return { action, status: 'done' }
}

/** A doomed member whose replacement could not be launched leaves the group at once (see releaseIfNotLaunched). */
const launchSpot = async (cloud: CloudPort, action: LaunchSpotAction): Promise<Outcome> => {
  let outcome: Outcome
  try {
    outcome = await tryLaunchSpot(cloud, action)
  } catch (error) {
    if (!action.releaseIfNotLaunched) throw error
    outcome = { action, status: 'failed', detail: describeError(error) }
  }
  if (outcome.status !== 'failed' || !action.releaseIfNotLaunched) return outcome
  const released = await releaseDoomed(cloud, {
    kind: 'release-doomed',
    group: action.group,
    instanceId: action.replacing,
    reason: 'no replacement could be launched ahead of its interruption',
  })
  return {
    ...outcome,
    detail: `${outcome.detail}; ${action.replacing} left the group (${released.detail ?? 'terminated in it'})`,
  }
}

const tryLaunchSpot = async (cloud: CloudPort, action: LaunchSpotAction): Promise<Outcome> => {
  // The attempt is recorded first: a run that stops before EC2 answers leaves it to be made again.
  const attempt = { attempt: action.attempt, since: action.attemptSince }
  await cloud.tagInstances([action.replacing], { [TAG_REPLACEMENT_ATTEMPT]: attemptTag(attempt) })
  const result = await cloud.launchSpot({
    groupName: action.group,
    launchTemplate: action.launchTemplate,
    launchConfigurationName: action.launchConfigurationName,
    overrides: action.overrides,
    allocationStrategy: action.allocationStrategy,
    tags: action.tags,
    clientToken: action.clientToken,
  })
  // With the temporary template of a launch-configuration group, which is deleted: provenance needs it.
  const outcome = attemptTag(
    attempt,
    result.ok
      ? { instanceId: result.instanceId, launchTemplateId: result.launchTemplateId }
      : { instanceId: undefined },
  )
  if (result.ok) {
    await cloud.tagInstances([action.replacing], { [TAG_REPLACEMENT_ATTEMPT]: outcome })
    return { action, status: 'done', instanceId: result.instanceId, instanceType: result.instanceType }
  }
  const summary = result.errors.map((e) => `${e.instanceType ?? '?'}: ${e.code}`).join(', ')
  const all = (test: (code: string) => boolean) =>
    result.errors.length > 0 && result.errors.every((e) => test(e.code))
  const noCapacity = all(isCapacityErrorCode)
  // Every override refused for a reason the same request meets again: backed off like a lack of capacity,
  // not retried every run. (Capacity and permanent errors mixed: some pool may have capacity later.)
  const refused = !noCapacity && all((code) => isCapacityErrorCode(code) || isPermanentLaunchErrorCode(code))
  // Recorded on the instance (state lives in AWS): the next attempt gets a new token, and after a lack of
  // capacity or a refusal every later run leaves the instance alone for a while.
  await cloud.tagInstances([action.replacing], {
    [TAG_REPLACEMENT_ATTEMPT]: outcome,
    ...(noCapacity || refused ? { [TAG_NO_SPOT_CAPACITY_UNTIL]: action.capacityBackoffUntil } : {}),
  })
  if (refused)
    return {
      action,
      status: 'failed',
      refused: true,
      detail: `launch refused (${summary}): EC2 will refuse it again until the group's launch template, image or permissions change; next try at ${action.capacityBackoffUntil}`,
    }
  if (!noCapacity) return { action, status: 'failed', detail: `launch failed (${summary || 'no detail'})` }
  return {
    action,
    status: 'failed',
    detail: `no spot capacity in any candidate pool (${summary}); next try at ${action.capacityBackoffUntil}`,
  }
}

const run = (cloud: CloudPort, action: Action): Promise<Outcome> => {
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
  }
}

/** Runs a group's actions one after another; an error fails that action only, the rest still run. */
export const executeActions = async (
  cloud: CloudPort,
  actions: readonly Action[],
  dryRun: boolean,
): Promise<Outcome[]> => {
  const ordered = [...actions].sort((a, b) => ORDER[a.kind] - ORDER[b.kind])
  if (dryRun) return ordered.map((action) => ({ action, status: 'planned' }))
  const outcomes: Outcome[] = []
  const failedKinds = new Set<Action['kind']>()
  for (const action of ordered) {
    const blocker = REQUIRES[action.kind]?.find((kind) => failedKinds.has(kind))
    if (blocker !== undefined) {
      failedKinds.add(action.kind)
      outcomes.push({ action, status: 'failed', detail: `not attempted: a ${blocker} action failed first` })
      continue
    }
    try {
      const outcome = await run(cloud, action)
      if (outcome.status === 'failed') failedKinds.add(action.kind)
      outcomes.push(outcome)
    } catch (error) {
      failedKinds.add(action.kind)
      outcomes.push({ action, status: 'failed', detail: describeError(error) })
    }
  }
  return outcomes
}
