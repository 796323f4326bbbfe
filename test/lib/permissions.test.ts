import { Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { type BuiltApp, buildApp } from './support/app.ts'
import { allowing, allStatements, roleOfFunction, type Statement, statementsOfRole } from './support/iam.ts'
import { sdkCalls } from './support/sdk-calls.ts'

let built: BuiltApp
let replacer: Statement[]
let interruption: Statement[]
beforeAll(() => {
  built = buildApp({
    context: { 'spotswap:regions': 'us-east-1,eu-west-1', 'spotswap:rehearsalGroup': 'web' },
  })
  const template = built.homeTemplate
  replacer = statementsOfRole(template, roleOfFunction(template, 'Replacer'))
  interruption = statementsOfRole(template, roleOfFunction(template, 'InterruptionHandler'))
})

const ANY_GROUP = 'arn:aws:autoscaling:*:123456789012:autoScalingGroup:*:autoScalingGroupName/*'
const ANY_INSTANCE = 'arn:aws:ec2:*:123456789012:instance/*'

const templatesOf = (app: BuiltApp): Template[] => [
  app.homeTemplate,
  ...app.forwarders.map((stack) => Template.fromStack(stack)),
]

/** Would IAM allow `action` on a resource matched by one of these statements (ignoring conditions)? */
const grants = (statements: readonly Statement[], action: string): boolean =>
  allowing(statements, action).length > 0

describe('the IAM policies', () => {
  it('never allow every action, nor every action of a service', () => {
    for (const template of templatesOf(built)) {
      for (const statement of allStatements(template)) {
        for (const action of statement.Action) expect(action).not.toMatch(/(^\*$|:\*$)/)
      }
    }
  })

  it('allow on every resource (*) only actions that read', () => {
    for (const template of templatesOf(built)) {
      const unscoped = allStatements(template).filter((s) => s.Resource.includes('*'))
      for (const action of unscoped.flatMap((s) => s.Action)) {
        expect(action).toMatch(/^[a-z0-9-]+:(Describe|Get|List)[A-Za-z]+$/)
      }
    }
  })

  it('grant every AWS API call the Lambdas code makes', () => {
    const calls = sdkCalls()
    expect(calls.length).toBeGreaterThan(15)
    const missing = calls.filter(({ action }) => !grants(replacer, action) && !grants(interruption, action))
    expect(missing).toEqual([])
  })
})

describe("the replacer's permissions", () => {
  it.each([
    'autoscaling:AttachInstances',
    'autoscaling:TerminateInstanceInAutoScalingGroup',
    'autoscaling:UpdateAutoScalingGroup',
    'autoscaling:CreateOrUpdateTags',
    'autoscaling:DeleteTags',
  ])('allow %s only on groups tagged spot-enabled=true', (action) => {
    const statements = allowing(replacer, action)
    expect(statements.length).toBeGreaterThan(0)
    for (const statement of statements) {
      expect(statement.Resource).toEqual([ANY_GROUP])
      expect(statement.Condition?.StringEquals).toEqual({ 'aws:ResourceTag/spot-enabled': 'true' })
    }
  })

  it('let the replacer write only spotswap: tags on groups, never the enabling tag', () => {
    for (const action of ['autoscaling:CreateOrUpdateTags', 'autoscaling:DeleteTags']) {
      for (const statement of allowing(replacer, action)) {
        expect(statement.Condition?.['ForAllValues:StringLike']).toEqual({ 'aws:TagKeys': ['spotswap:*'] })
      }
    }
  })

  it('terminate with EC2 only spot instances carrying its launch tags outside any group', () => {
    expect(allowing(replacer, 'ec2:TerminateInstances')).toEqual([
      expect.objectContaining({
        Resource: [ANY_INSTANCE],
        Condition: {
          StringEquals: {
            'ec2:InstanceMarketType': 'spot',
            'ec2:ResourceTag/launched-by-autospotting': 'true',
          },
          Null: {
            'ec2:ResourceTag/launched-for-asg': 'false',
            'ec2:ResourceTag/aws:autoscaling:groupName': 'true',
          },
        },
      }),
    ])
  })

  it('create fleets and instances only with its launch tags; other launch resources in this account, AMIs and snapshots', () => {
    const [tagged, template, ...others] = allowing(replacer, 'ec2:CreateFleet')
    expect(others).toEqual([])
    expect(tagged?.Resource).toEqual(['arn:aws:ec2:*:123456789012:fleet/*', ANY_INSTANCE])
    expect(tagged?.Condition).toEqual({
      StringEquals: { 'aws:RequestTag/launched-by-autospotting': 'true' },
      Null: {
        'aws:RequestTag/launched-for-asg': 'false',
        'aws:RequestTag/launched-for-replacing-instance': 'false',
      },
    })
    expect(template?.Resource).not.toContain(ANY_INSTANCE)
    expect(template?.Resource).toEqual(
      expect.arrayContaining(['arn:aws:ec2:*::image/*', 'arn:aws:ec2:*::snapshot/*']),
    )
    expect(template?.Resource.every((r) => !r.endsWith(':*') && !r.includes(':fleet/'))).toBe(true)
  })

  it('run only spot instances, and only with its launch tags', () => {
    const onInstances = allowing(replacer, 'ec2:RunInstances').filter((s) =>
      s.Resource.includes(ANY_INSTANCE),
    )
    expect(onInstances.map((s) => s.Condition)).toEqual([
      {
        StringEquals: {
          'aws:RequestTag/launched-by-autospotting': 'true',
          'ec2:InstanceMarketType': 'spot',
        },
        Null: {
          'aws:RequestTag/launched-for-asg': 'false',
          'aws:RequestTag/launched-for-replacing-instance': 'false',
        },
      },
    ])
  })

  it('never detach: a swap’s members leave through Auto Scaling’s terminate', () => {
    expect(grants(replacer, 'autoscaling:DetachInstances')).toBe(false)
  })

  it('tag new resources only as part of the launch that creates them, and existing ones only with named spotswap: keys', () => {
    const conditions = allowing(replacer, 'ec2:CreateTags').map((s) => s.Condition)
    expect(conditions).toEqual(
      expect.arrayContaining([
        { StringEquals: { 'ec2:CreateAction': ['CreateFleet', 'RunInstances', 'CreateLaunchTemplate'] } },
        { 'ForAllValues:StringLike': { 'aws:TagKeys': ['spotswap:*'] }, Null: { 'aws:TagKeys': 'false' } },
      ]),
    )
    expect(conditions).toHaveLength(2)
  })

  it('remove only spotswap:swap-id, launched-for-asg, launched-for-replacing-instance and spotswap:ecs-drained from instances, by name', () => {
    expect(allowing(replacer, 'ec2:DeleteTags').map((s) => s.Condition)).toEqual([
      {
        'ForAllValues:StringLike': {
          'aws:TagKeys': [
            'spotswap:swap-id',
            'launched-for-asg',
            'launched-for-replacing-instance',
            'spotswap:ecs-drained',
          ],
        },
        Null: { 'aws:TagKeys': 'false' },
      },
    ])
  })

  it('pass to EC2 only roles tagged spotswap:passable=true by default', () => {
    const [passRole, ...others] = allowing(replacer, 'iam:PassRole')
    expect(others).toEqual([])
    expect(passRole?.Condition).toEqual({
      StringEquals: {
        'iam:PassedToService': 'ec2.amazonaws.com',
        'iam:ResourceTag/spotswap:passable': 'true',
      },
    })
  })

  it("create only EC2's spot service-linked role", () => {
    expect(allowing(replacer, 'iam:CreateServiceLinkedRole')).toEqual([
      expect.objectContaining({
        Resource: [
          'arn:aws:iam::123456789012:role/aws-service-role/spot.amazonaws.com/AWSServiceRoleForEC2Spot',
        ],
        Condition: { StringEquals: { 'iam:AWSServiceName': 'spot.amazonaws.com' } },
      }),
    ])
  })

  it('use KMS keys only through EC2, and grant them only for AWS resources', () => {
    expect(allowing(replacer, 'kms:CreateGrant').map((s) => s.Condition)).toEqual([
      {
        StringLike: { 'kms:ViaService': 'ec2.*.amazonaws.com' },
        Bool: { 'kms:GrantIsForAWSResource': 'true' },
      },
    ])
    expect(allowing(replacer, 'kms:Decrypt').map((s) => s.Condition)).toEqual([
      { StringLike: { 'kms:ViaService': 'ec2.*.amazonaws.com' } },
    ])
  })

  it('read the parameters of resolve:ssm: images: this account’s and AWS’s public ones, the kill switch, and nothing else of SSM', () => {
    const ssm = replacer.filter((s) => s.Action.some((a) => a.startsWith('ssm:')))
    const killSwitch = expect.objectContaining({
      Action: ['ssm:GetParameter'],
      Resource: [expect.stringMatching(/:parameter\/spotswap\/kill-switch$/)],
    })
    expect(ssm).toEqual([
      expect.objectContaining({
        Action: ['ssm:GetParameters', 'ssm:GetParameter'],
        Resource: ['arn:aws:ssm:*:123456789012:parameter/*', 'arn:aws:ssm:*::parameter/aws/service/*'],
      }),
      killSwitch,
    ])
    expect(interruption.filter((s) => s.Action.some((a) => a.startsWith('ssm:')))).toEqual([killSwitch])
  })

  it('read CloudFormation stack status and nothing else of CloudFormation', () => {
    const cloudFormation = replacer.flatMap((s) => s.Action).filter((a) => a.startsWith('cloudformation:'))
    expect(cloudFormation).toEqual(['cloudformation:DescribeStacks'])
  })

  it('send to and consume from the fan-out queue, send and consume run requests, and only send to the failed-events queue', () => {
    const sqsStatements = replacer.filter((s) => s.Action.some((a) => a.startsWith('sqs:')))
    const queues = [...new Set(sqsStatements.flatMap((s) => s.Resource))].sort()
    expect(queues).toEqual([
      expect.stringMatching(/^<SpotSwapFailedEvents\w+\.Arn>$/),
      expect.stringMatching(/^<SpotSwapFanoutQueue\w+\.Arn>$/),
      expect.stringMatching(/^<SpotSwapRunRequestQueue\w+\.Arn>$/),
    ])
    const onFailedEvents = sqsStatements.filter((s) => s.Resource.some((r) => r.includes('FailedEvents')))
    for (const statement of onFailedEvents) {
      for (const action of statement.Action) expect(SEND_ONLY).toContain(action)
    }
    const onRunRequests = sqsStatements.filter((s) => s.Resource.some((r) => r.includes('RunRequestQueue')))
    expect(onRunRequests.flatMap((s) => s.Action)).toContain('sqs:ReceiveMessage')
    // A swap waiting for its replacements to serve asks for an early look at its group.
    expect(onRunRequests.flatMap((s) => s.Action)).toContain('sqs:SendMessage')
  })
})

const SEND_ONLY = ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl']

describe("the interruption handler's permissions", () => {
  it.each(['autoscaling:DetachInstances', 'autoscaling:TerminateInstanceInAutoScalingGroup'])(
    'allow %s only on managed groups',
    (action) => {
      for (const statement of allowing(interruption, action)) {
        expect(statement.Condition).toEqual({ StringEquals: { 'aws:ResourceTag/spot-enabled': 'true' } })
      }
      expect(allowing(interruption, action)).toHaveLength(1)
    },
  )

  it('remove only launched-for-asg from instances, and only by name', () => {
    expect(allowing(interruption, 'ec2:DeleteTags').map((s) => s.Condition)).toEqual([
      {
        'ForAllValues:StringLike': { 'aws:TagKeys': ['launched-for-asg'] },
        Null: { 'aws:TagKeys': 'false' },
      },
    ])
  })

  it('write only spotswap: tags on managed groups (the swap record), and never remove group tags', () => {
    const statements = allowing(interruption, 'autoscaling:CreateOrUpdateTags')
    expect(statements).toHaveLength(1)
    expect(statements[0]?.Condition).toEqual({
      StringEquals: { 'aws:ResourceTag/spot-enabled': 'true' },
      'ForAllValues:StringLike': { 'aws:TagKeys': ['spotswap:*'] },
      Null: { 'aws:TagKeys': 'false' },
    })
    expect(grants(interruption, 'autoscaling:DeleteTags')).toBe(false)
  })

  it('only send run requests and its failed invocations; send and consume its own deadline reminders', () => {
    const sqsStatements = interruption.filter((s) => s.Action.some((a) => a.startsWith('sqs:')))
    expect([...new Set(sqsStatements.flatMap((s) => s.Resource))].sort()).toEqual([
      expect.stringMatching(/^<SpotSwapDeadlineQueue\w+\.Arn>$/),
      expect.stringMatching(/^<SpotSwapFailedEvents\w+\.Arn>$/),
      expect.stringMatching(/^<SpotSwapRunRequestQueue\w+\.Arn>$/),
    ])
    for (const statement of sqsStatements.filter(
      (s) => !s.Resource.some((r) => r.includes('DeadlineQueue')),
    )) {
      for (const action of statement.Action) expect(SEND_ONLY).toContain(action)
    }
    const onDeadlines = sqsStatements.filter((s) => s.Resource.some((r) => r.includes('DeadlineQueue')))
    expect(onDeadlines.flatMap((s) => s.Action)).toEqual(
      expect.arrayContaining(['sqs:SendMessage', 'sqs:ReceiveMessage', 'sqs:DeleteMessage']),
    )
  })

  it.each([
    'ec2:CreateFleet',
    'ec2:RunInstances',
    'iam:PassRole',
    'autoscaling:UpdateAutoScalingGroup',
    'ec2:CreateLaunchTemplate',
  ])('never %s: it does not launch or resize', (action) => {
    expect(grants(interruption, action)).toBe(false)
  })

  it('attaches only to managed groups (a swap replacement at its partner’s deadline)', () => {
    const attach = interruption.filter((s) => s.Action.includes('autoscaling:AttachInstances'))
    expect(attach).toHaveLength(1)
    expect(JSON.stringify(attach[0])).toContain('aws:ResourceTag')
  })
})

describe('the managed-group condition', () => {
  const groupCondition = (context: Record<string, string>) => {
    const app = buildApp({ context })
    const statements = statementsOfRole(app.homeTemplate, roleOfFunction(app.homeTemplate, 'Replacer'))
    return allowing(statements, 'autoscaling:AttachInstances')[0]?.Condition
  }

  it('requires every TAG_FILTERS filter, with StringLike for globbed values', () => {
    expect(groupCondition({ TAG_FILTERS: 'spot-enabled=true,team=web-*' })).toEqual({
      StringEquals: { 'aws:ResourceTag/spot-enabled': 'true' },
      StringLike: { 'aws:ResourceTag/team': 'web-*' },
    })
  })

  it('in opt-out mode refuses groups that set a filter key to false, in any case, and allows untagged ones', () => {
    expect(groupCondition({ TAG_FILTERING_MODE: 'opt-out' })).toEqual({
      StringNotEqualsIgnoreCase: { 'aws:ResourceTag/spot-enabled': 'false' },
    })
  })

  it('refuses two filters on one tag key, which one IAM condition cannot express', () => {
    expect(() => buildApp({ context: { TAG_FILTERS: 'team=web*,team=*-prod' } })).toThrow(
      /names team more than once/,
    )
  })
})
