/**
 * CreateFleet only takes launch templates, so a launch-configuration group gets a temporary template
 * with the same settings for the duration of one launch, deleted afterwards whatever happened.
 */
import { createHash } from 'node:crypto'
import type {
  LaunchConfiguration,
  BlockDeviceMapping as LcBlockDeviceMapping,
} from '@aws-sdk/client-auto-scaling'
import type {
  _InstanceType,
  FleetLaunchTemplateSpecificationRequest,
  LaunchTemplateBlockDeviceMappingRequest,
  LaunchTemplateHttpTokensState,
  LaunchTemplateInstanceMetadataEndpointState,
  RequestLaunchTemplateData,
  Tenancy,
  VolumeType,
} from '@aws-sdk/client-ec2'
import { TAG_TEMPORARY_TEMPLATE } from '../core/constants.ts'
import type { AwsContext } from './context.ts'
import { errorCode, errorMessage, LaunchConfigurationNotFoundError } from './errors.ts'

const TEMPLATE_NAME_PREFIX = 'spotswap-'
const TEMPLATE_NAME_MAX = 128
const HASH_LENGTH = 8

/**
 * `spotswap-<group>-<hash of the client token>`: deterministic, so a template leaked by a crashed run is
 * found (and replaced) by the retry of the same launch; group names are trimmed to the allowed alphabet.
 */
export const temporaryTemplateName = (groupName: string, clientToken: string): string => {
  const hash = createHash('sha256').update(clientToken).digest('hex').slice(0, HASH_LENGTH)
  const room = TEMPLATE_NAME_MAX - TEMPLATE_NAME_PREFIX.length - HASH_LENGTH - 1
  const safeGroup = groupName.replace(/[^a-zA-Z0-9().\-/_]/g, '-').slice(0, room)
  return `${TEMPLATE_NAME_PREFIX}${safeGroup}-${hash}`
}

const toBlockDeviceMapping = (mapping: LcBlockDeviceMapping): LaunchTemplateBlockDeviceMappingRequest => ({
  DeviceName: mapping.DeviceName,
  VirtualName: mapping.VirtualName || undefined,
  Ebs: mapping.Ebs && {
    SnapshotId: mapping.Ebs.SnapshotId || undefined,
    VolumeSize: mapping.Ebs.VolumeSize,
    VolumeType: mapping.Ebs.VolumeType as VolumeType | undefined,
    DeleteOnTermination: mapping.Ebs.DeleteOnTermination,
    Iops: mapping.Ebs.Iops,
    Encrypted: mapping.Ebs.Encrypted,
    Throughput: mapping.Ebs.Throughput,
  },
  // A launch template suppresses a device with an empty string where a launch configuration uses `true`.
  NoDevice: mapping.NoDevice ? '' : undefined,
})

const nonEmpty = <T>(items: readonly T[]): T[] | undefined => (items.length > 0 ? [...items] : undefined)

/**
 * Every field of a launch configuration (DescribeLaunchConfigurations' LaunchConfiguration, which holds
 * CreateLaunchConfiguration's settings: https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_CreateLaunchConfiguration.html)
 * and where it goes in the temporary template's data
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_RequestLaunchTemplateData.html), or why it has
 * no place there. Typed by the SDK's field list, so a field AWS adds fails to compile until it is decided.
 */
export const LAUNCH_CONFIGURATION_FIELDS: Readonly<
  Record<keyof LaunchConfiguration, { readonly template: string } | { readonly none: string }>
> = {
  ImageId: { template: 'ImageId' },
  InstanceType: { template: 'InstanceType (each fleet override names its own type)' },
  KeyName: { template: 'KeyName' },
  SecurityGroups: {
    template: 'SecurityGroupIds (sg-…) and SecurityGroups (names), or NetworkInterfaces[0].Groups',
  },
  UserData: { template: 'UserData (base64 in both)' },
  KernelId: { template: 'KernelId' },
  RamdiskId: { template: 'RamDiskId' },
  BlockDeviceMappings: { template: 'BlockDeviceMappings (NoDevice true becomes an empty string)' },
  InstanceMonitoring: { template: 'Monitoring.Enabled' },
  IamInstanceProfile: { template: 'IamInstanceProfile.Arn (an ARN) or IamInstanceProfile.Name' },
  EbsOptimized: { template: 'EbsOptimized' },
  AssociatePublicIpAddress: { template: 'NetworkInterfaces[0].AssociatePublicIpAddress' },
  // A dedicated group must not get shared-tenancy spot instances; spot supports `dedicated`, not `host`
  // (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_SpotPlacement.html).
  PlacementTenancy: { template: 'Placement.Tenancy' },
  MetadataOptions: {
    template: 'MetadataOptions.HttpTokens, .HttpPutResponseHopLimit, .HttpEndpoint',
  },
  SpotPrice: {
    none: 'a maximum spot price; the fleet launches spot capped at the on-demand price, and a template for a fleet takes no market options',
  },
  ClassicLinkVPCId: { none: 'EC2-Classic ClassicLink, retired; instances launch into the group subnets' },
  ClassicLinkVPCSecurityGroups: { none: 'EC2-Classic ClassicLink, retired' },
  LaunchConfigurationName: { none: 'the configuration itself; the template gets its own name' },
  LaunchConfigurationARN: { none: 'the configuration itself' },
  CreatedTime: { none: 'when the configuration was made' },
}

