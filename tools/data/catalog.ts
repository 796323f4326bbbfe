import type {
  Accelerator,
  AcceleratorKind,
  Architecture,
  BootMode,
  Catalog,
  InstanceStorage,
  InstanceTypeInfo,
  SupportLevel,
  TypePlatform,
} from '../../lambdas/core/types.ts'
import { readFixture } from './fixtures.ts'

/** One row of fixtures/instance-types.json, written by scripts/derive-fixtures.py; `columns` in the file names them. */
type Row = readonly [
  vcpus: number,
  memoryMiB: number,
  architectures: readonly Architecture[],
  virtualizationTypes: readonly ('hvm' | 'paravirtual')[],
  accelerator: readonly [kind: AcceleratorKind, count: number, manufacturer: string, model?: string] | null,
  instanceStorage: readonly [disks: number, diskSizeGb: number, ssd: 0 | 1] | null,
  ebsThroughputMBps: number,
  flags: string,
  platform: readonly [
    hypervisor: '' | 'nitro' | 'xen',
    ena: SupportLetter,
    ebsNvme: SupportLetter,
    bootModes: string,
    cpuManufacturer: string,
  ],
]

type SupportLetter = 'r' | 's' | 'u'
const SUPPORT: Readonly<Record<SupportLetter, SupportLevel>> = {
  r: 'required',
  s: 'supported',
  u: 'unsupported',
}

const toBootModes = (letters: string): BootMode[] => {
  const modes: BootMode[] = []
  if (letters.includes('l')) modes.push('legacy-bios')
  if (letters.includes('u')) modes.push('uefi')
  return modes
}

const toPlatform = (cell: Row[8]): TypePlatform => ({
  hypervisor: cell[0] === '' ? undefined : cell[0],
  enaSupport: SUPPORT[cell[1]],
  ebsNvmeSupport: SUPPORT[cell[2]],
  bootModes: toBootModes(cell[3]),
  cpuManufacturer: cell[4],
})

// Parsed JSON has no tuple types; the shape is pinned by the derivation script and test/data.
const rows = (readFixture('instance-types.json') as { readonly types: Readonly<Record<string, Row>> }).types

const toAccelerator = (cell: Row[4]): Accelerator | null =>
  cell ? { kind: cell[0], count: cell[1], manufacturer: cell[2], model: cell[3] } : null

const toStorage = (cell: Row[5]): InstanceStorage | null =>
  cell ? { disks: cell[0], diskSizeGb: cell[1], ssd: cell[2] === 1 } : null

const toInfo = (name: string, row: Row): InstanceTypeInfo => {
  const [vcpus, memoryMiB, architectures, virtualizationTypes, accelerator, storage, ebs, flags, platform] =
    row
  return {
    name,
    vcpus,
    memoryMiB,
    architectures,
    virtualizationTypes,
    accelerator: toAccelerator(accelerator),
    instanceStorage: toStorage(storage),
    ebsThroughputMBps: ebs,
    bareMetal: flags.includes('m'),
    burstable: flags.includes('b'),
    currentGeneration: flags.includes('c'),
    spotSupported: flags.includes('s'),
    platform: toPlatform(platform),
  }
}

let catalog: Catalog | undefined

/**
 * Every instance type usable in us-east-1: AWS's DescribeInstanceTypes data (as shipped by moto), plus the
 * retired types (p2, p3, g3, f1, ...) that the 2022 spot prices and the capacity traces still mention.
 */
export const embeddedCatalog = (): Catalog => {
  catalog ??= new Map(Object.entries(rows).map(([name, row]) => [name, toInfo(name, row)]))
  return catalog
}
