import { DescribeLaunchConfigurationsCommand, type LaunchConfiguration } from '@aws-sdk/client-auto-scaling'
import {
  CreateFleetCommand,
  CreateLaunchTemplateCommand,
  DeleteLaunchTemplateCommand,
} from '@aws-sdk/client-ec2'
import { beforeEach, describe, expect, it } from 'vitest'
import { LaunchConfigurationNotFoundError } from '../../lambdas/aws/errors.ts'
import {
  LAUNCH_CONFIGURATION_FIELDS,
  launchTemplateData,
  temporaryTemplateName,
} from '../../lambdas/aws/launch-configuration.ts'
import type { SpotLaunchRequest } from '../../lambdas/core/port.ts'
import { autoScalingMock, awsError, ec2Mock, resetMocks, testAdapter } from './support.ts'

beforeEach(resetMocks)

/** As DescribeLaunchConfigurations returns it: empty strings for unset kernel, ramdisk and key. */
const legacyLc: LaunchConfiguration = {
  LaunchConfigurationName: 'legacy-lc',
  LaunchConfigurationARN:
    'arn:aws:autoscaling:eu-west-1:123456789012:launchConfiguration:1c2d:launchConfigurationName/legacy-lc',
  ImageId: 'ami-0d64bb532e0502c46',
  KeyName: '',
  SecurityGroups: ['sg-0123456789abcdef0'],
  ClassicLinkVPCSecurityGroups: [],
  UserData: 'IyEvYmluL2Jhc2gKZWNobyBoZWxsbwo=',
  InstanceType: 'm5.large',
  KernelId: '',
  RamdiskId: '',
  BlockDeviceMappings: [
    {
      DeviceName: '/dev/xvda',
      Ebs: { VolumeSize: 30, VolumeType: 'gp3', DeleteOnTermination: true, Encrypted: true },
    },
    { DeviceName: '/dev/sdb', NoDevice: true },
  ],
  InstanceMonitoring: { Enabled: false },
  IamInstanceProfile: 'web-instance-profile',
  CreatedTime: new Date('2021-06-01T12:00:00Z'),
  EbsOptimized: true,
  MetadataOptions: { HttpTokens: 'required', HttpPutResponseHopLimit: 2, HttpEndpoint: 'enabled' },
}

const request: SpotLaunchRequest = {
  groupName: 'legacy web',
  launchTemplate: undefined,
  launchConfigurationName: 'legacy-lc',
  overrides: [
    { instanceType: 't3.large', subnetId: 'subnet-0a1a1a1a1a1a1a1a1', zone: 'eu-west-1a', priority: 0 },
  ],
  allocationStrategy: 'price-capacity-optimized',
  tags: { 'launched-for-asg': 'legacy web' },
  clientToken: 'spotswap-legacy-i-0aaa1111bbbb2222c-1',
}

const templateName = temporaryTemplateName(request.groupName, request.clientToken)

const givenLaunchConfiguration = () => {
  autoScalingMock
    .on(DescribeLaunchConfigurationsCommand, { LaunchConfigurationNames: ['legacy-lc'] })
    .resolves({ LaunchConfigurations: [legacyLc] })
  ec2Mock
    .on(CreateLaunchTemplateCommand)
    .resolves({
      LaunchTemplate: { LaunchTemplateId: 'lt-0temporary000001', LaunchTemplateName: templateName },
    })
    .on(DeleteLaunchTemplateCommand)
    .resolves({})
}

describe('temporaryTemplateName', () => {
  it('is spotswap-<group>-<8 hex of the token>, limited to the characters templates allow', () => {
    expect(templateName).toMatch(/^spotswap-legacy-web-[0-9a-f]{8}$/)
    expect(temporaryTemplateName(request.groupName, request.clientToken)).toBe(templateName)
    expect(temporaryTemplateName(request.groupName, 'another token')).not.toBe(templateName)
    expect(temporaryTemplateName('x'.repeat(300), 't')).toHaveLength(128)
  })
})

/**
 * Each launch-configuration field: a value set on a bare configuration, and what it becomes in the template
 * data (undefined: nothing, for fields with no launch-template equivalent).
 */
const FIELD_CASES: Record<
  keyof LaunchConfiguration,
  readonly [Partial<LaunchConfiguration>, object | undefined]
