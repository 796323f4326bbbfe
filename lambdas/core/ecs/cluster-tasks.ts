/**
 * A cluster's tasks, read once per run whatever its size (ListTasks for the whole cluster, DescribeTasks a
 * hundred at a time: aws/ecs.ts ecsClusterTasks), then told apart by the container instance that hosts
 * each: the calls stay flat in the number of container instances. A task of another capacity provider's
 * container instance, or one on Fargate (no container instance), belongs to no member and is ignored.
 */

import type { EcsContainerInstance } from './cluster.ts'
import type { EcsTask, EcsTasksObservation } from './tasks.ts'

/** The whole cluster's running tasks, or why they could not be read (any page that failed). */
export type EcsClusterTasksRead =
  | { readonly kind: 'read'; readonly tasks: readonly EcsTask[] }
  | { readonly kind: 'unreadable'; readonly error: string }

/**
 * The container instances a drain swap may drain, whose tasks are asked for: ACTIVE, running tasks, and a
 * member ECS protects (`candidates`, by EC2 instance id). One running none has none to read.
 */
export const drainCandidates = (
  listed: readonly EcsContainerInstance[],
  candidates: ReadonlySet<string>,
): EcsContainerInstance[] =>
  listed.filter(
    (ci) => ci.status === 'ACTIVE' && ci.runningTasksCount > 0 && candidates.has(ci.ec2InstanceId),
  )

/**
 * A container instance's id, the last part of its ARN: accounts hold both ARN formats,
 * `container-instance/ID` and `container-instance/CLUSTER/ID`
 * (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/ecs-account-settings.html).
 */
export const containerInstanceId = (arn: string): string => arn.slice(arn.lastIndexOf('/') + 1)

/**
 * The tasks of each asked container instance, by EC2 instance id. A cluster read that failed leaves every
 * one unreadable: the task missing may be the standalone one of any of them.
 */
export const tasksByInstance = (
  read: EcsClusterTasksRead,
  asked: readonly EcsContainerInstance[],
): ReadonlyMap<string, EcsTasksObservation> => {
  if (read.kind === 'unreadable')
    return new Map(asked.map((ci) => [ci.ec2InstanceId, { kind: 'unreadable', error: read.error }]))
  const byContainer = new Map<string, EcsTask[]>()
  for (const task of read.tasks) {
    if (task.containerInstanceArn === undefined) continue
    const id = containerInstanceId(task.containerInstanceArn)
    byContainer.set(id, [...(byContainer.get(id) ?? []), task])
  }
  return new Map(
    asked.map((ci) => [
      ci.ec2InstanceId,
      { kind: 'read', tasks: byContainer.get(containerInstanceId(ci.arn)) ?? [] },
    ]),
  )
}
