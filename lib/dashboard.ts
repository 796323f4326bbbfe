/**
 * The savings dashboard: what spotswap saves, how much of the fleet is spot, what it did and how fast it
 * reacted. Every spotswap metric comes from metric-queries.ts, i.e. from lambdas/core/metric-names.ts;
 * this file never spells a metric name.
 */
import { Duration } from 'aws-cdk-lib'
import {
  AlarmStatusWidget,
  Metric as CloudWatchMetric,
  Dashboard,
  GraphWidget,
  type IAlarm,
  type IMetric,
  type IWidget,
  LogQueryWidget,
  MathExpression,
  SingleValueWidget,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch'
import type { IFunction } from 'aws-cdk-lib/aws-lambda'
import type { ILogGroup } from 'aws-cdk-lib/aws-logs'
import type { IQueue } from 'aws-cdk-lib/aws-sqs'
import { Construct } from 'constructs'
import { DIMENSION_ACTION, DIMENSION_REASON, Metric } from '../lambdas/core/metric-names.ts'
import { forwardingRuleName, ROUTED_EVENTS } from './event-patterns.ts'
import { UNDELIVERED_EVENTS_QUEUE_NAME } from './forwarder.ts'
import { eachSeries, insights, sumOfSeries } from './metric-queries.ts'

export interface SpotSwapDashboardProps {
  readonly dashboardName: string
  readonly homeRegion: string
  /** Covered regions other than the home region: their forwarding rules are charted. */
  readonly forwardedRegions: readonly string[]
  /** The replacer's schedule: fleet gauges are reported once per tick, so that is their natural period. */
  readonly schedulePeriod: Duration
  readonly replacer: IFunction
  /** Per-group views read the replacer's `group figures` lines here unless `groupMetrics` is on. */
  readonly replacerLogGroup: ILogGroup
  /**
   * The Lambdas emit fleet metrics per group (GROUP_METRICS): per-group charts use them.
   * @default false - per-group charts are Logs Insights queries
   */
  readonly groupMetrics?: boolean
  readonly interruptionHandler: IFunction
  readonly deadLetterQueues: readonly { readonly label: string; readonly queue: IQueue }[]
  readonly alarms: readonly IAlarm[]
}

const WIDTH = 24
const THIRD = 8
const QUARTER = 6
const HEIGHT = 6

export class SpotSwapDashboard extends Construct {
  readonly dashboard: Dashboard

  constructor(scope: Construct, id: string, props: SpotSwapDashboardProps) {
    super(scope, id)
    // A gauge is emitted once per tick: averaging over a shorter period would show gaps.
    const gauge = Duration.minutes(Math.max(5, props.schedulePeriod.toMinutes()))
    const count = gauge

    const savingsTotal = sumOfSeries(
      Metric.HourlySavingsUsd,
      { schema: 'region', statistic: 'Average', period: gauge },
      'Hourly savings, all regions (USD/h)',
    )
    const monthlyTotal = sumOfSeries(
      Metric.ProjectedMonthlySavingsUsd,
      { schema: 'region', statistic: 'Average', period: gauge },
      'Projected monthly savings (USD)',
    )
    const spotTotal = sumOfSeries(
      Metric.SpotInstances,
      { schema: 'region', statistic: 'Average', period: gauge },
      'Spot instances',
    )
    const onDemandTotal = sumOfSeries(
      Metric.OnDemandInstances,
      { schema: 'region', statistic: 'Average', period: gauge },
      'On-demand instances',
    )
    const spotShare = new MathExpression({
      expression: '100 * spot / (spot + onDemand)',
      usingMetrics: { spot: spotTotal, onDemand: onDemandTotal },
      label: 'Spot share of managed capacity (%)',
      period: gauge,
    })
    const replacements = (metric: (typeof Metric)[keyof typeof Metric], label: string) =>
      sumOfSeries(metric, { schema: 'region', statistic: 'Sum', period: count }, label)
    const started = replacements(Metric.ReplacementsStarted, 'Started')
    const completed = replacements(Metric.ReplacementsCompleted, 'Completed')
    const failed = replacements(Metric.ReplacementsFailed, 'Failed')
    const failureRate = new MathExpression({
      expression: '100 * failed / (completed + failed)',
      usingMetrics: {
        failed: replacements(Metric.ReplacementsFailed, 'Failed'),
        completed: replacements(Metric.ReplacementsCompleted, 'Completed'),
      },
      label: 'Failed share of finished replacements (%)',
      period: count,
    })
    const handled = (metric: (typeof Metric)[keyof typeof Metric], label: string) =>
      sumOfSeries(metric, { schema: 'any', statistic: 'Sum', period: count }, label)

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      defaultInterval: Duration.days(1),
    })
    this.dashboard.addWidgets(
      new TextWidget({
        markdown: `# spotswap\nSavings are on-demand price minus spot price of each replaced instance, summed over spot members. Home region **${props.homeRegion}**; events from ${props.forwardedRegions.length} other region(s) are forwarded here.`,
        width: WIDTH,
        height: 2,
      }),
    )
    // The kill switch as the last invocations read it: seen at a glance, above everything it stops.
    this.dashboard.addWidgets(
      new SingleValueWidget({
        title: 'Kill switch (0 off, 1 on, 2 hard)',
        metrics: [
          sumOfSeries(
            Metric.KillSwitch,
            { schema: 'any', statistic: 'Maximum', period: count },
            'Kill switch',
          ),
          handled(Metric.ActionsHeldByKillSwitch, 'Actions held'),
          handled(Metric.KillSwitchUnreadable, 'Reads that failed (treated as on)'),
        ],
        width: WIDTH,
        height: 3,
      }),
    )
    const estimated = sumOfSeries(
      Metric.SavingsEstimatedGroups,
      { schema: 'region', statistic: 'Maximum', period: gauge },
      'Groups with estimated savings',
    )
    this.dashboard.addWidgets(
      new SingleValueWidget({
        title: 'Savings now',
        metrics: [savingsTotal, monthlyTotal],
        width: THIRD,
        height: HEIGHT,
      }),
      new SingleValueWidget({
        title: 'Managed capacity now',
        metrics: [spotShare, spotTotal, onDemandTotal],
        width: THIRD,
        height: HEIGHT,
      }),
      new SingleValueWidget({
        title: 'Savings estimated from embedded prices',
        metrics: [estimated],
        width: THIRD,
        height: HEIGHT - 2,
      }),
      new TextWidget({
        markdown: ESTIMATED_NOTE,
        width: THIRD,
        height: 2,
      }),
    )
    // Savings beside how much of the RIs and Savings Plans they leave used: a saving that strands a
    // commitment shows here as utilization falling.
    this.dashboard.addWidgets(
      graph('Hourly savings, account total (USD/h)', [savingsTotal], QUARTER),
      graph(
        'Hourly savings by region (USD/h)',
        [eachSeries(Metric.HourlySavingsUsd, { schema: 'region', statistic: 'Average', period: gauge })],
        QUARTER,
      ),
      perGroup(
        props,
        gauge,
        'Hourly savings by group (USD/h)',
        Metric.HourlySavingsUsd,
        'hourlySavingsUsd',
        QUARTER,
      ),
      graph(
        'Commitment utilization by region (%)',
        [eachSeries(Metric.CommitmentUtilization, { schema: 'region', statistic: 'Average', period: gauge })],
        QUARTER,
      ),
    )
    this.dashboard.addWidgets(
      graph(
        'Projected monthly savings (USD)',
        [
          monthlyTotal,
          eachSeries(Metric.ProjectedMonthlySavingsUsd, {
            schema: 'region',
            statistic: 'Average',
            period: gauge,
          }),
        ],
        THIRD,
      ),
      graph('Spot and on-demand instances (account)', [spotTotal, onDemandTotal], THIRD, true),
      graph(
        'On-demand held back, by reason',
        [insights('MAX', Metric.OnDemandHeldBack, 'reason', gauge, 'Held back', [DIMENSION_REASON])],
        THIRD,
      ),
      graph(
        'Spot share by region (%)',
        [eachSeries(Metric.SpotSharePct, { schema: 'region', statistic: 'Average', period: gauge })],
        THIRD,
      ),
      perGroup(
        props,
        gauge,
        'Spot share by group (%)',
        Metric.SpotSharePct,
        '100 * spot / (spot + onDemand)',
      ),
    )
    this.dashboard.addWidgets(
      graph(
        'Replacements (account, per period)',
        [
          started,
          completed,
          failed,
          replacements(Metric.OrphansTerminated, 'Orphans terminated'),
          replacements(Metric.LaunchesRefused, 'Launches refused (permissions, template, image)'),
        ],
        THIRD,
      ),
      graph('Replacement failure rate (%)', [failureRate], THIRD),
      graph(
        'Managed groups by region',
        [eachSeries(Metric.GroupsManaged, { schema: 'region', statistic: 'Maximum', period: gauge })],
        THIRD,
      ),
    )
    this.dashboard.addWidgets(
      graph(
        'Interruptions and rebalance recommendations handled',
        [
          handled(Metric.InterruptionsHandled, 'Spot interruption warnings'),
          handled(Metric.RebalanceRecommendationsHandled, 'Rebalance recommendations'),
          handled(Metric.InterruptionDeadlinesHandled, 'Deadlines of members replaced ahead'),
          handled(Metric.UnclassifiedScalingActivities, 'Scaling activities in an unknown wording'),
          handled(Metric.InstanceRefreshUnreadable, 'Groups whose instance refreshes were unreadable'),
          handled(Metric.LifecycleHooksUnreadable, 'Groups whose lifecycle hooks were unreadable'),
          handled(Metric.StackStatusUnreadable, 'Groups whose stack status was unreadable'),
          handled(Metric.TerminationProtectionUnreadable, 'Instances whose protection was unreadable'),
          handled(Metric.SpotPricesUnreadable, 'Groups whose spot prices were unreadable'),
          handled(Metric.SubnetsUnreadable, "Groups whose subnets' zones were unreadable"),
          handled(Metric.EcsCapacityProvidersUnreadable, 'Runs whose ECS capacity providers were unreadable'),
          handled(Metric.EcsMembersKeptForTasks, 'ECS members kept for their standalone or unread tasks'),
          handled(Metric.CommitmentsUnreadable, 'Region runs whose commitments were unreadable'),
          handled(Metric.UntrustedInstances, 'Instances tagged as launches, left alone'),
          handled(Metric.UntrustedMarkers, 'Interruption markers EC2 does not confirm, ignored'),
          handled(Metric.ForgedMarkers, 'Markers that fail verification or expired, treated as absent'),
          handled(Metric.UnverifiedLaunches, 'Launches spotswap cannot verify, holding their partners'),
          handled(Metric.SwapsPastDeadline, 'Swaps open past their deadline'),
          handled(Metric.RevertsStalled, 'Reverts stalled, raising nothing more'),
          handled(Metric.PlanBudgetExceeded, 'Groups over their planning budget'),
          handled(Metric.RegionRunsNotStarted, 'Region runs started too late to finish in time'),
          handled(Metric.GroupsPastTimeBudget, 'Groups left to the next run by the time budget'),
          handled(Metric.FanoutLeasesLost, 'Lease renewals on fan-out messages that failed'),
          handled(Metric.IgnoredEvents, 'Ignored (not a managed group)'),
          handled(Metric.ScheduledMembers, 'Members with an EC2 scheduled event'),
          handled(Metric.ScheduledEventsUnreadable, 'Runs whose scheduled events were unreadable'),
        ],
        THIRD,
      ),
      graph(
        'Interruption actions taken',
        [insights('SUM', Metric.InterruptionActions, 'action', count, 'Actions', [DIMENSION_ACTION])],
        THIRD,
      ),
      graph(
        'Configuration errors',
        [
          eachSeries(Metric.ConfigErrors, { schema: 'region', statistic: 'Sum', period: count }),
          eachSeries(Metric.ConfigErrors, { schema: 'group', statistic: 'Sum', period: count }),
        ],
        THIRD,
      ),
    )
    this.dashboard.addWidgets(
      graph(
        'Interruption handler time (ms)',
        [
          insights('MAX', Metric.InterruptionHandlerDurationMs, 'any', Duration.minutes(1), 'Slowest event'),
          insights('AVG', Metric.InterruptionHandlerDurationMs, 'any', Duration.minutes(1), 'Mean'),
          props.interruptionHandler.metricDuration({ statistic: 'p99', label: 'Lambda duration p99' }),
        ],
        THIRD,
      ),
      graph(
        'Event delivery latency, ingestion to Lambda (ms)',
        deliveryLatencyMetrics(props.homeRegion, props.forwardedRegions),
        THIRD,
      ),
      graph(
        'Replacer run time by region (ms)',
        [eachSeries(Metric.RunDurationMs, { schema: 'region', statistic: 'Maximum', period: gauge })],
        THIRD,
      ),
    )
    this.dashboard.addWidgets(
      graph(
        'Lambda errors and throttles',
        [
          props.replacer.metricErrors({ label: 'Replacer errors', period: count }),
          props.replacer.metricThrottles({ label: 'Replacer throttles', period: count }),
          props.interruptionHandler.metricErrors({ label: 'Interruption handler errors', period: count }),
        ],
        THIRD,
      ),
      graph(
        'Dead letters (messages waiting)',
        [
          ...props.deadLetterQueues.map(({ label, queue }) =>
            queue.metricApproximateNumberOfMessagesVisible({ label, statistic: 'Maximum', period: count }),
          ),
          ...props.forwardedRegions.map(
            (region) =>
              new CloudWatchMetric({
                namespace: 'AWS/SQS',
                metricName: 'ApproximateNumberOfMessagesVisible',
                dimensionsMap: { QueueName: UNDELIVERED_EVENTS_QUEUE_NAME },
                region,
                statistic: 'Maximum',
                period: count,
                label: `${region}: events not forwarded`,
              }),
          ),
        ],
        THIRD,
      ),
      new AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: THIRD, height: HEIGHT }),
    )
  }
}

