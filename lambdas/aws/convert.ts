/**
 * SDK shapes into core types, once, at the boundary. Everything the SDK marks optional gets its AWS
 * default here, so the core never sees `undefined` where AWS always sends a value.
 */
import type {
  AutoScalingGroup,
  Instance as GroupInstance,
  LaunchTemplateSpecification,
  TagDescription,
} from '@aws-sdk/client-auto-scaling'
import type {
  Instance as Ec2Instance,
  InstanceTypeInfo as Ec2InstanceTypeInfo,
  SpotPrice as Ec2SpotPrice,
  Tag,
} from '@aws-sdk/client-ec2'
import { LINUX } from '../core/platform.ts'
import type {
  Accelerator,
  Architecture,
  Group,
  GroupMember,
  Instance,
  InstanceState,
  InstanceStorage,
  InstanceTypeInfo,
  LaunchTemplateRef,
  MixedInstancesPolicy,
  SpotPrice,
  TrafficSources,
} from '../core/types.ts'

const ARCHITECTURES: readonly Architecture[] = ['x86_64', 'i386', 'arm64', 'x86_64_mac', 'arm64_mac']
const INSTANCE_STATES: readonly InstanceState[] = [
  'pending',
  'running',
  'stopping',
  'stopped',
  'shutting-down',
  'terminated',
]

/** Auto Scaling's default when a mixed-instances group does not say: everything above the base is on-demand. */
const DEFAULT_ON_DEMAND_PERCENTAGE_ABOVE_BASE = 100

export const tagsToRecord = (tags: readonly (Tag | TagDescription)[] | undefined): Record<string, string> => {
  const record: Record<string, string> = {}
  for (const tag of tags ?? []) {
    if (tag.Key !== undefined) record[tag.Key] = tag.Value ?? ''
  }
  return record
}

const toLaunchTemplateRef = (spec: LaunchTemplateSpecification | undefined): LaunchTemplateRef | undefined =>
  spec === undefined
    ? undefined
    : {
        id: spec.LaunchTemplateId || undefined,
        name: spec.LaunchTemplateName || undefined,
        version: spec.Version || undefined,
      }

const toMixedInstancesPolicy = (group: AutoScalingGroup): MixedInstancesPolicy | undefined => {
  const policy = group.MixedInstancesPolicy
  const launchTemplate = toLaunchTemplateRef(policy?.LaunchTemplate?.LaunchTemplateSpecification)
  if (policy === undefined || launchTemplate === undefined) return undefined
  const distribution = policy.InstancesDistribution
  // Overrides may name instance requirements instead of types; only named types are listed here.
  const overrides = (policy.LaunchTemplate?.Overrides ?? []).flatMap((o) =>
    o.InstanceType
      ? [
          {
            instanceType: o.InstanceType,
            launchTemplate: toLaunchTemplateRef(o.LaunchTemplateSpecification),
            // A string of 1-999 in the API; anything unreadable counts as a weight other than 1.
            weightedCapacity: o.WeightedCapacity === undefined ? 1 : Number(o.WeightedCapacity) || Number.NaN,
          },
        ]
      : [],
  )
  return {
    launchTemplate,
    overrideTypes: overrides.map((o) => o.instanceType),
    overrides,
    // Overrides may name their own launch template (instance requirements as well as named types).
    overrideTemplateIds: (policy.LaunchTemplate?.Overrides ?? []).flatMap((o) => {
      const id = o.LaunchTemplateSpecification?.LaunchTemplateId
      return id ? [id] : []
    }),
    onDemandBaseCapacity: distribution?.OnDemandBaseCapacity ?? 0,
    onDemandPercentageAboveBaseCapacity:
      distribution?.OnDemandPercentageAboveBaseCapacity ?? DEFAULT_ON_DEMAND_PERCENTAGE_ABOVE_BASE,
  }
}

/**
 * TargetGroupARNs and LoadBalancerNames, and TrafficSources (which lists the same ones again, and VPC
 * Lattice services): `elbv2` is a target group, `elb` a classic load balancer
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_TrafficSourceIdentifier.html). A source
 * without a type is judged by its identifier: a target group's ARN, else a classic load balancer's name.
 */
