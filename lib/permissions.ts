/**
 * Least-privilege IAM for the two Lambdas, as data: each grant says what it allows, on what, under which
 * condition, and (when it needs a wildcard) why. The spotswap construct turns grants into policies and
 * the wildcard reasons into cdk-nag acknowledgements, so a reason cannot drift away from its statement.
 */
import { Aws } from 'aws-cdk-lib'
import type { GlobalConfig } from '../lambdas/core/config/config.ts'
import {
  TAG_ECS_DRAINED,
  TAG_LAUNCHED_BY,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP_ID,
} from '../lambdas/core/constants.ts'
import type { Grant } from './grant.ts'
import { launchGrants } from './launch-permissions.ts'
import { DEFAULT_PASSABLE_ROLES, type PassableRoles } from './pass-role.ts'

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
 * The IAM condition that admits exactly the groups spotswap manages (lambdas/core/config/managed.ts):
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

/** Every tag request must name its keys: a ForAllValues condition alone is true when no key is given. */
const KEYS_NAMED = { 'aws:TagKeys': 'false' } as const

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
  'autoscaling:DescribeInstanceRefreshes',
  'autoscaling:DescribeLaunchConfigurations',
  'autoscaling:DescribeLifecycleHooks',
  'autoscaling:DescribeScalingActivities',
  'ec2:DescribeInstanceTypes',
  'ec2:DescribeInstances',
  'ec2:DescribeRegions',
  // EC2's own record of an interruption (the Spot request status), for members tagged as warned.
  'ec2:DescribeSpotInstanceRequests',
  'ec2:DescribeSpotPriceHistory',
  // The zones of a group's subnets, when the owner moved the group off a member's subnet.
  'ec2:DescribeSubnets',
  // A swap retires a partner only once its replacement is healthy in the group's load balancers.
  'elasticloadbalancing:DescribeInstanceHealth',
  'elasticloadbalancing:DescribeLoadBalancers',
  'elasticloadbalancing:DescribeTargetGroups',
  'elasticloadbalancing:DescribeTargetHealth',
  'pricing:GetProducts',
  // EC2's scheduled events (retirement, stop, reboot, maintenance) of members, replaced ahead.
  'ec2:DescribeInstanceStatus',
  // Commitments a member's replacement would leave unused (COMMITMENTS=account): kept on-demand.
  'ec2:DescribeReservedInstances',
  'ec2:DescribeCapacityReservations',
]

const INTERRUPTION_READS = [
  'autoscaling:DescribeAutoScalingGroups',
  'autoscaling:DescribeAutoScalingInstances',
  'autoscaling:DescribeLifecycleHooks',
  'ec2:DescribeInstances',
  // Only while a swap's record shows a partial attach: the proof that a leaving pair's unit is the swap's.
  'autoscaling:DescribeScalingActivities',
]

/**
 * Termination protection is an instance attribute. DescribeInstanceAttribute has no condition key that
 * names the attribute (service authorization reference), so it cannot be kept from user data: it is at
 * least limited to this account's instances (SECURITY.md lists the gap).
 */
const readInstanceAttributes = (): Grant => ({
  sid: 'ReadTerminationProtection',
  actions: ['ec2:DescribeInstanceAttribute'],
  resources: [ANY_INSTANCE],
  wildcardReason:
    'instance ids are only known at run time; read-only, this account only (the attribute cannot be named in IAM)',
})

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
    conditions: {
      ...managed,
      'ForAllValues:StringLike': { 'aws:TagKeys': [SPOTSWAP_TAG_KEYS] },
      Null: KEYS_NAMED,
    },
    wildcardReason:
      'group ARNs embed a random id; aws:ResourceTag limits this to managed groups and aws:TagKeys to spotswap: tags',
  }
}

/**
 * UpdateAutoScalingGroup only to change MaxSize: every other field with a condition key must be absent
 * from the request (condition keys of UpdateAutoScalingGroup in "Actions, resources, and condition keys
 * for Amazon EC2 Auto Scaling",
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonec2autoscaling.html).
 * Fields without a key (DesiredCapacity, health checks, ...) cannot be refused here: SECURITY.md.
 */
