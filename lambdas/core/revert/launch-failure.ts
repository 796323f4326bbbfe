/**
 * Why Auto Scaling launches nothing for a revert: the newest launch activity of the group, when it failed,
 * quoted in the revert's skip (plan, summary) and its log line. A revert waits on a launch while its raise
 * is in desired capacity and the group is short of it, and a revert stalled for want of a launch keeps
 * waiting on one until its owner asks again; only those groups are read (one small page a run).
 */
import type { LaunchFailure } from '../group/launch-activities.ts'
import type { GroupPlan } from '../plan/actions.ts'
import { formatSkip } from '../plan/group-skip.ts'
import type { Group } from '../types.ts'
import { readRevertMarker } from './marker.ts'

/** Launching and in-service members: what stands in desired capacity. */
const inCapacity = (group: Group): number =>
  group.members.filter((m) => m.lifecycleState === 'InService' || m.lifecycleState.startsWith('Pending'))
    .length

/**
 * Whether the group's revert waits on Auto Scaling to launch: stalled because its raises launched nothing,
 * or raising with the raise in desired capacity and the group short of it. Reads the believed marker the
 * plan was made from, and the plan's skip (so a group not reverting is never read).
 */
export const revertAwaitsLaunch = (group: Group, plan: GroupPlan): boolean => {
  const read = readRevertMarker(group.tags)
  if (read.kind !== 'read') return false
  const { marker } = read
  if (plan.skip?.code === 'revert-stalled') return marker.phase === 'stalled' && marker.why === 'not-launched'
  return (
    plan.skip?.code === 'reverting' &&
    marker.phase === 'raising' &&
    group.desiredCapacity === marker.ownerDesired + 1 &&
    inCapacity(group) < group.desiredCapacity
  )
}

/** The plan with the failure quoted in its skip, and carried for the log line. */
export const quoteLaunchFailure = (plan: GroupPlan, failure: LaunchFailure | undefined): GroupPlan => {
  if (failure === undefined || plan.skip === undefined) return plan
  const skip = {
    ...plan.skip,
    detail: `${plan.skip.detail}. Auto Scaling's last launch, at ${failure.at.toISOString()}: ${failure.statusCode}: "${failure.statusMessage}"`,
  }
  return { ...plan, skip, skipped: formatSkip(skip), revertLaunchFailure: failure }
}
