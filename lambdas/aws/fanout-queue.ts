/** Sends fan-out work to the replacer's SQS FIFO queue, ten messages per request (the API's limit). */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs'
import { chunk } from './paginate.ts'

const SQS_BATCH_LIMIT = 10

export interface QueueMessage {
  readonly groupId: string
  readonly deduplicationId: string
  readonly body: string
}

let client: SQSClient | undefined

/** Created on first use and kept for the container, like the clients in clients.ts. */
const defaultSqsClient = (): SQSClient => {
  client ??= new SQSClient({})
  return client
}

export const sendFanoutMessages = async (
  queueUrl: string,
  messages: readonly QueueMessage[],
  sqs: SQSClient = defaultSqsClient(),
): Promise<void> => {
  for (const batch of chunk(messages, SQS_BATCH_LIMIT)) {
    const result = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: batch.map((m, i) => ({
          Id: String(i),
          MessageBody: m.body,
          MessageGroupId: m.groupId,
          MessageDeduplicationId: m.deduplicationId,
        })),
      }),
    )
    const failed = result.Failed ?? []
    if (failed.length > 0) {
      throw new Error(
        `SQS rejected ${failed.length} fan-out message(s): ${failed.map((f) => f.Code).join(', ')}`,
      )
    }
  }
}
