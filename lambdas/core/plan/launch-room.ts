/**
 * Launches that take room in the in-flight budget which this run's own writes free: the replacements a
 * swap attaches leave flight once the attach succeeds, and a launch the plan terminates once it is gone.
 * Until then they run beside their partners, so a launch made in their room after the attach or a
 * termination failed puts more spot instances outside the group than the budget allows. Such launches are
 * marked, and the executor makes them only once the writes freeing their room succeeded
 * (core/region/execution-order.ts); the next run launches them otherwise.
 */
import type { Action, LaunchSpotAction, ReleaseDoomedAction } from './actions.ts'

/** The kinds of write that free room in the in-flight budget during a run. */
export const FREEING_KINDS: ReadonlySet<Action['kind']> = new Set(['swap', 'terminate-spot'])

/**
 * `launches` as planned within a budget that counted `freedThisRun` replacements as gone: the budgeted
 * launches beyond the room left without them are marked. Launches for doomed members are outside the
 * budget and never marked.
 */
export const markRoomFreedThisRun = (
  launches: readonly (LaunchSpotAction | ReleaseDoomedAction)[],
  budget: number,
  freedThisRun: number,
): (LaunchSpotAction | ReleaseDoomedAction)[] => {
  const sureRoom = Math.max(0, budget - freedThisRun)
  let budgeted = 0
  return launches.map((launch) => {
    if (launch.kind !== 'launch-spot' || launch.releaseIfNotLaunched) return launch
    budgeted++
    if (budgeted <= sureRoom) return launch
    return {
      ...launch,
      needsRoomFreedThisRun: true,
      reason: `${launch.reason}; made once this run's attach and terminations free its room in the in-flight budget`,
    }
  })
}

/** Whether a launch waits because a write that was to free its room failed in this run. */
export const waitsForRoom = (action: Action, failedKinds: ReadonlySet<Action['kind']>): boolean =>
  action.kind === 'launch-spot' &&
  action.needsRoomFreedThisRun === true &&
  [...FREEING_KINDS].some((kind) => failedKinds.has(kind))
