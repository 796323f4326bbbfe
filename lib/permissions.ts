/**
 * Least-privilege IAM for the two Lambdas, as data: each grant says what it allows, on what, under which
 * condition, and (when it needs a wildcard) why. The spotswap construct turns grants into policies and
 * the wildcard reasons into cdk-nag acknowledgements, so a reason cannot drift away from its statement.
 */
import { Aws } from 'aws-cdk-lib'
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam'
import type { GlobalConfig } from '../lambdas/core/config.ts'
import { TAG_LAUNCHED_BY, TAG_LAUNCHED_FOR_GROUP, TAG_REPLACING_INSTANCE } from '../lambdas/core/constants.ts'

export interface Grant {
  /** Statement id; also names the grant in tests and acknowledgements. */
  readonly sid: string
  readonly actions: readonly string[]
  readonly resources: readonly string[]
  readonly conditions?: Readonly<Record<string, Readonly<Record<string, string | readonly string[]>>>>
  /** Why a wildcard action or resource is unavoidable; required when the grant has one. */
  readonly wildcardReason?: string
}

export type GroupSelector = Pick<GlobalConfig, 'tagFilters' | 'tagFilteringMode'>

/** Every tag key spotswap writes on an existing instance or group starts with this prefix. */
const SPOTSWAP_TAG_KEYS = 'spotswap:*'
/** The Auto Scaling tag on every group member; `aws:` tags cannot be set by users or by spotswap. */
const GROUP_MEMBER_TAG = 'aws:autoscaling:groupName'

const arn = (service: string, resource: string, account: string = Aws.ACCOUNT_ID) =>
  `arn:${Aws.PARTITION}:${service}:*:${account}:${resource}`

const ANY_GROUP = arn('autoscaling', 'autoScalingGroup:*:autoScalingGroupName/*')
const ANY_INSTANCE = arn('ec2', 'instance/*')

/**
 * The IAM condition that admits exactly the groups spotswap manages (lambdas/core/managed.ts):
 * - opt-in: every filter must match (matchesAll), so every filter becomes a condition on the group's tag;
 *   globbed values use StringLike, whose `*` and `?` mean what they mean in TAG_FILTERS. This is
 *   narrower than conditioning on the first filter alone and never narrower than the Lambda.
 * - opt-out: a group is managed unless it sets a filter key to `false` (any case). A negated operator is
 *   true when the tag is absent, so untagged groups stay manageable and opted-out ones are refused.
 */
export const managedGroupCondition = (selector: GroupSelector): NonNullable<Grant['conditions']> => {
  const tagKey = (key: string) => `aws:ResourceTag/${key}`
  if (selector.tagFilteringMode === 'opt-out') {
    return {
      StringNotEqualsIgnoreCase: Object.fromEntries(selector.tagFilters.map((f) => [tagKey(f.key), 'false'])),
    }
  }
  const isGlob = (value: string) => /[*?]/.test(value)
  const exact = selector.tagFilters.filter((f) => !isGlob(f.value))
  const globbed = selector.tagFilters.filter((f) => isGlob(f.value))
  return {
    ...(exact.length > 0
      ? { StringEquals: Object.fromEntries(exact.map((f) => [tagKey(f.key), f.value])) }
      : {}),
    ...(globbed.length > 0
      ? { StringLike: Object.fromEntries(globbed.map((f) => [tagKey(f.key), f.value])) }
      : {}),
  }
}

const DESCRIBE_REASON =
  'Describe*, DescribeSpotPriceHistory and pricing:GetProducts do not support resource-level permissions; they are read-only'

/** The reads each Lambda needs; every one is named by an adapter call in lambdas/aws (a test checks). */
const reads = (actions: readonly string[]): Grant => ({
  sid: 'ReadFleet',
  actions,
  resources: ['*'],
  wildcardReason: DESCRIBE_REASON,
})

const REPLACER_READS = [
  'autoscaling:DescribeAutoScalingGroups',
  'autoscaling:DescribeAutoScalingInstances',
  'autoscaling:DescribeLaunchConfigurations',
  'autoscaling:DescribeLifecycleHooks',
  'autoscaling:DescribeScalingActivities',
  'ec2:DescribeInstanceAttribute',
  'ec2:DescribeInstanceTypes',
  'ec2:DescribeInstances',
  'ec2:DescribeRegions',
  'ec2:DescribeSpotPriceHistory',
  // The zones of a group's subnets, when the owner moved the group off a member's subnet.
  'ec2:DescribeSubnets',
  // A swap retires a partner only once its replacement is healthy in the group's load balancers.
  'elasticloadbalancing:DescribeInstanceHealth',
  'elasticloadbalancing:DescribeLoadBalancers',
  'elasticloadbalancing:DescribeTargetGroups',
  'elasticloadbalancing:DescribeTargetHealth',
  'pricing:GetProducts',
]

