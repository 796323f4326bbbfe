/**
 * What the replacer needs to launch a spot replacement with an instant EC2 Fleet from a group's own launch
 * template, and nothing more. Condition keys per resource type are the ones AWS lists in "Actions,
 * resources, and condition keys for Amazon EC2"
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonec2.html).
 */
import { Aws } from 'aws-cdk-lib'
import {
  TAG_LAUNCHED_BY,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_REPLACING_INSTANCE,
  TAG_TEMPORARY_TEMPLATE,
} from '../lambdas/core/constants.ts'
import type { Grant } from './grant.ts'
import { type PassableRoles, passRoleScope } from './pass-role.ts'

const ec2Arn = (resource: string) => `arn:${Aws.PARTITION}:ec2:*:${Aws.ACCOUNT_ID}:${resource}`

/**
 * The request tags every launch carries (lambdas/core/plan/launches.ts launchTags): the fleet and its instance
 * may be created only with them, so spotswap cannot start an instance nobody could trace back to it.
 */
export const LAUNCH_REQUEST_TAGS = {
  StringEquals: { [`aws:RequestTag/${TAG_LAUNCHED_BY}`]: 'true' },
  Null: {
    [`aws:RequestTag/${TAG_LAUNCHED_FOR_GROUP}`]: 'false',
    [`aws:RequestTag/${TAG_REPLACING_INSTANCE}`]: 'false',
  },
} as const

/**
 * Every other resource type RunInstances and CreateFleet name (service authorization reference), which
 * the launch uses but does not create with spotswap's tags: volumes and network interfaces take their tags
 * from the group's template, and the rest already exist. Instances and fleets are left out on purpose:
 * they are allowed only with the request tags above.
 */
const TEMPLATE_RESOURCE_TYPES = [
  'capacity-reservation',
  'elastic-gpu',
  'key-pair',
  'launch-template',
  'network-interface',
  'placement-group',
  'secondary-interface',
  'secondary-subnet',
  'security-group',
  'spot-instances-request',
  'subnet',
  'volume',
] as const

const TEMPLATE_REASON =
  "CreateFleet launches from each group's own launch template, so the subnets, security groups, key pairs, volumes and AMIs it references are only known at run time; limited to this account's resources of the types a launch uses, plus public/shared AMIs and snapshots"

/**
 * Spot only. CreateFleet's row in the service authorization reference lists no `ec2:InstanceMarketType`
 * for `instance` (RunInstances's row does), so the market cannot be a condition of CreateFleet itself:
 * an instant fleet is also authorized as RunInstances on the instances it launches, and that check
 * carries the market type
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonec2.html,
 * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-fleet-prerequisites.html#ec2-fleet-iam-users).
 */
const ONLY_SPOT = { 'ec2:InstanceMarketType': 'spot' } as const

const launch = (): Grant[] => [
  {
    sid: 'CreateTaggedFleets',
    actions: ['ec2:CreateFleet'],
    resources: [ec2Arn('fleet/*'), ec2Arn('instance/*')],
    conditions: LAUNCH_REQUEST_TAGS,
    wildcardReason:
      'fleet and instance ids do not exist before the launch; the aws:RequestTag conditions require spotswap’s launch tags on both',
  },
  {
    sid: 'LaunchTaggedSpotInstances',
    actions: ['ec2:RunInstances'],
    resources: [ec2Arn('instance/*')],
    conditions: {
      ...LAUNCH_REQUEST_TAGS,
      StringEquals: { ...LAUNCH_REQUEST_TAGS.StringEquals, ...ONLY_SPOT },
    },
    wildcardReason:
      'instance ids do not exist before the launch; only spot instances, and only with spotswap’s launch tags (aws:RequestTag)',
  },
  {
    sid: 'LaunchFromGroupTemplates',
    actions: ['ec2:CreateFleet', 'ec2:RunInstances'],
    resources: [
      ...TEMPLATE_RESOURCE_TYPES.map((type) => ec2Arn(`${type}/*`)),
      `arn:${Aws.PARTITION}:ec2:*::image/*`,
      `arn:${Aws.PARTITION}:ec2:*::snapshot/*`,
    ],
    wildcardReason: TEMPLATE_REASON,
  },
  {
    sid: 'TagAtLaunch',
    actions: ['ec2:CreateTags'],
    resources: [ec2Arn('*')],
    conditions: {
      StringEquals: { 'ec2:CreateAction': ['CreateFleet', 'RunInstances', 'CreateLaunchTemplate'] },
    },
    wildcardReason:
      'tags are written on resources created by the same launch; ec2:CreateAction forbids tagging anything that already exists',
  },
]

