import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { App, Stack } from 'aws-cdk-lib'
import { Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { METRIC_NAMESPACE, Metric } from '../../lambdas/core/metric-names.ts'
import { SpotSwap } from '../../lib/spotswap.ts'
import { buildApp, resourceOf } from './support/app.ts'
import { render } from './support/iam.ts'

let template: Template
let body: string
beforeAll(() => {
  template = buildApp({ context: { 'spotswap:regions': 'us-east-1,eu-west-1,ap-southeast-2' } }).homeTemplate
  body = render(resourceOf(template, 'AWS::CloudWatch::Dashboard', 'Dashboard').properties.DashboardBody)
})

const EMITTED: readonly string[] = Object.values(Metric)

/** Every spotswap metric name the dashboard queries: in SEARCH expressions and Metrics Insights queries. */
const queriedNames = (dashboardBody: string): string[] => {
  const json = JSON.parse(dashboardBody) as { widgets: { properties: { metrics?: unknown[][] } }[] }
  const expressions = json.widgets
    .flatMap((widget) => widget.properties.metrics ?? [])
    .flatMap((row) =>
      row.filter(
        (cell): cell is { expression: string } =>
          typeof cell === 'object' && cell !== null && 'expression' in cell,
      ),
    )
    .map((cell) => cell.expression)
  const spotswapExpressions = expressions.filter((e) => e.includes(METRIC_NAMESPACE))
  return spotswapExpressions.flatMap((expression) => [
    ...[...expression.matchAll(/MetricName="([^"]+)"/g)].map((m) => m[1] as string),
    ...[...expression.matchAll(/SELECT \w+\((\w+)\) FROM/g)].map((m) => m[1] as string),
  ])
}

describe('the dashboard', () => {
  it('charts every metric the Lambdas emit', () => {
    expect(new Set(queriedNames(body))).toEqual(new Set(EMITTED))
  })

  it('queries no spotswap metric that the Lambdas do not emit', () => {
    for (const name of queriedNames(body)) expect(EMITTED).toContain(name)
  })

  it('sums the per-region totals for account figures, so group and region series are not counted twice', () => {
    expect(body).toContain(
      `SUM(SEARCH('{SpotSwap,Region,service} MetricName=\\"HourlySavingsUsd\\"', 'Average', 300))`,
    )
  })

  it('charts groups from the replacer log by default: the Lambdas emit no per-group metric', () => {
    const replacerLogs = resourceOf(template, 'AWS::Logs::LogGroup', 'ReplacerLogs')
    const json = JSON.parse(body) as {
      widgets: { type: string; properties: { title?: string; query?: string } }[]
    }
    const bySavings = json.widgets.find((w) => w.properties.title === 'Hourly savings by group (USD/h)')
    expect(bySavings?.type).toBe('log')
    expect(bySavings?.properties.query).toContain('filter message = "group figures"')
    expect(bySavings?.properties.query).toContain('stats avg(hourlySavingsUsd) by bin(5m), group')
    expect(
      JSON.stringify(resourceOf(template, 'AWS::CloudWatch::Dashboard', 'Dashboard').properties),
    ).toContain(replacerLogs.logicalId)
    expect(body).not.toContain('{SpotSwap,Group,Region,service} MetricName=\\"HourlySavingsUsd\\"')
  })

  it('charts groups from their metrics with GROUP_METRICS', () => {
    const withMetrics = buildApp({ context: { GROUP_METRICS: 'true' } }).homeTemplate
    const rendered = render(
      resourceOf(withMetrics, 'AWS::CloudWatch::Dashboard', 'Dashboard').properties.DashboardBody,
    )
    expect(rendered).toContain(
      `SEARCH('{SpotSwap,Group,Region,service} MetricName=\\"HourlySavingsUsd\\"', 'Average', 300)`,
    )
    expect(rendered).not.toContain('group figures')
  })

  it('says how many groups have savings estimated from the embedded prices, and what that means', () => {
    expect(body).toContain('"title":"Savings estimated from embedded prices"')
    expect(body).toContain(
      `SUM(SEARCH('{SpotSwap,Region,service} MetricName=\\"${Metric.SavingsEstimatedGroups}\\"', 'Maximum', 300))`,
    )
    expect(body).toContain('come from the embedded table (us-east-1 prices')
  })

  it.each([
    'Hourly savings, account total (USD/h)',
    'Hourly savings by region (USD/h)',
    'Hourly savings by group (USD/h)',
    'Projected monthly savings (USD)',
    'Spot and on-demand instances (account)',
    'Spot share by group (%)',
    'Spot share by region (%)',
    'Replacements (account, per period)',
    'Replacement failure rate (%)',
    'Interruptions and rebalance recommendations handled',
    'Interruption handler time (ms)',
    'Event delivery latency, ingestion to Lambda (ms)',
    'Configuration errors',
  ])('has a "%s" chart', (title) => {
    expect(body).toContain(`"title":"${title}"`)
  })

  it('charts commitment utilization by region in the row of the hourly savings', () => {
    const json = JSON.parse(body) as {
      widgets: { y: number; properties: { title?: string; metrics?: unknown[][] } }[]
    }
    const titled = (title: string) => json.widgets.find((w) => w.properties.title === title)
    const utilization = titled('Commitment utilization by region (%)')
    expect(JSON.stringify(utilization?.properties.metrics)).toContain(
      `SEARCH('{SpotSwap,Region,service} MetricName=\\"${Metric.CommitmentUtilization}\\"', 'Average', 300)`,
    )
    expect(utilization?.y).toBe(titled('Hourly savings by region (USD/h)')?.y)
    expect(utilization?.y).toBe(titled('Hourly savings, account total (USD/h)')?.y)
  })

  it('charts the forwarding latency of every other covered region in that region', () => {
    const json = JSON.parse(body) as { widgets: { properties: { title?: string; metrics?: unknown[][] } }[] }
    const latency = json.widgets.find(
      (w) => w.properties.title === 'Event delivery latency, ingestion to Lambda (ms)',
    )
    const regions = (latency?.properties.metrics ?? []).map(
      (row) => (row.at(-1) as { region?: string }).region,
    )
    expect(regions).toEqual(['us-east-1', 'eu-west-1', 'ap-southeast-2'])
    expect(JSON.stringify(latency)).toContain('spotswap-spot-interruption-warning-forward')
  })
})

describe('the CDK code', () => {
  it('never spells a metric name: dashboard and alarms import them from metric-names.ts', () => {
    const libDir = new URL('../../lib/', import.meta.url).pathname
    for (const file of readdirSync(libDir).filter((name) => name.endsWith('.ts'))) {
      const source = readFileSync(join(libDir, file), 'utf8')
      for (const name of EMITTED)
        expect(source, `${file} spells ${name}`).not.toMatch(new RegExp(`['"\`]${name}['"\`]`))
    }
  })
})

describe('the alarms', () => {
  const alarm = (idPart: string) => resourceOf(template, 'AWS::CloudWatch::Alarm', idPart).properties

  it('fire when the replacer fails in two consecutive schedule periods', () => {
    expect(alarm('ReplacerErrors')).toMatchObject({
      MetricName: 'Errors',
      Namespace: 'AWS/Lambda',
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      EvaluationPeriods: 2,
      DatapointsToAlarm: 2,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    })
  })

  it('fire on the first interruption handler error within a minute', () => {
    expect(alarm('InterruptionHandlerErrors')).toMatchObject({
      MetricName: 'Errors',
      Period: 60,
      Threshold: 1,
      EvaluationPeriods: 1,
    })
  })

  it.each([
    ['FanoutDeadLettersDepth', 'FanoutDeadLetterQueue'],
    ['FailedEventsDepth', 'FailedEvents'],
  ])('%s fires as soon as one message waits in %s', (alarmId, queueId) => {
    const queue = resourceOf(template, 'AWS::SQS::Queue', queueId)
    expect(alarm(alarmId)).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queue.logicalId, 'QueueName'] } }],
      Statistic: 'Maximum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    })
  })

  it('fire on three failed replacements within an hour, counted on per-region totals', () => {
    expect(alarm('ReplacementFailures')).toMatchObject({
      Metrics: [
        {
          Expression: `SELECT SUM(${Metric.ReplacementsFailed}) FROM SCHEMA("SpotSwap", Region, service)`,
          Period: 3600,
          ReturnData: true,
        },
      ],
      Threshold: 3,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    })
  })

  it('fire on the first launch spotswap cannot verify, per group within an hour', () => {
    expect(alarm('LaunchesNotVerified')).toMatchObject({
      Metrics: [
        {
          Expression: `SELECT MAX(${Metric.UnverifiedLaunches}) FROM SCHEMA("SpotSwap", Group, Region, service)`,
          Period: 3600,
          ReturnData: true,
        },
      ],
      Threshold: 1,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    })
  })

  it('takes its failure threshold from the construct', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } })
    const stack = new Stack(app, 'Embedded', { env: { region: 'eu-west-1' } })
    new SpotSwap(stack, 'SpotSwap', { replacementFailuresPerHour: 10 })
    Template.fromStack(stack).hasResourceProperties('AWS::CloudWatch::Alarm', {
      Threshold: 10,
      Metrics: [
        { Expression: `SELECT SUM(${Metric.ReplacementsFailed}) FROM SCHEMA("SpotSwap", Region, service)` },
      ],
    })
  })
})