const INTERRUPTION_READS = [
  'autoscaling:DescribeAutoScalingGroups',
  'autoscaling:DescribeAutoScalingInstances',
  'autoscaling:DescribeLifecycleHooks',
  'ec2:DescribeInstanceAttribute',
  'ec2:DescribeInstances',
]

/** Group mutations, each only on a group that carries the enabling tag(s). */
const changeManagedGroups = (sid: string, actions: readonly string[], selector: GroupSelector): Grant => ({
  sid,
  actions,
  resources: [ANY_GROUP],
  conditions: managedGroupCondition(selector),
  wildcardReason:
    'group ARNs embed a random id and managed groups are found at run time; the aws:ResourceTag condition restricts every action to groups carrying the enabling tag',
})

/**
 * The replacer writes only its own `spotswap:` tags on groups (the saved MaxSize); it may never set the
 * enabling tag itself, or it could widen its own reach.
 */
const tagManagedGroups = (
  selector: GroupSelector,
  actions: readonly string[] = ['autoscaling:CreateOrUpdateTags', 'autoscaling:DeleteTags'],
): Grant => {
  const managed = managedGroupCondition(selector)
  return {
    sid: 'TagManagedGroups',
    actions,
    resources: [ANY_GROUP],
    conditions: { ...managed, 'ForAllValues:StringLike': { 'aws:TagKeys': [SPOTSWAP_TAG_KEYS] } },
    wildcardReason:
      'group ARNs embed a random id; aws:ResourceTag limits this to managed groups and aws:TagKeys to spotswap: tags',
  }
}

/**
 * TerminateInstances only on instances spotswap launched or that belong to a group. IAM ORs statements,
 * not conditions, so each tag is its own statement. `launched-by-autospotting` stays on a spot instance
 * after the interruption handler removes `launched-for-asg`, which is when it detaches and terminates it.
 */
const terminateTaggedInstances = (): Grant[] => {
  const reason =
    'instance ids are only known at run time; the tag condition limits termination to instances spotswap launched or group members'
  return [
    {
      sid: 'TerminateInstancesLaunchedForGroup',
      actions: ['ec2:TerminateInstances'],
      resources: [ANY_INSTANCE],
      conditions: { Null: { [`ec2:ResourceTag/${TAG_LAUNCHED_FOR_GROUP}`]: 'false' } },
      wildcardReason: reason,
    },
    {
      sid: 'TerminateInstancesLaunchedBySpotSwap',
      actions: ['ec2:TerminateInstances'],
      resources: [ANY_INSTANCE],
      conditions: { Null: { [`ec2:ResourceTag/${TAG_LAUNCHED_BY}`]: 'false' } },
      wildcardReason: reason,
    },
    {
      sid: 'TerminateGroupMembers',
      actions: ['ec2:TerminateInstances'],
      resources: [ANY_INSTANCE],
      conditions: { Null: { [`aws:ResourceTag/${GROUP_MEMBER_TAG}`]: 'false' } },
      wildcardReason: reason,
    },
  ]
}

/**
 * Tags on existing instances: adding is limited to `spotswap:` keys (the rebalance marker), because
 * adding `launched-for-asg` or `launched-by-autospotting` to an arbitrary instance would make it
 * terminable above. Removing `launched-for-asg` only ever narrows what spotswap may do.
 */
const tagExistingInstances = (): Grant[] => [
  {
    sid: 'TagInstancesWithSpotSwapKeys',
    actions: ['ec2:CreateTags'],
    resources: [ANY_INSTANCE],
    conditions: { 'ForAllValues:StringLike': { 'aws:TagKeys': [SPOTSWAP_TAG_KEYS] } },
    wildcardReason: 'instance ids are only known at run time; aws:TagKeys allows only spotswap: tag keys',
  },
  {
    sid: 'UntagInstances',
    actions: ['ec2:DeleteTags'],
    resources: [ANY_INSTANCE],
    conditions: {
      'ForAllValues:StringLike': {
        'aws:TagKeys': [SPOTSWAP_TAG_KEYS, TAG_LAUNCHED_FOR_GROUP, TAG_REPLACING_INSTANCE],
      },
    },
    wildcardReason:
      'instance ids are only known at run time; aws:TagKeys allows removing only spotswap: tags, launched-for-asg and launched-for-replacing-instance',
  },
]

/**
 * Launching a spot replacement with an instant EC2 Fleet from the group's own launch template. The fleet
 * touches many resource types (instance, volume, network interface, subnet, security group, template,
 * key pair, fleet, spot request); they are all in this account, except AMIs and snapshots, which may be
 * public or shared. Tags can only be written as part of a launch (ec2:CreateAction).
 */
