import { DescribeInstanceAttributeCommand, DescribeInstancesCommand } from '@aws-sdk/client-ec2'
import { beforeEach, describe, expect, it } from 'vitest'
import { INSTANCE_ATTRIBUTE_CONCURRENCY } from '../../lambdas/aws/limits.ts'
import { launchedSpotInstance, onDemandWindowsInstance } from './sdk-fixtures.ts'
import { awsError, ec2Mock, resetMocks, testAdapter } from './support.ts'

beforeEach(resetMocks)

const NOT_TERMINATED = {
  Name: 'instance-state-name',
  Values: ['pending', 'running', 'shutting-down', 'stopping', 'stopped'],
}

describe('describeInstances', () => {
  it('filters by instance-id in chunks of 200, never by InstanceIds, and excludes terminated instances', async () => {
    const ids = Array.from({ length: 450 }, (_, i) => `i-${String(i).padStart(17, '0')}`)
    ec2Mock.on(DescribeInstancesCommand).resolves({ Reservations: [] })

    await testAdapter().cloud.describeInstances(ids)

    const inputs = ec2Mock.commandCalls(DescribeInstancesCommand).map((call) => call.args[0].input)
    expect(inputs.map((input) => input.Filters?.[0]?.Values?.length)).toEqual([200, 200, 50])
    for (const input of inputs) {
      expect(input.InstanceIds).toBeUndefined()
      expect(input.Filters).toEqual([{ Name: 'instance-id', Values: expect.any(Array) }, NOT_TERMINATED])
    }
    expect(inputs.flatMap((input) => input.Filters?.[0]?.Values)).toEqual(ids)
  })

  it('follows NextToken and flattens reservations', async () => {
    ec2Mock
      .on(DescribeInstancesCommand)
      .resolvesOnce({ Reservations: [{ Instances: [launchedSpotInstance] }], NextToken: 'next' })
      .resolvesOnce({ Reservations: [{ Instances: [onDemandWindowsInstance] }] })

    const instances = await testAdapter().cloud.describeInstances([
      'i-0fff5555aaaa6666b',
      'i-0aaa1111bbbb2222c',
    ])

    expect(instances.map((i) => [i.id, i.lifecycle])).toEqual([
      ['i-0fff5555aaaa6666b', 'spot'],
      ['i-0aaa1111bbbb2222c', 'on-demand'],
    ])
    expect(ec2Mock).toHaveReceivedNthCommandWith(DescribeInstancesCommand, 2, { NextToken: 'next' })
  })

  it('makes no call for no ids', async () => {
    await expect(testAdapter().cloud.describeInstances([])).resolves.toEqual([])
    expect(ec2Mock).not.toHaveReceivedAnyCommand()
  })
})

describe('describeLaunchedSpotInstances', () => {
  it('lists pending and running instances carrying launched-for-asg', async () => {
    ec2Mock.on(DescribeInstancesCommand).resolves({ Reservations: [{ Instances: [launchedSpotInstance] }] })

    const instances = await testAdapter().cloud.describeLaunchedSpotInstances()

    expect(instances.map((i) => i.id)).toEqual(['i-0fff5555aaaa6666b'])
    expect(ec2Mock).toHaveReceivedCommandWith(DescribeInstancesCommand, {
      Filters: [
        { Name: 'tag-key', Values: ['launched-for-asg'] },
        { Name: 'instance-state-name', Values: ['pending', 'running'] },
      ],
    })
  })
})

describe('terminationProtected', () => {
  it('asks disableApiTermination per instance and returns the protected ones', async () => {
    ec2Mock
      .on(DescribeInstanceAttributeCommand, { InstanceId: 'i-protected' })
      .resolves({ InstanceId: 'i-protected', DisableApiTermination: { Value: true } })
      .on(DescribeInstanceAttributeCommand, { InstanceId: 'i-open' })
      .resolves({ InstanceId: 'i-open', DisableApiTermination: { Value: false } })
      .on(DescribeInstanceAttributeCommand, { InstanceId: 'i-gone' })
      .rejects(awsError('InvalidInstanceID.NotFound', "The instance ID 'i-gone' does not exist"))

    const protectedIds = await testAdapter().cloud.terminationProtected(['i-protected', 'i-open', 'i-gone'])

    expect([...protectedIds]).toEqual(['i-protected'])
    expect(ec2Mock).toHaveReceivedCommandWith(DescribeInstanceAttributeCommand, {
      InstanceId: 'i-open',
      Attribute: 'disableApiTermination',
    })
  })

  it('rejects when a read fails for any reason but a gone instance: unread is never unprotected', async () => {
    ec2Mock
      .on(DescribeInstanceAttributeCommand, { InstanceId: 'i-open' })
      .resolves({ InstanceId: 'i-open', DisableApiTermination: { Value: false } })
      .on(DescribeInstanceAttributeCommand, { InstanceId: 'i-throttled' })
      .rejects(awsError('RequestLimitExceeded', 'Request limit exceeded.'))

    await expect(testAdapter().cloud.terminationProtected(['i-open', 'i-throttled'])).rejects.toMatchObject({
      name: 'RequestLimitExceeded',
    })
  })
})

describe('terminationProtected, many at once', () => {
  it(`keeps at most ${INSTANCE_ATTRIBUTE_CONCURRENCY} requests in flight and answers for every id`, async () => {
    const ids = Array.from({ length: 95 }, (_, i) => `i-${String(i).padStart(17, '0')}`)
    let inFlight = 0
    let most = 0
    ec2Mock.on(DescribeInstanceAttributeCommand).callsFake(async (input: { InstanceId: string }) => {
      inFlight++
      most = Math.max(most, inFlight)
      // Answered on a later turn, as a request over the network is: the others are sent meanwhile.
      await new Promise((resolve) => setImmediate(resolve))
      inFlight--
      return {
        InstanceId: input.InstanceId,
        DisableApiTermination: { Value: input.InstanceId.endsWith('7') },
      }
    })

    const protectedIds = await testAdapter().cloud.terminationProtected([...ids, ...ids.slice(0, 5)])

    expect(most).toBe(INSTANCE_ATTRIBUTE_CONCURRENCY)
    expect(ec2Mock.commandCalls(DescribeInstanceAttributeCommand)).toHaveLength(ids.length)
    expect([...protectedIds]).toEqual(ids.filter((id) => id.endsWith('7')))
  })
})
