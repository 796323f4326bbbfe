/**
 * ECS's ListTasks and DescribeTasks as the adapter sends them (aws/ecs.ts ecsClusterTasks), answered from
 * the simulated clusters (sim/ecs-cluster.ts): the cluster's tasks, or one container instance's, whose
 * desired status is RUNNING (pending and running ones; a stopping task's is STOPPED), a hundred a page
 * (maxResults 1 to 100), then described a hundred at a time (more is refused), each with its `group`
 * (`service:NAME` or `family:NAME`), `lastStatus`, `launchType` and the container instance that hosts it
 * (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ListTasks.html,
 * https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_DescribeTasks.html). A task the cluster
 * does not hold is reported MISSING, as ECS does for one it does not know.
 */
import type { EcsApi } from '../../../lambdas/aws/cloud.ts'
import type { SimCluster } from '../ecs-cluster-state.ts'
import { simAwsError } from '../errors.ts'
import type { PageRule } from './paging.ts'
import { answer, type SimApiContext } from './request.ts'

const TASKS: PageRule = {
  operation: 'ListTasks',
  defaultSize: 100,
  min: 1,
  max: 100,
  invalidCode: 'InvalidParameterException',
}

const DESCRIBE_MAX = 100

const clusterNamed = (ctx: SimApiContext, named: string | undefined): SimCluster => {
  const wanted = named ?? 'default'
  const found = [...ctx.region.ecsClusters.values()].find((c) => c.arn === wanted || c.name === wanted)
  if (found === undefined) throw simAwsError('ClusterNotFoundException', 400, 'Cluster not found.')
  return found
}

/** The EC2 instance a container instance named by its ARN or id stands for. */
const instanceOf = (cluster: SimCluster, named: string | undefined): string | undefined =>
  named === undefined
    ? undefined
    : [...cluster.containerInstances.values()].find((ci) => ci.arn === named || ci.arn.endsWith(`/${named}`))
        ?.ec2InstanceId

export const ecsTasks = (ctx: SimApiContext): Pick<EcsApi, 'listTasks' | 'describeTasks'> => ({
  listTasks: (input) =>
    answer(ctx, 'ecs:ListTasks', () => {
      const cluster = clusterNamed(ctx, input.cluster)
      const instance = instanceOf(cluster, input.containerInstance)
      const stopping = input.desiredStatus === 'STOPPED'
      const page = ctx.listings.page(
        TASKS,
        { maxResults: input.maxResults, nextToken: input.nextToken },
        () =>
          [...cluster.tasks.values()]
            .filter((t) => input.containerInstance === undefined || t.instanceId === instance)
            .filter((t) => (t.status === 'STOPPING') === stopping)
            .map((t) => t.arn),
      )
      return { taskArns: [...page.items], nextToken: page.nextToken }
    }),
  describeTasks: (input) =>
    answer(ctx, 'ecs:DescribeTasks', () => {
      const cluster = clusterNamed(ctx, input.cluster)
      if (input.tasks.length > DESCRIBE_MAX)
        throw simAwsError(
          'InvalidParameterException',
          400,
          `DescribeTasks takes at most ${DESCRIBE_MAX} tasks`,
        )
      const found = input.tasks.map((arn) => ({ arn, task: cluster.tasks.get(arn) }))
      return {
        tasks: found.flatMap(({ task }) =>
          task === undefined
            ? []
            : [
                {
                  taskArn: task.arn,
                  group: task.group,
                  lastStatus: task.status,
                  launchType: 'EC2',
                  containerInstanceArn: cluster.containerInstances.get(task.instanceId)?.arn,
                },
              ],
        ),
        failures: found
          .filter(({ task }) => task === undefined)
          .map(({ arn }) => ({ arn, reason: 'MISSING' })),
      }
    }),
})
