/**
 * SpotSwap: the whole service in the home region as one L3 construct. The replacer runs on a schedule
 * and on group launch events, fans its work out per region through a FIFO queue, and the interruption
 * handler reacts to spot interruption warnings and rebalance recommendations from every covered region
 * (other regions forward them here with SpotSwapEventForwarder).
 */
import { Annotations, Duration, Stack } from 'aws-cdk-lib'
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch'
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions'
import { Policy } from 'aws-cdk-lib/aws-iam'
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations'
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources'
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs'
import type { LogGroup } from 'aws-cdk-lib/aws-logs'
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns'
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions'
import type { Queue } from 'aws-cdk-lib/aws-sqs'
import type { StringParameter } from 'aws-cdk-lib/aws-ssm'
import { Construct } from 'constructs'
import { DEFAULT_SCHEDULE_MINUTES } from '../lambdas/core/constants.ts'
import { SpotSwapAlarms } from './alarms.ts'
import { configurationEnvironment, validateConfiguration } from './configuration.ts'
import { SpotSwapDashboard } from './dashboard.ts'
import {
  createSpotSwapFunction,
  INTERRUPTION_ENTRY,
  REPLACER_ENTRY,
  type SpotSwapFunction,
} from './functions.ts'
import { type Grant, toStatement } from './grant.ts'
import { createHomeRules } from './home-rules.ts'
import {
  createKillSwitchParameter,
  DEFAULT_KILL_SWITCH_PARAMETER,
  killSwitchGrant,
  validateKillSwitchName,
} from './kill-switch.ts'
import { createMarkerKey } from './marker-key.ts'
import { acknowledgeWildcards } from './nag.ts'
import { DEFAULT_PASSABLE_ROLES, widerPassableRolesWarning } from './pass-role.ts'
import { interruptionGrants, markerKeyGrant, replacerGrants } from './permissions.ts'
import {
  acceptMessagesOnlyFrom,
  createDeadlineQueue,
  createFailedEventsQueue,
  createFanoutQueues,
  createRunRequestQueue,
} from './queues.ts'
import { InterruptionRehearsal } from './rehearsal.ts'
import {
  DEADLINE_BATCH_SIZE,
  DEFAULT_LOG_RETENTION,
  DEFAULT_REPLACER_CONCURRENCY,
  FANOUT_CONCURRENCY_HEADROOM,
  INTERRUPTION_MAX_EVENT_AGE,
  INTERRUPTION_MEMORY_MB,
  INTERRUPTION_RETRY_ATTEMPTS,
  INTERRUPTION_TIMEOUT,
  MIN_FANOUT_CONCURRENCY,
  REPLACER_MEMORY_MB,
  REPLACER_RETRY_ATTEMPTS,
  REPLACER_TIMEOUT,
  RUN_REQUEST_BATCH_SIZE,
  replacerMaxEventAge,
} from './sizing.ts'
import { type SpotSwapProps, validateShape } from './spotswap-props.ts'

const DEFAULT_REPLACEMENT_FAILURES_PER_HOUR = 3

export class SpotSwap extends Construct {
  readonly replacer: NodejsFunction
  readonly interruptionHandler: NodejsFunction
  readonly replacerLogGroup: LogGroup
  readonly interruptionHandlerLogGroup: LogGroup
  readonly fanoutQueue: Queue
  readonly fanoutDeadLetterQueue: Queue
  /** The interruption handler's delayed requests for replacer runs (replacing a member ahead of its interruption). */
  readonly runRequestQueue: Queue
  /** The interruption handler's reminders to itself at the deadline of a member replaced ahead. */
  readonly deadlineQueue: Queue
  /** Events and invocations that failed every retry, from both Lambdas and every home rule. */
  readonly failedEvents: Queue
  readonly alarms: readonly Alarm[]
  readonly alarmTopic: Topic | undefined
  readonly dashboard: SpotSwapDashboard
  readonly rehearsal: InterruptionRehearsal | undefined
  /** The kill switch both Lambdas read (off, on, hard). */
  readonly killSwitch: StringParameter

