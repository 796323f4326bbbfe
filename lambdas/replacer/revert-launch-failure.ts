/**
 * Why Auto Scaling launches nothing for a revert (core/revert/launch-failure.ts): for each group whose
 * revert waits on a launch, one DescribeScalingActivities call of a few records, and the newest launch's
 * StatusCode and StatusMessage quoted in its plan. A read that fails leaves the plan as it was: the quote
 * only explains, it decides nothing.
 */
import { mapWithConcurrency } from '../aws/concurrency.ts'
import { GROUP_CONCURRENCY, REVERT_ACTIVITY_RECORDS } from '../core/constants.ts'
import { latestFailedLaunch } from '../core/group/launch-activities.ts'
import type { Log } from '../core/log.ts'
import type { GroupPlan } from '../core/plan/actions.ts'
import type { CloudPort } from '../core/port.ts'
import { quoteLaunchFailure, revertAwaitsLaunch } from '../core/revert/launch-failure.ts'
import type { ManagedGroup } from './observe.ts'
import { describeError } from './outcome.ts'

export const quoteRevertLaunchFailures = async (
  cloud: CloudPort,
  log: Log,
  groups: readonly ManagedGroup[],
  plans: readonly GroupPlan[],
): Promise<readonly GroupPlan[]> => {
  const byName = new Map(groups.map((managed) => [managed.group.name, managed.group]))
  const waiting = plans.filter((plan) => {
    const group = byName.get(plan.group)
    return group !== undefined && revertAwaitsLaunch(group, plan)
  })
  if (waiting.length === 0) return plans
  const quoted = new Map<string, GroupPlan>()
  await mapWithConcurrency(waiting, GROUP_CONCURRENCY, async (plan) => {
    try {
      const activities = await cloud.latestScalingActivities(plan.group, REVERT_ACTIVITY_RECORDS)
      quoted.set(plan.group, quoteLaunchFailure(plan, latestFailedLaunch(activities)))
    } catch (error) {
      log.warn('scaling activities unreadable: the revert’s wait is not explained this run', {
        region: cloud.region,
        group: plan.group,
        error: describeError(error),
      })
    }
  })
  return plans.map((plan) => quoted.get(plan.group) ?? plan)
}