export const UPDATE_GROUP_FIELDS_REFUSED = [
  'autoscaling:CapacityReservationIds',
  'autoscaling:CapacityReservationResourceGroupArns',
  'autoscaling:ImageId',
  'autoscaling:InstanceTypes',
  'autoscaling:LaunchConfigurationName',
  'autoscaling:LaunchTemplateVersionSpecified',
  'autoscaling:MinSize',
  'autoscaling:TargetCapacityTypes',
  'autoscaling:VPCZoneIdentifiers',
] as const

const resizeManagedGroups = (selector: GroupSelector): Grant => {
  const grant = changeManagedGroups(
    'RaiseMaxSizeOfManagedGroups',
    ['autoscaling:UpdateAutoScalingGroup'],
    selector,
  )
  return {
    ...grant,
    conditions: {
      ...grant.conditions,
      Null: {
        'autoscaling:MaxSize': 'false',
        ...Object.fromEntries(UPDATE_GROUP_FIELDS_REFUSED.map((key) => [key, 'true'])),
      },
    },
  }
}

/**
 * TerminateInstances only on a spot instance spotswap launched that is not a group member: members leave
 * through Auto Scaling (TerminateInstanceInAutoScalingGroup), so hooks and draining run. Keys per the
 * TerminateInstances row of the EC2 service authorization reference (ec2:InstanceMarketType,
 * ec2:ResourceTag/*); `aws:autoscaling:groupName` is on every member and nobody can write `aws:` tags.
 */
const terminateUnattachedLaunches = (): Grant => ({
  sid: 'TerminateUnattachedSpotLaunches',
  actions: ['ec2:TerminateInstances'],
  resources: [ANY_INSTANCE],
  conditions: {
    StringEquals: { 'ec2:InstanceMarketType': 'spot', [`ec2:ResourceTag/${TAG_LAUNCHED_BY}`]: 'true' },
    Null: {
      [`ec2:ResourceTag/${TAG_LAUNCHED_FOR_GROUP}`]: 'false',
      [`ec2:ResourceTag/${GROUP_MEMBER_TAG}`]: 'true',
    },
  },
  wildcardReason:
    'instance ids are only known at run time; the conditions limit termination to spot instances carrying spotswap’s launch tags outside any group',
})

/**
 * Tags on existing instances: adding is limited to `spotswap:` keys (markers, the swap outcome), because
 * adding `launched-for-asg` or `launched-by-autospotting` to an arbitrary instance would make it
 * terminable above. Removing is limited to the keys each role removes (`launched-for-asg` only ever
 * narrows what spotswap may do). Both must name their keys: DeleteTags without keys deletes every tag.
 */
const tagExistingInstances = (removable: readonly string[]): Grant[] => [
  {
    sid: 'TagInstancesWithSpotSwapKeys',
    actions: ['ec2:CreateTags'],
    resources: [ANY_INSTANCE],
    conditions: { 'ForAllValues:StringLike': { 'aws:TagKeys': [SPOTSWAP_TAG_KEYS] }, Null: KEYS_NAMED },
    wildcardReason: 'instance ids are only known at run time; aws:TagKeys allows only spotswap: tag keys',
  },
  {
    sid: 'UntagInstances',
    actions: ['ec2:DeleteTags'],
    resources: [ANY_INSTANCE],
    conditions: { 'ForAllValues:StringLike': { 'aws:TagKeys': [...removable] }, Null: KEYS_NAMED },
    wildcardReason: `instance ids are only known at run time; aws:TagKeys allows removing only ${removable.join(', ')}`,
  },
]

/**
 * The keys each role's code removes from instances (test/iam/removed-keys.ts reads them from the source):
 * the replacer unnames a closed swap's members, releases a pair and settles members (replacer/execute.ts);
 * the interruption handler only unmarks a doomed launch before it leaves (core/interruption). No other
 * marker may be removed: without `spotswap:joined-group`, say, a taken-out instance would look unjoined.
 */
