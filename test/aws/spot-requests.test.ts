import { DescribeSpotInstanceRequestsCommand } from '@aws-sdk/client-ec2'
import { beforeEach, describe, expect, it } from 'vitest'
import { ec2Mock, resetMocks, testAdapter } from './support.ts'

beforeEach(resetMocks)

const ids = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => `i-${(from + i).toString(16).padStart(17, '0')}`)

describe('spotRequestStatuses', () => {
  it('asks by an instance-id filter and maps each instance to its Spot request status code', async () => {
    ec2Mock.on(DescribeSpotInstanceRequestsCommand).resolves({
      SpotInstanceRequests: [
        {
          InstanceId: 'i-a',
          Status: { Code: 'marked-for-termination', UpdateTime: new Date('2026-01-01T12:00:00Z') },
        },
        { InstanceId: 'i-b', Status: { Code: 'fulfilled' } },
        { SpotInstanceRequestId: 'sir-open', Status: { Code: 'pending-evaluation' } },
      ],
    })
    const codes = await testAdapter().cloud.spotRequestStatuses(['i-a', 'i-b', 'i-a'])
    expect(codes).toEqual(
      new Map([
        ['i-a', { code: 'marked-for-termination', updatedAtMs: Date.parse('2026-01-01T12:00:00Z') }],
        ['i-b', { code: 'fulfilled', updatedAtMs: undefined }],
      ]),
    )
    expect(ec2Mock.commandCalls(DescribeSpotInstanceRequestsCommand).map((c) => c.args[0].input)).toEqual([
      { Filters: [{ Name: 'instance-id', Values: ['i-a', 'i-b'] }], NextToken: undefined },
    ])
  })

  it('batches 200 ids per filter and follows every page', async () => {
    const all = ids(250)
    ec2Mock
      .on(DescribeSpotInstanceRequestsCommand)
      .resolvesOnce({
        SpotInstanceRequests: [{ InstanceId: all[0], Status: { Code: 'fulfilled' } }],
        NextToken: 'page-2',
      })
      .resolvesOnce({
        SpotInstanceRequests: [{ InstanceId: all[1], Status: { Code: 'marked-for-termination' } }],
      })
      .resolves({ SpotInstanceRequests: [{ InstanceId: all[249], Status: { Code: 'fulfilled' } }] })
    const codes = await testAdapter().cloud.spotRequestStatuses(all)
    expect(codes.size).toBe(3)
    expect(codes.get(all[1] as string)?.code).toBe('marked-for-termination')
    const inputs = ec2Mock.commandCalls(DescribeSpotInstanceRequestsCommand).map((c) => c.args[0].input)
    expect(inputs.map((i) => [i.Filters?.[0]?.Values?.length, i.NextToken])).toEqual([
      [200, undefined],
      [200, 'page-2'],
      [50, undefined],
    ])
  })
})