export const toTrafficSources = (group: AutoScalingGroup): TrafficSources => {
  const targetGroups = new Set(group.TargetGroupARNs ?? [])
  const classic = new Set(group.LoadBalancerNames ?? [])
  const unreadable = new Set<string>()
  for (const source of group.TrafficSources ?? []) {
    const id = source.Identifier
    if (id === undefined || id === '') continue
    const type =
      source.Type ?? (id.includes(':targetgroup/') ? 'elbv2' : id.startsWith('arn:') ? 'unknown' : 'elb')
    if (type === 'elbv2') targetGroups.add(id)
    else if (type === 'elb') classic.add(id)
    else unreadable.add(`${type}:${id}`)
  }
  return {
    targetGroupArns: [...targetGroups],
    classicLoadBalancerNames: [...classic],
    unreadable: [...unreadable],
  }
}

/**
 * Instances in a warm pool (`Warmed:Pending`, `Warmed:Stopped`, `Warmed:Running`, ...) are not members:
 * they count toward desired capacity only once the group draws them out of the pool
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-warm-pools.html), and they are
 * never replaced. DescribeWarmPool lists them; any answer that mixes them in gets them left out here.
 */
export const isWarmPoolState = (lifecycleState: string | undefined): boolean =>
  lifecycleState?.startsWith('Warmed:') === true

const toGroupMember = (instance: GroupInstance): GroupMember | undefined =>
  instance.InstanceId === undefined || isWarmPoolState(instance.LifecycleState)
    ? undefined
    : {
        instanceId: instance.InstanceId,
        lifecycleState: instance.LifecycleState ?? 'Unknown',
        healthStatus: instance.HealthStatus ?? 'Unknown',
        protectedFromScaleIn: instance.ProtectedFromScaleIn ?? false,
        zone: instance.AvailabilityZone ?? '',
        instanceType: instance.InstanceType || undefined,
      }

/** The group's tags and, from the same pass, the ones it propagates to the instances it launches. */
const groupTags = (tags: readonly TagDescription[] | undefined) => {
  const all: Record<string, string> = {}
  const propagated: Record<string, string> = {}
  for (const tag of tags ?? []) {
    if (tag.Key === undefined) continue
    all[tag.Key] = tag.Value ?? ''
    if (tag.PropagateAtLaunch) propagated[tag.Key] = tag.Value ?? ''
  }
  return { all, propagated }
}

/** Built by push: a large account describes 10,000 groups every run, and flatMap's generic path is slow. */
const toGroupMembers = (instances: readonly GroupInstance[] | undefined): GroupMember[] => {
  const members: GroupMember[] = []
  for (const instance of instances ?? []) {
    const member = toGroupMember(instance)
    if (member !== undefined) members.push(member)
  }
  return members
}

