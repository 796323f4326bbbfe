/**
 * Sends fan-out work to the replacer's SQS FIFO queue, ten messages per request (the API's limit), and
 * renews a run's lease on the message it runs (core/region/lease.ts).
 */
import { ChangeMessageVisibilityCommand, type SQSClient } from '@aws-sdk/client-sqs'
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

/** Hides the received message `seconds` from now (ChangeMessageVisibility); throws what SQS answered. */
export const changeFanoutVisibility = async (
  queueUrl: string,
  receiptHandle: string,
  seconds: number,
  sqs: SQSClient = defaultSqsClient(),
): Promise<void> => {
  await sqs.send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: queueUrl,
      ReceiptHandle: receiptHandle,
      VisibilityTimeout: seconds,
    }),
  )
}
