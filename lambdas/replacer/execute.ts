/**
 * Execute: carries out one group's actions through the port, in a safe order, and reports each outcome.
 * A failed action never leads to a terminated on-demand instance: retirement only follows a successful
 * attach. Whatever is left half-done is visible in AWS (tags, MaxSize record) and finished next run.
 */
import { isCapacityErrorCode, isNotFound } from '../aws/errors.ts'
import type {
  Action,
  CompleteSwapAction,
  LaunchSpotAction,
  ReleaseDoomedAction,
  RestoreMaxSizeAction,
  SwapAction,
  TerminateSpotAction,
} from '../core/actions.ts'
import {
  TAG_NO_SPOT_CAPACITY_UNTIL,
  TAG_ORIGINAL_MAX_SIZE,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP_DESIRED,
} from '../core/constants.ts'
import type { CloudPort } from '../core/port.ts'

export type OutcomeStatus = 'done' | 'failed' | 'planned'

export interface Outcome {
  readonly action: Action
  readonly status: OutcomeStatus
  readonly detail?: string
  /** For launches: the spot instance and type actually started. */
  readonly instanceId?: string
  readonly instanceType?: string
}

const ORDER: Record<Action['kind'], number> = {
  'restore-max-size': 0,
  'complete-swap': 1,
  'terminate-spot': 2,
  swap: 3,
  'launch-spot': 4,
  'release-doomed': 5,
}

const describeError = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error)

/** The tags a swap leaves on its group until it is over. */
const SWAP_RECORD_TAGS = [TAG_SWAP_DESIRED, TAG_ORIGINAL_MAX_SIZE]

const restoreMaxSize = async (cloud: CloudPort, action: RestoreMaxSizeAction): Promise<Outcome> => {
  if (action.maxSize !== undefined) await cloud.setMaxSize(action.group, action.maxSize)
  await cloud.untagGroup(action.group, SWAP_RECORD_TAGS)
  return { action, status: 'done' }
}

const completeSwap = async (cloud: CloudPort, action: CompleteSwapAction): Promise<Outcome> => {
  if (action.retire === 'none') {
    await cloud.untagInstances([action.pair.spotInstanceId], [TAG_REPLACING_INSTANCE])
    return { action, status: 'done', detail: `released ${action.pair.spotInstanceId}` }
  }
  const id = action.retire === 'partner' ? action.pair.onDemandInstanceId : action.pair.spotInstanceId
  await cloud.terminateInGroup(id, true)
  return { action, status: 'done', detail: `retired ${id}` }
}

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
 * Record the swap on the group first (desired after the attach, and the original MaxSize when it must
 * be raised), so a run cut short anywhere is finished by the next one; raise MaxSize if needed, attach,
 * retire the partners with a decrement, then restore MaxSize and drop the record. If the attach fails,
 * nothing is retired.
 */
const swap = async (cloud: CloudPort, action: SwapAction): Promise<Outcome> => {
  const raised = action.raiseMaxSizeTo !== undefined
  const finish = async (): Promise<void> => {
    if (raised) await cloud.setMaxSize(action.group, action.originalMaxSize)
    await cloud.untagGroup(action.group, SWAP_RECORD_TAGS)
  }
  await cloud.tagGroup(action.group, {
    [TAG_SWAP_DESIRED]: action.swapRecord,
    ...(raised ? { [TAG_ORIGINAL_MAX_SIZE]: String(action.originalMaxSize) } : {}),
  })
  if (action.raiseMaxSizeTo !== undefined) await cloud.setMaxSize(action.group, action.raiseMaxSizeTo)
  try {
    await cloud.attachInstances(
      action.group,
      action.pairs.map((p) => p.spotInstanceId),
    )
  } catch (error) {
    await finish()
    return { action, status: 'failed', detail: `attach failed, nothing retired: ${describeError(error)}` }
  }
  const failures: string[] = []
  for (const pair of action.pairs) {
    try {
      await cloud.terminateInGroup(pair.onDemandInstanceId, true)
    } catch (error) {
      if (!isNotFound(error)) failures.push(`${pair.onDemandInstanceId}: ${describeError(error)}`)
    }
  }
  if (failures.length > 0) {
    // Desired still holds the +1 of each unretired pair; the record tells the next run to finish them.
    return { action, status: 'failed', detail: `attached; retiring failed for ${failures.join('; ')}` }
  }
  await finish()
  return { action, status: 'done' }
}

/** Out of the group without a decrement: the group backfills now rather than when EC2 takes the member. */
const releaseDoomed = async (cloud: CloudPort, action: ReleaseDoomedAction): Promise<Outcome> => {
  try {
    await cloud.detachInstances(action.group, [action.instanceId], false)
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
    detail: `${outcome.detail}; ${action.replacing} left the group (${released.detail ?? 'detached'})`,
  }
}

const tryLaunchSpot = async (cloud: CloudPort, action: LaunchSpotAction): Promise<Outcome> => {
  // The attempt is recorded first: if this run stops now, the next one starts a new attempt.
  await cloud.tagInstances([action.replacing], { [TAG_REPLACEMENT_ATTEMPT]: String(action.attempt) })
  const result = await cloud.launchSpot({
    groupName: action.group,
    launchTemplate: action.launchTemplate,
    launchConfigurationName: action.launchConfigurationName,
    overrides: action.overrides,
    allocationStrategy: action.allocationStrategy,
    tags: action.tags,
    clientToken: action.clientToken,
  })
  if (result.ok)
    return { action, status: 'done', instanceId: result.instanceId, instanceType: result.instanceType }
  const summary = result.errors.map((e) => `${e.instanceType ?? '?'}: ${e.code}`).join(', ')
  const noCapacity = result.errors.length > 0 && result.errors.every((e) => isCapacityErrorCode(e.code))
  if (!noCapacity) return { action, status: 'failed', detail: `launch failed (${summary || 'no detail'})` }
  // Recorded on the instance (state lives in AWS), so every later run leaves it alone for a while.
  await cloud.tagInstances([action.replacing], { [TAG_NO_SPOT_CAPACITY_UNTIL]: action.capacityBackoffUntil })
  return {
    action,
    status: 'failed',
    detail: `no spot capacity in any candidate pool (${summary}); next try at ${action.capacityBackoffUntil}`,
  }
}

const run = (cloud: CloudPort, action: Action): Promise<Outcome> => {
  switch (action.kind) {
    case 'restore-max-size':
      return restoreMaxSize(cloud, action)
    case 'complete-swap':
      return completeSwap(cloud, action)
    case 'terminate-spot':
      return terminateSpot(cloud, action)
    case 'swap':
      return swap(cloud, action)
    case 'launch-spot':
      return launchSpot(cloud, action)
    case 'release-doomed':
      return releaseDoomed(cloud, action)
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
  for (const action of ordered) {
    try {
      outcomes.push(await run(cloud, action))
    } catch (error) {
      outcomes.push({ action, status: 'failed', detail: describeError(error) })
    }
  }
  return outcomes
}