export const toGroup = (group: AutoScalingGroup, region: string): Group => {
  const tags = groupTags(group.Tags)
  return {
    name: group.AutoScalingGroupName ?? '',
    region,
    minSize: group.MinSize ?? 0,
    maxSize: group.MaxSize ?? 0,
    desiredCapacity: group.DesiredCapacity ?? 0,
    healthCheckGracePeriodSeconds: group.HealthCheckGracePeriod ?? 0,
    tags: tags.all,
    propagatedTags: tags.propagated,
    launchTemplate: toLaunchTemplateRef(group.LaunchTemplate),
    launchConfigurationName: group.LaunchConfigurationName || undefined,
    mixedInstancesPolicy: toMixedInstancesPolicy(group),
    suspendedProcesses: (group.SuspendedProcesses ?? []).flatMap((p) =>
      p.ProcessName ? [p.ProcessName] : [],
    ),
    members: toGroupMembers(group.Instances),
    subnetIds: (group.VPCZoneIdentifier ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
    trafficSources: toTrafficSources(group),
    capacityRebalance: group.CapacityRebalance ?? false,
    warmPool:
      group.WarmPoolConfiguration === undefined
        ? undefined
        : {
            // Stopped is Auto Scaling's default pool state.
            poolState: group.WarmPoolConfiguration.PoolState ?? 'Stopped',
            reuseOnScaleIn: group.WarmPoolConfiguration.InstanceReusePolicy?.ReuseOnScaleIn ?? false,
          },
    status: group.Status || undefined,
  }
}

const isInstanceState = (value: string | undefined): value is InstanceState =>
  INSTANCE_STATES.includes(value as InstanceState)

/**
 * Undefined for a half-described instance (no id, type, zone, state or launch time): guessing a launch
 * time would misjudge its grace period, and the next run sees it whole.
 */
export const toInstance = (instance: Ec2Instance): Instance | undefined => {
  const state = instance.State?.Name
  const zone = instance.Placement?.AvailabilityZone
  const launchTime = instance.LaunchTime
  if (!instance.InstanceId || !instance.InstanceType || !zone || !isInstanceState(state) || !launchTime) {
    return undefined
  }
  return {
    id: instance.InstanceId,
    type: instance.InstanceType,
    zone,
    subnetId: instance.SubnetId || undefined,
    lifecycle: instance.InstanceLifecycle === 'spot' ? 'spot' : 'on-demand',
    state,
    launchTime,
    tags: tagsToRecord(instance.Tags),
    platform: instance.PlatformDetails || LINUX,
  }
}

const sumCounts = (devices: readonly { Count?: number | undefined }[]): number =>
  devices.reduce((total, device) => total + (device.Count ?? 0), 0)

const toAccelerator = (info: Ec2InstanceTypeInfo): Accelerator | null => {
  const gpus = info.GpuInfo?.Gpus ?? []
  if (gpus.length > 0)
    return { kind: 'gpu', count: sumCounts(gpus), manufacturer: gpus[0]?.Manufacturer ?? '' }
  const fpgas = info.FpgaInfo?.Fpgas ?? []
  if (fpgas.length > 0)
    return { kind: 'fpga', count: sumCounts(fpgas), manufacturer: fpgas[0]?.Manufacturer ?? '' }
  const inferentia = info.InferenceAcceleratorInfo?.Accelerators ?? []
  if (inferentia.length > 0) {
    return {
      kind: 'inference',
      count: sumCounts(inferentia),
      manufacturer: inferentia[0]?.Manufacturer ?? '',
    }
  }
  // Neuron devices (Inferentia2, Trainium) are AWS-made; the API does not repeat the manufacturer.
  const neuron = info.NeuronInfo?.NeuronDevices ?? []
  if (neuron.length > 0) return { kind: 'inference', count: sumCounts(neuron), manufacturer: 'AWS' }
  return null
}

const toInstanceStorage = (info: Ec2InstanceTypeInfo): InstanceStorage | null => {
  const disks = info.InstanceStorageInfo?.Disks ?? []
  if (!info.InstanceStorageSupported || disks.length === 0) return null
  return {
    disks: sumCounts(disks),
    // Mixed disk sizes do not occur today; the smallest is the safe figure if they ever do.
    diskSizeGb: Math.min(...disks.map((d) => d.SizeInGB ?? 0)),
    ssd: disks.every((d) => d.Type === 'ssd'),
  }
}

export const toInstanceTypeInfo = (info: Ec2InstanceTypeInfo): InstanceTypeInfo => ({
  name: info.InstanceType ?? '',
  vcpus: info.VCpuInfo?.DefaultVCpus ?? 0,
  memoryMiB: info.MemoryInfo?.SizeInMiB ?? 0,
  architectures: (info.ProcessorInfo?.SupportedArchitectures ?? []).filter((a): a is Architecture =>
    ARCHITECTURES.includes(a as Architecture),
  ),
  virtualizationTypes: (info.SupportedVirtualizationTypes ?? []).filter(
    (v): v is 'hvm' | 'paravirtual' => v === 'hvm' || v === 'paravirtual',
  ),
  accelerator: toAccelerator(info),
  instanceStorage: toInstanceStorage(info),
  ebsThroughputMBps: info.EbsInfo?.EbsOptimizedInfo?.BaselineThroughputInMBps ?? 0,
  bareMetal: info.BareMetal ?? false,
  burstable: info.BurstablePerformanceSupported ?? false,
  currentGeneration: info.CurrentGeneration ?? false,
  spotSupported: (info.SupportedUsageClasses ?? []).includes('spot'),
})

/** Undefined for rows without a type, zone, time or parseable price. */
export const toSpotPrice = (row: Ec2SpotPrice): SpotPrice | undefined => {
  const priceUsd = Number(row.SpotPrice)
  if (
    !row.InstanceType ||
    !row.AvailabilityZone ||
    !row.Timestamp ||
    !row.SpotPrice ||
    !Number.isFinite(priceUsd)
  ) {
    return undefined
  }
  return {
    instanceType: row.InstanceType,
    zone: row.AvailabilityZone,
    productDescription: row.ProductDescription ?? '',
    priceUsd,
    timestamp: row.Timestamp,
  }
}
