/** CloudFormation reads: a group inside a stack that is updating must be left alone. */
import type { AwsContext } from './context.ts'
import { ignoreNotFound } from './errors.ts'

/** One DescribeStacks per name (the API takes one name per call); deleted stacks are absent. */
export const stackStatuses = async (
  ctx: AwsContext,
  stackNames: readonly string[],
): Promise<Map<string, string>> => {
  const statuses = new Map<string, string>()
  for (const name of new Set(stackNames)) {
    const response = await ignoreNotFound(
      ctx.call('cloudformation:DescribeStacks', () => ctx.cloudFormation.describeStacks({ StackName: name })),
    )
    const status = response?.Stacks?.[0]?.StackStatus
    if (status !== undefined) statuses.set(name, status)
  }
  return statuses
}
