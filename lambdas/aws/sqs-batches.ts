/**
 * Sends SQS messages ten per SendMessageBatch request (the API's limit), with one client per container,
 * and fails on the first batch SQS rejects any entry of. The fan-out and run-request queues differ only
 * in the fields of their entries.
 */
import { SendMessageBatchCommand, type SendMessageBatchRequestEntry, SQSClient } from '@aws-sdk/client-sqs'
import { chunk } from './paginate.ts'

const SQS_BATCH_LIMIT = 10

/** An entry without its `Id`, which is assigned per batch. */
export type BatchEntry = Omit<SendMessageBatchRequestEntry, 'Id'>

let client: SQSClient | undefined

/** Created on first use and kept for the container, like the clients in clients.ts. */
export const defaultSqsClient = (): SQSClient => {
  client ??= new SQSClient({})
  return client
}

/** `what` names the messages in the error, e.g. `fan-out message(s)`. */
export const sendInBatches = async (
  sqs: SQSClient,
  queueUrl: string,
  entries: readonly BatchEntry[],
  what: string,
): Promise<void> => {
  for (const batch of chunk(entries, SQS_BATCH_LIMIT)) {
    const result = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: batch.map((entry, i) => ({ Id: String(i), ...entry })),
      }),
    )
    const failed = result.Failed ?? []
    if (failed.length > 0) {
      throw new Error(`SQS rejected ${failed.length} ${what}: ${failed.map((f) => f.Code).join(', ')}`)
    }
  }
}
