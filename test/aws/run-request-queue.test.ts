import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs'
import { mockClient } from 'aws-sdk-client-mock'
import { beforeEach, describe, expect, it } from 'vitest'
import {
  sendDelayedMessages,
  sendRetryRequest,
  sendRunRequests,
} from '../../lambdas/aws/run-request-queue.ts'
import { groupRunRequest } from '../../lambdas/core/events/definitions.ts'
import { parseInvocation } from '../../lambdas/core/events/invocation.ts'
import { replacerEvents } from '../../lambdas/replacer/event-registry.ts'

const sqs = new SQSClient({ region: 'us-east-1' })
const sqsMock = mockClient(sqs)
const QUEUE = 'https://sqs.us-east-1.amazonaws.com/123456789012/run-requests'

beforeEach(() => {
  sqsMock.reset()
  sqsMock.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] })
})

const entries = () =>
  sqsMock.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input.Entries ?? [])

describe('sendDelayedMessages', () => {
  it('gives each message its own delay, clamped to what SQS accepts, ten to a request', async () => {
    const delays = [0, 45, 90, 2000, -5, 1, 2, 3, 4, 5, 6]
    await sendDelayedMessages(
      QUEUE,
      delays.map((delaySeconds, i) => ({ body: `m${i}`, delaySeconds })),
      sqs,
    )
    const sent = entries()
    expect(sent.map((batch) => batch.length)).toEqual([10, 1])
    expect(sent.flat().map((e) => e.DelaySeconds)).toEqual([0, 45, 90, 900, 0, 1, 2, 3, 4, 5, 6])
    expect(sent.flat().every((e) => e.MessageGroupId === undefined)).toBe(true)
  })

  it('throws when SQS rejects a message, so the caller falls back', async () => {
    sqsMock.on(SendMessageBatchCommand).resolves({
      Successful: [],
      Failed: [{ Id: '0', Code: 'AccessDenied', SenderFault: true }],
    })
    await expect(sendDelayedMessages(QUEUE, [{ body: 'x', delaySeconds: 0 }], sqs)).rejects.toThrow(
      /AccessDenied/,
    )
  })
})

describe('sendRunRequests', () => {
  it('sends one Group Run Request per delay, each with an id of its own', async () => {
    const now = new Date('2026-03-02T14:05:22Z')
    await sendRunRequests(QUEUE, 'eu-west-1', 'web', [0, 45, 90], now, (url, messages) =>
      sendDelayedMessages(url, messages, sqs),
    )
    const sent = entries().flat()
    expect(sent.map((e) => e.DelaySeconds)).toEqual([0, 45, 90])
    const bodies = sent.map((e) => JSON.parse(e.MessageBody ?? '{}'))
    expect(bodies[0]).toMatchObject({
      source: groupRunRequest.source,
      'detail-type': groupRunRequest.detailType,
      region: 'eu-west-1',
      time: now.toISOString(),
      detail: { groupName: 'web' },
    })
    expect(new Set(bodies.map((b) => b.id)).size).toBe(3)
  })
})

describe('sendRetryRequest', () => {
  it('sends one Failed Run Retry Request for the lane, after its delay, that the replacer parses back', async () => {
    const now = new Date('2026-03-02T14:05:22Z')
    await sendRetryRequest(QUEUE, 'eu-west-1', { lane: 2, groups: undefined }, 60, now, (url, messages) =>
      sendDelayedMessages(url, messages, sqs),
    )
    const sent = entries().flat()
    expect(sent.map((e) => e.DelaySeconds)).toEqual([60])
    const [parsed] = parseInvocation(replacerEvents, JSON.parse(sent[0]?.MessageBody ?? '{}'))
    expect(parsed?.event).toMatchObject({ kind: 'retry-request', detail: { lane: 2, groups: undefined } })
  })
})
