/**
 * Launches that take room in the in-flight budget which this run's own writes free: the replacements a
 * swap attaches leave flight once the attach succeeds, and a launch the plan terminates once it is gone.
 * Until then they run beside their partners, so a launch made in their room after the attach or a
 * termination failed (or was not made: a plan held back in part) puts more spot instances outside the
 * group than the budget allows. Such launches name the writes they wait on, and the executor makes them
 * only once every one of those succeeded in the same run; the next run launches them otherwise.
 */
import type { Action, LaunchSpotAction, ReleaseDoomedAction, RoomFreedBy } from './actions.ts'

/**
 * `launches` as planned within a budget that counted the swap's replacements (`freedBySwap` of them) and
 * the terminated launches as gone: the budgeted launches beyond the room left without them name those
 * writes. Launches for doomed members are outside the budget and never wait.
 */
export const markRoomFreedThisRun = (
  launches: readonly (LaunchSpotAction | ReleaseDoomedAction)[],
  budget: number,
  freeing: RoomFreedBy & { readonly freedBySwap: number },
): (LaunchSpotAction | ReleaseDoomedAction)[] => {
  const { swapId, terminated, freedBySwap } = freeing
  const sureRoom = Math.max(0, budget - freedBySwap - terminated.length)
  let budgeted = 0
  return launches.map((launch) => {
    if (launch.kind !== 'launch-spot' || launch.releaseIfNotLaunched) return launch
    budgeted++
    if (budgeted <= sureRoom) return launch
    return {
      ...launch,
      roomFreedBy: { swapId: freedBySwap > 0 ? swapId : undefined, terminated },
      reason: `${launch.reason}; made once this run's attach and terminations free its room in the in-flight budget`,
    }
  })
}

/** Whether a launch waits: a write that was to free its room is not among the run's `done` actions. */
export const waitsForRoom = (action: Action, done: readonly Action[]): boolean => {
  if (action.kind !== 'launch-spot' || action.roomFreedBy === undefined) return false
  const { swapId, terminated } = action.roomFreedBy
  const attached = swapId === undefined || done.some((a) => a.kind === 'swap' && a.swapId === swapId)
  const gone = new Set(done.flatMap((a) => (a.kind === 'terminate-spot' ? [a.instanceId] : [])))
  return !attached || terminated.some((id) => !gone.has(id))
}
