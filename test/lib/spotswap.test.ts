import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Match, type Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildApp, resourceOf } from './support/app.ts'

// Bundled for real once: this suite is the one that checks what actually ships.
let template: Template
let assetDir: string
beforeAll(() => {
  const built = buildApp({ bundle: true, context: { 'spotswap:regions': 'us-east-1,eu-west-1' } })
  template = built.homeTemplate
  assetDir = built.app.synth().directory
}, 120_000)

const lambda = (idPart: string) => resourceOf(template, 'AWS::Lambda::Function', idPart)

describe('the SpotSwap Lambdas', () => {
  it.each([
    ['Replacer', 1024, 60],
    ['InterruptionHandler', 512, 30],
  ])('runs the %s on Node 24 on arm64 with %i MB and a %i s timeout', (id, memory, timeout) => {
    const { properties } = lambda(id)
    expect(properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      MemorySize: memory,
      Timeout: timeout,
    })
  })

  it('ships an esbuild bundle of each handler, not the TypeScript source', () => {
    for (const id of ['Replacer', 'InterruptionHandler']) {
      const code = lambda(id).properties.Code as { S3Key: string }
      const assetHash = code.S3Key.replace(/\.zip$/, '')
      const bundle = join(assetDir, `asset.${assetHash}`, 'index.mjs')
      expect(existsSync(bundle), bundle).toBe(true)
    }
  })

  it('reserves concurrency for the replacer only', () => {
    expect(lambda('Replacer').properties.ReservedConcurrentExecutions).toBe(5)
    expect(lambda('InterruptionHandler').properties.ReservedConcurrentExecutions).toBeUndefined()
  })

  it('gives the replacer the covered regions, the schedule, the fan-out queue and the run-request queue', () => {
    const fanout = resourceOf(template, 'AWS::SQS::Queue', 'FanoutQueue')
    const runRequests = resourceOf(template, 'AWS::SQS::Queue', 'RunRequestQueue')
    expect(lambda('Replacer').properties.Environment).toEqual({
      Variables: expect.objectContaining({
        REGIONS: 'us-east-1,eu-west-1',
        SCHEDULE_MINUTES: '5',
        FANOUT_QUEUE_URL: { Ref: fanout.logicalId },
        // Early looks at a swap waiting for its replacements to serve.
        RUN_REQUEST_QUEUE_URL: { Ref: runRequests.logicalId },
      }),
    })
  })

  it('gives the interruption handler the same regions and configuration, the run-request queue but no fan-out', () => {
    const variables = (
      lambda('InterruptionHandler').properties.Environment as { Variables: Record<string, unknown> }
    ).Variables
    expect(variables.REGIONS).toBe('us-east-1,eu-west-1')
    const runRequests = resourceOf(template, 'AWS::SQS::Queue', 'RunRequestQueue')
    expect(variables.RUN_REQUEST_QUEUE_URL).toEqual({ Ref: runRequests.logicalId })
    const deadlines = resourceOf(template, 'AWS::SQS::Queue', 'DeadlineQueue')
    expect(variables.DEADLINE_QUEUE_URL).toEqual({ Ref: deadlines.logicalId })
    expect(variables).not.toHaveProperty('FANOUT_QUEUE_URL')
    expect(variables).not.toHaveProperty('SCHEDULE_MINUTES')
  })

  it('logs to a log group of its own with a retention, for each Lambda', () => {
    for (const id of ['Replacer', 'InterruptionHandler']) {
      const logGroup = resourceOf(template, 'AWS::Logs::LogGroup', `${id}Logs`)
      expect(logGroup.properties.RetentionInDays).toBe(30)
      expect(lambda(id).properties.LoggingConfig).toEqual({ LogGroup: { Ref: logGroup.logicalId } })
    }
  })

  it.each([
    ['Replacer', 1, 300],
    ['InterruptionHandler', 2, 900],
  ])('sends failed asynchronous invocations of the %s to the failed-events queue', (id, retries, maxAge) => {
    const failedEvents = resourceOf(template, 'AWS::SQS::Queue', 'FailedEvents')
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: lambda(id).logicalId },
      MaximumRetryAttempts: retries,
      MaximumEventAgeInSeconds: maxAge,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failedEvents.logicalId, 'Arn'] } } },
    })
  })
})

