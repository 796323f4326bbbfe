/**
 * The ECS writes of a drain swap (core/ecs/drain.ts). A drain is marked on the partner first
 * (TAG_ECS_DRAINED, with a MAC), so a run cut short after it is still known to be spotswap's and is set
 * ACTIVE again if the swap gives up; the marker goes only once the container instance is ACTIVE again.
 * ECS reports a container instance it could not update in its answer, not as an error
 * (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_UpdateContainerInstancesState.html):
 * the action fails with it, and the next run sees the state as it is.
 */
import { TAG_ECS_DRAINED } from '../core/constants.ts'
import type { EcsStateAction } from '../core/plan/actions.ts'
import type { CloudPort } from '../core/port.ts'
import type { Outcome } from './outcome.ts'

export const runEcsState = async (cloud: CloudPort, action: EcsStateAction): Promise<Outcome> => {
  const draining = action.kind === 'ecs-drain'
  if (draining && action.swapId === undefined)
    return { action, status: 'failed', detail: 'not drained: no open swap to mark it with' }
  if (draining) await cloud.tagInstances([action.instanceId], { [TAG_ECS_DRAINED]: action.swapId as string })
  const refused = await cloud.setContainerInstancesState(
    action.cluster,
    [action.containerInstanceArn],
    draining ? 'DRAINING' : 'ACTIVE',
  )
  const failure = refused[0]
  if (failure !== undefined)
    return { action, status: 'failed', detail: `ECS did not update ${failure.arn}: ${failure.reason}` }
  if (!draining) await cloud.untagInstances([action.instanceId], [TAG_ECS_DRAINED])
  return { action, status: 'done', detail: `${action.instanceId} ${draining ? 'DRAINING' : 'ACTIVE'}` }
}
