/** The SpotSwap construct's props, with their documented defaults, and the checks of their shape. */
import { Token } from 'aws-cdk-lib'
import type { RetentionDays } from 'aws-cdk-lib/aws-logs'
import type { SpotSwapConfiguration } from './configuration.ts'
import { isRegionName } from './default-regions.ts'
import type { PassableRoles } from './pass-role.ts'
import { FANOUT_CONCURRENCY_HEADROOM, MIN_FANOUT_CONCURRENCY } from './sizing.ts'

export interface SpotSwapProps {
  /**
   * The regions whose Auto Scaling groups spotswap manages (the Lambdas' REGIONS). Every region but
   * this stack's own needs a SpotSwapEventForwarder, or its interruptions would go unhandled.
   * @default - only this stack's region
   */
  readonly regions?: readonly string[]
  /**
   * How often the replacer runs, in minutes (also the Lambdas' SCHEDULE_MINUTES).
   * @default 5
   */
  readonly scheduleMinutes?: number
  /**
   * The Lambdas' configuration, with AutoSpotting's variable names (TAG_FILTERS, MIN_ON_DEMAND_NUMBER,
   * ...). Validated at synth time; TAG_FILTERS and TAG_FILTERING_MODE also shape the IAM policy.
   * @default - every built-in default (opt-in groups tagged spot-enabled=true)
   */
  readonly configuration?: SpotSwapConfiguration
  /**
   * Which IAM roles the replacer may pass to EC2 (the instance profile roles of the managed groups'
   * launch templates). A wider choice than marked roles raises a synth warning.
   * @default - roles tagged spotswap:passable=true
   */
  readonly passableRoles?: PassableRoles
  /**
   * E-mail address subscribed to the alarms (the recipient must confirm the subscription).
   * @default - alarms without notification
   */
  readonly notificationEmail?: string
  /**
   * An existing SNS topic (its ARN) every alarm notifies, e.g. the one your on-call tooling reads. Its
   * policy must let cloudwatch.amazonaws.com publish. Works beside `notificationEmail`.
   * @default - no existing topic
   */
  readonly alarmTopicArn?: string
  /**
   * Name of an Auto Scaling group to rehearse interruptions on: creates an AWS FIS experiment template
   * that interrupts one of its running spot instances.
   * @default - no experiment template
   */
  readonly rehearsalGroupName?: string
  /**
   * How long the Lambdas' logs are kept.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays
  /**
   * Reserved concurrency of the replacer: at most this many region runs at once.
   * @default 5
   */
  readonly replacerConcurrency?: number
  /**
   * Failed replacements per hour, account-wide, that raise the replacement-failure alarm.
   * @default 3
   */
  readonly replacementFailuresPerHour?: number
  /**
   * Name of the CloudWatch dashboard.
   * @default 'SpotSwap'
   */
  readonly dashboardName?: string
  /**
   * Name of the SSM parameter the stack creates as the kill switch (`off`, `on`, `hard`), read by both
   * Lambdas once per invocation.
   * @default '/spotswap/kill-switch'
   */
  readonly killSwitchParameterName?: string
}

export const MAX_SCHEDULE_MINUTES = 1440

/** Throws on a shape the stack cannot be deployed with, before anything is created. */
export const validateShape = (
  regions: readonly string[],
  scheduleMinutes: number,
  concurrency: number,
): void => {
  const bad = regions.filter((region) => !Token.isUnresolved(region) && !isRegionName(region))
  if (regions.length === 0 || bad.length > 0) {
    throw new Error(`regions must be region names such as eu-west-1 (bad: ${bad.join(', ') || 'none given'})`)
  }
  if (!Number.isInteger(scheduleMinutes) || scheduleMinutes < 1 || scheduleMinutes > MAX_SCHEDULE_MINUTES) {
    throw new Error(`scheduleMinutes must be a whole number of minutes from 1 to ${MAX_SCHEDULE_MINUTES}`)
  }
  if (!Number.isInteger(concurrency) || concurrency < MIN_FANOUT_CONCURRENCY + FANOUT_CONCURRENCY_HEADROOM) {
    throw new Error(
      `replacerConcurrency must be an integer of at least ${MIN_FANOUT_CONCURRENCY + FANOUT_CONCURRENCY_HEADROOM}`,
    )
  }
}