describe('the fan-out queue', () => {
  it('is FIFO, encrypted, with a FIFO dead-letter queue after three receives', () => {
    const dlq = resourceOf(template, 'AWS::SQS::Queue', 'FanoutDeadLetterQueue')
    expect(dlq.properties).toMatchObject({ FifoQueue: true, SqsManagedSseEnabled: true })
    expect(resourceOf(template, 'AWS::SQS::Queue', 'FanoutQueue').properties).toMatchObject({
      FifoQueue: true,
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 60 + 30,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlq.logicalId, 'Arn'] }, maxReceiveCount: 3 },
    })
  })

  it('hides a received region message for one replacer timeout and half a minute: a crashed run holds its region that long, not six timeouts', () => {
    const visibility = resourceOf(template, 'AWS::SQS::Queue', 'FanoutQueue').properties.VisibilityTimeout
    const timeout = lambda('Replacer').properties.Timeout
    // Lambda refuses an SQS event source whose function timeout exceeds the queue's visibility timeout.
    expect(visibility).toBe(Number(timeout) + 30)
  })

  it('feeds the replacer one region at a time, leaving one concurrency slot for ticks and launch events', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: lambda('Replacer').logicalId },
      BatchSize: 1,
      ScalingConfig: { MaximumConcurrency: 4 },
    })
  })

  it.each(['FanoutQueue', 'FanoutDeadLetterQueue', 'FailedEvents', 'RunRequestQueue', 'DeadlineQueue'])(
    'refuses plain-HTTP access to %s',
    (id) => {
      const queue = resourceOf(template, 'AWS::SQS::Queue', id)
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: queue.logicalId }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      })
    },
  )
})

describe('the run-request queue', () => {
  it('is a standard queue (per-message delays), encrypted, keeping requests ten minutes, with no dead-letter queue', () => {
    const { properties } = resourceOf(template, 'AWS::SQS::Queue', 'RunRequestQueue')
    expect(properties).toMatchObject({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 6 * 60,
      MessageRetentionPeriod: 600,
    })
    expect(properties).not.toHaveProperty('FifoQueue')
    expect(properties).not.toHaveProperty('RedrivePolicy')
  })

  it('feeds the replacer in batches of ten, at the lowest concurrency an SQS event source allows', () => {
    const runRequests = resourceOf(template, 'AWS::SQS::Queue', 'RunRequestQueue')
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: lambda('Replacer').logicalId },
      EventSourceArn: { 'Fn::GetAtt': [runRequests.logicalId, 'Arn'] },
      BatchSize: 10,
      ScalingConfig: { MaximumConcurrency: 2 },
    })
  })
})

describe('the deadline queue', () => {
  it('is a standard queue (per-message delays), encrypted, short-lived, with no dead-letter queue', () => {
    const { properties } = resourceOf(template, 'AWS::SQS::Queue', 'DeadlineQueue')
    expect(properties).toMatchObject({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 6 * 30,
      MessageRetentionPeriod: 600,
    })
    expect(properties).not.toHaveProperty('FifoQueue')
    expect(properties).not.toHaveProperty('RedrivePolicy')
  })

  it('feeds the interruption handler its own reminders, with no concurrency cap', () => {
    const deadlines = resourceOf(template, 'AWS::SQS::Queue', 'DeadlineQueue')
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: lambda('InterruptionHandler').logicalId },
      EventSourceArn: { 'Fn::GetAtt': [deadlines.logicalId, 'Arn'] },
      BatchSize: 10,
    })
  })
})