  constructor(scope: Construct, id: string, props: SpotSwapProps = {}) {
    super(scope, id)
    const homeRegion = Stack.of(this).region
    const regions = props.regions ?? [homeRegion]
    const scheduleMinutes = props.scheduleMinutes ?? DEFAULT_SCHEDULE_MINUTES
    const concurrency = props.replacerConcurrency ?? DEFAULT_REPLACER_CONCURRENCY
    validateShape(regions, scheduleMinutes, concurrency)
    // Throws on any value the Lambdas would reject; the parsed filters also shape the IAM conditions.
    const config = validateConfiguration(props.configuration ?? {})
    const schedulePeriod = Duration.minutes(scheduleMinutes)
    const replacerEventAge = replacerMaxEventAge(schedulePeriod)
    const killSwitchName = props.killSwitchParameterName ?? DEFAULT_KILL_SWITCH_PARAMETER
    validateKillSwitchName(killSwitchName)
    this.killSwitch = createKillSwitchParameter(this, killSwitchName)

    this.failedEvents = createFailedEventsQueue(
      this,
      'FailedEvents',
      "the home EventBridge rules and both Lambdas' asynchronous invocations (its depth is alarmed)",
    )
    const { queue: fanoutQueue, deadLetterQueue } = createFanoutQueues(this)
    this.fanoutQueue = fanoutQueue
    this.fanoutDeadLetterQueue = deadLetterQueue
    this.runRequestQueue = createRunRequestQueue(this)
    this.deadlineQueue = createDeadlineQueue(this)
    const onFailure = new SqsDestination(this.failedEvents)

    const shared = {
      ...configurationEnvironment(props.configuration ?? {}),
      // The covered regions, not "all": a region without forwarding would get spot without interruption handling.
      REGIONS: regions.join(','),
      KILL_SWITCH_PARAMETER: this.killSwitch.parameterName,
    }
    const logRetention = props.logRetention ?? DEFAULT_LOG_RETENTION
    const replacer = createSpotSwapFunction(this, 'Replacer', {
      entry: REPLACER_ENTRY,
      description:
        'spotswap: replace on-demand capacity of tagged Auto Scaling groups with compatible spot instances',
      memorySize: REPLACER_MEMORY_MB,
      timeout: REPLACER_TIMEOUT,
      environment: {
        ...shared,
        SCHEDULE_MINUTES: String(scheduleMinutes),
        FANOUT_QUEUE_URL: fanoutQueue.queueUrl,
        // A swap waiting for its replacements to serve asks for an early look at its group.
        RUN_REQUEST_QUEUE_URL: this.runRequestQueue.queueUrl,
      },
      logRetention,
      reservedConcurrentExecutions: concurrency,
      onFailure,
      retryAttempts: REPLACER_RETRY_ATTEMPTS,
      maxEventAge: replacerEventAge,
    })
    const interruption = createSpotSwapFunction(this, 'InterruptionHandler', {
      entry: INTERRUPTION_ENTRY,
      description:
        'spotswap: take interrupted or at-risk spot instances out of their group without losing capacity',
      memorySize: INTERRUPTION_MEMORY_MB,
      timeout: INTERRUPTION_TIMEOUT,
      environment: {
        ...shared,
        RUN_REQUEST_QUEUE_URL: this.runRequestQueue.queueUrl,
        DEADLINE_QUEUE_URL: this.deadlineQueue.queueUrl,
      },
      logRetention,
      // No reserved concurrency: a mass interruption must be handled for every instance within two minutes.
      onFailure,
      retryAttempts: INTERRUPTION_RETRY_ATTEMPTS,
      maxEventAge: INTERRUPTION_MAX_EVENT_AGE,
    })
    this.replacer = replacer.fn
    this.interruptionHandler = interruption.fn
    this.replacerLogGroup = replacer.logGroup
    this.interruptionHandlerLogGroup = interruption.logGroup

    const passableRoles = props.passableRoles ?? DEFAULT_PASSABLE_ROLES
    const wider = widerPassableRolesWarning(passableRoles)
    if (wider !== undefined) Annotations.of(this).addWarningV2('spotswap:passable-roles', wider)
    const readKillSwitch = killSwitchGrant(this, killSwitchName)
    this.grant(replacer, 'ReplacerPermissions', [
      ...replacerGrants({ ...config, passableRoles }),
      readKillSwitch,
    ])
    this.grant(interruption, 'InterruptionHandlerPermissions', [
      ...interruptionGrants(config),
      readKillSwitch,
    ])
    const markerKey = createMarkerKey(this, [replacer.role, interruption.role])
    for (const fn of [replacer, interruption]) {
      fn.fn.addEnvironment('MARKER_KEY_ARN', markerKey.keyArn)
      this.grant(fn, `${fn === replacer ? 'Replacer' : 'InterruptionHandler'}MarkerKey`, [
        markerKeyGrant(markerKey.keyArn),
      ])
    }
    fanoutQueue.grantSendMessages(replacer.role)
    this.runRequestQueue.grantSendMessages(interruption.role)
    this.runRequestQueue.grantSendMessages(replacer.role)
    this.deadlineQueue.grantSendMessages(interruption.role)
    this.interruptionHandler.addEventSource(
      new SqsEventSource(this.deadlineQueue, { batchSize: DEADLINE_BATCH_SIZE }),
    )
    this.replacer.addEventSource(
      new SqsEventSource(this.runRequestQueue, {
        batchSize: RUN_REQUEST_BATCH_SIZE,
        // Each request only enqueues fan-out work: the floor of concurrency is plenty.
        maxConcurrency: MIN_FANOUT_CONCURRENCY,
      }),
    )
    this.replacer.addEventSource(
      new SqsEventSource(fanoutQueue, {
        // One lane of a region per invocation: each gets the whole timeout and fails alone. A failed run is
        // not handed back (it would hold its lane's message group for the visibility timeout); a crashed
        // invocation's message is delivered again.
        batchSize: 1,
        maxConcurrency: Math.max(MIN_FANOUT_CONCURRENCY, concurrency - FANOUT_CONCURRENCY_HEADROOM),
      }),
    )

    const homeRules = createHomeRules(this, {
      replacer: this.replacer,
      interruptionHandler: this.interruptionHandler,
      failedEvents: this.failedEvents,
      schedulePeriod,
      scheduleMinutes,
      replacerEventAge,
    })
    const lambdas = [replacer.role, interruption.role]
    acceptMessagesOnlyFrom(this.failedEvents, { roles: lambdas, rules: homeRules })
    acceptMessagesOnlyFrom(fanoutQueue, { roles: [replacer.role] })
    acceptMessagesOnlyFrom(deadLetterQueue, {})
    acceptMessagesOnlyFrom(this.runRequestQueue, { roles: lambdas })
    acceptMessagesOnlyFrom(this.deadlineQueue, { roles: [interruption.role] })

    this.alarmTopic = props.notificationEmail ? this.createAlarmTopic(props.notificationEmail) : undefined
    const topics: ITopic[] = [
      ...(this.alarmTopic ? [this.alarmTopic] : []),
      ...(props.alarmTopicArn ? [Topic.fromTopicArn(this, 'ExistingAlarmTopic', props.alarmTopicArn)] : []),
    ]
    const deadLetterQueues = [
      { id: 'FanoutDeadLetters', label: 'Region runs that failed three times', queue: deadLetterQueue },
      {
        id: 'FailedEvents',
        label: 'Events and invocations that failed every retry',
        queue: this.failedEvents,
      },
    ]
    const alarms = new SpotSwapAlarms(this, 'Alarms', {
      replacer: this.replacer,
      interruptionHandler: this.interruptionHandler,
      schedulePeriod,
      deadLetterQueues,
      replacementFailuresPerHour: props.replacementFailuresPerHour ?? DEFAULT_REPLACEMENT_FAILURES_PER_HOUR,
      actions: topics.map((topic) => new SnsAction(topic)),
    })
    this.alarms = alarms.alarms
    this.dashboard = new SpotSwapDashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName ?? 'SpotSwap',
      homeRegion,
      forwardedRegions: regions.filter((region) => region !== homeRegion),
      schedulePeriod,
      replacer: this.replacer,
      replacerLogGroup: this.replacerLogGroup,
      groupMetrics: config.groupMetrics === true,
      interruptionHandler: this.interruptionHandler,
      deadLetterQueues,
      alarms: alarms.alarms,
    })
    const stopAlarm = alarms.alarms.find((alarm) => alarm.node.id === 'InterruptionHandlerErrors')
    this.rehearsal =
      props.rehearsalGroupName && stopAlarm
        ? new InterruptionRehearsal(this, 'Rehearsal', { groupName: props.rehearsalGroupName, stopAlarm })
        : undefined
  }

  private grant(fn: SpotSwapFunction, id: string, grants: readonly Grant[]): void {
    // The log group's own write grant needs no acknowledgement: its ARN already ends in `:*`.
    const policy = new Policy(this, id, { statements: grants.map(toStatement) })
    policy.attachToRole(fn.role)
    // The schedule may fire as soon as the function exists; it must not run before it may act.
    fn.fn.node.addDependency(policy)
    acknowledgeWildcards(policy, grants)
  }

  private createAlarmTopic(email: string): Topic {
    // Not KMS-encrypted: CloudWatch cannot publish to a topic under the AWS-managed SNS key, and alarm
    // notifications carry only alarm names and states.
    const topic = new Topic(this, 'AlarmTopic', { displayName: 'spotswap alarms', enforceSSL: true })
    topic.addSubscription(new EmailSubscription(email))
    return topic
  }
}
