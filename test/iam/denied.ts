/**
 * Requests neither role may ever make (issue 14, least privilege): each named for what it would let a
 * compromised or confused spotswap do.
 */

import {
  FLEET,
  GROUP,
  INSTANCE,
  KILL_SWITCH,
  LAUNCH_TAGS,
  LAUNCH_TEMPLATE,
  MANAGED_GROUP,
  ROLE,
  requestTags,
  resourceTags,
  UNATTACHED_LAUNCH,
  UNMANAGED_GROUP,
} from './requests.ts'
import type { IamRequest } from './support/evaluate.ts'
import { ACCOUNT, REGION } from './support/template.ts'

const { 'launched-by-autospotting': _by, ...withoutLaunchedBy } = LAUNCH_TAGS
const { 'launched-for-asg': _for, ...withoutLaunchedFor } = LAUNCH_TAGS

const updateGroup = (field: string, value: string | string[]): IamRequest => ({
  action: 'autoscaling:UpdateAutoScalingGroup',
  resource: GROUP,
  context: { ...MANAGED_GROUP, 'autoscaling:MaxSize': '7', [field]: value },
})

export const NEVER: readonly (readonly [string, IamRequest])[] = [
  // PassRole
  [
    'pass a role the operator did not mark passable',
    {
      action: 'iam:PassRole',
      resource: ROLE('admin'),
      context: { 'iam:PassedToService': 'ec2.amazonaws.com' },
    },
  ],
  [
    'pass a role marked with another value',
    {
      action: 'iam:PassRole',
      resource: ROLE('admin'),
      context: {
        'iam:PassedToService': 'ec2.amazonaws.com',
        'iam:ResourceTag/spotswap:passable': 'false',
        'aws:ResourceTag/spotswap:passable': 'false',
      },
    },
  ],
  [
    'pass a passable role to another service than EC2',
    {
      action: 'iam:PassRole',
      resource: ROLE('web-instance'),
      context: {
        'iam:PassedToService': 'lambda.amazonaws.com',
        'iam:ResourceTag/spotswap:passable': 'true',
        'aws:ResourceTag/spotswap:passable': 'true',
      },
    },
  ],
  // TerminateInstances
  [
    'terminate an on-demand instance carrying spotswap’s launch tags',
    {
      action: 'ec2:TerminateInstances',
      resource: INSTANCE,
      context: { ...UNATTACHED_LAUNCH, 'ec2:InstanceMarketType': 'on-demand' },
    },
  ],
  [
    'terminate a spot instance without spotswap’s tags',
    { action: 'ec2:TerminateInstances', resource: INSTANCE, context: { 'ec2:InstanceMarketType': 'spot' } },
  ],
  [
    'terminate a spot instance missing launched-by-autospotting',
    {
      action: 'ec2:TerminateInstances',
      resource: INSTANCE,
      context: { 'ec2:InstanceMarketType': 'spot', ...resourceTags('ec2', withoutLaunchedBy) },
    },
  ],
  [
    'terminate a spot instance missing launched-for-asg (a swap closed on it)',
    {
      action: 'ec2:TerminateInstances',
      resource: INSTANCE,
      context: { 'ec2:InstanceMarketType': 'spot', ...resourceTags('ec2', withoutLaunchedFor) },
    },
  ],
  [
    'terminate a group member with EC2, even one spotswap launched (it leaves through Auto Scaling)',
    {
      action: 'ec2:TerminateInstances',
      resource: INSTANCE,
      context: { ...UNATTACHED_LAUNCH, ...resourceTags('ec2', { 'aws:autoscaling:groupName': 'web' }) },
    },
  ],
  [
    'terminate an on-demand member of an unmanaged group (an EKS node group)',
    {
      action: 'ec2:TerminateInstances',
      resource: INSTANCE,
      context: {
        'ec2:InstanceMarketType': 'on-demand',
        ...resourceTags('ec2', { 'aws:autoscaling:groupName': 'eks-system', 'eks:nodegroup-name': 'system' }),
      },
    },
  ],
  // Launch templates
  [
    'delete a launch template spotswap did not create',
    {
      action: 'ec2:DeleteLaunchTemplate',
      resource: LAUNCH_TEMPLATE,
      context: resourceTags('ec2', { team: 'web' }),
    },
  ],
  [
    'create a launch template without the temporary-template tag',
    { action: 'ec2:CreateLaunchTemplate', resource: `arn:aws:ec2:${REGION}:${ACCOUNT}:launch-template/*` },
  ],
  // DeleteTags / CreateTags
  [
    'delete every tag of an instance (DeleteTags without keys)',
    { action: 'ec2:DeleteTags', resource: INSTANCE },
  ],
  [
    'delete an instance tag that is not spotswap’s',
    { action: 'ec2:DeleteTags', resource: INSTANCE, context: { 'aws:TagKeys': ['spotswap:swap', 'Name'] } },
  ],
  [
    'delete spotswap:joined-group, which keeps an instance taken out of its group untouchable',
    { action: 'ec2:DeleteTags', resource: INSTANCE, context: { 'aws:TagKeys': ['spotswap:joined-group'] } },
  ],
  [
    'delete the launched-by-autospotting tag',
    {
      action: 'ec2:DeleteTags',
      resource: INSTANCE,
      context: { 'aws:TagKeys': ['launched-by-autospotting'] },
    },
  ],
  [
    'tag an existing instance as spotswap’s launch (making it terminable)',
    { action: 'ec2:CreateTags', resource: INSTANCE, context: requestTags({ 'launched-for-asg': 'web' }) },
  ],
  ['tag an existing instance without naming keys', { action: 'ec2:CreateTags', resource: INSTANCE }],
  [
    'opt a group in by tagging it',
    {
      action: 'autoscaling:CreateOrUpdateTags',
      resource: GROUP,
      context: { ...MANAGED_GROUP, ...requestTags({ 'spot-enabled': 'true' }) },
    },
  ],
  [
    'remove a group tag that is not spotswap’s',
    {
      action: 'autoscaling:DeleteTags',
      resource: GROUP,
      context: { ...MANAGED_GROUP, 'aws:TagKeys': ['autospotting_min_on_demand_number'] },
    },
  ],
  // UpdateAutoScalingGroup: MaxSize only
  [
    'repoint a group at another launch configuration',
    updateGroup('autoscaling:LaunchConfigurationName', 'evil'),
  ],
  [
    'repoint a group at another launch template version',
    updateGroup('autoscaling:LaunchTemplateVersionSpecified', 'true'),
  ],
  ['move a group to other subnets', updateGroup('autoscaling:VPCZoneIdentifiers', ['subnet-0evil'])],
  ['change a group’s MinSize', updateGroup('autoscaling:MinSize', '0')],
  ['change a group’s instance types', updateGroup('autoscaling:InstanceTypes', ['p5.48xlarge'])],
  ['change a group’s image', updateGroup('autoscaling:ImageId', 'ami-0evil')],
  [
    'update a group without changing MaxSize',
    { action: 'autoscaling:UpdateAutoScalingGroup', resource: GROUP, context: MANAGED_GROUP },
  ],
  // Unmanaged groups
  [
    'detach a member of a group that is not opted in',
    { action: 'autoscaling:DetachInstances', resource: GROUP, context: UNMANAGED_GROUP },
  ],
  [
    'attach to a group that is not opted in',
    { action: 'autoscaling:AttachInstances', resource: GROUP, context: UNMANAGED_GROUP },
  ],
  [
    'set the desired capacity of a group that is not opted in',
    { action: 'autoscaling:SetDesiredCapacity', resource: GROUP, context: UNMANAGED_GROUP },
  ],
  [
    'terminate a member of a group that is not opted in',
    { action: 'autoscaling:TerminateInstanceInAutoScalingGroup', resource: GROUP, context: UNMANAGED_GROUP },
  ],
  // Launches without spotswap's request tags
  ['create a fleet without spotswap’s tags', { action: 'ec2:CreateFleet', resource: FLEET }],
  [
    'create a fleet whose instances do not carry spotswap’s tags',
    {
      action: 'ec2:CreateFleet',
      resource: `arn:aws:ec2:${REGION}:${ACCOUNT}:instance/*`,
      context: requestTags({ Name: 'x' }),
    },
  ],
  [
    'launch an on-demand instance, even with spotswap’s launch tags',
    {
      action: 'ec2:RunInstances',
      resource: `arn:aws:ec2:${REGION}:${ACCOUNT}:instance/*`,
      context: { ...requestTags(LAUNCH_TAGS), 'ec2:InstanceMarketType': 'on-demand' },
    },
  ],
  [
    'launch an instance whose market is not stated (every spot launch states it)',
    {
      action: 'ec2:RunInstances',
      resource: `arn:aws:ec2:${REGION}:${ACCOUNT}:instance/*`,
      context: requestTags(LAUNCH_TAGS),
    },
  ],
  [
    'run an instance without launched-by-autospotting',
    {
      action: 'ec2:RunInstances',
      resource: `arn:aws:ec2:${REGION}:${ACCOUNT}:instance/*`,
      context: { ...requestTags(withoutLaunchedBy), 'ec2:InstanceMarketType': 'spot' },
    },
  ],
  // KMS and SSM
  [
    'create a KMS grant that is not for an AWS resource',
    {
      action: 'kms:CreateGrant',
      resource: `arn:aws:kms:${REGION}:${ACCOUNT}:key/6d1b0f0e-0000-4000-8000-000000000003`,
      context: { 'kms:ViaService': `ec2.${REGION}.amazonaws.com`, 'kms:GrantIsForAWSResource': 'false' },
    },
  ],
  [
    'read another account’s parameter',
    { action: 'ssm:GetParameters', resource: `arn:aws:ssm:${REGION}:999999999999:parameter/golden/web` },
  ],
  ['set the kill switch: it is the operator’s', { action: 'ssm:PutParameter', resource: KILL_SWITCH }],
  [
    'read instance attributes in another account',
    { action: 'ec2:DescribeInstanceAttribute', resource: 'arn:aws:ec2:us-east-1:999999999999:instance/i-1' },
  ],
  [
    'drain another account’s container instance',
    {
      action: 'ecs:UpdateContainerInstancesState',
      resource: `arn:aws:ecs:${REGION}:999999999999:container-instance/web/0f1e2d3c4b5a69788796a5b4c3d2e1f0`,
    },
  ],
  [
    'read another account’s ECS cluster',
    { action: 'ecs:DescribeClusters', resource: `arn:aws:ecs:${REGION}:999999999999:cluster/web` },
  ],
  [
    'read another account’s ECS tasks',
    { action: 'ecs:DescribeTasks', resource: `arn:aws:ecs:${REGION}:999999999999:task/web/0123456789abcdef` },
  ],
  [
    'list another account’s ECS cluster’s tasks',
    {
      action: 'ecs:ListTasks',
      resource: '*',
      context: { 'ecs:cluster': `arn:aws:ecs:${REGION}:999999999999:cluster/web` },
    },
  ],
  [
    'read another account’s ECS capacity providers',
    {
      action: 'ecs:DescribeCapacityProviders',
      resource: `arn:aws:ecs:${REGION}:999999999999:capacity-provider/web-provider`,
    },
  ],
]