describe('the EventBridge rules of the home region', () => {
  const ruleTargeting = (name: string) =>
    Object.values(template.findResources('AWS::Events::Rule', { Properties: { Name: name } }))[0] as
      | { Properties: Record<string, unknown> }
      | undefined

  it('runs the replacer every 5 minutes', () => {
    const rule = ruleTargeting('spotswap-replacer-schedule')
    expect(rule?.Properties.ScheduleExpression).toBe('rate(5 minutes)')
    expect(rule?.Properties.Targets).toEqual([
      expect.objectContaining({ Arn: { 'Fn::GetAtt': [lambda('Replacer').logicalId, 'Arn'] } }),
    ])
  })

  it.each([
    [
      'spotswap-spot-interruption-warning',
      'aws.ec2',
      'EC2 Spot Instance Interruption Warning',
      'InterruptionHandler',
    ],
    [
      'spotswap-rebalance-recommendation',
      'aws.ec2',
      'EC2 Instance Rebalance Recommendation',
      'InterruptionHandler',
    ],
    ['spotswap-group-launch-successful', 'aws.autoscaling', 'EC2 Instance Launch Successful', 'Replacer'],
  ])('routes %s (%s / %s) to the %s', (name, source, detailType, handler) => {
    const rule = ruleTargeting(name)
    // Only this account's events: the default bus may also carry other accounts' events.
    expect(rule?.Properties.EventPattern).toEqual({
      source: [source],
      'detail-type': [detailType],
      account: [{ Ref: 'AWS::AccountId' }],
    })
    const failedEvents = resourceOf(template, 'AWS::SQS::Queue', 'FailedEvents')
    expect(rule?.Properties.Targets).toEqual([
      expect.objectContaining({
        Arn: { 'Fn::GetAtt': [lambda(handler).logicalId, 'Arn'] },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [failedEvents.logicalId, 'Arn'] } },
      }),
    ])
  })

  it('has no other rules', () => {
    expect(Object.keys(template.findResources('AWS::Events::Rule'))).toHaveLength(4)
  })
})

describe('the SpotSwap construct with other settings', () => {
  it('runs on the configured schedule and tells the replacer', () => {
    const { homeTemplate } = buildApp({ context: { 'spotswap:scheduleMinutes': '15' } })
    homeTemplate.hasResourceProperties('AWS::Events::Rule', {
      Name: 'spotswap-replacer-schedule',
      ScheduleExpression: 'rate(15 minutes)',
    })
    homeTemplate.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ SCHEDULE_MINUTES: '15' }) },
    })
  })

  it('passes only the configuration values that were set, so the rest keep their built-in defaults', () => {
    const { homeTemplate } = buildApp({ context: { MIN_ON_DEMAND_NUMBER: '1', ALLOWED_INSTANCE_TYPES: '' } })
    const variables = (
      resourceOf(homeTemplate, 'AWS::Lambda::Function', 'Replacer').properties.Environment as {
        Variables: Record<string, unknown>
      }
    ).Variables
    expect(variables.MIN_ON_DEMAND_NUMBER).toBe('1')
    expect(variables).not.toHaveProperty('ALLOWED_INSTANCE_TYPES')
  })

  it('refuses a configuration value the Lambdas would reject, naming it', () => {
    expect(() => buildApp({ context: { MIN_ON_DEMAND_PERCENTAGE: '150' } })).toThrow(
      /MIN_ON_DEMAND_PERCENTAGE="150"/,
    )
  })

  it('subscribes the notification e-mail to a topic that every alarm notifies', () => {
    const { homeTemplate } = buildApp({ context: { 'spotswap:notificationEmail': 'ops@example.com' } })
    const topic = resourceOf(homeTemplate, 'AWS::SNS::Topic', 'AlarmTopic')
    homeTemplate.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: topic.logicalId },
    })
    const alarms = Object.values(homeTemplate.findResources('AWS::CloudWatch::Alarm'))
    expect(alarms.length).toBeGreaterThan(0)
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topic.logicalId }])
  })

  it('creates no topic when no e-mail is given', () => {
    const { homeTemplate } = buildApp()
    homeTemplate.resourceCountIs('AWS::SNS::Topic', 0)
  })
})

describe('the SpotSwap construct at the edges of the schedule', () => {
  it.each([1, 1440])('deploys with a %i-minute schedule within Lambda and CloudWatch limits', (minutes) => {
    const { homeTemplate } = buildApp({ context: { 'spotswap:scheduleMinutes': String(minutes) } })
    for (const config of Object.values(homeTemplate.findResources('AWS::Lambda::EventInvokeConfig'))) {
      expect(config.Properties.MaximumEventAgeInSeconds).toBeLessThanOrEqual(6 * 3600)
    }
    const replacerErrors = resourceOf(homeTemplate, 'AWS::CloudWatch::Alarm', 'ReplacerErrors').properties
    expect(
      (replacerErrors.Period as number) * (replacerErrors.EvaluationPeriods as number),
    ).toBeLessThanOrEqual(86_400)
  })

  it.each(['0', '1441', '2.5'])('refuses a schedule of %s minutes', (minutes) => {
    expect(() => buildApp({ context: { 'spotswap:scheduleMinutes': minutes } })).toThrow(/minutes/)
  })
})
