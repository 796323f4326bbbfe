/**
 * The IAM requests spotswap makes, in the shape it makes them, one list per adapter call (the actions the
 * adapters in lambdas/aws send; roles.test.ts checks the two lists match), and the requests it must never
 * be able to make. Context keys are the ones AWS sends for each (the evaluator checks each key exists).
 */
import type { IamRequest } from './support/evaluate.ts'
import { ACCOUNT, REGION } from './support/template.ts'

export type Caller = 'replacer' | 'interruption'
const BOTH: readonly Caller[] = ['replacer', 'interruption']
const REPLACER: readonly Caller[] = ['replacer']
const INTERRUPTION: readonly Caller[] = ['interruption']

export interface Call {
  readonly by: readonly Caller[]
  readonly request: IamRequest
}

const ec2 = (resource: string) => `arn:aws:ec2:${REGION}:${ACCOUNT}:${resource}`
export const GROUP = `arn:aws:autoscaling:${REGION}:${ACCOUNT}:autoScalingGroup:6d1b0f0e-0000-4000-8000-000000000001:autoScalingGroupName/web`
export const INSTANCE = ec2('instance/i-0a1b2c3d4e5f60718')
export const ECS_CLUSTER = `arn:aws:ecs:${REGION}:${ACCOUNT}:cluster/web`
export const ECS_CONTAINER_INSTANCE = `arn:aws:ecs:${REGION}:${ACCOUNT}:container-instance/web/0f1e2d3c4b5a69788796a5b4c3d2e1f0`
export const LAUNCH_TEMPLATE = ec2('launch-template/lt-0a1b2c3d4e5f60718')
export const FLEET = ec2('fleet/fleet-0a1b2c3d-4e5f-6071-8a9b-0c1d2e3f4a5b')
/** The kill switch's SSM parameter, by its default name (lib/kill-switch.ts). */
export const KILL_SWITCH = `arn:aws:ssm:${REGION}:${ACCOUNT}:parameter/spotswap/kill-switch`
export const ROLE = (name: string) => `arn:aws:iam::${ACCOUNT}:role/${name}`

/** A resource's tags as AWS puts them in the request context: both the global and the service key. */
export const resourceTags = (
  service: 'ec2' | 'autoscaling',
  tags: Readonly<Record<string, string>>,
): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tags).flatMap(([key, value]) => [
      [`aws:ResourceTag/${key}`, value],
      [`${service}:ResourceTag/${key}`, value],
    ]),
  )

export const requestTags = (tags: Readonly<Record<string, string>>): Record<string, string | string[]> => ({
  ...Object.fromEntries(Object.entries(tags).map(([key, value]) => [`aws:RequestTag/${key}`, value])),
  'aws:TagKeys': Object.keys(tags),
})

export const MANAGED_GROUP = resourceTags('autoscaling', { 'spot-enabled': 'true', team: 'web' })
export const UNMANAGED_GROUP = resourceTags('autoscaling', { 'eks:nodegroup-name': 'system' })

/** What lambdas/core/plan/launches.ts launchTags writes on every launch (plus whatever the original carried). */
export const LAUNCH_TAGS = {
  'launched-by-autospotting': 'true',
  'launched-for-asg': 'web',
  'launched-for-replacing-instance': 'i-0fedcba9876543210',
  'spotswap:replaced-instance-type': 'm5.large',
  Name: 'web',
}

/** A spot instance spotswap launched that never joined its group. */
export const UNATTACHED_LAUNCH = {
  'ec2:InstanceMarketType': 'spot',
  ...resourceTags('ec2', LAUNCH_TAGS),
}

const reads = (by: readonly Caller[], ...actions: string[]): [string, Call[]][] =>
  actions.map((action) => [action, [{ by, request: { action, resource: '*' } }]])

export interface Queues {
  readonly fanout: string
  readonly runRequests: string
  readonly deadlines: string
  readonly failedEvents: string
  /** The marker key's ARN (lib/marker-key.ts). */
  readonly markerKey?: string
}

