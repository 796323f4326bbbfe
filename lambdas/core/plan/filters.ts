/**
 * The compatibility filters a spot type must pass to replace an instance, in the order they are asked:
 * the first that refuses a candidate is its recorded reason (selection.ts runs them and ranks the rest).
 */

import type { GroupConfig } from '../config/config.ts'
import { matchesGlob } from '../config/glob.ts'
import type { CandidateFlag, InstanceTypeInfo, SpotPriceBook } from '../types.ts'

export interface SelectionContext {
  readonly original: InstanceTypeInfo
  readonly zone: string
  readonly config: GroupConfig
  readonly spotPrices: SpotPriceBook
  /** On-demand USD/hour of the original type; undefined when unknown (then nothing passes `price`). */
  readonly originalOnDemandPrice: number | undefined
}

export interface CandidateFilter {
  readonly name: string
  /**
   * Whether the verdict reads the candidate's spot price (`spotPrice`, undefined when the pool has none).
   * The others depend only on the candidate, the original type and the allow and deny lists, so their
   * verdicts are remembered for as long as the catalogue is (a warm container keeps it for hours).
   */
  readonly readsPrice?: true
  readonly keep: (
    candidate: InstanceTypeInfo,
    ctx: SelectionContext,
    spotPrice: number | undefined,
  ) => boolean
}

/** `m5.large` → 5, `c6gn.xlarge` → 6; 0 when the name has no generation digit. */
export const generationOf = (instanceType: string): number => {
  const match = /^[a-z]+(\d+)/.exec(instanceType)
  return match?.[1] ? Number(match[1]) : 0
}

// The filters run for every catalogue type of every selection (a few hundred thousand times in a large
// run): their helpers take no arrow function closing over the candidate, which V8 would allocate each time.
const isArm = (architecture: string): boolean => architecture === 'arm64' || architecture === 'arm64_mac'

const archFamily = (info: InstanceTypeInfo): string => (info.architectures.some(isArm) ? 'arm64' : 'x86_64')

const sharesAny = (offered: readonly string[], needed: readonly string[]): boolean => {
  for (const value of offered) if (needed.includes(value)) return true
  return false
}

/**
 * A pattern names types when it spells out their family (`t3.*`, `g4ad.xlarge`). Patterns with a wildcard
 * in the family (`*`, `*.large`, `t*`) only shape the list: a size filter such as `*.large` must not
 * let a t3.large replace an m5.large.
 */
const namesFamily = (pattern: string): boolean => {
  const family = pattern.split('.')[0] ?? ''
  return pattern !== 'current' && family.length > 0 && !/[*?]/.test(family)
}

/**
 * A type named in the allow list is an explicit choice: it may cross the performance-class filters
 * (burstable, accelerators, previous generation).
 */
const explicitlyAllowed = (candidate: InstanceTypeInfo, ctx: SelectionContext): boolean =>
  ctx.config.allowedInstanceTypes.some(
    (pattern) => namesFamily(pattern) && matchesGlob(candidate.name, pattern),
  )

/** The list as it is when it names no `current` (no copy: this runs for most catalogue types). */
const expandCurrent = (patterns: readonly string[], originalType: string): readonly string[] =>
  patterns.includes('current')
    ? patterns.map((pattern) => (pattern === 'current' ? originalType : pattern))
    : patterns

const storageFits = (candidate: InstanceTypeInfo, original: InstanceTypeInfo): boolean => {
  const needed = original.instanceStorage
  if (!needed || needed.disks === 0) return true
  const offered = candidate.instanceStorage
  if (!offered) return false
  return (
    offered.disks >= needed.disks && offered.diskSizeGb >= needed.diskSizeGb && (!needed.ssd || offered.ssd)
  )
}

const acceleratorFits = (candidate: InstanceTypeInfo, original: InstanceTypeInfo): boolean => {
  const want = original.accelerator
  const have = candidate.accelerator
  if (!want) return !have
  return (
    have !== null &&
    have.kind === want.kind &&
    have.count >= want.count &&
    have.manufacturer.toLowerCase() === want.manufacturer.toLowerCase()
  )
}

/** The GPU model a type carries (`V100`, `A10G`); undefined when it has none or AWS names none. */
const gpuModelOf = (info: InstanceTypeInfo): string | undefined =>
  info.accelerator?.kind === 'gpu' ? info.accelerator.model?.toLowerCase() : undefined

/**
 * CUDA code built for one GPU model (compute capability, memory size) can fail on another: a type with a
 * GPU is replaced by the same model unless the group allows a change or its allow list names the family.
 */
const gpuModelFits = (candidate: InstanceTypeInfo, ctx: SelectionContext): boolean => {
  const wanted = gpuModelOf(ctx.original)
  return (
    wanted === undefined ||
    gpuModelOf(candidate) === wanted ||
    ctx.config.allowGpuModelChange ||
    explicitlyAllowed(candidate, ctx)
  )
}

// What the group's image carries is known only by what the instance being replaced proves: it booted from
// it. A type that needs more than that (ENA, NVMe drivers, a boot mode) is kept out unless the group says
// its image is ready for Nitro.

/**
 * EC2 refuses to launch a type that requires ENA from an image without `EnaSupport`
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/enhanced-networking-ena.html).
 */