> = {
  ImageId: [{ ImageId: 'ami-0aaaa' }, { ImageId: 'ami-0aaaa' }],
  InstanceType: [{ InstanceType: 'c5.xlarge' }, { InstanceType: 'c5.xlarge' }],
  KeyName: [{ KeyName: 'ops' }, { KeyName: 'ops' }],
  SecurityGroups: [
    { SecurityGroups: ['sg-0a', 'legacy-name'] },
    { SecurityGroupIds: ['sg-0a'], SecurityGroups: ['legacy-name'] },
  ],
  UserData: [{ UserData: 'ZWNobw==' }, { UserData: 'ZWNobw==' }],
  KernelId: [{ KernelId: 'aki-1' }, { KernelId: 'aki-1' }],
  RamdiskId: [{ RamdiskId: 'ari-1' }, { RamDiskId: 'ari-1' }],
  BlockDeviceMappings: [
    {
      BlockDeviceMappings: [{ DeviceName: '/dev/sdc', Ebs: { VolumeSize: 8, Throughput: 250, Iops: 3000 } }],
    },
    {
      BlockDeviceMappings: [{ DeviceName: '/dev/sdc', Ebs: { VolumeSize: 8, Throughput: 250, Iops: 3000 } }],
    },
  ],
  InstanceMonitoring: [{ InstanceMonitoring: { Enabled: true } }, { Monitoring: { Enabled: true } }],
  IamInstanceProfile: [{ IamInstanceProfile: 'web' }, { IamInstanceProfile: { Name: 'web' } }],
  EbsOptimized: [{ EbsOptimized: true }, { EbsOptimized: true }],
  AssociatePublicIpAddress: [
    { AssociatePublicIpAddress: false },
    { NetworkInterfaces: [{ DeviceIndex: 0, AssociatePublicIpAddress: false }] },
  ],
  PlacementTenancy: [{ PlacementTenancy: 'dedicated' }, { Placement: { Tenancy: 'dedicated' } }],
  MetadataOptions: [
    { MetadataOptions: { HttpTokens: 'required', HttpPutResponseHopLimit: 1, HttpEndpoint: 'disabled' } },
    { MetadataOptions: { HttpTokens: 'required', HttpPutResponseHopLimit: 1, HttpEndpoint: 'disabled' } },
  ],
  SpotPrice: [{ SpotPrice: '0.05' }, undefined],
  ClassicLinkVPCId: [{ ClassicLinkVPCId: 'vpc-1' }, undefined],
  ClassicLinkVPCSecurityGroups: [{ ClassicLinkVPCSecurityGroups: ['sg-1'] }, undefined],
  LaunchConfigurationName: [{ LaunchConfigurationName: 'other' }, undefined],
  LaunchConfigurationARN: [{ LaunchConfigurationARN: 'arn:aws:autoscaling:x' }, undefined],
  CreatedTime: [{ CreatedTime: new Date('2020-01-01T00:00:00Z') }, undefined],
}

describe('LAUNCH_CONFIGURATION_FIELDS: every launch-configuration field and where it goes', () => {
  const bare: LaunchConfiguration = {
    LaunchConfigurationName: 'bare',
    ImageId: undefined,
    InstanceType: undefined,
    CreatedTime: undefined,
  }
  const defined = (data: object) =>
    Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined))

  it('lists the same fields as the test table, each either mapped or with a reason it has no equivalent', () => {
    expect(Object.keys(LAUNCH_CONFIGURATION_FIELDS).sort()).toEqual(Object.keys(FIELD_CASES).sort())
    for (const [field, [, expected]] of Object.entries(FIELD_CASES))
      expect(LAUNCH_CONFIGURATION_FIELDS[field as keyof LaunchConfiguration]).toHaveProperty(
        expected === undefined ? 'none' : 'template',
      )
  })

  it.each(Object.entries(FIELD_CASES))('%s', (_field, [set, expected]) => {
    const data = defined(launchTemplateData({ ...bare, ...set }))
    if (expected === undefined) expect(data).toEqual(defined(launchTemplateData(bare)))
    else expect(data).toMatchObject(expected)
  })

  it('keeps dedicated tenancy: a dedicated group never gets shared-tenancy spot instances', () => {
    expect(launchTemplateData({ ...legacyLc, PlacementTenancy: 'dedicated' }).Placement).toEqual({
      Tenancy: 'dedicated',
    })
    expect(launchTemplateData(legacyLc).Placement).toBeUndefined()
  })
})

describe('launchTemplateData', () => {
  it('copies the launch configuration, dropping its empty strings', () => {
    expect(launchTemplateData(legacyLc)).toEqual({
      ImageId: 'ami-0d64bb532e0502c46',
      InstanceType: 'm5.large',
      UserData: 'IyEvYmluL2Jhc2gKZWNobyBoZWxsbwo=',
      IamInstanceProfile: { Name: 'web-instance-profile' },
      BlockDeviceMappings: [
        {
          DeviceName: '/dev/xvda',
          Ebs: { VolumeSize: 30, VolumeType: 'gp3', DeleteOnTermination: true, Encrypted: true },
        },
        { DeviceName: '/dev/sdb', NoDevice: '' },
      ],
      EbsOptimized: true,
      Monitoring: { Enabled: false },
      MetadataOptions: { HttpTokens: 'required', HttpPutResponseHopLimit: 2, HttpEndpoint: 'enabled' },
      SecurityGroupIds: ['sg-0123456789abcdef0'],
    })
  })

  it('moves the security groups onto a network interface when the public IP choice is set', () => {
    const data = launchTemplateData({ ...legacyLc, AssociatePublicIpAddress: true, KeyName: 'ops' })
    expect(data.NetworkInterfaces).toEqual([
      { DeviceIndex: 0, AssociatePublicIpAddress: true, Groups: ['sg-0123456789abcdef0'] },
    ])
    expect(data.SecurityGroupIds).toBeUndefined()
    expect(data.KeyName).toBe('ops')
  })

  it('refers to an instance profile given as an ARN by its ARN', () => {
    const arn = 'arn:aws:iam::123456789012:instance-profile/web'
    expect(launchTemplateData({ ...legacyLc, IamInstanceProfile: arn }).IamInstanceProfile).toEqual({
      Arn: arn,
    })
  })
})