export const spotswapCalls = (queues: Queues): Record<string, Call[]> => ({
  ...Object.fromEntries([
    ...reads(
      BOTH,
      'autoscaling:DescribeAutoScalingGroups',
      'autoscaling:DescribeAutoScalingInstances',
      'autoscaling:DescribeLifecycleHooks',
      'ec2:DescribeInstances',
      'autoscaling:DescribeScalingActivities',
    ),
    ...reads(
      REPLACER,
      'autoscaling:DescribeInstanceRefreshes',
      'autoscaling:DescribeLaunchConfigurations',
      'ec2:DescribeInstanceTypes',
      'ec2:DescribeRegions',
      'ec2:DescribeSpotInstanceRequests',
      'ec2:DescribeSpotPriceHistory',
      'ec2:DescribeSubnets',
      'elasticloadbalancing:DescribeInstanceHealth',
      'elasticloadbalancing:DescribeLoadBalancers',
      'elasticloadbalancing:DescribeTargetGroups',
      'elasticloadbalancing:DescribeTargetHealth',
      'pricing:GetProducts',
      'ec2:DescribeReservedInstances',
      'ec2:DescribeCapacityReservations',
      'savingsplans:DescribeSavingsPlans',
      'savingsplans:DescribeSavingsPlanRates',
    ),
  ]),
  'autoscaling:AttachInstances': [
    {
      by: BOTH,
      request: { action: 'autoscaling:AttachInstances', resource: GROUP, context: MANAGED_GROUP },
    },
  ],
  // Only the interruption handler detaches (a doomed member, when EC2 terminates it anyway).
  'autoscaling:DetachInstances': [
    {
      by: INTERRUPTION,
      request: { action: 'autoscaling:DetachInstances', resource: GROUP, context: MANAGED_GROUP },
    },
  ],
  'autoscaling:TerminateInstanceInAutoScalingGroup': [
    {
      by: BOTH,
      request: {
        action: 'autoscaling:TerminateInstanceInAutoScalingGroup',
        resource: GROUP,
        context: MANAGED_GROUP,
      },
    },
  ],
  'autoscaling:UpdateAutoScalingGroup': [
    {
      by: REPLACER,
      request: {
        action: 'autoscaling:UpdateAutoScalingGroup',
        resource: GROUP,
        context: { ...MANAGED_GROUP, 'autoscaling:MaxSize': '7' },
      },
    },
  ],
  'autoscaling:CreateOrUpdateTags': [
    {
      by: BOTH,
      request: {
        action: 'autoscaling:CreateOrUpdateTags',
        resource: GROUP,
        context: {
          ...MANAGED_GROUP,
          ...requestTags({ 'spotswap:swap': 'v2;i-1>i-2', 'spotswap:swap-id': '7' }),
        },
      },
    },
  ],
  'autoscaling:DeleteTags': [
    {
      by: REPLACER,
      request: {
        action: 'autoscaling:DeleteTags',
        resource: GROUP,
        context: { ...MANAGED_GROUP, 'aws:TagKeys': ['spotswap:swap', 'spotswap:swap-id'] },
      },
    },
  ],
  ...Object.fromEntries(
    ['kms:GenerateMac', 'kms:VerifyMac'].map((action) => [
      action,
      [
        {
          by: BOTH,
          request: {
            action,
            resource: queues.markerKey ?? `arn:aws:kms:${REGION}:${ACCOUNT}:key/marker`,
            context: { 'kms:MacAlgorithm': 'HMAC_SHA_256' },
          },
        },
      ],
    ]),
  ),
  'cloudformation:DescribeStacks': [
    {
      by: REPLACER,
      request: {
        action: 'cloudformation:DescribeStacks',
        resource: `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/web/6d1b0f0e-0000-4000-8000-000000000002`,
      },
    },
  ],
  'ec2:DescribeInstanceAttribute': [
    { by: BOTH, request: { action: 'ec2:DescribeInstanceAttribute', resource: INSTANCE } },
  ],
  'ec2:CreateFleet': launchRequests(),
  'ec2:CreateLaunchTemplate': [
    {
      by: REPLACER,
      request: {
        action: 'ec2:CreateLaunchTemplate',
        resource: ec2('launch-template/*'),
        context: requestTags({ 'spotswap:temporary-template-for': 'legacy web' }),
      },
    },
    {
      by: REPLACER,
      request: {
        action: 'ec2:CreateTags',
        resource: ec2('launch-template/*'),
        context: {
          'ec2:CreateAction': 'CreateLaunchTemplate',
          ...requestTags({ 'spotswap:temporary-template-for': 'legacy web' }),
        },
      },
    },
  ],
  'ec2:DeleteLaunchTemplate': [
    {
      by: REPLACER,
      request: {
        action: 'ec2:DeleteLaunchTemplate',
        resource: LAUNCH_TEMPLATE,
        context: resourceTags('ec2', { 'spotswap:temporary-template-for': 'legacy web' }),
      },
    },
  ],
  'ec2:CreateTags': [
    {
      by: BOTH,
      request: {
        action: 'ec2:CreateTags',
        resource: INSTANCE,
        context: requestTags({ 'spotswap:rebalance-at-risk': '2026-11-26T10:00:00Z' }),
      },
    },
  ],
  'ec2:DeleteTags': [
    // Settling members, releasing a pair, unnaming a closed swap's members (replacer/execute.ts).
    {
      by: REPLACER,
      request: {
        action: 'ec2:DeleteTags',
        resource: INSTANCE,
        context: {
          'aws:TagKeys': ['launched-for-asg', 'launched-for-replacing-instance', 'spotswap:swap-id'],
        },
      },
    },
    // A doomed launch loses launched-for-asg before it leaves (core/interruption/interruption.ts).
    {
      by: BOTH,
      request: {
        action: 'ec2:DeleteTags',
        resource: INSTANCE,
        context: { 'aws:TagKeys': ['launched-for-asg'] },
      },
    },
  ],
  'ec2:TerminateInstances': [
    {
      by: BOTH,
      request: { action: 'ec2:TerminateInstances', resource: INSTANCE, context: UNATTACHED_LAUNCH },
    },
  ],
  'ssm:GetParameter': [{ by: BOTH, request: { action: 'ssm:GetParameter', resource: KILL_SWITCH } }],
  'sqs:SendMessage': [
    { by: REPLACER, request: { action: 'sqs:SendMessage', resource: queues.fanout } },
    { by: BOTH, request: { action: 'sqs:SendMessage', resource: queues.runRequests } },
    { by: INTERRUPTION, request: { action: 'sqs:SendMessage', resource: queues.deadlines } },
    // Not an adapter call: Lambda sends a failed asynchronous invocation with the function's role.
    { by: BOTH, request: { action: 'sqs:SendMessage', resource: queues.failedEvents } },
  ],
  // A region run's lease on the fan-out message it runs (core/region/lease.ts); Lambda's poller needs the
  // action too, so the role already had it on this queue.
  'sqs:ChangeMessageVisibility': [
    { by: REPLACER, request: { action: 'sqs:ChangeMessageVisibility', resource: queues.fanout } },
  ],
  'ec2:DescribeInstanceStatus': [
    { by: REPLACER, request: { action: 'ec2:DescribeInstanceStatus', resource: '*' } },
  ],
  // The action takes the capacity-provider resource type (service authorization reference for ECS).
  'ecs:DescribeCapacityProviders': [
    {
      by: BOTH,
      request: {
        action: 'ecs:DescribeCapacityProviders',
        resource: `arn:aws:ecs:${REGION}:${ACCOUNT}:capacity-provider/web-provider`,
      },
    },
  ],
  // The cluster of a managed group's provider and its container instances (service authorization
  // reference for ECS: ListClusters takes no resource type, the others a cluster or container instance).
  'ecs:ListClusters': [{ by: BOTH, request: { action: 'ecs:ListClusters', resource: '*' } }],
  'ecs:DescribeClusters': [{ by: BOTH, request: { action: 'ecs:DescribeClusters', resource: ECS_CLUSTER } }],
  'ecs:ListContainerInstances': [
    { by: BOTH, request: { action: 'ecs:ListContainerInstances', resource: ECS_CLUSTER } },
  ],
  'ecs:DescribeContainerInstances': [
    {
      by: BOTH,
      request: { action: 'ecs:DescribeContainerInstances', resource: ECS_CONTAINER_INSTANCE },
    },
  ],
  // A drain swap sets the partner DRAINING (or ACTIVE again when the drain stalls).
  'ecs:UpdateContainerInstancesState': [
    {
      by: BOTH,
      request: { action: 'ecs:UpdateContainerInstancesState', resource: ECS_CONTAINER_INSTANCE },
    },
  ],
  // Before a drain, the cluster's tasks: a standalone one keeps its member (the replacer's alone). A whole
  // cluster's listing names no container instance: IAM sees `*` and the cluster as `ecs:cluster`.
  'ecs:ListTasks': [
    {
      by: REPLACER,
      request: { action: 'ecs:ListTasks', resource: '*', context: { 'ecs:cluster': ECS_CLUSTER } },
    },
  ],
  'ecs:DescribeTasks': [
    {
      by: REPLACER,
      request: {
        action: 'ecs:DescribeTasks',
        resource: `arn:aws:ecs:${REGION}:${ACCOUNT}:task/web/0123456789abcdef`,
      },
    },
  ],
  // Replacing a member ahead of its scheduled event: desired capacity + 1, then back with a decrement.
  'autoscaling:SetDesiredCapacity': [
    {
      by: REPLACER,
      request: { action: 'autoscaling:SetDesiredCapacity', resource: GROUP, context: MANAGED_GROUP },
    },
  ],
})

