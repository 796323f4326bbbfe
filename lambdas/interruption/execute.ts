/**
 * Runs a decision's actions in order through the port. Order matters: `launched-for-asg` is removed
 * before the instance leaves its group, so there is no moment in which the replacer could see a
 * detached, still-tagged spot instance and attach it again.
 */
import { errorCode, errorMessage, isNotFound, isTransient } from '../aws/errors.ts'
import { TAG_JOINED_GROUP } from '../core/constants.ts'
import type { InterruptionAction } from '../core/interruption/decision.ts'
import type { InterruptionCloud, InterruptionDeps } from './deps.ts'

/** A failure a later attempt may not see (throttling, 5xx): thrown so Lambda retries the event. */
export class TransientCloudError extends Error {
  override readonly name = 'TransientCloudError'
  constructor(message: string, options: { cause: unknown }) {
    super(message, options)
  }
}

export type ExecutionResult =
  | { readonly status: 'done'; readonly completed: readonly InterruptionAction[] }
  /** The instance or membership vanished between observing and acting: someone else finished the job. */
  | { readonly status: 'raced'; readonly completed: readonly InterruptionAction[]; readonly error: string }
  /** A permanent failure (e.g. AccessDenied): retrying the event cannot fix it, so it is reported, not thrown. */
  | {
      readonly status: 'failed'
      readonly completed: readonly InterruptionAction[]
      readonly failedAction: InterruptionAction
      readonly error: string
    }

/** What executing a decision needs: the cloud, and for replacing ahead, the way to request replacer runs. */
export interface ExecutionTarget {
  readonly cloud: InterruptionCloud
  readonly requestRuns: InterruptionDeps['requestRuns']
  readonly requestDeadline?: InterruptionDeps['requestDeadline']
}

/**
 * Requested runs and the handler's own deadline reminder, or the member leaves at once: a doomed member
 * must never be left waiting for nothing, nor for a region's replacer queue that is slow.
 */
const requestRuns = async (
  target: ExecutionTarget,
  action: Extract<InterruptionAction, { kind: 'request-runs' }>,
): Promise<void> => {
  const { cloud, requestRuns, requestDeadline } = target
  try {
    if (requestRuns === undefined) throw new Error('no run-request queue is configured')
    if (requestDeadline !== undefined)
      await requestDeadline(cloud.region, action.instanceId, action.deadlineInSeconds)
    await requestRuns(cloud.region, action.group, action.delaysSeconds)
  } catch {
    await run(target, action.otherwise)
  }
}

/**
 * A doomed member's replacement attached at its deadline (core/interruption/deadline-attach.ts), recorded as a
 * member as a swap's attach is. A failed attach (refused, or its answer lost) proves nothing: the member
 * leaves as before, without a decrement, and `stop` keeps the record step and the decrement from following.
 * AttachInstances takes only an instance in no group ("not a member of another Auto Scaling group",
 * https://docs.aws.amazon.com/autoscaling/ec2/userguide/attach-instance-asg.html); whether one already in
 * this group is refused is not documented, so the decision attaches only past the member's deadline, after
 * which no replacer run swaps that replacement in.
 */
const attachReplacement = async (
  target: ExecutionTarget,
  action: Extract<InterruptionAction, { kind: 'attach-replacement' }>,
): Promise<'stop' | undefined> => {
  const { cloud } = target
  try {
    await cloud.attachInstances(action.group, [action.instanceId])
  } catch {
    await run(target, action.otherwise)
    return 'stop'
  }
  await cloud.tagInstances([action.instanceId], { [TAG_JOINED_GROUP]: action.group })
  return undefined
}

const run = (target: ExecutionTarget, action: InterruptionAction): Promise<unknown> => {
  const { cloud } = target
  switch (action.kind) {
    case 'untag-instance':
      return cloud.untagInstances([action.instanceId], action.keys)
    case 'terminate-in-group':
      return cloud.terminateInGroup(action.instanceId, action.decrement)
    case 'detach':
      return cloud.detachInstances(action.group, [action.instanceId], action.decrement)
    case 'terminate-instance':
      return cloud.terminateInstances([action.instanceId])
    case 'request-replacement':
    case 'mark-interrupted':
      return cloud.tagInstances([action.instanceId], action.tags)
    case 'record-swap':
      return cloud.tagGroup(action.group, action.tags)
    case 'request-runs':
      return requestRuns(target, action)
    case 'attach-replacement':
      return attachReplacement(target, action)
  }
}

export const executeActions = async (
  target: ExecutionTarget,
  actions: readonly InterruptionAction[],
): Promise<ExecutionResult> => {
  const completed: InterruptionAction[] = []
  for (const action of actions) {
    try {
      const next = await run(target, action)
      // A refused attach: what was done instead is what the log shows.
      completed.push(next === 'stop' && action.kind === 'attach-replacement' ? action.otherwise : action)
      if (next === 'stop') break
    } catch (error) {
      const description = `${errorCode(error)}: ${errorMessage(error)}`
      if (isTransient(error)) {
        throw new TransientCloudError(
          `${action.kind} ${action.instanceId} failed transiently (${description})`,
          {
            cause: error,
          },
        )
      }
      if (isNotFound(error)) return { status: 'raced', completed, error: description }
      return { status: 'failed', completed, failedAction: action, error: description }
    }
  }
  return { status: 'done', completed }
}
