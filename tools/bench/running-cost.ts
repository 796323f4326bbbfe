/**
 * spotswap's own monthly running cost, from what one steady replacer run of an account was measured to
 * do (running-cost-probe.ts) and AWS's published prices (us-east-1, arm64, no free tier: an upper bound
 * for an account that uses the free tier elsewhere). Pure: measurement in, dollars out.
 */
import { HOURS_PER_MONTH } from '../../lambdas/core/constants.ts'
import { INTERRUPTION_MEMORY_MB, REPLACER_MEMORY_MB } from '../../lib/sizing.ts'

/** USD, us-east-1, as published on each page cited. */
export const PRICES = {
  // https://aws.amazon.com/lambda/pricing/ (Arm, first 7.5 billion GB-s a month; requests)
  lambdaGbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  // https://aws.amazon.com/sqs/pricing/ (FIFO requests; standard requests)
  sqsFifoRequest: 0.5 / 1e6,
  sqsStandardRequest: 0.4 / 1e6,
  // https://aws.amazon.com/cloudwatch/pricing/ (custom metrics by tier, alarm metrics, dashboards, logs)
  metricTiers: [
    { upTo: 10_000, usd: 0.3 },
    { upTo: 250_000, usd: 0.1 },
    { upTo: 1_000_000, usd: 0.05 },
    { upTo: Number.POSITIVE_INFINITY, usd: 0.02 },
  ],
  alarmMetricMonth: 0.1,
  dashboardMonth: 3,
  logsIngestedGb: 0.5,
  // https://aws.amazon.com/eventbridge/pricing/ (events delivered to a bus in another region: custom events)
  eventBridgeEvent: 1 / 1e6,
  // https://aws.amazon.com/kms/pricing/ (one customer managed key: the MAC key of spotswap's markers)
  kmsKeyMonth: 1,
} as const

/** Assumptions the measurement cannot give, each with its reason. */
export const ASSUMPTIONS = {
  /**
   * Seconds each AWS API call holds the replacer, as if every call ran one after the other: an upper
   * bound (the replacer runs groups and pages concurrently; a call takes tens of milliseconds).
   */
  apiCallSeconds: 0.1,
  /** Interruption warnings plus rebalance recommendations per spot instance a month: a pessimistic 2. */
  spotEventsPerInstanceMonth: 2,
  /** One event handled by the interruption handler: its few calls, bounded by a second. */
  interruptionSeconds: 1,
  /** Metrics the interruption handler emits for one event (handled, duration, action), per group. */
  metricsPerSpotEvent: 3,
  /**
   * ReceiveMessage requests of Lambda's pollers per queue a month: 5 pollers long-polling 20 s each
   * (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html), 3 queues with mappings.
   */
  pollerRequestsPerQueueMonth: 5 * 3 * 60 * HOURS_PER_MONTH,
  queuesPolled: 3,
  /** Lambda's own START, END and REPORT lines per invocation, bytes. */
  platformLogBytesPerInvocation: 350,
  /** lib/alarms.ts: alarms on one metric each, and Metrics Insights alarms over per-region series. */
  standardAlarms: 5,
  regionQueryAlarms: 3,
  /** Metrics Insights alarms over per-group series, which exist only while something is wrong. */
  groupQueryAlarms: 5,
} as const

/** What one steady scheduled run of the whole account did, as measured. */
export interface RunMeasurement {
  readonly regions: number
  readonly groups: number
  readonly spotInstances: number
  /** Replacer invocations of one scheduled run: the tick plus one per lane of each region or chunk of groups. */
  readonly invocations: number
  readonly apiCalls: number
  /** Distinct metrics (name and dimensions) the run emitted: each is billed for every hour it is emitted. */
  readonly metrics: number
  /** Log lines and EMF documents the run wrote, bytes. */
  readonly logBytes: number
  /** Messages through the FIFO fan-out queue. */
  readonly fanoutMessages: number
  readonly hourlySavingsUsd: number
}

