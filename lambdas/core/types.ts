/**
 * The core's view of the world. Adapters (aws/, sim/) convert their shapes into these
 * once, at the boundary; nothing in core/ knows about SDK structs.
 */

export type Architecture = 'x86_64' | 'i386' | 'arm64' | 'x86_64_mac' | 'arm64_mac'

export type AcceleratorKind = 'gpu' | 'fpga' | 'inference'

export interface Accelerator {
  readonly kind: AcceleratorKind
  readonly count: number
  readonly manufacturer: string
  /** GPUs only: the model (`GpuInfo.Gpus[].Name`, e.g. `V100`, `A10G`); undefined when AWS names none. */
  readonly model?: string | undefined
}

/** DescribeInstanceTypes' support levels (`NetworkInfo.EnaSupport`, `EbsInfo.NvmeSupport`). */
export type SupportLevel = 'required' | 'supported' | 'unsupported'

export type BootMode = 'legacy-bios' | 'uefi'

/**
 * What an AMI must carry to boot on the type: the drivers and firmware a replacement of another type may
 * not find in the group's AMI.
 */
export interface TypePlatform {
  /** `Hypervisor`; undefined for bare metal, which has none. */
  readonly hypervisor: 'nitro' | 'xen' | undefined
  /** EC2 refuses to launch a `required` type from an AMI without `EnaSupport`. */
  readonly enaSupport: SupportLevel
  /** `required`: EBS volumes appear as NVMe devices, so the AMI needs NVMe drivers to boot. */
  readonly ebsNvmeSupport: SupportLevel
  /** `SupportedBootModes`. */
  readonly bootModes: readonly BootMode[]
  /** `ProcessorInfo.Manufacturer`: `Intel`, `AMD`, `AWS`, `Apple`; '' when not reported. */
  readonly cpuManufacturer: string
}

export interface InstanceStorage {
  readonly disks: number
  /** Size of each disk, GB. */
  readonly diskSizeGb: number
  readonly ssd: boolean
}

export interface InstanceTypeInfo {
  readonly name: string
  readonly vcpus: number
  readonly memoryMiB: number
  readonly architectures: readonly Architecture[]
  readonly virtualizationTypes: readonly ('hvm' | 'paravirtual')[]
  readonly accelerator: Accelerator | null
  readonly instanceStorage: InstanceStorage | null
  /** EBS-optimized baseline throughput, MB/s; 0 when the type has no EBS optimisation figures. */
  readonly ebsThroughputMBps: number
  readonly bareMetal: boolean
  readonly burstable: boolean
  readonly currentGeneration: boolean
  readonly spotSupported: boolean
  readonly platform: TypePlatform
}

/** What a candidate changes that may matter to a workload without stopping it: shown, refused on request. */
export type CandidateFlag = 'cpu-vendor-change' | 'generation-change'

export type Catalog = ReadonlyMap<string, InstanceTypeInfo>

export type Lifecycle = 'spot' | 'on-demand'

export type InstanceState = 'pending' | 'running' | 'stopping' | 'stopped' | 'shutting-down' | 'terminated'

export interface Instance {
  readonly id: string
  readonly type: string
  readonly zone: string
  readonly subnetId: string | undefined
  readonly lifecycle: Lifecycle
  readonly state: InstanceState
  readonly launchTime: Date
  readonly tags: Readonly<Record<string, string>>
  /** EC2 PlatformDetails, e.g. `Linux/UNIX`, `Windows`, `Red Hat Enterprise Linux`. */
  readonly platform: string
}

/** An instance as its Auto Scaling group sees it. */
export interface GroupMember {
  readonly instanceId: string
  /** InService, Pending, Terminating, Detaching, Standby, Pending:Wait, ... */
  readonly lifecycleState: string
  readonly healthStatus: string
  readonly protectedFromScaleIn: boolean
  readonly zone: string
  readonly instanceType: string | undefined
}

export interface LaunchTemplateRef {
  readonly id: string | undefined
  readonly name: string | undefined
  readonly version: string | undefined
}

/** One LaunchTemplateOverrides entry that names an instance type. */
export interface MixedInstancesOverride {
  readonly instanceType: string
  /**
   * The override's own launch template (LaunchTemplateSpecification), when it names one: Auto Scaling
   * launches this type from it, e.g. an arm64 type with an arm64 image
   * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-mixed-instances-groups-launch-template-overrides.html).
   */
  readonly launchTemplate: LaunchTemplateRef | undefined
  /** WeightedCapacity: the capacity units one instance of the type counts for; 1 when unset. */
  readonly weightedCapacity: number
}

