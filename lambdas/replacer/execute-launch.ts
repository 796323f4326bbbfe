/**
 * Launches a spot replacement (and records the attempt on the member it replaces), and lets a doomed
 * member leave its group. Part of the executor (replacer/execute.ts).
 */
import {
  isCapacityErrorCode,
  isIdempotentParameterMismatch,
  isNotFound,
  isPermanentLaunchErrorCode,
  isQuotaErrorCode,
  isTransient,
} from '../aws/errors.ts'
import {
  TAG_NO_SPOT_CAPACITY_UNTIL,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_SWAP,
  TAG_SWAP_ID,
} from '../core/constants.ts'
import type { LaunchSpotAction, ReleaseDoomedAction } from '../core/plan/actions.ts'
import { attemptTag } from '../core/plan/attempts.ts'
import type { CloudPort } from '../core/port.ts'
import { describeError, type Outcome } from './outcome.ts'

/**
 * Out of the group without a decrement: the group backfills now rather than when EC2 takes the member.
 * Through Auto Scaling, so its termination hooks and load-balancer draining run in the time left
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_TerminateInstanceInAutoScalingGroup.html).
 */
export const releaseDoomed = async (cloud: CloudPort, action: ReleaseDoomedAction): Promise<Outcome> => {
  try {
    await cloud.terminateInGroup(action.instanceId, false)
  } catch (error) {
    if (!isNotFound(error)) throw error
    return { action, status: 'done', detail: 'already gone' }
  }
  return { action, status: 'done' }
}

/** A doomed member whose replacement could not be launched leaves the group at once (see releaseIfNotLaunched). */
export const launchSpot = async (cloud: CloudPort, action: LaunchSpotAction): Promise<Outcome> => {
  let outcome: Outcome
  try {
    outcome = await tryLaunchSpot(cloud, action)
  } catch (error) {
    if (!action.releaseIfNotLaunched) throw error
    outcome = { action, status: 'failed', detail: describeError(error) }
    // A throttle or a 5xx: the handler's next requested run tries again, and its deadline reminder releases
    // the member if none succeeds. Released now, it would cost the same backfill and lose the swap.
    if (isTransient(error))
      return {
        ...outcome,
        detail: `${outcome.detail}; ${action.replacing} stays until the next run or its deadline`,
      }
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

/**
 * The attempt's token was used before with other parameters (an earlier run made the attempt and died
 * before recording EC2's answer, and the overrides, prices or subnet changed since): EC2 refuses the token
 * for as long as it lives, so the next run makes attempt n+1 with a new one. Nothing is launched in this
 * run: the earlier request was accepted, and its launch, if it exists, may not be visible yet. Attempt n+1
 * keeps attempt n's start, so provenance (its launch made since the attempt began) still finds that
 * launch, and the partner gets no second one while it is alive.
 */
const moveOn = async (cloud: CloudPort, action: LaunchSpotAction, error: unknown): Promise<Outcome> => {
  const next = { attempt: action.attempt + 1, since: action.attemptSince }
  await cloud.tagInstances([action.replacing], { [TAG_REPLACEMENT_ATTEMPT]: attemptTag(next) })
  return {
    action,
    status: 'failed',
    detail: `launch refused (${describeError(error)}): attempt ${action.attempt}'s token was used with other parameters; the next run makes attempt ${next.attempt}`,
  }
}

const tryLaunchSpot = async (cloud: CloudPort, action: LaunchSpotAction): Promise<Outcome> => {
  // The attempt is recorded first: a run that stops before EC2 answers leaves it to be made again.
  const attempt = { attempt: action.attempt, since: action.attemptSince }
  await cloud.tagInstances([action.replacing], { [TAG_REPLACEMENT_ATTEMPT]: attemptTag(attempt) })
  // The swap is recorded before its launch (core/swap/launched-ahead.ts): a run that stops between the
  // two leaves a record naming no launch, which the next run closes without giving anything back.
  if (action.swapAhead !== undefined)
    await cloud.tagGroup(action.group, { [TAG_SWAP]: action.swapAhead.swapRecord })
  let result: Awaited<ReturnType<CloudPort['launchSpot']>>
  try {
    result = await cloud.launchSpot({
      groupName: action.group,
      launchTemplate: action.launchTemplate,
      launchConfigurationName: action.launchConfigurationName,
      overrides: action.overrides,
      allocationStrategy: action.allocationStrategy,
      tags: action.tags,
      clientToken: action.clientToken,
    })
  } catch (error) {
    if (!isIdempotentParameterMismatch(error)) throw error
    return moveOn(cloud, action, error)
  }
  // With the temporary template of a launch-configuration group, which is deleted: provenance needs it.
  const outcome = attemptTag(
    attempt,
    result.ok
      ? { instanceId: result.instanceId, launchTemplateId: result.launchTemplateId }
      : { instanceId: undefined },
  )
  if (result.ok) {
    await cloud.tagInstances([action.replacing], { [TAG_REPLACEMENT_ATTEMPT]: outcome })
    // Named after the outcome: a launch is found by its partner's attempt first (core/group/provenance.ts).
    if (action.swapAhead !== undefined)
      await cloud.tagInstances([result.instanceId], { [TAG_SWAP_ID]: action.swapAhead.swapId })
    return { action, status: 'done', instanceId: result.instanceId, instanceType: result.instanceType }
  }
  const summary = result.errors.map((e) => `${e.instanceType ?? '?'}: ${e.code}`).join(', ')
  const all = (test: (code: string) => boolean) =>
    result.errors.length > 0 && result.errors.every((e) => test(e.code))
  // The Spot vCPU quota is the account's in the region, not a pool's: another pool or zone meets it too.
  const overQuota = result.errors.some((e) => isQuotaErrorCode(e.code))
  const noCapacity = !overQuota && all(isCapacityErrorCode)
  // Every override refused for a reason the same request meets again: backed off like a lack of capacity,
  // not retried every run. (Capacity and permanent errors mixed: some pool may have capacity later.)
  const refused =
    !overQuota && !noCapacity && all((code) => isCapacityErrorCode(code) || isPermanentLaunchErrorCode(code))
  // Recorded on the instance (state lives in AWS): the next attempt gets a new token, and after a lack of
  // capacity, a refusal or the quota every later run leaves the instance alone for a while.
  await cloud.tagInstances([action.replacing], {
    [TAG_REPLACEMENT_ATTEMPT]: outcome,
    ...(overQuota || noCapacity || refused
      ? { [TAG_NO_SPOT_CAPACITY_UNTIL]: action.capacityBackoffUntil }
      : {}),
  })
  // Counted as refused (LaunchesRefused): like a permission, the quota needs the operator, not another pool.
  if (overQuota)
    return {
      action,
      status: 'failed',
      refused: true,
      overQuota: true,
      detail: `launch refused by the account's Spot vCPU quota (${summary}): no other pool helps until spot instances end or the quota is raised (Service Quotas); next try at ${action.capacityBackoffUntil}`,
    }
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
