/**
 * The executor's last look: a few actions depend on a group membership that someone else (the
 * interruption handler, a person, an overlapping run) may change between the observation and the act, so
 * the executor reads it again right before acting (replacer/execute.ts). Which memberships to read, and
 * whether what was read refuses the action, are decided here.
 */
import type { Action } from '../plan/actions.ts'

/** The instances whose group the executor reads right before running the action (none for most). */
export const lastLookAt = (action: Action): readonly string[] => {
  // Retiring the partner takes the pair's unit of capacity: its replacement must still hold it.
  if (action.kind === 'complete-swap' && action.retire === 'partner') return [action.pair.spotInstanceId]
  // Auto Scaling said in this run that it is a member of no group: not asked again.
  if (action.kind === 'terminate-spot' && action.inNoGroup !== true) return [action.instanceId]
  return []
}

/**
 * Why the action must not run given the group of each instance looked at (absent: a member of no group),
 * or undefined when it may.
 */
export const refusalAfterLastLook = (
  action: Action,
  groupOf: ReadonlyMap<string, string>,
): string | undefined => {
  if (action.kind === 'complete-swap' && action.retire === 'partner') {
    // The interruption handler may have taken the replacement out since it was observed (with its own
    // decrement): then retiring the partner would take the pair's capacity twice.
    const replacement = action.pair.spotInstanceId
    return groupOf.get(replacement) === action.group
      ? undefined
      : `not retired: ${replacement} left the group since it was observed`
  }
  if (action.kind === 'terminate-spot' && action.inNoGroup !== true) {
    // ec2:TerminateInstances only for a spot instance that never joined a group: one that is a member of
    // any group now (attached since it was observed, by anyone) is left to that group, whose termination
    // hooks and draining a TerminateInstances would skip.
    const owner = groupOf.get(action.instanceId)
    return owner === undefined ? undefined : `not terminated: ${action.instanceId} is a member of ${owner}`
  }
  return undefined
}