const ESTIMATED_NOTE =
  'Groups counted here had no Pricing API answer: their on-demand prices, and so their savings, come from the embedded table (us-east-1 prices for a region it does not list).'

/**
 * A per-group chart: the group's metric when the Lambdas emit them (GROUP_METRICS), else the same figure
 * from the replacer's `group figures` log lines (Logs Insights, billed per GB scanned when viewed).
 */
const perGroup = (
  props: SpotSwapDashboardProps,
  period: Duration,
  title: string,
  metric: (typeof Metric)[keyof typeof Metric],
  /** The same figure from the log line's fields, in Logs Insights' syntax. */
  figure: string,
  width = THIRD,
): IWidget => {
  if (props.groupMetrics === true)
    return graph(title, [eachSeries(metric, { schema: 'group', statistic: 'Average', period })], width)
  return new LogQueryWidget({
    title,
    logGroupNames: [props.replacerLogGroup.logGroupName],
    queryLines: [
      'filter message = "group figures"',
      `stats avg(${figure}) by bin(${period.toMinutes()}m), group`,
    ],
    width,
    height: HEIGHT,
  })
}

const graph = (title: string, metrics: IMetric[], width: number, stacked = false): GraphWidget =>
  new GraphWidget({ title, left: metrics, width, height: HEIGHT, stacked })

/**
 * EventBridge's own measure of delivery time, per rule: the home rule (local events, and the second leg
 * of forwarded ones) and every region's forwarding rule (the first leg). Their sum for a region is the
 * delay forwarding adds to the 120-second interruption budget.
 */
const deliveryLatencyMetrics = (homeRegion: string, forwardedRegions: readonly string[]): IMetric[] => {
  const interruption = ROUTED_EVENTS.find((event) => event.kind === 'spot-interruption')
  if (interruption === undefined) throw new Error('spot interruption rule missing from ROUTED_EVENTS')
  const latency = (ruleName: string, region: string, label: string) =>
    new CloudWatchMetric({
      namespace: 'AWS/Events',
      metricName: 'IngestionToInvocationSuccessLatency',
      dimensionsMap: { RuleName: ruleName },
      region,
      statistic: 'Maximum',
      period: Duration.minutes(5),
      label,
    })
  return [
    latency(interruption.ruleName, homeRegion, `${homeRegion}: to the handler`),
    ...forwardedRegions.map((region) =>
      latency(forwardingRuleName(interruption), region, `${region}: forwarded to ${homeRegion}`),
    ),
  ]
}
