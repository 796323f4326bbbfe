/**
 * spotswap's queues: the FIFO fan-out queue (one message group per lane of a region, so two invocations
 * never work on the same group at once: core/region/lanes.ts) with its FIFO dead-letter queue, the run-request queue (standard, for
 * its per-message delays) and one standard queue that keeps every event EventBridge or Lambda finally
 * failed to deliver or process.
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib'
import type { IRule } from 'aws-cdk-lib/aws-events'
import { AnyPrincipal, Effect, type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam'
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs'
import type { Construct } from 'constructs'
import {
  DEAD_LETTER_RETENTION,
  DEADLINE_RETENTION,
  DEADLINE_VISIBILITY_TIMEOUT,
  FANOUT_MAX_RECEIVE_COUNT,
  FANOUT_RETENTION,
  FANOUT_VISIBILITY_TIMEOUT,
  RUN_REQUEST_RETENTION,
  RUN_REQUEST_VISIBILITY_TIMEOUT,
} from './sizing.ts'

/**
 * SSE-SQS rather than KMS: EventBridge and Lambda destinations can write to it without a key policy,
 * and the messages hold instance ids and event envelopes, nothing secret.
 */
const COMMON = {
  encryption: QueueEncryption.SQS_MANAGED,
  enforceSSL: true,
  removalPolicy: RemovalPolicy.DESTROY,
} as const

export interface FanoutQueues {
  readonly queue: Queue
  readonly deadLetterQueue: Queue
}

export const createFanoutQueues = (scope: Construct): FanoutQueues => {
  const deadLetterQueue = new Queue(scope, 'FanoutDeadLetterQueue', {
    ...COMMON,
    fifo: true,
    retentionPeriod: DEAD_LETTER_RETENTION,
  })
  const queue = new Queue(scope, 'FanoutQueue', {
    ...COMMON,
    fifo: true,
    // The replacer sends an explicit deduplication id (region + tick); content-based deduplication is a
    // safety net for any sender that does not.
    contentBasedDeduplication: true,
    visibilityTimeout: Duration.seconds(FANOUT_VISIBILITY_TIMEOUT),
    retentionPeriod: FANOUT_RETENTION,
    deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: FANOUT_MAX_RECEIVE_COUNT },
  })
  return { queue, deadLetterQueue }
}

/**
 * Requests for replacer runs of a group, each delayed by its own DelaySeconds (FIFO queues have no
 * per-message delay): the interruption handler's, within the two minutes of an interruption warning, and
 * the replacer's own early looks at a swap waiting for its replacements to serve. The replacer passes each
 * on to the fan-out queue. No dead-letter queue and a short retention: the scheduled runs reconcile
 * whatever a lost request left.
 */
export const createRunRequestQueue = (scope: Construct): Queue => {
  const queue = new Queue(scope, 'RunRequestQueue', {
    ...COMMON,
    visibilityTimeout: Duration.seconds(RUN_REQUEST_VISIBILITY_TIMEOUT),
    retentionPeriod: RUN_REQUEST_RETENTION,
  })
  Validations.of(queue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason:
      'A run request is stale two minutes after it was sent (the interrupted instance is gone) and the scheduled runs reconcile without it; a dead-letter queue would keep only noise.',
  })
  return queue
}

/**
 * The interruption handler's reminders to itself, each delayed to the deadline of a member it replaces
 * ahead of its interruption: a member still in its group then leaves, whatever the replacer's queue for
 * the region is doing. Standard, for the per-message delay; no dead-letter queue (a reminder is stale
 * 20 s after its delivery, when EC2 has taken the member).
 */
export const createDeadlineQueue = (scope: Construct): Queue => {
  const queue = new Queue(scope, 'DeadlineQueue', {
    ...COMMON,
    visibilityTimeout: Duration.seconds(DEADLINE_VISIBILITY_TIMEOUT),
    retentionPeriod: DEADLINE_RETENTION,
  })
  Validations.of(queue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason:
      'A deadline reminder is stale once EC2 has taken the interrupted member, 20 s after its delivery; a dead-letter queue would keep only noise.',
  })
  return queue
}

/**
 * Where EventBridge targets (and asynchronous Lambda invocations) put what they finally gave up on.
 * `deadLetterOf` says whose dead letters it keeps, for the cdk-nag acknowledgement.
 */
export const createFailedEventsQueue = (
  scope: Construct,
  id: string,
  deadLetterOf: string,
  queueName?: string,
): Queue => {
  const queue = new Queue(scope, id, {
    ...COMMON,
    retentionPeriod: DEAD_LETTER_RETENTION,
    ...(queueName ? { queueName } : {}),
  })
  Validations.of(queue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason: `This queue is itself the dead-letter destination of ${deadLetterOf}; a dead-letter queue for it would only move the same messages again.`,
  })
  return queue
}

export interface QueueSenders {
  /** Roles that send with their own credentials (the Lambdas, and Lambda destinations with them). */
  readonly roles?: readonly IRole[]
  /** EventBridge rules whose targets dead-letter here; EventBridge sends with aws:SourceArn = the rule. */
  readonly rules?: readonly IRule[]
}

/**
 * The queue refuses SendMessage (SendMessageBatch is authorised as SendMessage) from anyone but these
 * senders, whatever their own policies allow: an explicit deny in the queue policy wins over any allow in
 * the same account. Both keys are ANDed, and a negated operator is true for a key the request lacks, so
 * a role's request (no aws:SourceArn) passes on its aws:PrincipalArn and EventBridge's (no principal ARN)
 * on its rule. With no senders nobody may send (a dead-letter queue is filled by its redrive policy,
 * not by SendMessage).
 */
export const acceptMessagesOnlyFrom = (queue: IQueue, senders: QueueSenders): void => {
  const roleArns = (senders.roles ?? []).map((role) => role.roleArn)
  const ruleArns = (senders.rules ?? []).map((rule) => rule.ruleArn)
  const notFrom = {
    ...(roleArns.length > 0 ? { 'aws:PrincipalArn': roleArns } : {}),
    ...(ruleArns.length > 0 ? { 'aws:SourceArn': ruleArns } : {}),
  }
  queue.addToResourcePolicy(
    new PolicyStatement({
      sid: 'AcceptMessagesOnlyFromSpotSwap',
      effect: Effect.DENY,
      principals: [new AnyPrincipal()],
      actions: ['sqs:SendMessage'],
      resources: [queue.queueArn],
      ...(Object.keys(notFrom).length > 0 ? { conditions: { ArnNotEquals: notFrom } } : {}),
    }),
  )
}