export interface RunningCost {
  readonly lambdaUsd: number
  readonly sqsUsd: number
  readonly metricsUsd: number
  readonly alarmsUsd: number
  readonly dashboardUsd: number
  readonly logsUsd: number
  readonly eventBridgeUsd: number
  readonly kmsUsd: number
  readonly totalUsd: number
  readonly monthlySavingsUsd: number
  /** totalUsd / monthlySavingsUsd, in percent. */
  readonly costPctOfSavings: number
}

const metricsCost = (metricMonths: number): number => {
  let left = metricMonths
  let from = 0
  let usd = 0
  for (const tier of PRICES.metricTiers) {
    const inTier = Math.min(left, tier.upTo - from)
    usd += inTier * tier.usd
    left -= inTier
    from = tier.upTo
    if (left <= 0) break
  }
  return usd
}

const round = (usd: number): number => Math.round(usd * 100) / 100

export const monthlyRunningCost = (run: RunMeasurement, scheduleMinutes: number): RunningCost => {
  const runs = (HOURS_PER_MONTH * 60) / scheduleMinutes
  const spotEvents = run.spotInstances * ASSUMPTIONS.spotEventsPerInstanceMonth
  const replacerSeconds = runs * run.apiCalls * ASSUMPTIONS.apiCallSeconds
  const lambdaUsd =
    replacerSeconds * (REPLACER_MEMORY_MB / 1024) * PRICES.lambdaGbSecond +
    spotEvents * ASSUMPTIONS.interruptionSeconds * (INTERRUPTION_MEMORY_MB / 1024) * PRICES.lambdaGbSecond +
    (runs * run.invocations + spotEvents) * PRICES.lambdaRequest
  // Each fan-out message is sent, received, leased by its run (one ChangeMessageVisibility: a steady run
  // ends long before its lease needs renewing, core/region/lease.ts) and deleted; the pollers ask whether
  // there is any.
  const sqsUsd =
    runs * run.fanoutMessages * 4 * PRICES.sqsFifoRequest +
    ASSUMPTIONS.queuesPolled * ASSUMPTIONS.pollerRequestsPerQueueMonth * PRICES.sqsStandardRequest
  const eventMetricMonths = (spotEvents * ASSUMPTIONS.metricsPerSpotEvent) / HOURS_PER_MONTH
  const metricsUsd = metricsCost(run.metrics + eventMetricMonths)
  const alarmsUsd =
    (ASSUMPTIONS.standardAlarms +
      ASSUMPTIONS.regionQueryAlarms * run.regions +
      ASSUMPTIONS.groupQueryAlarms) *
    PRICES.alarmMetricMonth
  const logBytes =
    runs * (run.logBytes + run.invocations * ASSUMPTIONS.platformLogBytesPerInvocation) +
    spotEvents * 2 * ASSUMPTIONS.platformLogBytesPerInvocation
  const logsUsd = (logBytes / 1024 ** 3) * PRICES.logsIngestedGb
  // Events of every region but the home one cross to it: at worst all of them.
  const eventBridgeUsd = spotEvents * PRICES.eventBridgeEvent
  const parts = {
    lambdaUsd,
    sqsUsd,
    metricsUsd,
    alarmsUsd,
    dashboardUsd: PRICES.dashboardMonth,
    logsUsd,
    eventBridgeUsd,
    kmsUsd: PRICES.kmsKeyMonth,
  }
  const totalUsd = Object.values(parts).reduce((sum, usd) => sum + usd, 0)
  const monthlySavingsUsd = run.hourlySavingsUsd * HOURS_PER_MONTH
  return {
    ...(Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, round(v)])) as typeof parts),
    totalUsd: round(totalUsd),
    monthlySavingsUsd: round(monthlySavingsUsd),
    costPctOfSavings:
      monthlySavingsUsd > 0
        ? Math.round((10_000 * totalUsd) / monthlySavingsUsd) / 100
        : Number.POSITIVE_INFINITY,
  }
}
