/**
 * The tasks a container instance runs, as the drain swap asks about them. ECS moves a DRAINING container
 * instance's service tasks to other container instances, but never a standalone task (one started by
 * RunTask or StartTask, in no service): it runs until it stops
 * (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/container-instance-draining.html). A task's
 * group tells them apart: a service's tasks carry `service:<name>` and cannot change it; a standalone task
 * carries its own group, `family:<task definition family>` by default
 * (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/task-groups.html).
 */

/** One task, as DescribeTasks tells it. */
export interface EcsTask {
  readonly arn: string
  /** The task group: `service:<name>` for a service's task. */
  readonly group: string
  /** The container instance that hosts it; undefined for a task on Fargate. */
  readonly containerInstanceArn?: string | undefined
}

/** A container instance's running tasks, or why they could not be read. */
export type EcsTasksObservation =
  | { readonly kind: 'read'; readonly tasks: readonly EcsTask[] }
  | { readonly kind: 'unreadable'; readonly error: string }

const SERVICE_GROUP = 'service:'

/** A task no service runs: ECS never moves it off a DRAINING container instance. */
export const isStandalone = (task: EcsTask): boolean => !task.group.startsWith(SERVICE_GROUP)

/** The first standalone task, named for a reason. */
export const firstStandalone = (tasks: readonly EcsTask[]): EcsTask | undefined => tasks.find(isStandalone)

/** Why a container instance is not drained for its tasks, or undefined when ECS would move all of them. */
export const standaloneBlock = (
  observation: EcsTasksObservation | undefined,
): { readonly code: 'ecs-standalone-task' | 'ecs-tasks-unreadable'; readonly detail: string } | undefined => {
  if (observation === undefined) return { code: 'ecs-tasks-unreadable', detail: 'its tasks were not read' }
  if (observation.kind === 'unreadable')
    return { code: 'ecs-tasks-unreadable', detail: `its tasks could not be read (${observation.error})` }
  const standalone = firstStandalone(observation.tasks)
  return standalone === undefined
    ? undefined
    : {
        code: 'ecs-standalone-task',
        detail: `it runs standalone task ${standalone.arn} (group ${standalone.group}), which ECS never moves`,
      }
}
