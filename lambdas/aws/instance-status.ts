/**
 * Scheduled events of the region's running instances: one DescribeInstanceStatus filtered by
 * `event.code`, paginated (MaxResults up to 1000), so its cost does not grow with the groups
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeInstanceStatus.html). Without
 * IncludeAllInstances only running instances are described: a stopped member serves nothing to protect.
 * Cached per region for SCHEDULED_EVENTS_TTL_MS; a failed read is not cached (the next run asks again).
 */
import { SCHEDULED_EVENT_CODES, type ScheduledEvent, scheduledEvent } from '../core/maintenance/events.ts'
import type { AwsContext } from './context.ts'
import { collectPages } from './paginate.ts'

const readEvents = (ctx: AwsContext): Promise<ScheduledEvent[]> =>
  collectPages(async (nextToken) => {
    const page = await ctx.call('ec2:DescribeInstanceStatus', () =>
      ctx.ec2.describeInstanceStatus({
        Filters: [{ Name: 'event.code', Values: [...SCHEDULED_EVENT_CODES] }],
        MaxResults: 1000,
        NextToken: nextToken,
      }),
    )
    const items: ScheduledEvent[] = []
    for (const status of page.InstanceStatuses ?? [])
      for (const event of status.Events ?? []) {
        const believed = scheduledEvent({
          instanceId: status.InstanceId,
          code: event.Code,
          description: event.Description,
          notBefore: event.NotBefore,
        })
        if (believed !== undefined) items.push(believed)
      }
    return { items, nextToken: page.NextToken }
  })

export const scheduledEvents = (ctx: AwsContext): Promise<ScheduledEvent[]> =>
  ctx.caches.scheduledEvents.get(ctx.region, ctx.now(), () => readEvents(ctx))
