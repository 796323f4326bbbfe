/**
 * SDK responses as AWS returns them (eu-west-1, 2026), trimmed of fields the adapter never reads.
 * Shapes follow DescribeInstanceTypes, DescribeAutoScalingGroups and DescribeInstances output.
 */
import type { AutoScalingGroup } from '@aws-sdk/client-auto-scaling'
import type { Instance, InstanceTypeInfo } from '@aws-sdk/client-ec2'

export const g4dnXlarge: InstanceTypeInfo = {
  InstanceType: 'g4dn.xlarge',
  CurrentGeneration: true,
  FreeTierEligible: false,
  SupportedUsageClasses: ['on-demand', 'spot'],
  SupportedRootDeviceTypes: ['ebs'],
  SupportedVirtualizationTypes: ['hvm'],
  BareMetal: false,
  Hypervisor: 'nitro',
  ProcessorInfo: { SupportedArchitectures: ['x86_64'], SustainedClockSpeedInGhz: 2.5, Manufacturer: 'Intel' },
  VCpuInfo: {
    DefaultVCpus: 4,
    DefaultCores: 2,
    DefaultThreadsPerCore: 2,
    ValidCores: [1, 2],
    ValidThreadsPerCore: [1, 2],
  },
  MemoryInfo: { SizeInMiB: 16384 },
  InstanceStorageSupported: true,
  InstanceStorageInfo: {
    TotalSizeInGB: 125,
    Disks: [{ SizeInGB: 125, Count: 1, Type: 'ssd' }],
    NvmeSupport: 'required',
    EncryptionSupport: 'required',
  },
  EbsInfo: {
    EbsOptimizedSupport: 'default',
    EncryptionSupport: 'supported',
    EbsOptimizedInfo: {
      BaselineBandwidthInMbps: 950,
      BaselineThroughputInMBps: 118.75,
      BaselineIops: 3000,
      MaximumBandwidthInMbps: 3500,
      MaximumThroughputInMBps: 437.5,
      MaximumIops: 20000,
    },
    NvmeSupport: 'required',
  },
  NetworkInfo: {
    NetworkPerformance: 'Up to 25 Gigabit',
    MaximumNetworkInterfaces: 3,
    Ipv4AddressesPerInterface: 10,
    EnaSupport: 'required',
  },
  GpuInfo: {
    Gpus: [{ Name: 'T4', Manufacturer: 'NVIDIA', Count: 1, MemoryInfo: { SizeInMiB: 16384 } }],
    TotalGpuMemoryInMiB: 16384,
  },
  HibernationSupported: false,
  BurstablePerformanceSupported: false,
  DedicatedHostsSupported: true,
  AutoRecoverySupported: false,
  SupportedBootModes: ['legacy-bios', 'uefi'],
}

export const t3Large: InstanceTypeInfo = {
  InstanceType: 't3.large',
  CurrentGeneration: true,
  FreeTierEligible: false,
  SupportedUsageClasses: ['on-demand', 'spot'],
  SupportedRootDeviceTypes: ['ebs'],
  SupportedVirtualizationTypes: ['hvm'],
  BareMetal: false,
  Hypervisor: 'nitro',
  ProcessorInfo: { SupportedArchitectures: ['x86_64'], SustainedClockSpeedInGhz: 2.5, Manufacturer: 'Intel' },
  VCpuInfo: {
    DefaultVCpus: 2,
    DefaultCores: 1,
    DefaultThreadsPerCore: 2,
    ValidCores: [1],
    ValidThreadsPerCore: [1, 2],
  },
  MemoryInfo: { SizeInMiB: 8192 },
  InstanceStorageSupported: false,
  EbsInfo: {
    EbsOptimizedSupport: 'default',
    EncryptionSupport: 'supported',
    EbsOptimizedInfo: {
      BaselineBandwidthInMbps: 695,
      BaselineThroughputInMBps: 86.875,
      BaselineIops: 4000,
      MaximumBandwidthInMbps: 2780,
      MaximumThroughputInMBps: 347.5,
      MaximumIops: 15700,
    },
    NvmeSupport: 'required',
  },
  HibernationSupported: true,
  BurstablePerformanceSupported: true,
  DedicatedHostsSupported: false,
  AutoRecoverySupported: true,
  SupportedBootModes: ['legacy-bios', 'uefi'],
}

export const m5Large: InstanceTypeInfo = {
  InstanceType: 'm5.large',
  CurrentGeneration: true,
  FreeTierEligible: false,
  SupportedUsageClasses: ['on-demand', 'spot'],
  SupportedRootDeviceTypes: ['ebs'],
  SupportedVirtualizationTypes: ['hvm'],
  BareMetal: false,
  Hypervisor: 'nitro',
  ProcessorInfo: { SupportedArchitectures: ['x86_64'], SustainedClockSpeedInGhz: 3.1, Manufacturer: 'Intel' },
  VCpuInfo: {
    DefaultVCpus: 2,
    DefaultCores: 1,
    DefaultThreadsPerCore: 2,
    ValidCores: [1],
    ValidThreadsPerCore: [1, 2],
  },
  MemoryInfo: { SizeInMiB: 8192 },
  InstanceStorageSupported: false,
  EbsInfo: {
    EbsOptimizedSupport: 'default',
    EncryptionSupport: 'supported',
    EbsOptimizedInfo: {
      BaselineBandwidthInMbps: 650,
      BaselineThroughputInMBps: 81.25,
      BaselineIops: 3600,
      MaximumBandwidthInMbps: 4750,
      MaximumThroughputInMBps: 593.75,
      MaximumIops: 18750,
    },
    NvmeSupport: 'required',
  },
  HibernationSupported: true,
  BurstablePerformanceSupported: false,
  DedicatedHostsSupported: true,
  AutoRecoverySupported: true,
  SupportedBootModes: ['legacy-bios', 'uefi'],
}

