/**
 * Sends run requests to the replacer's run-request queue (a standard SQS queue): each message is one
 * replacer run of a group, delivered after its own delay. Standard queues take a delay per message,
 * which FIFO queues do not; the replacer passes each request on to its FIFO queue, so it still never
 * overlaps a worker on the same region.
 */
import type { SQSClient } from '@aws-sdk/client-sqs'
import { groupRunRequestEvent } from '../core/events/definitions.ts'
import { type RetryRequestDetail, retryRequestEvent } from '../core/events/retry-request.ts'
import { defaultSqsClient, sendInBatches } from './sqs-batches.ts'

/** SQS delays a message by at most 15 minutes. */
const MAX_DELAY_SECONDS = 900

export interface DelayedMessage {
  readonly body: string
  readonly delaySeconds: number
}

export const sendDelayedMessages = (
  queueUrl: string,
  messages: readonly DelayedMessage[],
  sqs: SQSClient = defaultSqsClient(),
): Promise<void> =>
  sendInBatches(
    sqs,
    queueUrl,
    messages.map((m) => ({
      MessageBody: m.body,
      DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.round(m.delaySeconds))),
    })),
    'run request(s)',
  )

/** Runs of one group, one message per delay, each a run of its own (its id names the time and delay). */
export const sendRunRequests = (
  queueUrl: string,
  region: string,
  group: string,
  delaysSeconds: readonly number[],
  now: Date,
  send: typeof sendDelayedMessages = sendDelayedMessages,
): Promise<void> =>
  send(
    queueUrl,
    delaysSeconds.map((delaySeconds) => ({
      body: JSON.stringify(groupRunRequestEvent(`${now.getTime()}-${delaySeconds}s`, region, group, now)),
      delaySeconds,
    })),
  )

/** Another run of a lane (or of some of its groups), after its delay (core/events/retry-request.ts). */
export const sendRetryRequest = (
  queueUrl: string,
  region: string,
  scope: RetryRequestDetail,
  delaySeconds: number,
  now: Date,
  send: typeof sendDelayedMessages = sendDelayedMessages,
): Promise<void> =>
  send(queueUrl, [
    {
      body: JSON.stringify(retryRequestEvent(`${now.getTime()}-lane${scope.lane}-retry`, region, scope, now)),
      delaySeconds,
    },
  ])