const enaFits = (candidate: InstanceTypeInfo, ctx: SelectionContext): boolean =>
  candidate.platform.enaSupport !== 'required' ||
  ctx.original.platform.enaSupport === 'required' ||
  ctx.config.allowXenToNitro

/**
 * A Nitro type exposes EBS volumes as NVMe devices: an image without NVMe drivers launches and never boots
 * (https://docs.aws.amazon.com/ebs/latest/userguide/nvme-ebs-volumes.html), and DescribeImages does not say.
 */
const nvmeFits = (candidate: InstanceTypeInfo, ctx: SelectionContext): boolean =>
  candidate.platform.ebsNvmeSupport !== 'required' ||
  ctx.original.platform.ebsNvmeSupport === 'required' ||
  ctx.config.allowXenToNitro

/**
 * The image boots in one of the modes its current type supports, and which one is not known here: the
 * candidate must support them all. A type reporting none is trusted with nothing
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ami-boot.html).
 */
const bootModeFits = (candidate: InstanceTypeInfo, ctx: SelectionContext): boolean => {
  for (const mode of ctx.original.platform.bootModes) {
    if (!candidate.platform.bootModes.includes(mode)) return false
  }
  return true
}

const cpuVendorChanges = (candidate: InstanceTypeInfo, original: InstanceTypeInfo): boolean =>
  candidate.platform.cpuManufacturer !== original.platform.cpuManufacturer

const generationChanges = (candidate: InstanceTypeInfo, original: InstanceTypeInfo): boolean =>
  generationOf(candidate.name) !== generationOf(original.name)

const NO_FLAGS: readonly CandidateFlag[] = []

/** The flags of a candidate that passed the filters; one shared empty list for most. */
export const flagsOf = (
  candidate: InstanceTypeInfo,
  original: InstanceTypeInfo,
): readonly CandidateFlag[] => {
  const vendor = cpuVendorChanges(candidate, original)
  const generation = generationChanges(candidate, original)
  if (!vendor && !generation) return NO_FLAGS
  const flags: CandidateFlag[] = []
  if (vendor) flags.push('cpu-vendor-change')
  if (generation) flags.push('generation-change')
  return flags
}

export const FILTERS: readonly CandidateFilter[] = [
  { name: 'spot-offered', readsPrice: true, keep: (c, _ctx, spot) => c.spotSupported && spot !== undefined },
  { name: 'architecture', keep: (c, ctx) => archFamily(c) === archFamily(ctx.original) },
  {
    name: 'virtualization',
    keep: (c, ctx) => sharesAny(c.virtualizationTypes, ctx.original.virtualizationTypes),
  },
  { name: 'vcpus', keep: (c, ctx) => c.vcpus >= ctx.original.vcpus },
  { name: 'memory', keep: (c, ctx) => c.memoryMiB >= ctx.original.memoryMiB },
  { name: 'instance-storage', keep: (c, ctx) => storageFits(c, ctx.original) },
  { name: 'ebs-throughput', keep: (c, ctx) => c.ebsThroughputMBps >= ctx.original.ebsThroughputMBps },
  // Bare metal both ways: metal is not needed by virtualised workloads, and is needed by those that
  // run their own hypervisor or use hardware features a virtualised type hides.
  { name: 'bare-metal', keep: (c, ctx) => c.bareMetal === ctx.original.bareMetal },
  {
    name: 'burstable',
    keep: (c, ctx) => !c.burstable || ctx.original.burstable || explicitlyAllowed(c, ctx),
  },
  {
    name: 'accelerator',
    keep: (c, ctx) => acceleratorFits(c, ctx.original) || explicitlyAllowed(c, ctx),
  },
  { name: 'gpu-model', keep: (c, ctx) => gpuModelFits(c, ctx) },
  { name: 'hypervisor', keep: (c, ctx) => nvmeFits(c, ctx) },
  { name: 'ena', keep: (c, ctx) => enaFits(c, ctx) },
  { name: 'boot-mode', keep: (c, ctx) => bootModeFits(c, ctx) },
  {
    name: 'cpu-vendor',
    keep: (c, ctx) => ctx.config.allowCpuVendorChange || !cpuVendorChanges(c, ctx.original),
  },
  {
    name: 'generation-change',
    keep: (c, ctx) => ctx.config.allowGenerationChange || !generationChanges(c, ctx.original),
  },
  {
    // Previous-generation types only replace previous-generation ones, and never with an older generation.
    name: 'generation',
    keep: (c, ctx) =>
      c.currentGeneration ||
      (!ctx.original.currentGeneration && generationOf(c.name) >= generationOf(ctx.original.name)) ||
      explicitlyAllowed(c, ctx),
  },
  {
    name: 'allow-list',
    keep: (c, ctx) =>
      ctx.config.allowedInstanceTypes.length === 0 ||
      expandCurrent(ctx.config.allowedInstanceTypes, ctx.original.name).some((p) => matchesGlob(c.name, p)),
  },
  {
    name: 'deny-list',
    keep: (c, ctx) =>
      !expandCurrent(ctx.config.disallowedInstanceTypes, ctx.original.name).some((p) =>
        matchesGlob(c.name, p),
      ),
  },
  {
    name: 'price',
    readsPrice: true,
    keep: (_c, ctx, spot) =>
      spot !== undefined &&
      ctx.originalOnDemandPrice !== undefined &&
      spot < ctx.originalOnDemandPrice * ctx.config.onDemandPriceMultiplier,
  },
]