const launchSpot = (): Grant[] => [
  {
    sid: 'LaunchSpotReplacements',
    actions: ['ec2:CreateFleet', 'ec2:RunInstances'],
    resources: [
      arn('ec2', '*'),
      `arn:${Aws.PARTITION}:ec2:*::image/*`,
      `arn:${Aws.PARTITION}:ec2:*::snapshot/*`,
    ],
    wildcardReason:
      "CreateFleet launches from each group's own launch template, so the subnets, security groups, key pairs and AMIs it references are only known at run time; limited to this account plus public/shared AMIs and snapshots",
  },
  {
    sid: 'TagAtLaunch',
    actions: ['ec2:CreateTags'],
    resources: [arn('ec2', '*')],
    conditions: {
      StringEquals: { 'ec2:CreateAction': ['CreateFleet', 'RunInstances', 'CreateLaunchTemplate'] },
    },
    wildcardReason:
      'tags are written on resources created by the same launch; ec2:CreateAction forbids tagging anything that already exists',
  },
  {
    // Launch-configuration groups get a temporary `spotswap-` template per launch. IAM cannot scope by
    // template name (template ARNs carry the generated id), so this is limited to the account.
    sid: 'TemporaryLaunchTemplates',
    actions: ['ec2:CreateLaunchTemplate', 'ec2:DeleteLaunchTemplate'],
    resources: [arn('ec2', 'launch-template/*')],
    wildcardReason:
      'temporary spotswap- launch templates get generated ids; template ARNs cannot be scoped by name prefix',
  },
  {
    sid: 'PassInstanceRolesToEc2',
    actions: ['iam:PassRole'],
    resources: [`arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/*`],
    conditions: { StringEquals: { 'iam:PassedToService': 'ec2.amazonaws.com' } },
    wildcardReason:
      "the instance profile role comes from each group's launch template; iam:PassedToService restricts passing to EC2 instances",
  },
  {
    // The first spot launch in an account creates EC2's spot service-linked role on the caller's behalf.
    // (An instant fleet does not need the EC2 Fleet role, so that one is not allowed.)
    sid: 'CreateSpotServiceLinkedRole',
    actions: ['iam:CreateServiceLinkedRole'],
    resources: [
      `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/aws-service-role/spot.amazonaws.com/AWSServiceRoleForEC2Spot`,
    ],
    conditions: { StringEquals: { 'iam:AWSServiceName': 'spot.amazonaws.com' } },
  },
  {
    // A launch template with customer-managed-key encrypted volumes needs the caller to use the key, via EC2.
    sid: 'UseVolumeKeysThroughEc2',
    actions: ['kms:CreateGrant', 'kms:Decrypt', 'kms:DescribeKey', 'kms:GenerateDataKeyWithoutPlaintext'],
    resources: [arn('kms', 'key/*')],
    conditions: { StringLike: { 'kms:ViaService': 'ec2.*.amazonaws.com' } },
    wildcardReason:
      "EBS keys come from each group's launch template; kms:ViaService allows using them only through EC2 for the volumes it creates",
  },
]

const describeStacks = (): Grant => ({
  sid: 'ReadStackStatus',
  actions: ['cloudformation:DescribeStacks'],
  resources: [arn('cloudformation', 'stack/*/*')],
  wildcardReason:
    "a group's CloudFormation stack is found from its tags at run time; the action is read-only",
})

/** Everything the replacer does: observe, launch spot, swap it in, restore MaxSize, clean up. */
export const replacerGrants = (selector: GroupSelector): Grant[] => [
  reads(REPLACER_READS),
  describeStacks(),
  changeManagedGroups(
    'SwapInManagedGroups',
    [
      'autoscaling:AttachInstances',
      'autoscaling:DetachInstances',
      'autoscaling:TerminateInstanceInAutoScalingGroup',
      'autoscaling:UpdateAutoScalingGroup',
    ],
    selector,
  ),
  tagManagedGroups(selector),
  ...launchSpot(),
  ...terminateTaggedInstances(),
  ...tagExistingInstances(),
]

/**
 * The interruption handler takes a doomed instance out of its group, or marks it to be replaced ahead
 * (the replacer launches and swaps; the run-request queue's send permission is granted on the queue),
 * and marks at-risk ones; it never launches.
 */
export const interruptionGrants = (selector: GroupSelector): Grant[] => [
  reads(INTERRUPTION_READS),
  changeManagedGroups(
    'LeaveManagedGroups',
    ['autoscaling:DetachInstances', 'autoscaling:TerminateInstanceInAutoScalingGroup'],
    selector,
  ),
  // The swap record, written ahead of a decrement that takes a half-done pair away.
  tagManagedGroups(selector, ['autoscaling:CreateOrUpdateTags']),
  ...terminateTaggedInstances(),
  ...tagExistingInstances(),
]

export const toStatement = (grant: Grant): PolicyStatement =>
  new PolicyStatement({
    sid: grant.sid,
    effect: Effect.ALLOW,
    actions: [...grant.actions],
    resources: [...grant.resources],
    ...(grant.conditions ? { conditions: grant.conditions as Record<string, Record<string, unknown>> } : {}),
  })