const REPLACER_REMOVES = [TAG_SWAP_ID, TAG_LAUNCHED_FOR_GROUP, TAG_REPLACING_INSTANCE, TAG_ECS_DRAINED]
const INTERRUPTION_REMOVES = [TAG_LAUNCHED_FOR_GROUP]

/**
 * The account's Savings Plans and their rates (COMMITMENTS=account). Both actions take the `savingsplan`
 * resource type (https://docs.aws.amazon.com/service-authorization/latest/reference/list_awssavingsplans.html),
 * but the plans are listed before any of their ids is known, so no ARN can be named.
 */
const readSavingsPlans = (): Grant => ({
  sid: 'ReadSavingsPlans',
  actions: ['savingsplans:DescribeSavingsPlans', 'savingsplans:DescribeSavingsPlanRates'],
  resources: ['*'],
  wildcardReason: 'the plans are listed before their ids are known; read-only',
})

/**
 * Which groups sit behind an ECS capacity provider with managed termination protection. The action takes
 * the `capacity-provider` resource type
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonelasticcontainerservice.html),
 * so it is limited to this account's providers; which ones is only known at run time.
 */
const describeCapacityProviders = (): Grant => ({
  sid: 'ReadEcsCapacityProviders',
  actions: ['ecs:DescribeCapacityProviders'],
  resources: [arn('ecs', 'capacity-provider/*')],
  wildcardReason: 'the capacity providers are found at run time; read-only, this account only',
})

/**
 * The cluster a managed group's capacity provider is associated with and its container instances
 * (core/ecs/cluster.ts). ListClusters takes no resource type; DescribeClusters and ListContainerInstances
 * take `cluster`, DescribeContainerInstances `container-instance`
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonelasticcontainerservice.html).
 * Which clusters hold managed groups is only known at run time: this account's, read-only.
 */
const readEcsClusters = (): Grant[] => [
  {
    sid: 'ListEcsClusters',
    actions: ['ecs:ListClusters'],
    resources: ['*'],
    wildcardReason: 'ListClusters takes no resource type; read-only',
  },
  {
    sid: 'ReadEcsClusters',
    actions: ['ecs:DescribeClusters', 'ecs:ListContainerInstances', 'ecs:DescribeContainerInstances'],
    resources: [arn('ecs', 'cluster/*'), arn('ecs', 'container-instance/*/*')],
    wildcardReason: 'the clusters of managed groups are found at run time; read-only, this account only',
  },
]

/**
 * Sets a container instance of this account DRAINING, or ACTIVE again (a drain that stalled): the only ECS
 * write. It takes the `container-instance` resource type; the clusters are only known at run time.
 */
const drainEcsContainerInstances = (): Grant => ({
  sid: 'DrainEcsContainerInstances',
  actions: ['ecs:UpdateContainerInstancesState'],
  resources: [arn('ecs', 'container-instance/*/*')],
  wildcardReason: 'the clusters of managed groups are found at run time; this account only',
})

/**
 * The tasks of a cluster whose container instances a drain swap may drain, to keep one running a
 * standalone task (core/ecs/tasks.ts). ListTasks for a whole cluster names no container instance, so IAM
 * authorizes it on `*`, scoped by the `ecs:cluster` condition key (only a listing by container instance
 * takes the `container-instance` type; DescribeTasks takes `task`:
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonelasticcontainerservice.html).
 * The clusters are only known at run time. The replacer's alone: the interruption handler drains without it.
 */