/**
 * One CreateFleet is authorised as CreateFleet and RunInstances on each resource it names or creates,
 * plus what EC2 checks for the template's contents: the instance role (PassRole), a `resolve:ssm:` image,
 * customer-managed EBS keys, and the spot service-linked role on an account's first spot launch. Only the
 * RunInstances check of the instance carries `ec2:InstanceMarketType` (the evaluator refuses the key on
 * CreateFleet's, as the service authorization reference lists it).
 */
const launchRequests = (): Call[] => {
  const launch = (action: string, resource: string, context?: IamRequest['context']): Call => ({
    by: REPLACER,
    request: { action, resource, ...(context ? { context } : {}) },
  })
  const tagged = requestTags(LAUNCH_TAGS)
  return [
    launch('ec2:CreateFleet', FLEET, tagged),
    launch('ec2:CreateFleet', ec2('instance/*'), tagged),
    launch('ec2:RunInstances', ec2('instance/*'), { ...tagged, 'ec2:InstanceMarketType': 'spot' }),
    launch('ec2:CreateTags', ec2('instance/*'), { 'ec2:CreateAction': 'CreateFleet', ...tagged }),
    launch('ec2:CreateTags', FLEET, { 'ec2:CreateAction': 'CreateFleet', ...tagged }),
    launch('ec2:CreateFleet', LAUNCH_TEMPLATE),
    launch('ec2:CreateFleet', ec2('subnet/subnet-0a1a1a1a1a1a1a1a1')),
    launch('ec2:CreateFleet', 'arn:aws:ec2:us-east-1::image/ami-0a1b2c3d4e5f60718'),
    launch('ec2:RunInstances', LAUNCH_TEMPLATE),
    launch('ec2:RunInstances', ec2('subnet/subnet-0a1a1a1a1a1a1a1a1')),
    launch('ec2:RunInstances', ec2('security-group/sg-0a1b2c3d4e5f60718')),
    launch('ec2:RunInstances', ec2('network-interface/*')),
    launch('ec2:RunInstances', ec2('volume/*')),
    launch('ec2:RunInstances', ec2('key-pair/web')),
    launch('ec2:RunInstances', 'arn:aws:ec2:us-east-1::image/ami-0a1b2c3d4e5f60718'),
    launch('ec2:RunInstances', 'arn:aws:ec2:us-east-1::snapshot/snap-0a1b2c3d4e5f60718'),
    launch('iam:PassRole', ROLE('web-instance'), {
      'iam:PassedToService': 'ec2.amazonaws.com',
      'iam:ResourceTag/spotswap:passable': 'true',
      'aws:ResourceTag/spotswap:passable': 'true',
    }),
    // AWS's public parameters (arn:aws:ssm:<region>::parameter/aws/service/...) have no account in their ARN,
    // which the evaluator cannot parse; test/lib/permissions.test.ts pins that grant's resources instead.
    launch('ssm:GetParameters', `arn:aws:ssm:${REGION}:${ACCOUNT}:parameter/golden/web`),
    launch('kms:CreateGrant', `arn:aws:kms:${REGION}:${ACCOUNT}:key/6d1b0f0e-0000-4000-8000-000000000003`, {
      'kms:ViaService': `ec2.${REGION}.amazonaws.com`,
      'kms:GrantIsForAWSResource': 'true',
    }),
    launch('kms:Decrypt', `arn:aws:kms:${REGION}:${ACCOUNT}:key/6d1b0f0e-0000-4000-8000-000000000003`, {
      'kms:ViaService': `ec2.${REGION}.amazonaws.com`,
    }),
    launch(
      'iam:CreateServiceLinkedRole',
      `arn:aws:iam::${ACCOUNT}:role/aws-service-role/spot.amazonaws.com/AWSServiceRoleForEC2Spot`,
      { 'iam:AWSServiceName': 'spot.amazonaws.com' },
    ),
  ]
}
