/** Sends fan-out work to the replacer's SQS FIFO queue, ten messages per request (the API's limit). */
import type { SQSClient } from '@aws-sdk/client-sqs'
import { defaultSqsClient, sendInBatches } from './sqs-batches.ts'

export interface QueueMessage {
  readonly groupId: string
  readonly deduplicationId: string
  readonly body: string
}

export const sendFanoutMessages = (
  queueUrl: string,
  messages: readonly QueueMessage[],
  sqs: SQSClient = defaultSqsClient(),
): Promise<void> =>
  sendInBatches(
    sqs,
    queueUrl,
    messages.map((m) => ({
      MessageBody: m.body,
      MessageGroupId: m.groupId,
      MessageDeduplicationId: m.deduplicationId,
    })),
    'fan-out message(s)',
  )
