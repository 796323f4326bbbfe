/**
 * The writes of a replacement ahead of a scheduled event (core/maintenance/), each after the marker that
 * announces it, so a run cut short anywhere is judged by the next one against desired capacity.
 */
import { TAG_MAINTENANCE } from '../core/constants.ts'
import type { MaintenanceAction } from '../core/maintenance/action.ts'
import type { CloudPort } from '../core/port.ts'
import type { Outcome } from './outcome.ts'

export const runMaintenance = async (cloud: CloudPort, action: MaintenanceAction): Promise<Outcome> => {
  const { group, instanceId } = action
  if (action.marker !== undefined) await cloud.tagGroup(group, { [TAG_MAINTENANCE]: action.marker })
  switch (action.step) {
    case 'raise':
      await cloud.setDesiredCapacity(group, action.desired as number)
      return { action, status: 'done', detail: `desired capacity ${action.desired} for ${instanceId}` }
    case 'retire':
      // With the decrement: the member that serves in its place keeps the owner's figure.
      await cloud.terminateInGroup(instanceId, true)
      return { action, status: 'done', detail: `retired ${instanceId} ahead of its scheduled event` }
    case 'close':
      if (action.desired !== undefined) await cloud.setDesiredCapacity(group, action.desired)
      await cloud.untagGroup(group, [TAG_MAINTENANCE])
      return {
        action,
        status: 'done',
        detail: action.desired === undefined ? 'closed' : `gave back to ${action.desired}`,
      }
  }
}
