import { Duration } from 'aws-cdk-lib'
import type { Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { Metric } from '../../lambdas/core/metric-names.ts'
import { heartbeatWindow } from '../../lib/alarms.ts'
import { buildApp, resourceOf } from './support/app.ts'

const TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:oncall'

let template: Template
beforeAll(() => {
  template = buildApp({ context: { 'spotswap:alarmTopicArn': TOPIC_ARN } }).homeTemplate
})

const alarm = (idPart: string) => resourceOf(template, 'AWS::CloudWatch::Alarm', idPart).properties
const alarms = () =>
  Object.entries(template.findResources('AWS::CloudWatch::Alarm')).map(([id, resource]) => ({
    id,
    properties: resource.Properties as Record<string, unknown>,
  }))

describe('the heartbeat alarm', () => {
  it('fires when the replacer is not invoked in three schedule periods, and when Lambda reports nothing', () => {
    const replacer = resourceOf(template, 'AWS::Lambda::Function', 'Replacer')
    expect(alarm('ReplacerHeartbeat')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Invocations',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: replacer.logicalId } }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      EvaluationPeriods: 3,
      DatapointsToAlarm: 3,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
    })
  })

  it.each([
    [5, 300, 3],
    [480, 28_800, 3],
    [720, 43_200, 2],
    [1440, 86_400, 1],
  ])(
    'with a %i-minute schedule watches %i s periods, %i of them, within the day CloudWatch allows',
    (minutes, period, periods) => {
      const window = heartbeatWindow(Duration.minutes(minutes))
      expect([window.period.toSeconds(), window.periods]).toEqual([period, periods])
      expect(period * periods).toBeLessThanOrEqual(86_400)
    },
  )

  it('follows the schedule in the template', () => {
    const { homeTemplate } = buildApp({ context: { 'spotswap:scheduleMinutes': '720' } })
    expect(resourceOf(homeTemplate, 'AWS::CloudWatch::Alarm', 'ReplacerHeartbeat').properties).toMatchObject({
      Period: 43_200,
      EvaluationPeriods: 2,
    })
  })
})

describe('the alarms on what the replacer reports', () => {
  it.each([
    ['ConfigurationErrors', `SELECT SUM(${Metric.ConfigErrors}) FROM SCHEMA("SpotSwap", Region, service)`],
    ['RefusedLaunches', `SELECT SUM(${Metric.LaunchesRefused}) FROM SCHEMA("SpotSwap", Region, service)`],
    [
      'UntrustedInstanceTags',
      `SELECT MAX(${Metric.UntrustedInstances}) FROM SCHEMA("SpotSwap", Group, Region, service)`,
    ],
    [
      'UnconfirmedMarkers',
      `SELECT MAX(${Metric.UntrustedMarkers}) FROM SCHEMA("SpotSwap", Group, Region, service)`,
    ],
    [
      'SwapOverdue',
      `SELECT MAX(${Metric.SwapsPastDeadline}) FROM SCHEMA("SpotSwap", Group, Region, service)`,
    ],
    ['RevertStalled', `SELECT MAX(${Metric.RevertsStalled}) FROM SCHEMA("SpotSwap", Group, Region, service)`],
  ])('%s fires on the first one within an hour, and stays OK without data', (id, expression) => {
    expect(alarm(id)).toMatchObject({
      Metrics: [{ Expression: expression, Period: 3600, ReturnData: true }],
      Threshold: 1,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    })
  })

  it('treats missing data as breaching for the heartbeat only: a quiet account emits nothing else', () => {
    const breaching = alarms().filter((a) => a.properties.TreatMissingData === 'breaching')
    expect(breaching.map((a) => a.id)).toEqual([expect.stringContaining('ReplacerHeartbeat')])
    for (const a of alarms()) expect(a.properties.TreatMissingData, a.id).toBeDefined()
  })
})

describe('where the alarms go', () => {
  it('notifies an existing SNS topic from every alarm, creating none', () => {
    template.resourceCountIs('AWS::SNS::Topic', 0)
    expect(alarms().length).toBeGreaterThanOrEqual(12)
    for (const a of alarms()) expect(a.properties.AlarmActions, a.id).toEqual([TOPIC_ARN])
  })

  it('notifies both the e-mail topic and the existing one when both are given', () => {
    const { homeTemplate } = buildApp({
      context: { 'spotswap:alarmTopicArn': TOPIC_ARN, 'spotswap:notificationEmail': 'ops@example.com' },
    })
    const own = resourceOf(homeTemplate, 'AWS::SNS::Topic', 'AlarmTopic')
    for (const a of Object.values(homeTemplate.findResources('AWS::CloudWatch::Alarm')))
      expect(a.Properties.AlarmActions).toEqual([{ Ref: own.logicalId }, TOPIC_ARN])
  })

  it.each(['oncall', 'arn:aws:sqs:us-east-1:123456789012:oncall', 'arn:aws:sns:us-east-1:1234:oncall'])(
    'refuses %s as an alarm topic, saying what it expects',
    (value) => {
      expect(() => buildApp({ context: { 'spotswap:alarmTopicArn': value } })).toThrow(
        /spotswap:alarmTopicArn.*an SNS topic ARN/,
      )
    },
  )
})
