/**
 * The writes of a revert (core/revert/), each after the marker that announces it, so a run cut short
 * anywhere is judged by the next one against desired capacity.
 */
import type { CloudPort } from '../core/port.ts'
import type { RevertAction } from '../core/revert/action.ts'
import { TAG_REVERT } from '../core/revert/marker.ts'
import type { Outcome } from './outcome.ts'

export const runRevert = async (cloud: CloudPort, action: RevertAction): Promise<Outcome> => {
  await cloud.tagGroup(action.group, { [TAG_REVERT]: action.marker })
  switch (action.step) {
    case 'raise':
      // Auto Scaling launches the unit from the group's own template, on-demand (core/revert/plan.ts;
      // https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_SetDesiredCapacity.html).
      await cloud.setDesiredCapacity(action.group, action.desired as number)
      return { action, status: 'done', detail: `desired capacity ${action.desired}` }
    case 'give-back':
      // Back to the owner's: Auto Scaling scales in only below the group's current size, and nothing launched
      // for the unit (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_SetDesiredCapacity.html).
      await cloud.setDesiredCapacity(action.group, action.desired as number)
      return { action, status: 'done', detail: `desired capacity back to ${action.desired}` }
    case 'retire':
      // With the decrement: the on-demand member raised for it keeps the owner's figure; Auto Scaling may
      // rebalance zones after it (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_TerminateInstanceInAutoScalingGroup.html).
      await cloud.terminateInGroup(action.instanceId as string, true)
      return { action, status: 'done', detail: `retired ${action.instanceId} with a decrement` }
    case 'mark':
      return { action, status: 'done', detail: action.marker }
  }
}