/**
 * Launch-configuration groups get a temporary `spotswap-` template per launch, tagged as it is created;
 * only templates carrying that tag may be deleted, so no template spotswap did not make can be.
 */
const temporaryTemplates = (): Grant[] => {
  const reason =
    'temporary launch templates get generated ids; the tag condition limits this to templates spotswap created and tagged'
  return [
    {
      sid: 'CreateTaggedTemporaryTemplates',
      actions: ['ec2:CreateLaunchTemplate'],
      resources: [ec2Arn('launch-template/*')],
      conditions: { Null: { [`aws:RequestTag/${TAG_TEMPORARY_TEMPLATE}`]: 'false' } },
      wildcardReason: reason,
    },
    {
      sid: 'DeleteTemporaryTemplates',
      actions: ['ec2:DeleteLaunchTemplate'],
      resources: [ec2Arn('launch-template/*')],
      conditions: { Null: { [`aws:ResourceTag/${TAG_TEMPORARY_TEMPLATE}`]: 'false' } },
      wildcardReason: reason,
    },
  ]
}

const passRole = (roles: PassableRoles): Grant => {
  const scope = passRoleScope(roles)
  return {
    sid: 'PassInstanceRolesToEc2',
    actions: ['iam:PassRole'],
    resources: scope.resources,
    conditions: scope.conditions,
    wildcardReason:
      "the instance profile role comes from each group's launch template; passable only to EC2, and only roles the operator marked passable (unless configured wider, with a synth warning)",
  }
}

/**
 * A launch template with customer-managed-key encrypted volumes needs the caller to use the key, via EC2
 * (kms:ViaService); a grant only for an AWS resource, which is how EC2 asks for one
 * (https://docs.aws.amazon.com/kms/latest/developerguide/conditions-kms.html#conditions-kms-grant-is-for-aws-resource).
 */
const volumeKeys = (): Grant[] => {
  const keys = [`arn:${Aws.PARTITION}:kms:*:${Aws.ACCOUNT_ID}:key/*`]
  const reason =
    "EBS keys come from each group's launch template; kms:ViaService allows using them only through EC2 for the volumes it creates"
  const viaEc2 = { StringLike: { 'kms:ViaService': 'ec2.*.amazonaws.com' } }
  return [
    {
      sid: 'UseVolumeKeysThroughEc2',
      actions: ['kms:Decrypt', 'kms:DescribeKey', 'kms:GenerateDataKeyWithoutPlaintext'],
      resources: keys,
      conditions: viaEc2,
      wildcardReason: reason,
    },
    {
      sid: 'GrantVolumeKeysToEc2',
      actions: ['kms:CreateGrant'],
      resources: keys,
      conditions: { ...viaEc2, Bool: { 'kms:GrantIsForAWSResource': 'true' } },
      wildcardReason: reason,
    },
  ]
}

/**
 * A template whose image is `resolve:ssm:<parameter>` is resolved by EC2 at launch with the caller's
 * ssm:GetParameters permission
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/using-systems-manager-parameters.html): this
 * account's parameters and AWS's public ones (`/aws/service/...`, e.g. the latest Amazon Linux image).
 * No kms:Decrypt through SSM, so SecureString parameters stay unreadable.
 */
const imageParameters = (): Grant => ({
  sid: 'ResolveImageParameters',
  actions: ['ssm:GetParameters', 'ssm:GetParameter'],
  resources: [
    `arn:${Aws.PARTITION}:ssm:*:${Aws.ACCOUNT_ID}:parameter/*`,
    `arn:${Aws.PARTITION}:ssm:*::parameter/aws/service/*`,
  ],
  wildcardReason:
    "the parameter comes from each group's launch template (resolve:ssm:); read-only, this account's and AWS's public parameters, and never decrypted",
})

export const launchGrants = (roles: PassableRoles): Grant[] => [
  ...launch(),
  ...temporaryTemplates(),
  passRole(roles),
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
  ...volumeKeys(),
  imageParameters(),
]
