/** How a member leaves once it must, and whether a warning for it may be answered by replacing it ahead. */
import type { GlobalConfig, TerminationAction } from '../config/config.ts'
import { groupConfig } from '../config/group-config.ts'
import type { LifecycleHook } from '../port.ts'
import type { Group, Instance } from '../types.ts'

export const TERMINATING_TRANSITION = 'autoscaling:EC2_INSTANCE_TERMINATING'

/**
 * Whether a warning for this member could be answered by replacing it ahead (the configured action, or
 * `auto` without a termination hook): the only case in which its termination protection matters.
 */
export const mayReplaceAhead = (
  instance: Instance,
  group: Group,
  hooks: readonly LifecycleHook[],
  config: Pick<GlobalConfig, 'defaults'>,
): boolean =>
  instance.lifecycle === 'spot' &&
  leaveAction(
    groupConfig(config.defaults, group.name, group.tags).config.terminationNotificationAction,
    hooks,
  ) === 'replace'

/**
 * How a member leaves once it must. Through Auto Scaling (TerminateInstanceInAutoScalingGroup) whenever
 * spotswap is the one that ends it, so the group's termination hooks and load-balancer draining run
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/lifecycle-hooks-overview.html) and, without a
 * decrement, the group launches its replacement
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_TerminateInstanceInAutoScalingGroup.html).
 * DetachInstances only where the owner asked for `detach` and EC2 terminates the instance anyway: it
 * leaves the group at once, deregistered from its load balancers, and EC2 ends it
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_DetachInstances.html). A detached
 * instance spotswap still wanted gone would need ec2:TerminateInstances on an instance of a group, which
 * skips both hooks and draining: never.
 */
export const leaveBy = (
  mode: 'terminate-in-group' | 'detach' | 'replace',
  ec2WillTerminate: boolean,
): 'terminate-in-group' | 'detach' =>
  mode === 'detach' && ec2WillTerminate ? 'detach' : 'terminate-in-group'

/**
 * `auto` terminates through the group when a termination hook exists, so the user's draining runs in
 * the two minutes left; without one, it replaces the member ahead of the interruption (which falls back
 * to leaving at once through the group, which backfills, when it cannot).
 */
export const leaveAction = (
  mode: TerminationAction,
  hooks: readonly LifecycleHook[],
): 'terminate-in-group' | 'detach' | 'replace' => {
  if (mode === 'terminate') return 'terminate-in-group'
  if (mode === 'detach' || mode === 'replace') return mode
  return hooks.some((hook) => hook.transition === TERMINATING_TRANSITION) ? 'terminate-in-group' : 'replace'
}
