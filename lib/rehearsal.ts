/**
 * An AWS Fault Injection Service experiment template that sends a real spot interruption warning to
 * one running spot instance of a chosen group, so a team can watch the interruption handler work in
 * its own account before a real interruption does it for them.
 */
import { Aws, Validations } from 'aws-cdk-lib'
import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch'
import { CfnExperimentTemplate } from 'aws-cdk-lib/aws-fis'
import { Effect, PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam'
import { Construct } from 'constructs'

/** EC2 sends the warning this long before it reclaims the instance; two minutes, as in a real interruption. */
const WARNING_LEAD_TIME = 'PT2M'
const GROUP_MEMBER_TAG = 'aws:autoscaling:groupName'

export interface InterruptionRehearsalProps {
  /** The Auto Scaling group whose spot instance receives the interruption. */
  readonly groupName: string
  /** Stops the experiment if the interruption handler starts failing. */
  readonly stopAlarm: IAlarm
}

export class InterruptionRehearsal extends Construct {
  readonly template: CfnExperimentTemplate

  constructor(scope: Construct, id: string, props: InterruptionRehearsalProps) {
    super(scope, id)
    const role = new Role(this, 'Role', {
      // FIS sets aws:SourceAccount when it assumes an experiment role: only this account's experiments may.
      assumedBy: new ServicePrincipal('fis.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
      }),
      description: `spotswap rehearsal: may interrupt spot instances of ${props.groupName} only`,
      inlinePolicies: {
        interrupt: new PolicyDocument({
          statements: [
            new PolicyStatement({
              sid: 'InterruptSpotInstancesOfTheGroup',
              effect: Effect.ALLOW,
              actions: ['ec2:SendSpotInstanceInterruptions'],
              resources: [`arn:${Aws.PARTITION}:ec2:${Aws.REGION}:${Aws.ACCOUNT_ID}:instance/*`],
              conditions: { StringEquals: { [`ec2:ResourceTag/${GROUP_MEMBER_TAG}`]: props.groupName } },
            }),
            new PolicyStatement({
              sid: 'FindTargets',
              effect: Effect.ALLOW,
              actions: ['ec2:DescribeInstances'],
              resources: ['*'],
            }),
          ],
        }),
      },
    })
    Validations.of(role).acknowledge(
      {
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ec2:<AWS::Region>:<AWS::AccountId>:instance/*]`,
        reason:
          'FIS picks the target instance at run time; the ec2:ResourceTag condition limits interruptions to members of the rehearsal group',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'FIS resolves targets with DescribeInstances, which has no resource-level permissions; read-only',
      },
    )
    this.template = new CfnExperimentTemplate(this, 'Template', {
      description: `spotswap rehearsal: send a spot interruption warning to one running spot instance of ${props.groupName}`,
      roleArn: role.roleArn,
      stopConditions: [{ source: 'aws:cloudwatch:alarm', value: props.stopAlarm.alarmArn }],
      targets: {
        SpotInstanceOfGroup: {
          resourceType: 'aws:ec2:spot-instance',
          resourceTags: { [GROUP_MEMBER_TAG]: props.groupName },
          filters: [{ path: 'State.Name', values: ['running'] }],
          selectionMode: 'COUNT(1)',
        },
      },
      actions: {
        InterruptOneSpotInstance: {
          actionId: 'aws:ec2:send-spot-instance-interruptions',
          description: 'Interruption warning now, reclaim after two minutes, exactly like EC2 does',
          parameters: { durationBeforeInterruption: WARNING_LEAD_TIME },
          targets: { SpotInstances: 'SpotInstanceOfGroup' },
        },
      },
      tags: { Name: 'spotswap-interruption-rehearsal' },
    })
  }
}
