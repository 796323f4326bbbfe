import { DescribeInstanceStatusCommand } from '@aws-sdk/client-ec2'
import { beforeEach, describe, expect, it } from 'vitest'
import { SCHEDULED_EVENTS_TTL_MS } from '../../lambdas/core/constants.ts'
import { awsError, ec2Mock, resetMocks, testAdapter } from './support.ts'

beforeEach(resetMocks)

const NOT_BEFORE = new Date('2026-03-09T02:00:00Z')

describe('scheduledEvents', () => {
  it('asks once by an event.code filter, follows pages, and keeps pending events only', async () => {
    ec2Mock
      .on(DescribeInstanceStatusCommand)
      .resolvesOnce({
        InstanceStatuses: [
          {
            InstanceId: 'i-a',
            Events: [
              { Code: 'instance-retirement', Description: 'degraded hardware', NotBefore: NOT_BEFORE },
              { Code: 'system-reboot', Description: '[Completed] reboot', NotBefore: NOT_BEFORE },
            ],
          },
        ],
        NextToken: 'page-2',
      })
      .resolves({
        InstanceStatuses: [
          {
            InstanceId: 'i-b',
            Events: [{ Code: 'system-maintenance', Description: 'network', NotBefore: NOT_BEFORE }],
          },
        ],
      })
    const events = await testAdapter().cloud.scheduledEvents()
    expect(events).toEqual([
      { instanceId: 'i-a', code: 'instance-retirement', notBefore: NOT_BEFORE },
      { instanceId: 'i-b', code: 'system-maintenance', notBefore: NOT_BEFORE },
    ])
    const inputs = ec2Mock.commandCalls(DescribeInstanceStatusCommand).map((c) => c.args[0].input)
    expect(inputs).toEqual([
      {
        Filters: [
          {
            Name: 'event.code',
            Values: [
              'instance-retirement',
              'instance-stop',
              'system-reboot',
              'instance-reboot',
              'system-maintenance',
            ],
          },
        ],
        MaxResults: 1000,
        NextToken: undefined,
      },
      expect.objectContaining({ NextToken: 'page-2' }),
    ])
  })

  it('reads once per region within its time to live, again after it', async () => {
    ec2Mock.on(DescribeInstanceStatusCommand).resolves({ InstanceStatuses: [] })
    const { cloud, clock } = testAdapter()
    await cloud.scheduledEvents()
    await cloud.scheduledEvents()
    expect(ec2Mock.commandCalls(DescribeInstanceStatusCommand)).toHaveLength(1)
    clock.nowMs += SCHEDULED_EVENTS_TTL_MS
    await cloud.scheduledEvents()
    expect(ec2Mock.commandCalls(DescribeInstanceStatusCommand)).toHaveLength(2)
  })

  it('keeps no failed read: the next run asks again', async () => {
    ec2Mock
      .on(DescribeInstanceStatusCommand)
      .rejectsOnce(awsError('UnauthorizedOperation', 'not allowed', 403))
      .resolves({ InstanceStatuses: [] })
    const { cloud } = testAdapter()
    await expect(cloud.scheduledEvents()).rejects.toThrow('not allowed')
    await expect(cloud.scheduledEvents()).resolves.toEqual([])
  })
})