/** The launch configuration's settings as launch template data. UserData is already base64 in both. */
export const launchTemplateData = (lc: LaunchConfiguration): RequestLaunchTemplateData => {
  const securityGroups = lc.SecurityGroups ?? []
  const groupIds = securityGroups.filter((group) => group.startsWith('sg-'))
  const groupNames = securityGroups.filter((group) => !group.startsWith('sg-'))
  const profile = lc.IamInstanceProfile || undefined
  const metadata = lc.MetadataOptions
  const network =
    lc.AssociatePublicIpAddress === undefined
      ? { SecurityGroupIds: nonEmpty(groupIds), SecurityGroups: nonEmpty(groupNames) }
      : // The public-IP choice only exists on a network interface, and then the groups must move there too.
        {
          NetworkInterfaces: [
            {
              DeviceIndex: 0,
              AssociatePublicIpAddress: lc.AssociatePublicIpAddress,
              Groups: nonEmpty(groupIds),
            },
          ],
        }
  return {
    ImageId: lc.ImageId,
    InstanceType: (lc.InstanceType || undefined) as _InstanceType | undefined,
    KeyName: lc.KeyName || undefined,
    KernelId: lc.KernelId || undefined,
    RamDiskId: lc.RamdiskId || undefined,
    UserData: lc.UserData || undefined,
    IamInstanceProfile:
      profile === undefined ? undefined : profile.startsWith('arn:') ? { Arn: profile } : { Name: profile },
    BlockDeviceMappings: nonEmpty((lc.BlockDeviceMappings ?? []).map(toBlockDeviceMapping)),
    EbsOptimized: lc.EbsOptimized,
    Monitoring: lc.InstanceMonitoring && { Enabled: lc.InstanceMonitoring.Enabled },
    Placement: lc.PlacementTenancy ? { Tenancy: lc.PlacementTenancy as Tenancy } : undefined,
    MetadataOptions: metadata && {
      HttpTokens: metadata.HttpTokens as LaunchTemplateHttpTokensState | undefined,
      HttpPutResponseHopLimit: metadata.HttpPutResponseHopLimit,
      HttpEndpoint: metadata.HttpEndpoint as LaunchTemplateInstanceMetadataEndpointState | undefined,
    },
    ...network,
  }
}

const describeLaunchConfiguration = async (ctx: AwsContext, name: string): Promise<LaunchConfiguration> => {
  const response = await ctx.call('autoscaling:DescribeLaunchConfigurations', () =>
    ctx.autoScaling.describeLaunchConfigurations({ LaunchConfigurationNames: [name] }),
  )
  const lc = response.LaunchConfigurations?.[0]
  if (lc === undefined) throw new LaunchConfigurationNotFoundError(name)
  return lc
}

/**
 * Tagged as it is created: the replacer's role may create a template only with this tag and delete only
 * templates that carry it, so it can never delete a template it did not make.
 */
const createTemplate = async (
  ctx: AwsContext,
  groupName: string,
  name: string,
  data: RequestLaunchTemplateData,
): Promise<string> => {
  const response = await ctx.call('ec2:CreateLaunchTemplate', () =>
    ctx.ec2.createLaunchTemplate({
      LaunchTemplateName: name,
      LaunchTemplateData: data,
      TagSpecifications: [
        { ResourceType: 'launch-template', Tags: [{ Key: TAG_TEMPORARY_TEMPLATE, Value: groupName }] },
      ],
    }),
  )
  const id = response.LaunchTemplate?.LaunchTemplateId
  if (id === undefined) throw new Error(`CreateLaunchTemplate returned no id for ${name}`)
  return id
}

const deleteTemplate = async (
  ctx: AwsContext,
  target: { LaunchTemplateId?: string; LaunchTemplateName?: string },
) => {
  await ctx.call('ec2:DeleteLaunchTemplate', () => ctx.ec2.deleteLaunchTemplate(target))
}

/**
 * Creates the template, replacing one left behind by a crashed run of the same launch. A template of that
 * name that spotswap did not tag cannot be deleted (the role refuses): the launch then fails, and the next
 * attempt has another token, so another name.
 */
const createReplacingLeftover = async (
  ctx: AwsContext,
  groupName: string,
  name: string,
  data: RequestLaunchTemplateData,
) => {
  try {
    return await createTemplate(ctx, groupName, name, data)
  } catch (error) {
    if (errorCode(error) !== 'InvalidLaunchTemplateName.AlreadyExistsException') throw error
    await deleteTemplate(ctx, { LaunchTemplateName: name })
    return createTemplate(ctx, groupName, name, data)
  }
}

/**
 * Runs `launch` with a temporary template built from the group's launch configuration and deletes the
 * template afterwards. A failed delete is logged, never thrown: it must not hide the launch's outcome.
 */
export const withTemporaryTemplate = async <T>(
  ctx: AwsContext,
  groupName: string,
  launchConfigurationName: string,
  clientToken: string,
  launch: (template: FleetLaunchTemplateSpecificationRequest) => Promise<T>,
): Promise<T> => {
  const lc = await describeLaunchConfiguration(ctx, launchConfigurationName)
  const name = temporaryTemplateName(groupName, clientToken)
  const templateId = await createReplacingLeftover(ctx, groupName, name, launchTemplateData(lc))
  try {
    return await launch({ LaunchTemplateId: templateId, Version: '$Latest' })
  } finally {
    await deleteTemplate(ctx, { LaunchTemplateId: templateId }).catch((error: unknown) =>
      ctx.logger.warn('Could not delete a temporary launch template', {
        region: ctx.region,
        group: groupName,
        launchTemplateId: templateId,
        launchTemplateName: name,
        error: errorCode(error),
        detail: errorMessage(error),
      }),
    )
  }
}