describe('launchSpot for a launch-configuration group', () => {
  it('launches from a temporary template built from the launch configuration, then deletes it', async () => {
    givenLaunchConfiguration()
    ec2Mock.on(CreateFleetCommand).resolves({
      Instances: [{ InstanceIds: ['i-0fff5555aaaa6666b'], InstanceType: 't3.large', Lifecycle: 'spot' }],
    })
    const { cloud, apiCalls } = testAdapter()

    const result = await cloud.launchSpot(request)

    expect(result).toEqual({
      ok: true,
      instanceId: 'i-0fff5555aaaa6666b',
      instanceType: 't3.large',
      zone: 'eu-west-1a',
      // Recorded on the partner: the template is deleted, and provenance compares the instance's with it.
      launchTemplateId: 'lt-0temporary000001',
    })
    expect(ec2Mock).toHaveReceivedCommandWith(CreateLaunchTemplateCommand, {
      LaunchTemplateName: templateName,
      LaunchTemplateData: launchTemplateData(legacyLc),
      // The role may delete only templates carrying this tag, written as the template is created.
      TagSpecifications: [
        {
          ResourceType: 'launch-template',
          Tags: [{ Key: 'spotswap:temporary-template-for', Value: 'legacy web' }],
        },
      ],
    })
    expect(
      ec2Mock.commandCalls(CreateFleetCommand)[0]?.args[0].input.LaunchTemplateConfigs?.[0],
    ).toMatchObject({
      LaunchTemplateSpecification: { LaunchTemplateId: 'lt-0temporary000001', Version: '$Latest' },
    })
    expect(ec2Mock).toHaveReceivedCommandWith(DeleteLaunchTemplateCommand, {
      LaunchTemplateId: 'lt-0temporary000001',
    })
    expect(apiCalls).toEqual([
      'autoscaling:DescribeLaunchConfigurations',
      'ec2:CreateLaunchTemplate',
      'ec2:CreateFleet',
      'ec2:DeleteLaunchTemplate',
    ])
  })

  it('deletes the temporary template even when CreateFleet throws', async () => {
    givenLaunchConfiguration()
    ec2Mock.on(CreateFleetCommand).rejects(awsError('InvalidParameterCombination', 'bad combination'))

    await expect(testAdapter().cloud.launchSpot(request)).rejects.toThrow('bad combination')
    expect(ec2Mock).toHaveReceivedCommandWith(DeleteLaunchTemplateCommand, {
      LaunchTemplateId: 'lt-0temporary000001',
    })
  })

  it('logs a failed delete without hiding the launch result', async () => {
    givenLaunchConfiguration()
    ec2Mock
      .on(CreateFleetCommand)
      .resolves({ Instances: [{ InstanceIds: ['i-0fff5555aaaa6666b'], InstanceType: 't3.large' }] })
      .on(DeleteLaunchTemplateCommand)
      .rejects(awsError('UnauthorizedOperation', 'not allowed', 403))
    const { cloud, logged } = testAdapter()

    await expect(cloud.launchSpot(request)).resolves.toMatchObject({ ok: true })
    expect(logged).toEqual([
      expect.objectContaining({
        level: 'warn',
        attributes: expect.objectContaining({
          launchTemplateId: 'lt-0temporary000001',
          error: 'UnauthorizedOperation',
        }),
      }),
    ])
  })

  it('replaces a template of the same name left behind by a crashed run', async () => {
    givenLaunchConfiguration()
    ec2Mock
      .on(CreateLaunchTemplateCommand)
      .rejectsOnce(awsError('InvalidLaunchTemplateName.AlreadyExistsException', 'already in use'))
      .resolves({ LaunchTemplate: { LaunchTemplateId: 'lt-0temporary000002' } })
      .on(CreateFleetCommand)
      .resolves({ Instances: [{ InstanceIds: ['i-0fff5555aaaa6666b'], InstanceType: 't3.large' }] })

    await expect(testAdapter().cloud.launchSpot(request)).resolves.toMatchObject({ ok: true })
    expect(ec2Mock).toHaveReceivedNthCommandWith(DeleteLaunchTemplateCommand, 1, {
      LaunchTemplateName: templateName,
    })
    expect(ec2Mock).toHaveReceivedNthCommandWith(DeleteLaunchTemplateCommand, 2, {
      LaunchTemplateId: 'lt-0temporary000002',
    })
  })

  it('fails with LaunchConfigurationNotFoundError when the launch configuration is gone, creating nothing', async () => {
    autoScalingMock.on(DescribeLaunchConfigurationsCommand).resolves({ LaunchConfigurations: [] })

    await expect(testAdapter().cloud.launchSpot(request)).rejects.toBeInstanceOf(
      LaunchConfigurationNotFoundError,
    )
    expect(ec2Mock).not.toHaveReceivedAnyCommand()
  })
})
