import {
  DescribeAutoScalingGroupsCommand,
  DescribeAutoScalingInstancesCommand,
  DescribeInstanceRefreshesCommand,
  DescribeLifecycleHooksCommand,
  DescribeScalingActivitiesCommand,
} from '@aws-sdk/client-auto-scaling'
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation'
import { beforeEach, describe, expect, it } from 'vitest'
import { mixedInstancesGroup } from './sdk-fixtures.ts'
import { autoScalingMock, awsError, cloudFormationMock, resetMocks, testAdapter } from './support.ts'

beforeEach(resetMocks)

describe('describeGroups', () => {
  it('follows NextToken with 100 records per page and converts every group', async () => {
    autoScalingMock
      .on(DescribeAutoScalingGroupsCommand)
      .resolvesOnce({ AutoScalingGroups: [mixedInstancesGroup], NextToken: 'page-2' })
      .resolvesOnce({ AutoScalingGroups: [{ ...mixedInstancesGroup, AutoScalingGroupName: 'api' }] })
    const { cloud, apiCalls } = testAdapter()

    const groups = await cloud.describeGroups({ tagKey: undefined, tagValues: [] })

    expect(groups.map((g) => [g.name, g.region])).toEqual([
      ['web', 'eu-west-1'],
      ['api', 'eu-west-1'],
    ])
    expect(autoScalingMock).toHaveReceivedNthCommandWith(DescribeAutoScalingGroupsCommand, 1, {
      MaxRecords: 100,
    })
    expect(autoScalingMock).toHaveReceivedNthCommandWith(DescribeAutoScalingGroupsCommand, 2, {
      MaxRecords: 100,
      NextToken: 'page-2',
    })
    expect(apiCalls).toEqual([
      'autoscaling:DescribeAutoScalingGroups',
      'autoscaling:DescribeAutoScalingGroups',
    ])
  })

  it.each([
    [
      'a tag with values',
      { tagKey: 'spot-enabled', tagValues: ['true'] },
      [{ Name: 'tag:spot-enabled', Values: ['true'] }],
    ],
    ['a tag key alone', { tagKey: 'team', tagValues: [] }, [{ Name: 'tag-key', Values: ['team'] }]],
    ['no tag', { tagKey: undefined, tagValues: [] }, undefined],
  ])('narrows the listing server-side by %s', async (_label, query, filters) => {
    autoScalingMock.on(DescribeAutoScalingGroupsCommand).resolves({ AutoScalingGroups: [] })
    await testAdapter().cloud.describeGroups(query)
    const input = autoScalingMock.commandCalls(DescribeAutoScalingGroupsCommand)[0]?.args[0].input
    expect(input?.Filters).toEqual(filters)
  })

  it('asks for named groups 50 names a request, the tag filter kept, and for none makes no call', async () => {
    autoScalingMock.on(DescribeAutoScalingGroupsCommand).callsFake((input) => ({
      AutoScalingGroups: (input.AutoScalingGroupNames ?? []).map((name: string) => ({
        ...mixedInstancesGroup,
        AutoScalingGroupName: name,
      })),
    }))
    const names = Array.from({ length: 120 }, (_, i) => `web-${i}`)
    const query = { tagKey: 'spot-enabled', tagValues: ['true'] }

    const groups = await testAdapter().cloud.describeGroups({ ...query, names: [...names, 'web-0'] })

    expect(groups.map((g) => g.name)).toEqual(names)
    const inputs = autoScalingMock.commandCalls(DescribeAutoScalingGroupsCommand).map((c) => c.args[0].input)
    expect(inputs.map((i) => i.AutoScalingGroupNames?.length)).toEqual([50, 50, 20])
    for (const input of inputs) {
      expect(input.Filters).toEqual([{ Name: 'tag:spot-enabled', Values: ['true'] }])
      expect(input.MaxRecords).toBe(100)
    }
    autoScalingMock.resetHistory()
    await expect(testAdapter().cloud.describeGroups({ ...query, names: [] })).resolves.toEqual([])
    expect(autoScalingMock).not.toHaveReceivedCommand(DescribeAutoScalingGroupsCommand)
  })

  it('stops when the service repeats a NextToken instead of looping forever', async () => {
    autoScalingMock
      .on(DescribeAutoScalingGroupsCommand)
      .resolves({ AutoScalingGroups: [], NextToken: 'same' })
    await testAdapter().cloud.describeGroups({ tagKey: undefined, tagValues: [] })
    expect(autoScalingMock).toHaveReceivedCommandTimes(DescribeAutoScalingGroupsCommand, 2)
  })
})

