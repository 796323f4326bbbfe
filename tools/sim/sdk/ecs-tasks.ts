/**
 * ECS's ListTasks and DescribeTasks as the adapter sends them (aws/ecs.ts ecsTasks): a container instance's
 * running tasks, a hundred a page (maxResults 1 to 100), then described a hundred at a time
 * (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ListTasks.html,
 * https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_DescribeTasks.html). The simulator's
 * clusters register no container instance (sdk/ecs.ts), so none runs a task: ListTasks lists none, and
 * DescribeTasks reports each task it is given as MISSING, as ECS does for one it does not know.
 */
import type { EcsApi } from '../../../lambdas/aws/cloud.ts'
import type { PageRule } from './paging.ts'
import { answer, type SimApiContext } from './request.ts'

const TASKS: PageRule = {
  operation: 'ListTasks',
  defaultSize: 100,
  min: 1,
  max: 100,
  invalidCode: 'InvalidParameterException',
}

export const ecsTasks = (ctx: SimApiContext): Pick<EcsApi, 'listTasks' | 'describeTasks'> => ({
  listTasks: (input) =>
    answer(ctx, 'ecs:ListTasks', () => {
      const page = ctx.listings.page(
        TASKS,
        { maxResults: input.maxResults, nextToken: input.nextToken },
        () => [] as string[],
      )
      return { taskArns: [...page.items], nextToken: page.nextToken }
    }),
  describeTasks: (input) =>
    answer(ctx, 'ecs:DescribeTasks', () => ({
      tasks: [],
      failures: input.tasks.map((arn) => ({ arn, reason: 'MISSING' })),
    })),
})