export interface MixedInstancesPolicy {
  readonly launchTemplate: LaunchTemplateRef
  readonly overrideTypes: readonly string[]
  readonly overrides: readonly MixedInstancesOverride[]
  /** Launch templates overrides name instead of the policy's own (an override may carry its own). */
  readonly overrideTemplateIds?: readonly string[]
  readonly onDemandBaseCapacity: number
  readonly onDemandPercentageAboveBaseCapacity: number
}

/**
 * Where the group's traffic comes from, as DescribeAutoScalingGroups names it (TargetGroupARNs,
 * LoadBalancerNames, TrafficSources). A swap retires a partner only once its replacement serves in all of
 * them: a load balancer routes to an attached instance only after it passes the health checks
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/attach-load-balancer-asg.html).
 */
export interface TrafficSources {
  readonly targetGroupArns: readonly string[]
  readonly classicLoadBalancerNames: readonly string[]
  /** Traffic sources whose health spotswap cannot read (VPC Lattice, ...), as `<type>:<identifier>`. */
  readonly unreadable: readonly string[]
}

export const NO_TRAFFIC_SOURCES: TrafficSources = {
  targetGroupArns: [],
  classicLoadBalancerNames: [],
  unreadable: [],
}

/**
 * A warm pool of pre-initialized instances beside the group, which it draws on when it scales out; they
 * count toward desired capacity only once they leave the pool
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-warm-pools.html).
 */
export interface WarmPool {
  /** Stopped, Running or Hibernated. */
  readonly poolState: string
  /** InstanceReusePolicy.ReuseOnScaleIn: scale-in returns members to the pool instead of terminating them. */
  readonly reuseOnScaleIn: boolean
}

export interface Group {
  readonly name: string
  readonly region: string
  readonly minSize: number
  readonly maxSize: number
  readonly desiredCapacity: number
  readonly healthCheckGracePeriodSeconds: number
  readonly tags: Readonly<Record<string, string>>
  /** The subset of `tags` marked PropagateAtLaunch; copied onto the spot instances launched for the group. */
  readonly propagatedTags: Readonly<Record<string, string>>
  readonly launchTemplate: LaunchTemplateRef | undefined
  readonly launchConfigurationName: string | undefined
  readonly mixedInstancesPolicy: MixedInstancesPolicy | undefined
  /**
   * What desired, min and max capacity count: `units` (instances, AWS's default), `vcpu` or `memory-mib`
   * (attribute-based instance type selection only;
   * https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_AutoScalingGroup.html). Absent: units.
   */
  readonly desiredCapacityType?: string | undefined
  readonly suspendedProcesses: readonly string[]
  readonly members: readonly GroupMember[]
  readonly subnetIds: readonly string[]
  readonly trafficSources: TrafficSources
  /**
   * CapacityRebalance: Auto Scaling itself replaces a spot member on a rebalance recommendation and
   * launches a replacement on an interruption notice
   * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-capacity-rebalancing.html).
   */
  readonly capacityRebalance: boolean
  /**
   * The group's warm pool, when it has one (WarmPoolConfiguration). Its instances are not members: the
   * adapter leaves out every `Warmed:*` instance, so they are never replaced nor counted.
   */
  readonly warmPool?: WarmPool | undefined
  /** `Delete in progress` while the group is being deleted. */
  readonly status: string | undefined
}

export interface SpotPrice {
  readonly instanceType: string
  readonly zone: string
  readonly productDescription: string
  readonly priceUsd: number
  readonly timestamp: Date
}

/**
 * Latest spot price per zone and type, for one product description: `book.get(zone)?.get(type)`. Kept by
 * zone because that is how the planner reads it (a selection weighs every type priced in one zone), so a
 * lookup builds no `type/zone` key.
 */
export type SpotPriceBook = ReadonlyMap<string, ReadonlyMap<string, number>>

/** A book from `[type/zone, price]` entries (poolKey), for the few places that hold prices by pool. */
export const spotPriceBook = (
  entries: Iterable<readonly [pool: string, priceUsd: number]>,
): SpotPriceBook => {
  const book = new Map<string, Map<string, number>>()
  for (const [pool, priceUsd] of entries) {
    const slash = pool.lastIndexOf('/')
    const zone = pool.slice(slash + 1)
    let view = book.get(zone)
    if (view === undefined) {
      view = new Map()
      book.set(zone, view)
    }
    view.set(pool.slice(0, slash), priceUsd)
  }
  return book
}

export const poolKey = (instanceType: string, zone: string): string => `${instanceType}/${zone}`

/** On-demand USD/hour per instance type (Linux, shared tenancy) in one region. */
export interface OnDemandPrices {
  readonly prices: ReadonlyMap<string, number>
  /** `pricing-api`, `embedded`, or `embedded-us-east-1` (approximate: the region was missing). */
  readonly source: 'pricing-api' | 'embedded' | 'embedded-us-east-1'
}
