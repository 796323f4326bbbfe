/**
 * Simulator state in the SDK's shapes, as the services answer: the adapter converts them back into the
 * core's types (lambdas/aws/convert-auto-scaling.ts and convert-ec2.ts), exactly as it converts real
 * answers. Fresh objects each time, so nothing the adapter holds aliases the world's state.
 */
import { createHash } from 'node:crypto'
import type {
  AutoScalingGroup,
  Instance as GroupInstance,
  TagDescription,
} from '@aws-sdk/client-auto-scaling'
import type {
  Instance as Ec2Instance,
  InstanceTypeInfo as Ec2InstanceTypeInfo,
  InstanceStateName,
  Tag,
} from '@aws-sdk/client-ec2'
import type { InstanceState, InstanceTypeInfo } from '../../../lambdas/core/types.ts'
import { SIM_ACCOUNT } from '../marker-key.ts'
import { type SimGroup, type SimInstance, type SimRegion, subnetOf } from '../state.ts'

/** EC2's state codes (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_InstanceState.html). */
const STATE_CODES: Readonly<Record<InstanceState, number>> = {
  pending: 0,
  running: 16,
  'shutting-down': 32,
  terminated: 48,
  stopping: 64,
  stopped: 80,
}

const toTags = (tags: Readonly<Record<string, string>>): Tag[] => {
  const list: Tag[] = []
  for (const Key in tags) list.push({ Key, Value: tags[Key] })
  return list
}

/**
 * On-demand instances have no InstanceLifecycle in EC2's answer; spot ones say `spot`. One literal, no
 * spreads: a large account describes 100,000 instances every run.
 */
export const toEc2Instance = (instance: SimInstance): Ec2Instance => ({
  InstanceId: instance.id,
  InstanceType: instance.type as Ec2Instance['InstanceType'],
  Placement: { AvailabilityZone: instance.zone },
  SubnetId: instance.subnetId,
  InstanceLifecycle: instance.lifecycle === 'spot' ? 'spot' : undefined,
  State: { Name: instance.state as InstanceStateName, Code: STATE_CODES[instance.state] },
  LaunchTime: new Date(instance.launchMs),
  Tags: toTags(instance.tags),
  PlatformDetails: instance.platform,
})

const toGroupInstance = (
  region: SimRegion,
  group: SimGroup,
  instanceId: string,
  lifecycleState: string,
  protectedFromScaleIn: boolean,
): GroupInstance => {
  const instance = region.instances.get(instanceId)
  return {
    InstanceId: instanceId,
    LifecycleState: lifecycleState as GroupInstance['LifecycleState'],
    HealthStatus: lifecycleState.startsWith('Terminating') ? 'Unhealthy' : 'Healthy',
    ProtectedFromScaleIn: protectedFromScaleIn,
    AvailabilityZone: instance?.zone ?? group.zones[0] ?? '',
    ...(instance === undefined ? {} : { InstanceType: instance.type }),
  }
}

const toGroupTags = (group: SimGroup): TagDescription[] => {
  const list: TagDescription[] = []
  for (const Key in group.tags)
    list.push({
      ResourceId: group.name,
      ResourceType: 'auto-scaling-group',
      Key,
      Value: group.tags[Key],
      PropagateAtLaunch: group.propagatedKeys.has(Key),
    })
  return list
}

/** A group's ARN: its random id differs for each group made, so a name used again gets another (groups here live for the whole run). */
export const groupArn = (group: SimGroup): string => {
  const id = createHash('sha256').update(`${group.region}/${group.name}`).digest('hex')
  const uuid = `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}`
  return `arn:aws:autoscaling:${group.region}:${SIM_ACCOUNT}:autoScalingGroup:${uuid}:autoScalingGroupName/${group.name}`
}

