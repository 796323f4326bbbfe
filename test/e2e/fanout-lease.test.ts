/**
 * A region run's lease on its fan-out message (core/region/lease.ts) against moto's SQS: a real FIFO queue,
 * a message received as Lambda's event source mapping receives it, and the replacer as deployed. The run
 * shortens its message's visibility to the lease through the SDK's ChangeMessageVisibility, which moto
 * accepts for the receipt handle of a message in flight; when SQS refuses the change (here: the message was
 * deleted meanwhile, so its receipt handle names nothing), the run reports the lost lease (log, metric) and
 * works only within the bound its receipt gave it.
 */
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs'
import { expect, it, vi } from 'vitest'
import {
  FANOUT_LEASE_SECONDS,
  FANOUT_VISIBILITY_SECONDS,
  REGION_LANES,
  REPLACER_TIMEOUT_SECONDS,
} from '../../lambdas/core/constants.ts'
import type { Log, MetricsSink } from '../../lambdas/core/log.ts'
import { Metric } from '../../lambdas/core/metric-names.ts'
import { laneMessageGroupId, laneOf } from '../../lambdas/core/region/lanes.ts'
import { motoRegion, required } from './support/clients.ts'
import { E2E_TIMEOUT_MS } from './support/events.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import { withEnvRestored } from './support/replacer-runs.ts'
import { allInstances, createGroup } from './support/world.ts'

const REGION = 'us-east-1'
const GROUP = 'web'
const lane = laneOf(GROUP, REGION_LANES)

const sqs = () => new SQSClient({ region: motoRegion(REGION), maxAttempts: 1 })

/** The fan-out queue as the stack makes it (FIFO, visibility covering the function timeout), one message received. */
const receivedWork = async (): Promise<{ queueUrl: string; message: Message }> => {
  const client = sqs()
  const { QueueUrl } = await client.send(
    new CreateQueueCommand({
      QueueName: 'spotswap-fanout.fifo',
      Attributes: {
        FifoQueue: 'true',
        ContentBasedDeduplication: 'true',
        VisibilityTimeout: String(FANOUT_VISIBILITY_SECONDS),
      },
    }),
  )
  const queueUrl = required(QueueUrl, 'queue URL')
  await client.send(
    new SendMessageCommand({
      QueueUrl: queueUrl,
      MessageGroupId: laneMessageGroupId(REGION, lane),
      MessageBody: JSON.stringify({
        source: 'spotswap',
        'detail-type': 'Region Work',
        region: REGION,
        detail: { region: REGION, lane },
      }),
    }),
  )
  const { Messages } = await client.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 1,
      MessageSystemAttributeNames: ['All'],
    }),
  )
  return { queueUrl, message: required(Messages?.[0], 'received message') }
}

/** The SQS event Lambda's event source mapping would build from the received message. */
const sqsEvent = (message: Message) => ({
  Records: [
    {
      eventSource: 'aws:sqs',
      messageId: message.MessageId,
      receiptHandle: message.ReceiptHandle,
      body: message.Body,
      attributes: message.Attributes,
    },
  ],
})

/** The replacer as deployed on Lambda for this queue, its ChangeMessageVisibility calls and their outcomes recorded. */
const deployedReplacer = async (queueUrl: string) => {
  vi.resetModules()
  process.env.REGIONS = REGION
  process.env.AWS_LAMBDA_FUNCTION_NAME = 'spotswap-replacer'
  process.env.FANOUT_QUEUE_URL = queueUrl
  const { createHandler } = await import('../../lambdas/replacer/create-handler.ts')
  const { defaultDeps } = await import('../../lambdas/replacer/default-deps.ts')
  const { changeFanoutVisibility } = await import('../../lambdas/aws/fanout-queue.ts')
  const changes: { seconds: number; error?: string }[] = []
  const warnings: { message: string; attributes?: Record<string, unknown> }[] = []
  const emitted: string[] = []
  const defaults = defaultDeps()
  const log: Log = { ...defaults.log, warn: (message, attributes) => warnings.push({ message, attributes }) }
  const metrics: MetricsSink = { emit: (_, values) => emitted.push(...values.map((v) => v.name)) }
  const handle = createHandler({
    ...defaults,
    log,
    metrics,
    requestRun: async () => {},
    changeVisibility: async (url, receiptHandle, seconds) => {
      try {
        await changeFanoutVisibility(url, receiptHandle, seconds, sqs())
        changes.push({ seconds })
      } catch (error) {
        changes.push({ seconds, error: error instanceof Error ? error.name : String(error) })
        throw error
      }
    },
  })
  // Lambda's context, read as the run starts: the function timeout less the second it took to start.
  const startedMs = Date.now()
  const context = {
    getRemainingTimeInMillis: () => REPLACER_TIMEOUT_SECONDS * 1000 - 1000 - (Date.now() - startedMs),
  }
  return { handle: (event: unknown) => handle(event, context), changes, warnings, emitted }
}

