/**
 * Why a group must not be acted on now: a stack update, suspended processes, launch hooks, an instance
 * refresh, the cron window... Checked before launches and swaps; an open swap still finishes under the
 * skips that hold it (HOLDS_OPEN_SWAP). A member that never served still leaves under RETIRES_NEVER_SERVED.
 */

import { cronAllowsAction } from '../config/cron.ts'
import { isBeingDeleted } from '../config/managed.ts'
import { ecsGroupSkip } from '../ecs/holds.ts'
import { activeRefresh } from '../group/instance-refresh.ts'
import { blockingSuspensions } from '../group/suspended-processes.ts'
import type { PlanInput } from './plan-input.ts'
import type { GroupSkip, GroupSkipCode } from './reasons.ts'

/**
 * Skips that also hold an open swap: CloudFormation or the owner hold the group, or what the swap needs
 * to see cannot be seen. Finishing a swap only gives back what spotswap itself changed, so it goes on
 * outside the cron window and at desired 0.
 */
export const HOLDS_OPEN_SWAP: ReadonlySet<GroupSkipCode> = new Set([
  'group-being-deleted',
  'cloudformation-stack-in-progress',
  'cloudformation-stack-unreadable',
  'traffic-source-health-unreadable',
  'processes-suspended',
  // Its record, pairs or attempts cannot be believed nor dismissed this run: nothing is released either.
  'markers-unverifiable',
  // Its record's MaxSize counts instances; written back to a group that counts vCPUs or MiB, it would
  // cut desired capacity, and Auto Scaling would terminate members.
  'capacity-not-in-instances',
])

/**
 * Skips under which members spotswap attached and that never served still leave: the cron window limits
 * when new work starts, and such a member costs the owner serving capacity at any hour. An instance
 * refresh does not stop Auto Scaling replacing unhealthy members either
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/healthcheck.html): such a member leaves as it would.
 */
export const RETIRES_NEVER_SERVED: ReadonlySet<GroupSkipCode> = new Set([
  'outside-cron-window',
  'instance-refresh',
  // Judging a member that never served needs neither prices nor subnets (core/region/region-reads.ts).
  'spot-prices-unreadable',
  'subnets-unreadable',
])

const LAUNCHING_TRANSITION = 'autoscaling:EC2_INSTANCE_LAUNCHING'

export const formatSkip = (skip: GroupSkip): string => `${skip.code} (${skip.detail})`

/** Why the group must not be acted on now (launches and swaps); undefined when it may. */
export const groupSkip = (input: PlanInput): GroupSkip | undefined => {
  const { group, config, now } = input
  if (isBeingDeleted(group))
    return { code: 'group-being-deleted', detail: group.status ?? 'Delete in progress' }
  // Treating an unverifiable marker as absent would release an open swap's pairs on a KMS outage.
  if (input.markersUnverifiable !== undefined)
    return { code: 'markers-unverifiable', detail: input.markersUnverifiable }
  // An attach adds the instance's vCPUs or MiB to such a group, not 1; checked before desired 0, which
  // finishes a swap (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_AutoScalingGroup.html).
  const capacityType = group.desiredCapacityType ?? 'units'
  if (capacityType !== 'units')
    return {
      code: 'capacity-not-in-instances',
      detail: `DesiredCapacityType ${capacityType}: a swap counts instances, not ${capacityType}`,
    }
  if (group.desiredCapacity === 0) return { code: 'desired-capacity-zero', detail: 'desired capacity is 0' }
  if (input.stackStatus?.endsWith('_IN_PROGRESS'))
    return { code: 'cloudformation-stack-in-progress', detail: input.stackStatus }
  // Unknown is treated as updating: a swap's writes could race the stack's own.
  if (input.stackStatusUnreadable !== undefined)
    return {
      code: 'cloudformation-stack-unreadable',
      detail: `${input.stackStatusUnreadable}: held as if its stack were updating; the next run reads again`,
    }
  // A swap retires a partner only once its replacement serves: where that cannot be seen, no swap starts.
  if (group.trafficSources.unreadable.length > 0)
    return { code: 'traffic-source-health-unreadable', detail: group.trafficSources.unreadable.join(', ') }
  const suspended = blockingSuspensions(group)
  if (suspended.length > 0) return { code: 'processes-suspended', detail: suspended.join(', ') }
  // A swap counts one unit per instance (attach +1, retire -1); with weights an attach adds the
  // replacement's weight (https://docs.aws.amazon.com/autoscaling/ec2/userguide/asg-instance-weighting.html).
  const weighted = (group.mixedInstancesPolicy?.overrides ?? []).filter((o) => o.weightedCapacity !== 1)
  if (weighted.length > 0)
    return {
      code: 'weighted-capacity',
      detail: `${weighted.map((o) => `${o.instanceType}=${o.weightedCapacity}`).join(', ')}: a swap counts instances, not capacity units`,
    }
  // AttachInstances skips EC2_INSTANCE_LAUNCHING hooks: a replacement would miss the group's bootstrap or
  // deployment gate (https://docs.aws.amazon.com/autoscaling/ec2/userguide/lifecycle-hooks-overview.html).
  const launching = (input.lifecycleHooks ?? []).filter((h) => h.transition === LAUNCHING_TRANSITION)
  if (launching.length > 0 && !config.ignoreLaunchHooks)
    return {
      code: 'launch-hooks',
      detail: `${launching.map((h) => h.name).join(', ')}: an attached replacement would skip them; IGNORE_LAUNCH_HOOKS=true (or the tag autospotting_ignore_launch_hooks) swaps anyway`,
    }
  // Hooks that cannot be read may hold a bootstrap a replacement would skip: nothing new starts. What is
  // already attached does not pass a launch hook again, so an open swap is finished.
  if (input.lifecycleHooksUnreadable !== undefined && !config.ignoreLaunchHooks)
    return {
      code: 'launch-hooks-unreadable',
      detail: `${input.lifecycleHooksUnreadable}: an attached replacement might skip a launch hook; the next run reads again`,
    }
  const ecsHeld = ecsGroupSkip(input.ecs, group)
  if (ecsHeld !== undefined) return ecsHeld
  // A refresh replaces the group's instances itself: a swap now would be replaced again, or fight it.
  const refresh = activeRefresh(input.instanceRefresh)
  if (refresh !== undefined) return { code: 'instance-refresh', detail: `${refresh.id} is ${refresh.status}` }
  if (input.instanceRefresh?.kind === 'throttled')
    return {
      code: 'instance-refresh-unknown',
      detail: `reading its instance refreshes was throttled (${input.instanceRefresh.error}); next run reads again`,
    }
  if (!cronAllowsAction(config.cronSchedule, config.cronTimezone, config.cronScheduleState, now)) {
    return {
      code: 'outside-cron-window',
      detail: `${config.cronSchedule.raw} ${config.cronTimezone}, state ${config.cronScheduleState}`,
    }
  }
  return undefined
}

/** groupSkip as the text the summary, `plan` and the log show. */
export const groupSkipReason = (input: PlanInput): string | undefined => {
  const skip = groupSkip(input)
  return skip === undefined ? undefined : formatSkip(skip)
}
