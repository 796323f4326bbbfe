import {
  AttachInstancesCommand,
  CreateOrUpdateTagsCommand,
  DeleteTagsCommand as DeleteGroupTagsCommand,
  DetachInstancesCommand,
  TerminateInstanceInAutoScalingGroupCommand,
  UpdateAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling'
import {
  CreateTagsCommand as CreateInstanceTagsCommand,
  DeleteTagsCommand as DeleteInstanceTagsCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2'
import { beforeEach, describe, expect, it } from 'vitest'
import { isNotFound } from '../../lambdas/aws/errors.ts'
import { autoScalingMock, awsError, ec2Mock, resetMocks, testAdapter } from './support.ts'

beforeEach(resetMocks)

const ids = (count: number) => Array.from({ length: count }, (_, i) => `i-${String(i).padStart(17, '0')}`)

const notFound = (id: string) =>
  awsError('InvalidInstanceID.NotFound', `The instance ID '${id}' does not exist`)

describe('attaching and detaching', () => {
  it('attaches 20 instances per call', async () => {
    autoScalingMock.on(AttachInstancesCommand).resolves({})
    await testAdapter().cloud.attachInstances('web', ids(25))
    const batches = autoScalingMock.commandCalls(AttachInstancesCommand).map((c) => c.args[0].input)
    expect(batches.map((b) => [b.AutoScalingGroupName, b.InstanceIds?.length])).toEqual([
      ['web', 20],
      ['web', 5],
    ])
  })

  it('reports an attach refused by the group', async () => {
    autoScalingMock.on(AttachInstancesCommand).rejects(awsError('ValidationError', 'would exceed MaxSize'))
    await expect(testAdapter().cloud.attachInstances('web', ['i-1'])).rejects.toThrow('would exceed MaxSize')
  })

  it.each([true, false])('detaches with ShouldDecrementDesiredCapacity %s', async (decrement) => {
    autoScalingMock.on(DetachInstancesCommand).resolves({})
    await testAdapter().cloud.detachInstances('web', ['i-1'], decrement)
    expect(autoScalingMock).toHaveReceivedCommandWith(DetachInstancesCommand, {
      AutoScalingGroupName: 'web',
      InstanceIds: ['i-1'],
      ShouldDecrementDesiredCapacity: decrement,
    })
  })
})

describe('terminating', () => {
  it.each([true, false])(
    'terminates through the group with ShouldDecrementDesiredCapacity %s',
    async (decrement) => {
      autoScalingMock.on(TerminateInstanceInAutoScalingGroupCommand).resolves({})
      await testAdapter().cloud.terminateInGroup('i-1', decrement)
      expect(autoScalingMock).toHaveReceivedCommandWith(TerminateInstanceInAutoScalingGroupCommand, {
        InstanceId: 'i-1',
        ShouldDecrementDesiredCapacity: decrement,
      })
    },
  )

  it('reports an instance already out of its group as not found, for the caller to judge', async () => {
    autoScalingMock
      .on(TerminateInstanceInAutoScalingGroupCommand)
      .rejects(
        awsError('ValidationError', 'Instance Id not found - No managed instance found for instance ID: i-1'),
      )
    const failure = await testAdapter()
      .cloud.terminateInGroup('i-1', true)
      .catch((error: unknown) => error)
    expect(isNotFound(failure)).toBe(true)
  })

  it('redoes a batch one by one when an instance is gone, terminating the rest before reporting it', async () => {
    ec2Mock.on(TerminateInstancesCommand).callsFake((input: { InstanceIds: string[] }) => {
      if (input.InstanceIds.includes('i-gone')) throw notFound('i-gone')
      return { TerminatingInstances: [] }
    })

    const failure = await testAdapter()
      .cloud.terminateInstances(['i-a', 'i-gone', 'i-b'])
      .catch((error: unknown) => error)

    const sent = ec2Mock.commandCalls(TerminateInstancesCommand).map((c) => c.args[0].input.InstanceIds)
    expect(sent).toEqual([['i-a', 'i-gone', 'i-b'], ['i-a'], ['i-gone'], ['i-b']])
    expect(isNotFound(failure)).toBe(true)
  })

  it('terminates every batch of 200', async () => {
    ec2Mock.on(TerminateInstancesCommand).resolves({ TerminatingInstances: [] })
    await testAdapter().cloud.terminateInstances(ids(250))
    const sizes = ec2Mock
      .commandCalls(TerminateInstancesCommand)
      .map((c) => c.args[0].input.InstanceIds?.length)
    expect(sizes).toEqual([200, 50])
  })

  it('lets other termination failures through', async () => {
    ec2Mock.on(TerminateInstancesCommand).rejects(awsError('OperationNotPermitted', 'termination protection'))
    await expect(testAdapter().cloud.terminateInstances(['i-a'])).rejects.toThrow('termination protection')
  })
})

describe('group size and tags', () => {
  it('changes MaxSize and nothing else', async () => {
    autoScalingMock.on(UpdateAutoScalingGroupCommand).resolves({})
    await testAdapter().cloud.setMaxSize('web', 7)
    expect(autoScalingMock.commandCalls(UpdateAutoScalingGroupCommand)[0]?.args[0].input).toEqual({
      AutoScalingGroupName: 'web',
      MaxSize: 7,
    })
  })

  it('tags the group without propagating to new instances', async () => {
    autoScalingMock.on(CreateOrUpdateTagsCommand).resolves({})
    await testAdapter().cloud.tagGroup('web', { team: 'payments' })
    expect(autoScalingMock).toHaveReceivedCommandWith(CreateOrUpdateTagsCommand, {
      Tags: [
        {
          ResourceId: 'web',
          ResourceType: 'auto-scaling-group',
          Key: 'team',
          Value: 'payments',
          PropagateAtLaunch: false,
        },
      ],
    })
  })

  it('removes group tags by key', async () => {
    autoScalingMock.on(DeleteGroupTagsCommand).resolves({})
    await testAdapter().cloud.untagGroup('web', ['spotswap:original-max-size'])
    expect(autoScalingMock).toHaveReceivedCommandWith(DeleteGroupTagsCommand, {
      Tags: [{ ResourceId: 'web', ResourceType: 'auto-scaling-group', Key: 'spotswap:original-max-size' }],
    })
  })

  it('tags instances in batches of 200', async () => {
    ec2Mock.on(CreateInstanceTagsCommand).resolves({})
    const ids = Array.from({ length: 201 }, (_, i) => `i-${i}`)
    await testAdapter().cloud.tagInstances(ids, { team: 'payments' })
    expect(ec2Mock).toHaveReceivedCommandTimes(CreateInstanceTagsCommand, 2)
    expect(ec2Mock).toHaveReceivedNthCommandWith(CreateInstanceTagsCommand, 2, {
      Resources: ['i-200'],
      Tags: [{ Key: 'team', Value: 'payments' }],
    })
  })

  it('removes instance tags by key whatever their value', async () => {
    ec2Mock.on(DeleteInstanceTagsCommand).resolves({})
    await testAdapter().cloud.untagInstances(['i-a', 'i-b'], ['launched-for-asg'])
    expect(ec2Mock).toHaveReceivedCommandWith(DeleteInstanceTagsCommand, {
      Resources: ['i-a', 'i-b'],
      Tags: [{ Key: 'launched-for-asg' }],
    })
  })

  it('makes no call when there is nothing to tag or untag', async () => {
    const { cloud, apiCalls } = testAdapter()
    await cloud.tagGroup('web', {})
    await cloud.untagGroup('web', [])
    await cloud.tagInstances(['i-a'], {})
    await cloud.untagInstances(['i-a'], [])
    await cloud.untagInstances([], ['launched-for-asg'])
    expect(apiCalls).toEqual([])
  })
})