describe('lifecycleHooks', () => {
  it('lists the hooks of one group', async () => {
    autoScalingMock.on(DescribeLifecycleHooksCommand, { AutoScalingGroupName: 'web' }).resolves({
      LifecycleHooks: [
        {
          LifecycleHookName: 'drain',
          AutoScalingGroupName: 'web',
          LifecycleTransition: 'autoscaling:EC2_INSTANCE_TERMINATING',
          HeartbeatTimeout: 300,
          DefaultResult: 'CONTINUE',
        },
      ],
    })
    await expect(testAdapter().cloud.lifecycleHooks('web')).resolves.toEqual([
      { name: 'drain', transition: 'autoscaling:EC2_INSTANCE_TERMINATING' },
    ])
  })
})

describe('instanceRefreshes', () => {
  it('lists every page of one group, newest first as Auto Scaling answers', async () => {
    autoScalingMock
      .on(DescribeInstanceRefreshesCommand)
      .resolvesOnce({
        InstanceRefreshes: [
          {
            InstanceRefreshId: 'c7f5a1e2',
            AutoScalingGroupName: 'web',
            Status: 'InProgress',
            PercentageComplete: 40,
          },
        ],
        NextToken: 'page-2',
      })
      .resolvesOnce({
        InstanceRefreshes: [
          { InstanceRefreshId: '08b91cf7', AutoScalingGroupName: 'web', Status: 'Successful' },
        ],
      })
    const { cloud, apiCalls } = testAdapter()
    await expect(cloud.instanceRefreshes('web')).resolves.toEqual([
      { id: 'c7f5a1e2', status: 'InProgress' },
      { id: '08b91cf7', status: 'Successful' },
    ])
    expect(autoScalingMock).toHaveReceivedNthCommandWith(DescribeInstanceRefreshesCommand, 1, {
      AutoScalingGroupName: 'web',
      MaxRecords: 100,
    })
    expect(autoScalingMock).toHaveReceivedNthCommandWith(DescribeInstanceRefreshesCommand, 2, {
      AutoScalingGroupName: 'web',
      MaxRecords: 100,
      NextToken: 'page-2',
    })
    expect(apiCalls).toEqual([
      'autoscaling:DescribeInstanceRefreshes',
      'autoscaling:DescribeInstanceRefreshes',
    ])
  })

  it('rejects with the service error, for the caller to classify', async () => {
    autoScalingMock.on(DescribeInstanceRefreshesCommand).rejects(awsError('AccessDenied', 'not allowed', 403))
    await expect(testAdapter().cloud.instanceRefreshes('web')).rejects.toMatchObject({ name: 'AccessDenied' })
  })
})

describe('groupOfInstances', () => {
  it('asks about 50 instances per call and leaves out instances outside any group', async () => {
    const ids = Array.from({ length: 120 }, (_, i) => `i-${String(i).padStart(17, '0')}`)
    autoScalingMock.on(DescribeAutoScalingInstancesCommand).callsFake((input: { InstanceIds: string[] }) => ({
      AutoScalingInstances: input.InstanceIds.filter((_, i) => i % 2 === 0).map((id) => ({
        InstanceId: id,
        AutoScalingGroupName: 'web',
        AvailabilityZone: 'eu-west-1a',
        LifecycleState: 'InService',
        HealthStatus: 'HEALTHY',
        ProtectedFromScaleIn: false,
      })),
    }))

    const owners = await testAdapter().cloud.groupOfInstances(ids)

    const sizes = autoScalingMock
      .commandCalls(DescribeAutoScalingInstancesCommand)
      .map((c) => c.args[0].input.InstanceIds?.length)
    expect(sizes).toEqual([50, 50, 20])
    expect(owners.size).toBe(25 + 25 + 10)
    expect(owners.get(ids[0] ?? '')).toBe('web')
    expect(owners.has(ids[1] ?? '')).toBe(false)
  })
})

