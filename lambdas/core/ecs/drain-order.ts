/**
 * Which members of a group ECS manages a drain swap takes first: those running the fewest tasks. A drain
 * moves every service task of the member, and a service whose minimumHealthyPercent is below 100 runs
 * short while its tasks move: ECS may stop them before it starts their replacements
 * (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/container-instance-draining.html). ECS
 * places a moved task by the service's placement strategy, binpack on the instance with the least room
 * left (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/task-placement-strategies.html):
 * while full members wait for their drain, they are where a moved task goes, and it moves again when they
 * are drained. Draining the emptiest members first moves the fewest tasks per drain and leaves the fullest
 * for last, when the replacements have room, so each task moves once.
 */
import type { EcsManagement } from './capacity-provider.ts'

/**
 * The tasks each member's container instance runs (DescribeContainerInstances' runningTasksCount), when
 * ECS manages the group and its cluster was read; undefined otherwise (the order stays the usual one).
 */
export const runningTasksOf = (
  ecs: EcsManagement | undefined,
): ((instanceId: string) => number) | undefined => {
  if (ecs?.kind !== 'managed' || ecs.cluster.kind !== 'read') return undefined
  const { containerInstances } = ecs.cluster
  return (instanceId) => containerInstances.get(instanceId)?.runningTasksCount ?? 0
}
