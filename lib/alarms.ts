/**
 * What wakes a human: a Lambda failing, something parked in a dead-letter queue, replacements failing,
 * a launch spotswap cannot verify.
 * Thresholds are chosen so that one alarm means one thing to look at, not noise.
 */
import { Duration } from 'aws-cdk-lib'
import { Alarm, ComparisonOperator, type IAlarmAction, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch'
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
  readonly action: IAlarmAction | undefined
}

export class SpotSwapAlarms extends Construct {
  readonly alarms: Alarm[] = []

  constructor(scope: Construct, id: string, props: SpotSwapAlarmsProps) {
    super(scope, id)
    const add = (alarm: Alarm) => {
      if (props.action) alarm.addAlarmAction(props.action)
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
    // A launch spotswap made and cannot verify holds its partner and part of the budget until a person
    // attaches or terminates it: nothing resolves it by itself, so the first one wakes someone.
    add(
      new Alarm(this, 'LaunchesNotVerified', {
        alarmDescription:
          "A spot instance spotswap launched cannot be verified as its own (no EC2 launch-template tag of the group): it is neither attached nor terminated, and its partner gets no new replacement. Attach or terminate it; the replacer's log names it.",
        metric: insights('MAX', Metric.UnverifiedLaunches, 'group', Duration.hours(1), 'Unverified launches'),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    )
  }
}
