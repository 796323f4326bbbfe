import type { Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildApp, resourceOf } from './support/app.ts'
import { statementsOfRole } from './support/iam.ts'

let template: Template
beforeAll(() => {
  template = buildApp({ context: { 'spotswap:rehearsalGroup': 'web-prod' } }).homeTemplate
})

describe('the interruption rehearsal', () => {
  it('is not created unless a group is named', () => {
    buildApp().homeTemplate.resourceCountIs('AWS::FIS::ExperimentTemplate', 0)
  })

  it('sends a two-minute spot interruption warning to one running spot instance of the named group', () => {
    const { properties } = resourceOf(template, 'AWS::FIS::ExperimentTemplate', 'Rehearsal')
    expect(properties.Targets).toEqual({
      SpotInstanceOfGroup: {
        ResourceType: 'aws:ec2:spot-instance',
        ResourceTags: { 'aws:autoscaling:groupName': 'web-prod' },
        Filters: [{ Path: 'State.Name', Values: ['running'] }],
        SelectionMode: 'COUNT(1)',
      },
    })
    expect(properties.Actions).toEqual({
      InterruptOneSpotInstance: expect.objectContaining({
        ActionId: 'aws:ec2:send-spot-instance-interruptions',
        Parameters: { durationBeforeInterruption: 'PT2M' },
        Targets: { SpotInstances: 'SpotInstanceOfGroup' },
      }),
    })
  })

  it('stops when the interruption handler alarm fires', () => {
    const alarm = resourceOf(template, 'AWS::CloudWatch::Alarm', 'InterruptionHandlerErrors')
    const { properties } = resourceOf(template, 'AWS::FIS::ExperimentTemplate', 'Rehearsal')
    expect(properties.StopConditions).toEqual([
      { Source: 'aws:cloudwatch:alarm', Value: { 'Fn::GetAtt': [alarm.logicalId, 'Arn'] } },
    ])
  })

  it('may interrupt only instances of that group', () => {
    const role = resourceOf(template, 'AWS::IAM::Role', 'RehearsalRole')
    const interrupt = statementsOfRole(template, role.logicalId).filter((s) =>
      s.Action.includes('ec2:SendSpotInstanceInterruptions'),
    )
    expect(interrupt).toEqual([
      expect.objectContaining({
        Resource: ['arn:aws:ec2:us-east-1:123456789012:instance/*'],
        Condition: { StringEquals: { 'ec2:ResourceTag/aws:autoscaling:groupName': 'web-prod' } },
      }),
    ])
  })
})