const spotLaunchesFor = async (group: string) =>
  (await allInstances()).filter((i) => i.lifecycle === 'spot' && i.tags['launched-for-asg'] === group)

describeMoto('the fan-out lease, against moto’s SQS', (moto) => {
  freshAccountPerTest(moto)

  it(
    'shortens its message’s visibility to the lease through ChangeMessageVisibility, then works',
    async () => {
      const restore = withEnvRestored()
      try {
        await createGroup({ name: GROUP, desired: 4, min: 1, max: 4, tags: { 'spot-enabled': 'true' } })
        const { queueUrl, message } = await receivedWork()
        const replacer = await deployedReplacer(queueUrl)
        const summary = await replacer.handle(sqsEvent(message))
        expect(summary.ok).toBe(true)
        // The lease was taken (and possibly renewed) with moto answering each change.
        expect(replacer.changes.length).toBeGreaterThan(0)
        expect(replacer.changes).toEqual(replacer.changes.map(() => ({ seconds: FANOUT_LEASE_SECONDS })))
        expect(replacer.warnings.map((w) => w.message)).not.toContain('fan-out message lease not renewed')
        expect(replacer.emitted).not.toContain(Metric.FanoutLeasesLost)
        // and the run wrote: a replacement was launched for the group.
        expect((await spotLaunchesFor(GROUP)).length).toBeGreaterThan(0)
        // The message stays in flight (Lambda deletes it once the invocation succeeds, not the run).
        const again = await sqs().send(
          new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 1 }),
        )
        expect(again.Messages ?? []).toHaveLength(0)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'reports a lease SQS refuses, and works only within the bound its receipt gave it',
    async () => {
      const restore = withEnvRestored()
      try {
        await createGroup({ name: GROUP, desired: 4, min: 1, max: 4, tags: { 'spot-enabled': 'true' } })
        const { queueUrl, message } = await receivedWork()
        // Deleted meanwhile: its receipt handle names no message in flight, so SQS refuses every change.
        await sqs().send(
          new DeleteMessageCommand({
            QueueUrl: queueUrl,
            ReceiptHandle: required(message.ReceiptHandle, 'receipt'),
          }),
        )
        const replacer = await deployedReplacer(queueUrl)
        const summary = await replacer.handle(sqsEvent(message))
        expect(replacer.changes.length).toBeGreaterThan(0)
        // AWS's answers for a receipt handle that names no message in flight (API_ChangeMessageVisibility).
        expect(
          replacer.changes.every((c) =>
            ['ReceiptHandleIsInvalid', 'MessageNotInflight'].includes(c.error ?? ''),
          ),
        ).toBe(true)
        const lost = replacer.warnings.filter((w) => w.message === 'fan-out message lease not renewed')
        expect(lost.length).toBeGreaterThan(0)
        expect(lost[0]?.attributes).toMatchObject({ region: REGION, messageId: message.MessageId })
        expect(replacer.emitted).toContain(Metric.FanoutLeasesLost)
        // The receipt's own bound (the queue's visibility timeout from the receipt) still covers this
        // short run, so it works as it would have: a refused change never crashes the run.
        expect(summary.ok).toBe(true)
        expect((await spotLaunchesFor(GROUP)).length).toBeGreaterThan(0)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )
})
