/**
 * CloudWatch queries over the metrics the Lambdas emit, built only from lambdas/core/metric-names.ts.
 *
 * The Lambdas emit each datum with exactly one dimension set through Powertools, which adds its own
 * `service` dimension to every set. The replacer emits its fleet metrics twice, per group
 * ({Region, Group}) and as a per-region total ({Region}), so a query must name the schema it means or it
 * would count every instance twice. The interruption handler emits each datum once, per group when the
 * instance belongs to a managed group and per region otherwise, so its totals search every schema.
 */
import type { Duration } from 'aws-cdk-lib'
import { MathExpression } from 'aws-cdk-lib/aws-cloudwatch'
import {
  DIMENSION_ACTION,
  DIMENSION_GROUP,
  DIMENSION_REASON,
  DIMENSION_REGION,
  DIMENSION_SERVICE,
  METRIC_NAMESPACE,
  type MetricName,
} from '../lambdas/core/metric-names.ts'

/** The dimension Powertools Metrics adds to every dimension set (its `serviceName`). */
export const POWERTOOLS_SERVICE_DIMENSION = DIMENSION_SERVICE

export const Schema = {
  /** The replacer's per-region totals and the region-only metrics (RunDurationMs, GroupsManaged). */
  region: [DIMENSION_REGION, POWERTOOLS_SERVICE_DIMENSION],
  group: [DIMENSION_GROUP, DIMENSION_REGION, POWERTOOLS_SERVICE_DIMENSION],
  action: [DIMENSION_ACTION, DIMENSION_GROUP, DIMENSION_REGION, POWERTOOLS_SERVICE_DIMENSION],
  /** OnDemandHeldBack per region and reason code (replacer/report.ts). */
  reason: [DIMENSION_REASON, DIMENSION_REGION, POWERTOOLS_SERVICE_DIMENSION],
  /** Any dimension set: for metrics whose every datum is emitted once (the interruption handler's). */
  any: undefined,
} as const

export type SchemaName = keyof typeof Schema

export type Statistic = 'Sum' | 'Average' | 'Maximum'

export interface SearchOptions {
  readonly schema: SchemaName
  readonly statistic: Statistic
  readonly period: Duration
  /** Exact dimension values, e.g. `{ Region: 'eu-west-1' }`. */
  readonly where?: Readonly<Record<string, string>>
}

const quoted = (value: string): string => `"${value.replace(/["\\]/g, '\\$&')}"`

/** `SEARCH('{SpotSwap,Region,service} MetricName="X" Region="eu-west-1"', 'Sum', 300)` */
export const searchExpression = (metric: MetricName, options: SearchOptions): string => {
  const dimensions = Schema[options.schema]
  const scope =
    dimensions === undefined
      ? `Namespace=${quoted(METRIC_NAMESPACE)}`
      : `{${[METRIC_NAMESPACE, ...dimensions].join(',')}}`
  const filters = Object.entries(options.where ?? {}).map(([name, value]) => ` ${name}=${quoted(value)}`)
  const query = `${scope} MetricName=${quoted(metric)}${filters.join('')}`
  return `SEARCH('${query.replace(/'/g, "\\'")}', '${options.statistic}', ${options.period.toSeconds()})`
}

/** One line per matching series (e.g. one per group). */
export const eachSeries = (metric: MetricName, options: SearchOptions, label = ''): MathExpression =>
  new MathExpression({ expression: searchExpression(metric, options), label, period: options.period })

/** The sum across every matching series, e.g. the account's total hourly savings. */
export const sumOfSeries = (metric: MetricName, options: SearchOptions, label: string): MathExpression =>
  new MathExpression({
    expression: `SUM(${searchExpression(metric, options)})`,
    label,
    period: options.period,
  })

export type InsightsFunction = 'SUM' | 'AVG' | 'MAX'

/**
 * A Metrics Insights query: unlike SEARCH it can group by a dimension and it is allowed in alarms.
 * `SELECT SUM(ReplacementsFailed) FROM SCHEMA("SpotSwap", Region, service)`
 */
export const insightsQuery = (
  fn: InsightsFunction,
  metric: MetricName,
  schema: SchemaName,
  groupBy: readonly string[] = [],
): string => {
  const dimensions = Schema[schema]
  const from =
    dimensions === undefined
      ? quoted(METRIC_NAMESPACE)
      : `SCHEMA(${[quoted(METRIC_NAMESPACE), ...dimensions].join(', ')})`
  const grouping = groupBy.length > 0 ? ` GROUP BY ${groupBy.join(', ')}` : ''
  return `SELECT ${fn}(${metric}) FROM ${from}${grouping}`
}

export const insights = (
  fn: InsightsFunction,
  metric: MetricName,
  schema: SchemaName,
  period: Duration,
  label: string,
  groupBy: readonly string[] = [],
): MathExpression =>
  new MathExpression({ expression: insightsQuery(fn, metric, schema, groupBy), label, period })
