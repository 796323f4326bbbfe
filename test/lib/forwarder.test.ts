import { App, Stack } from 'aws-cdk-lib'
import { Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { SpotSwapEventForwarder } from '../../lib/forwarder.ts'
import { forwarderStackName } from '../../lib/stacks.ts'
import { type BuiltApp, buildApp, resourceOf } from './support/app.ts'
import { allStatements, render } from './support/iam.ts'

let built: BuiltApp
beforeAll(() => {
  built = buildApp({
    context: { 'spotswap:homeRegion': 'eu-west-1', 'spotswap:regions': 'eu-west-1,us-east-1,ap-south-1' },
  })
})

const forwarderIn = (region: string) => {
  const stack = built.forwarders.find((s) => s.region === region)
  if (stack === undefined) throw new Error(`no forwarder in ${region}`)
  return Template.fromStack(stack)
}

const HOME_BUS = 'arn:aws:events:eu-west-1:123456789012:event-bus/default'

describe('the event forwarders', () => {
  it('exist in every covered region except the home region', () => {
    expect(built.home.region).toBe('eu-west-1')
    expect(built.forwarders.map((s) => [s.stackName, s.region])).toEqual([
      [forwarderStackName('us-east-1'), 'us-east-1'],
      [forwarderStackName('ap-south-1'), 'ap-south-1'],
    ])
  })

  it.each([
    ['spotswap-spot-interruption-warning-forward', 'aws.ec2', 'EC2 Spot Instance Interruption Warning'],
    ['spotswap-rebalance-recommendation-forward', 'aws.ec2', 'EC2 Instance Rebalance Recommendation'],
    ['spotswap-group-launch-successful-forward', 'aws.autoscaling', 'EC2 Instance Launch Successful'],
  ])('forward %s (%s / %s) to the home default bus, with a dead-letter queue', (name, source, detailType) => {
    const template = forwarderIn('ap-south-1')
    const rule = Object.values(template.findResources('AWS::Events::Rule', { Properties: { Name: name } }))[0]
    expect(rule?.Properties.EventPattern).toEqual({
      source: [source],
      'detail-type': [detailType],
      account: [{ Ref: 'AWS::AccountId' }],
    })
    const dlq = resourceOf(template, 'AWS::SQS::Queue', 'UndeliveredEvents')
    const targets = rule?.Properties.Targets as Record<string, unknown>[]
    expect(targets).toHaveLength(1)
    expect(render(targets[0]?.Arn)).toBe(HOME_BUS)
    expect(targets[0]?.DeadLetterConfig).toEqual({ Arn: { 'Fn::GetAtt': [dlq.logicalId, 'Arn'] } })
  })

  it('may put events on the home default bus and nothing else', () => {
    const statements = allStatements(forwarderIn('us-east-1'))
    expect(statements.map((s) => [s.Action, s.Resource])).toEqual([[['events:PutEvents'], [HOME_BUS]]])
  })

  it('keeps undelivered events encrypted in its own region for 14 days', () => {
    const dlq = resourceOf(forwarderIn('us-east-1'), 'AWS::SQS::Queue', 'UndeliveredEvents')
    expect(dlq.properties).toMatchObject({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    })
  })

  it('refuses to forward the home region to itself', () => {
    const stack = new Stack(new App(), 'Loop', { env: { region: 'eu-west-1' } })
    expect(() => new SpotSwapEventForwarder(stack, 'Forwarder', { homeRegion: 'eu-west-1' })).toThrow(
      /itself/,
    )
  })
})