/** A mixed-instances group in two subnets: one on-demand base instance, then 25% on-demand. */
export const mixedInstancesGroup: AutoScalingGroup = {
  AutoScalingGroupName: 'web',
  AutoScalingGroupARN:
    'arn:aws:autoscaling:eu-west-1:123456789012:autoScalingGroup:5b0a2b1c-0d2f-4a44-9d35-6f0e7c1b2a3d:autoScalingGroupName/web',
  MixedInstancesPolicy: {
    LaunchTemplate: {
      LaunchTemplateSpecification: {
        LaunchTemplateId: 'lt-0a1b2c3d4e5f60718',
        LaunchTemplateName: 'web',
        Version: '$Latest',
      },
      Overrides: [
        { InstanceType: 'm5.large' },
        {
          InstanceType: 't3.large',
          WeightedCapacity: '1',
          LaunchTemplateSpecification: { LaunchTemplateId: 'lt-0fedcba9876543210', Version: '$Latest' },
        },
      ],
    },
    InstancesDistribution: {
      OnDemandAllocationStrategy: 'prioritized',
      OnDemandBaseCapacity: 1,
      OnDemandPercentageAboveBaseCapacity: 25,
      SpotAllocationStrategy: 'price-capacity-optimized',
    },
  },
  MinSize: 1,
  MaxSize: 6,
  DesiredCapacity: 2,
  DefaultCooldown: 300,
  AvailabilityZones: ['eu-west-1a', 'eu-west-1b'],
  HealthCheckType: 'ELB',
  HealthCheckGracePeriod: 120,
  Instances: [
    {
      InstanceId: 'i-0aaa1111bbbb2222c',
      InstanceType: 'm5.large',
      AvailabilityZone: 'eu-west-1a',
      LifecycleState: 'InService',
      HealthStatus: 'Healthy',
      LaunchTemplate: { LaunchTemplateId: 'lt-0a1b2c3d4e5f60718', LaunchTemplateName: 'web', Version: '3' },
      ProtectedFromScaleIn: false,
    },
    {
      InstanceId: 'i-0ddd3333eeee4444f',
      InstanceType: 't3.large',
      AvailabilityZone: 'eu-west-1b',
      LifecycleState: 'Pending:Wait',
      HealthStatus: 'Healthy',
      LaunchTemplate: { LaunchTemplateId: 'lt-0a1b2c3d4e5f60718', LaunchTemplateName: 'web', Version: '3' },
      ProtectedFromScaleIn: true,
    },
  ],
  CreatedTime: new Date('2025-11-03T09:12:44.512Z'),
  SuspendedProcesses: [
    { ProcessName: 'AZRebalance', SuspensionReason: 'User suspended at 2025-11-03T09:20:00Z' },
  ],
  VPCZoneIdentifier: 'subnet-0a1a1a1a1a1a1a1a1,subnet-0b2b2b2b2b2b2b2b2',
  EnabledMetrics: [],
  Tags: [
    {
      ResourceId: 'web',
      ResourceType: 'auto-scaling-group',
      Key: 'spot-enabled',
      Value: 'true',
      PropagateAtLaunch: false,
    },
    {
      ResourceId: 'web',
      ResourceType: 'auto-scaling-group',
      Key: 'team',
      Value: 'storefront',
      PropagateAtLaunch: true,
    },
  ],
  TerminationPolicies: ['Default'],
  NewInstancesProtectedFromScaleIn: false,
  ServiceLinkedRoleARN:
    'arn:aws:iam::123456789012:role/aws-service-role/autoscaling.amazonaws.com/AWSServiceRoleForAutoScaling',
  CapacityRebalance: false,
}

/** A spot instance spotswap launched, as DescribeInstances returns it. */
export const launchedSpotInstance: Instance = {
  InstanceId: 'i-0fff5555aaaa6666b',
  ImageId: 'ami-0d64bb532e0502c46',
  InstanceType: 't3.large',
  LaunchTime: new Date('2026-03-02T09:41:07.000Z'),
  Placement: { AvailabilityZone: 'eu-west-1b', GroupName: '', Tenancy: 'default' },
  PrivateIpAddress: '10.0.2.17',
  SubnetId: 'subnet-0b2b2b2b2b2b2b2b2',
  VpcId: 'vpc-0c3c3c3c3c3c3c3c3',
  State: { Code: 16, Name: 'running' },
  Architecture: 'x86_64',
  InstanceLifecycle: 'spot',
  SpotInstanceRequestId: 'sir-8a7b6c5d',
  PlatformDetails: 'Linux/UNIX',
  UsageOperation: 'RunInstances',
  Tags: [
    { Key: 'launched-for-asg', Value: 'web' },
    { Key: 'launched-by-autospotting', Value: 'true' },
    { Key: 'team', Value: 'storefront' },
  ],
}

/** An on-demand Windows instance: no InstanceLifecycle at all. */
export const onDemandWindowsInstance: Instance = {
  InstanceId: 'i-0aaa1111bbbb2222c',
  InstanceType: 'm5.large',
  LaunchTime: new Date('2026-02-27T16:03:51.000Z'),
  Placement: { AvailabilityZone: 'eu-west-1a', GroupName: '', Tenancy: 'default' },
  SubnetId: 'subnet-0a1a1a1a1a1a1a1a1',
  State: { Code: 80, Name: 'stopped' },
  Platform: 'Windows',
  PlatformDetails: 'Windows',
  Tags: [{ Key: 'aws:autoscaling:groupName', Value: 'web' }],
}
