/**
 * Sends run requests to the replacer's run-request queue (a standard SQS queue): each message is one
 * replacer run of a group, delivered after its own delay. Standard queues take a delay per message,
 * which FIFO queues do not; the replacer passes each request on to its FIFO queue, so it still never
 * overlaps a worker on the same region.
 */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs'
import { chunk } from './paginate.ts'

const SQS_BATCH_LIMIT = 10
/** SQS delays a message by at most 15 minutes. */
const MAX_DELAY_SECONDS = 900

export interface DelayedMessage {
  readonly body: string
  readonly delaySeconds: number
}

let client: SQSClient | undefined

/** Created on first use and kept for the container, like the clients in clients.ts. */
const defaultSqsClient = (): SQSClient => {
  client ??= new SQSClient({})
  return client
}

export const sendDelayedMessages = async (
  queueUrl: string,
  messages: readonly DelayedMessage[],
  sqs: SQSClient = defaultSqsClient(),
): Promise<void> => {
  for (const batch of chunk(messages, SQS_BATCH_LIMIT)) {
    const result = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: batch.map((m, i) => ({
          Id: String(i),
          MessageBody: m.body,
          DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.round(m.delaySeconds))),
        })),
      }),
    )
    const failed = result.Failed ?? []
    if (failed.length > 0) {
      throw new Error(`SQS rejected ${failed.length} run request(s): ${failed.map((f) => f.Code).join(', ')}`)
    }
  }
}