export const toAutoScalingGroup = (region: SimRegion, group: SimGroup): AutoScalingGroup => {
  // Built by push, as convert-auto-scaling.ts builds the members: a `.map` makes packed arrays until V8
  // optimizes it and holey ones after, and that change mid-run threw the planner's optimized code away.
  const instances: GroupInstance[] = []
  for (const [id, member] of group.members)
    instances.push(toGroupInstance(region, group, id, member.lifecycleState, member.protectedFromScaleIn))
  const template = group.launchTemplate
  return {
    AutoScalingGroupName: group.name,
    AutoScalingGroupARN: groupArn(group),
    MinSize: group.minSize,
    MaxSize: group.maxSize,
    DesiredCapacity: group.desiredCapacity,
    DefaultCooldown: 300,
    AvailabilityZones: [...group.zones],
    HealthCheckType: 'EC2',
    HealthCheckGracePeriod: group.healthCheckGracePeriodSeconds,
    CreatedTime: new Date(0),
    Tags: toGroupTags(group),
    ...(template === undefined
      ? {}
      : {
          LaunchTemplate: {
            ...(template.id === undefined ? {} : { LaunchTemplateId: template.id }),
            ...(template.name === undefined ? {} : { LaunchTemplateName: template.name }),
            ...(template.version === undefined ? {} : { Version: template.version }),
          },
        }),
    ...(group.launchConfigurationName === undefined
      ? {}
      : { LaunchConfigurationName: group.launchConfigurationName }),
    SuspendedProcesses: [...group.suspendedProcesses].map((ProcessName) => ({ ProcessName })),
    Instances: instances,
    VPCZoneIdentifier: group.zones.map(subnetOf).join(','),
    TargetGroupARNs: [...group.trafficSources.targetGroupArns],
    LoadBalancerNames: [...group.trafficSources.classicLoadBalancerNames],
    CapacityRebalance: group.capacityRebalance,
    ...(group.warmPool === undefined
      ? {}
      : { WarmPoolConfiguration: { PoolState: 'Stopped', InstanceReusePolicy: { ReuseOnScaleIn: false } } }),
  }
}

/** The catalogue's entries as DescribeInstanceTypes lists them (convert-ec2.ts toInstanceTypeInfo reads them back). */
export const toEc2InstanceType = (info: InstanceTypeInfo): Ec2InstanceTypeInfo => {
  const accelerator = info.accelerator
  const devices =
    accelerator === null ? [] : [{ Count: accelerator.count, Manufacturer: accelerator.manufacturer }]
  const gpus =
    accelerator === null
      ? []
      : [{ Count: accelerator.count, Manufacturer: accelerator.manufacturer, Name: accelerator.model }]
  const platform = info.platform
  const storage = info.instanceStorage
  return {
    InstanceType: info.name as Ec2InstanceTypeInfo['InstanceType'],
    CurrentGeneration: info.currentGeneration,
    BareMetal: info.bareMetal,
    BurstablePerformanceSupported: info.burstable,
    SupportedUsageClasses: info.spotSupported ? ['on-demand', 'spot'] : ['on-demand'],
    SupportedVirtualizationTypes: [...info.virtualizationTypes],
    VCpuInfo: { DefaultVCpus: info.vcpus },
    MemoryInfo: { SizeInMiB: info.memoryMiB },
    ProcessorInfo: {
      SupportedArchitectures: [...info.architectures],
      Manufacturer: platform.cpuManufacturer || undefined,
    },
    EbsInfo: {
      EbsOptimizedInfo: { BaselineThroughputInMBps: info.ebsThroughputMBps },
      NvmeSupport: platform.ebsNvmeSupport,
    },
    NetworkInfo: { EnaSupport: platform.enaSupport },
    ...(platform.hypervisor === undefined ? {} : { Hypervisor: platform.hypervisor }),
    SupportedBootModes: [...platform.bootModes],
    ...(accelerator?.kind === 'gpu' ? { GpuInfo: { Gpus: gpus } } : {}),
    ...(accelerator?.kind === 'fpga' ? { FpgaInfo: { Fpgas: devices } } : {}),
    ...(accelerator?.kind === 'inference' ? { InferenceAcceleratorInfo: { Accelerators: devices } } : {}),
    InstanceStorageSupported: storage !== null,
    ...(storage === null
      ? {}
      : {
          InstanceStorageInfo: {
            Disks: [
              { Count: storage.disks, SizeInGB: storage.diskSizeGb, Type: storage.ssd ? 'ssd' : 'hdd' },
            ],
          },
        }),
  }
}