const readEcsTasks = (): Grant[] => [
  {
    sid: 'ListEcsClusterTasks',
    actions: ['ecs:ListTasks'],
    resources: ['*'],
    conditions: { ArnLike: { 'ecs:cluster': arn('ecs', 'cluster/*') } },
    wildcardReason:
      "a whole cluster's listing names no resource; the ecs:cluster condition keeps it to this account's clusters; read-only",
  },
  {
    sid: 'ReadEcsTasks',
    actions: ['ecs:DescribeTasks'],
    resources: [arn('ecs', 'task/*/*')],
    wildcardReason: 'the clusters of managed groups are found at run time; read-only, this account only',
  },
]

const describeStacks = (): Grant => ({
  sid: 'ReadStackStatus',
  actions: ['cloudformation:DescribeStacks'],
  resources: [arn('cloudformation', 'stack/*/*')],
  wildcardReason:
    "a group's CloudFormation stack is found from its tags at run time; the action is read-only",
})

export interface PermissionOptions extends GroupSelector {
  /** @default DEFAULT_PASSABLE_ROLES (roles tagged spotswap:passable=true) */
  readonly passableRoles?: PassableRoles
}

/**
 * Both Lambdas sign the markers they write and verify the ones they read, with the one key (lib/marker-key.ts),
 * whose key policy names them too.
 */
export const markerKeyGrant = (keyArn: string): Grant => ({
  sid: 'SignAndVerifyMarkers',
  actions: ['kms:GenerateMac', 'kms:VerifyMac'],
  resources: [keyArn],
  conditions: { StringEquals: { 'kms:MacAlgorithm': 'HMAC_SHA_256' } },
})

/** Everything the replacer does: observe, launch spot, swap it in, restore MaxSize, clean up. */
export const replacerGrants = (options: PermissionOptions): Grant[] => [
  reads(REPLACER_READS),
  readInstanceAttributes(),
  readSavingsPlans(),
  describeStacks(),
  describeCapacityProviders(),
  ...readEcsClusters(),
  drainEcsContainerInstances(),
  ...readEcsTasks(),
  changeManagedGroups(
    'SwapInManagedGroups',
    // Never DetachInstances: a swap's members leave through TerminateInstanceInAutoScalingGroup.
    ['autoscaling:AttachInstances', 'autoscaling:TerminateInstanceInAutoScalingGroup'],
    options,
  ),
  resizeManagedGroups(options),
  tagManagedGroups(options),
  // Spot only: `ec2:InstanceMarketType` on RunInstances; CreateFleet's row carries no such key
  // (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonec2.html).
  ...launchGrants(options.passableRoles ?? DEFAULT_PASSABLE_ROLES),
  terminateUnattachedLaunches(),
  ...tagExistingInstances(REPLACER_REMOVES),
  // A member with a scheduled event kept for the on-demand minimum: desired + 1 until its successor serves.
  changeManagedGroups('RaiseDesiredAheadOfScheduledEvents', ['autoscaling:SetDesiredCapacity'], options),
]

/**
 * The interruption handler takes a doomed instance out of its group, or marks it to be replaced ahead
 * (the replacer launches and swaps; the run-request queue's send permission is granted on the queue),
 * and marks at-risk ones; it never launches.
 */
export const interruptionGrants = (selector: GroupSelector): Grant[] => [
  reads(INTERRUPTION_READS),
  readInstanceAttributes(),
  changeManagedGroups(
    'LeaveManagedGroups',
    ['autoscaling:DetachInstances', 'autoscaling:TerminateInstanceInAutoScalingGroup'],
    selector,
  ),
  // The swap record, written ahead of a decrement that takes a half-done pair away.
  tagManagedGroups(selector, ['autoscaling:CreateOrUpdateTags']),
  // A warned spot member of a group ECS manages is set DRAINING first (core/ecs/interruption-drain.ts).
  describeCapacityProviders(),
  ...readEcsClusters(),
  drainEcsContainerInstances(),
  terminateUnattachedLaunches(),
  ...tagExistingInstances(INTERRUPTION_REMOVES),
  // At a member's deadline, the replacement of a swap that died before its attach (core/interruption/deadline-attach.ts).
  changeManagedGroups('AttachAtDeadline', ['autoscaling:AttachInstances'], selector),
]
