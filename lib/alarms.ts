/**
 * What wakes a human: a replacer that stopped running, a Lambda failing, something parked in a
 * dead-letter queue, replacements failing or refused, a configuration error, tags spotswap does not
 * trust, a launch it cannot verify, a swap open past its deadline.
 * Thresholds are chosen so that one alarm means one thing to look at, not noise. Missing data is
 * breaching only for the heartbeat: every other metric is emitted only where there is something to
 * count, so a quiet account (or one with no managed group yet) stays OK.
 */
import { Duration } from 'aws-cdk-lib'
import {
  Alarm,
  ComparisonOperator,
  type IAlarmAction,
  type MathExpression,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch'
import type { IFunction } from 'aws-cdk-lib/aws-lambda'
import type { IQueue } from 'aws-cdk-lib/aws-sqs'
import { Construct } from 'constructs'
import { Metric } from '../lambdas/core/metric-names.ts'
import { insights } from './metric-queries.ts'

/** Period × evaluation periods may not exceed one day. */
const MAX_TWO_PERIOD_SECONDS = 12 * 3600

export interface SpotSwapAlarmsProps {
  readonly replacer: IFunction
  readonly interruptionHandler: IFunction
  readonly schedulePeriod: Duration
  readonly deadLetterQueues: readonly {
    readonly id: string
    readonly label: string
    readonly queue: IQueue
  }[]
  /** Failed replacements (launch or swap) per hour, account-wide, that raise the alarm. */
  readonly replacementFailuresPerHour: number
  /** Where every alarm goes (SNS topics); none: the alarms only show on the dashboard. */
  readonly actions: readonly IAlarmAction[]
}

/** Schedule periods without a replacer invocation before the heartbeat alarms: one late tick is not news. */
const HEARTBEAT_MISSED_TICKS = 3
const DAY_SECONDS = 86_400

/**
 * The heartbeat's period and how many of them must be empty: the schedule period, as many as fit in the
 * day CloudWatch evaluates at most (a daily schedule alarms after one empty day).
 */
export const heartbeatWindow = (schedulePeriod: Duration): { period: Duration; periods: number } => {
  const seconds = schedulePeriod.toSeconds()
  return {
    period: schedulePeriod,
    periods: Math.max(1, Math.min(HEARTBEAT_MISSED_TICKS, Math.floor(DAY_SECONDS / seconds))),
  }
}

export class SpotSwapAlarms extends Construct {
  readonly alarms: Alarm[] = []

  constructor(scope: Construct, id: string, props: SpotSwapAlarmsProps) {
    super(scope, id)
    const add = (alarm: Alarm) => {
      alarm.addAlarmAction(...props.actions)
      this.alarms.push(alarm)
      return alarm
    }

    // One failed tick is repaired by the next one; failures in two consecutive ticks mean it is stuck.
    // CloudWatch evaluates at most a day, so with a schedule over 12 hours "two ticks" becomes two half days.
    const tick = Duration.seconds(Math.min(props.schedulePeriod.toSeconds(), MAX_TWO_PERIOD_SECONDS))
    add(
      new Alarm(this, 'ReplacerErrors', {
        alarmDescription:
          'The replacer Lambda failed in two consecutive schedule periods: groups are not being converted or cleaned up.',
        metric: props.replacer.metricErrors({ period: tick, statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 2,
        datapointsToAlarm: 2,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    )
    // An interruption has two minutes: every failure may be capacity a group did not get back in time.
    add(
      new Alarm(this, 'InterruptionHandlerErrors', {
        alarmDescription:
          'The interruption handler failed on an event: an interrupted spot instance may not have left its group in time.',
        metric: props.interruptionHandler.metricErrors({ period: Duration.minutes(1), statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    )
    for (const { id: queueId, label, queue } of props.deadLetterQueues) {
      // A dead letter is work spotswap gave up on after all retries: always worth a look.
      add(
        new Alarm(this, `${queueId}Depth`, {
          alarmDescription: `${label}: at least one message is waiting in the dead-letter queue.`,
          metric: queue.metricApproximateNumberOfMessagesVisible({
            period: Duration.minutes(5),
            statistic: 'Maximum',
          }),
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      )
    }
    // Failures per hour across the account. A percentage would need account-wide sums of two metrics in
    // one alarm, which only SEARCH (not allowed in alarms) can produce for a changing set of regions; the
    // dashboard charts the percentage. Counted on the per-region totals so no failure is counted twice.
    add(
      new Alarm(this, 'ReplacementFailures', {
        alarmDescription: `At least ${props.replacementFailuresPerHour} spot replacements (launch or swap) failed within an hour: check the replacer's log for the reason of each.`,
        metric: insights(
          'SUM',
          Metric.ReplacementsFailed,
          'region',
          Duration.hours(1),
          'Failed replacements',
        ),
        threshold: props.replacementFailuresPerHour,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    )
    // The schedule invokes the replacer every period whatever the account holds, so no invocation at all
    // means it stopped (rule disabled, function deleted, concurrency zero): Lambda then publishes nothing,
    // hence missing data breaches (https://docs.aws.amazon.com/lambda/latest/dg/monitoring-metrics-types.html).
    const heartbeat = heartbeatWindow(props.schedulePeriod)
    add(
      new Alarm(this, 'ReplacerHeartbeat', {
        alarmDescription: `The replacer Lambda was not invoked in ${heartbeat.periods} schedule period(s): nothing converts groups or cleans up. Check its schedule rule and the function.`,
        metric: props.replacer.metricInvocations({ period: heartbeat.period, statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: heartbeat.periods,
        datapointsToAlarm: heartbeat.periods,
        comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.BREACHING,
      }),
    )
    // The rest fire on the first one counted within an hour and stay OK without data (nothing counted).
    const onFirst = (id: string, alarmDescription: string, metric: MathExpression) =>
      add(
        new Alarm(this, id, {
          alarmDescription,
          metric,
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      )
    const hour = Duration.hours(1)
    // A launch spotswap made and cannot verify holds its partner and part of the budget until a person
    // attaches or terminates it: nothing resolves it by itself, so the first one wakes someone.
    onFirst(
      'LaunchesNotVerified',
      "A spot instance spotswap launched cannot be verified as its own (no EC2 launch-template tag of the group): it is neither attached nor terminated, and its partner gets no new replacement. Attach or terminate it; the replacer's log names it.",
      insights('MAX', Metric.UnverifiedLaunches, 'group', hour, 'Unverified launches'),
    )
    // A bad value is reported every run until it is fixed: the alarm stays on until then.
    onFirst(
      'ConfigurationErrors',
      "A spotswap setting or group tag has a value spotswap cannot read: a bad global filter stops every run, a bad tag falls back to the default. The replacer's log names the setting, the value and what was used instead.",
      insights('SUM', Metric.ConfigErrors, 'region', hour, 'Configuration errors'),
    )
    // EC2 refuses such a launch again until someone fixes a permission, the template or the image.
    onFirst(
      'RefusedLaunches',
      "EC2 refused a spot launch for a reason it will refuse again (permissions, parameters, launch template, image): the group stays on-demand until it is fixed. The replacer's log gives EC2's error.",
      insights('SUM', Metric.LaunchesRefused, 'region', hour, 'Launches refused'),
    )
    // Only someone else writes a tag spotswap does not trust: never acted on, but worth a person's look.
    for (const [id, metric, what] of [
      ['UntrustedInstanceTags', Metric.UntrustedInstances, 'Instances tagged as spotswap launches'],
      ['UnconfirmedMarkers', Metric.UntrustedMarkers, 'Interruption markers EC2 does not confirm'],
    ] as const)
      onFirst(
        id,
        `${what} that spotswap cannot prove are its own: left alone. Someone else writes spotswap's tags; the replacer's log names the instances.`,
        insights('MAX', metric, 'group', hour, what),
      )
    // A swap holds a unit of desired capacity (and maybe MaxSize) per pair until it closes: one open past
    // any deadline it can have is held by something a person must lift (protection, a failing read).
    onFirst(
      'SwapOverdue',
      "A group's swap is still open past its deadline: it holds desired capacity and MaxSize above the owner's. `spotswap plan` or the replacer's log says what holds it (often a protected instance).",
      insights('MAX', Metric.SwapsPastDeadline, 'group', hour, 'Swaps past deadline'),
    )
    // A stalled revert raises nothing more until its owner fixes what stops Auto Scaling and asks again.
    onFirst(
      'RevertStalled',
      "A group's revert to on-demand stalled: its raises kept ending without a serving member, so spotswap stopped raising and left the group as it is. The group's scaling activities say why; run `spotswap revert` again once it is fixed.",
      insights('MAX', Metric.RevertsStalled, 'group', hour, 'Stalled reverts'),
    )
  }
}
