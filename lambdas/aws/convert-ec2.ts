/**
 * EC2's shapes into core types, once, at the boundary: instances, instance types and spot prices.
 * Everything the SDK marks optional gets its AWS default here, so the core never sees `undefined` where
 * AWS always sends a value.
 */
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
  BootMode,
  Instance,
  InstanceState,
  InstanceStorage,
  InstanceTypeInfo,
  SpotPrice,
  SupportLevel,
  TypePlatform,
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

const tagsToRecord = (tags: readonly Tag[] | undefined): Record<string, string> => {
  const record: Record<string, string> = {}
  for (const tag of tags ?? []) {
    if (tag.Key !== undefined) record[tag.Key] = tag.Value ?? ''
  }
  return record
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
  if (gpus.length > 0) {
    const first = gpus[0]
    return {
      kind: 'gpu',
      count: sumCounts(gpus),
      manufacturer: first?.Manufacturer ?? '',
      model: first?.Name,
    }
  }
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

const SUPPORT_LEVELS: readonly string[] = ['required', 'supported', 'unsupported'] satisfies SupportLevel[]
const BOOT_MODES: readonly string[] = ['legacy-bios', 'uefi'] satisfies BootMode[]

/** A level the API did not report reads `supported`: neither demanded of the AMI nor ruled out. */
const toSupportLevel = (value: string | undefined): SupportLevel =>
  value !== undefined && SUPPORT_LEVELS.includes(value) ? (value as SupportLevel) : 'supported'

const toPlatform = (info: Ec2InstanceTypeInfo): TypePlatform => ({
  hypervisor: info.Hypervisor === 'nitro' || info.Hypervisor === 'xen' ? info.Hypervisor : undefined,
  enaSupport: toSupportLevel(info.NetworkInfo?.EnaSupport),
  ebsNvmeSupport: toSupportLevel(info.EbsInfo?.NvmeSupport),
  bootModes: (info.SupportedBootModes ?? []).filter((m): m is BootMode => BOOT_MODES.includes(m)),
  cpuManufacturer: info.ProcessorInfo?.Manufacturer ?? '',
})

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
  platform: toPlatform(info),
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