describe('scalingActivities', () => {
  const activity = (minute: number) => ({
    ActivityId: `a-${minute}`,
    AutoScalingGroupName: 'web',
    Cause: `cause at minute ${minute}`,
    StartTime: new Date(Date.UTC(2026, 0, 1, 10, minute)),
    StatusCode: 'Successful' as const,
  })

  it('pages newest first and stops at the first page that reaches back before the swap started', async () => {
    autoScalingMock
      .on(DescribeScalingActivitiesCommand)
      .resolvesOnce({ Activities: [activity(50), activity(40)], NextToken: 'page-2' })
      .resolvesOnce({ Activities: [activity(30), activity(10)], NextToken: 'page-3' })
      .resolvesOnce({ Activities: [activity(5)] })

    const activities = await testAdapter().cloud.scalingActivities(
      'web',
      new Date(Date.UTC(2026, 0, 1, 10, 20)),
    )

    expect(activities.map((a) => a.cause)).toEqual([
      'cause at minute 50',
      'cause at minute 40',
      'cause at minute 30',
    ])
    expect(autoScalingMock).toHaveReceivedCommandTimes(DescribeScalingActivitiesCommand, 2)
    expect(autoScalingMock).toHaveReceivedNthCommandWith(DescribeScalingActivitiesCommand, 2, {
      AutoScalingGroupName: 'web',
      MaxRecords: 100,
      NextToken: 'page-2',
    })
  })

  it('lets a failure through for the planner to wait on', async () => {
    autoScalingMock.on(DescribeScalingActivitiesCommand).rejects(awsError('Throttling', 'Rate exceeded', 400))
    await expect(testAdapter().cloud.scalingActivities('web', new Date(0))).rejects.toThrow('Rate exceeded')
  })
})

describe('latestScalingActivities', () => {
  it('asks for one small page and keeps how each activity ended', async () => {
    const failed = {
      ActivityId: 'a-1',
      AutoScalingGroupName: 'web',
      Cause:
        'At 2026-01-01T10:05:00Z an instance was started in response to a difference between desired and actual capacity, increasing the capacity from 3 to 4.',
      Description:
        'Launching a new EC2 instance.  Status Reason: We currently do not have sufficient m5.large capacity. Launching EC2 instance failed.',
      StartTime: new Date(Date.UTC(2026, 0, 1, 10, 5)),
      StatusCode: 'Failed' as const,
      StatusMessage: 'We currently do not have sufficient m5.large capacity. Launching EC2 instance failed.',
    }
    autoScalingMock.on(DescribeScalingActivitiesCommand).resolves({ Activities: [failed], NextToken: 'more' })

    const activities = await testAdapter().cloud.latestScalingActivities('web', 10)

    expect(activities).toEqual([
      {
        startTime: failed.StartTime,
        cause: failed.Cause,
        description: failed.Description,
        statusCode: 'Failed',
        statusMessage: failed.StatusMessage,
      },
    ])
    expect(autoScalingMock).toHaveReceivedCommandTimes(DescribeScalingActivitiesCommand, 1)
    expect(autoScalingMock).toHaveReceivedCommandWith(DescribeScalingActivitiesCommand, {
      AutoScalingGroupName: 'web',
      MaxRecords: 10,
    })
  })
})

describe('stackStatuses', () => {
  it('reports each stack status by name and leaves out stacks that do not exist', async () => {
    cloudFormationMock
      .on(DescribeStacksCommand, { StackName: 'web-stack' })
      .resolves({
        Stacks: [
          { StackName: 'web-stack', StackStatus: 'UPDATE_IN_PROGRESS', CreationTime: new Date('2025-01-01') },
        ],
      })
      .on(DescribeStacksCommand, { StackName: 'gone' })
      .rejects(awsError('ValidationError', 'Stack with id gone does not exist'))

    const statuses = await testAdapter().cloud.stackStatuses(['web-stack', 'gone'])

    expect([...statuses]).toEqual([['web-stack', 'UPDATE_IN_PROGRESS']])
  })

  it('lets other failures through', async () => {
    cloudFormationMock.on(DescribeStacksCommand).rejects(awsError('AccessDenied', 'not authorized', 403))
    await expect(testAdapter().cloud.stackStatuses(['web-stack'])).rejects.toThrow('not authorized')
  })
})
