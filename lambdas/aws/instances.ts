/** EC2 instance reads. */
import type { Instance as Ec2Instance, Filter } from '@aws-sdk/client-ec2'
import { INSTANCE_ID_FILTER_CHUNK, TAG_LAUNCHED_FOR_GROUP } from '../core/constants.ts'
import type { DescribeInstancesOptions } from '../core/port.ts'
import type { Instance } from '../core/types.ts'
import { mapWithConcurrency } from './concurrency.ts'
import type { AwsContext } from './context.ts'
import { toInstance } from './convert-ec2.ts'
import { isNotFound } from './errors.ts'
import { INSTANCE_ATTRIBUTE_CONCURRENCY } from './limits.ts'
import { chunk, collectPages } from './paginate.ts'

/** Every state but terminated: a terminated instance is gone for every purpose of the engine. */
const NOT_TERMINATED: Filter = {
  Name: 'instance-state-name',
  Values: ['pending', 'running', 'shutting-down', 'stopping', 'stopped'],
}

/**
 * Every page of a filtered DescribeInstances, each instance converted (undefined: left out). Converted page
 * by page with loops: a large account lists 100,000 instances every run.
 */
export const describeConverted = <T>(
  ctx: AwsContext,
  filters: Filter[],
  convert: (described: Ec2Instance) => T | undefined,
): Promise<T[]> =>
  collectPages(async (nextToken) => {
    const page = await ctx.call('ec2:DescribeInstances', () =>
      ctx.ec2.describeInstances({ Filters: filters, NextToken: nextToken }),
    )
    const items: T[] = []
    for (const reservation of page.Reservations ?? [])
      for (const described of reservation.Instances ?? []) {
        const converted = convert(described)
        if (converted !== undefined) items.push(converted)
      }
    return { items, nextToken: page.NextToken }
  })

const describeWithFilters = (ctx: AwsContext, filters: Filter[]): Promise<Instance[]> =>
  describeConverted(ctx, filters, toInstance)

/**
 * By an `instance-id` filter rather than InstanceIds: InstanceIds fails the whole call with
 * InvalidInstanceID.NotFound when one id has just gone, a filter simply leaves it out.
 */
export const describeInstances = async (
  ctx: AwsContext,
  ids: readonly string[],
  options: DescribeInstancesOptions = {},
): Promise<Instance[]> => {
  const instances: Instance[] = []
  for (const idsChunk of chunk([...new Set(ids)], INSTANCE_ID_FILTER_CHUNK)) {
    const byId: Filter = { Name: 'instance-id', Values: idsChunk }
    const found = await describeWithFilters(ctx, options.includeTerminated ? [byId] : [byId, NOT_TERMINATED])
    for (const instance of found) instances.push(instance)
  }
  return instances
}

export const describeLaunchedSpotInstances = (ctx: AwsContext): Promise<Instance[]> =>
  describeWithFilters(ctx, [
    { Name: 'tag-key', Values: [TAG_LAUNCHED_FOR_GROUP] },
    { Name: 'instance-state-name', Values: ['pending', 'running'] },
  ])

/**
 * One call per id, at most INSTANCE_ATTRIBUTE_CONCURRENCY at a time; callers ask only about the instances
 * they are about to retire or write to. Read every run, never cached: the attribute can be changed while
 * the instance runs (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/Using_ChangingDisableAPITermination.html).
 */
export const terminationProtected = async (ctx: AwsContext, ids: readonly string[]): Promise<Set<string>> => {
  const answers = await mapWithConcurrency([...new Set(ids)], INSTANCE_ATTRIBUTE_CONCURRENCY, (id) =>
    protectedId(ctx, id),
  )
  return new Set(answers.filter((id): id is string => id !== undefined))
}

/**
 * `id` when it is protected, undefined when not or gone. A promise chain rather than an async function
 * around ignoreNotFound: a first run of a large account reads tens of thousands of these, and each async
 * layer allocates a generator frame and a promise that live until the read answers.
 */
const protectedId = (ctx: AwsContext, id: string): Promise<string | undefined> =>
  ctx
    .call('ec2:DescribeInstanceAttribute', () =>
      ctx.ec2.describeInstanceAttribute({ InstanceId: id, Attribute: 'disableApiTermination' }),
    )
    .then(
      (response) => (response.DisableApiTermination?.Value === true ? id : undefined),
      (error: unknown) => {
        if (isNotFound(error)) return undefined
        throw error
      },
    )
