import { describe, expect, it } from 'vitest'
import { embeddedOnDemandPrices } from '../../lambdas/data/on-demand-prices.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'
import { embeddedSpotPriceSteps } from '../../tools/data/spot-prices.ts'

const info = (name: string) => {
  const found = embeddedCatalog().get(name)
  if (!found) throw new Error(`${name} missing from the embedded catalog`)
  return found
}

describe('embeddedCatalog', () => {
  it('describes m5.large as 2 vCPU, 8 GiB, x86_64 HVM, EBS-only, not burstable, spot-capable', () => {
    expect(info('m5.large')).toEqual({
      name: 'm5.large',
      vcpus: 2,
      memoryMiB: 8192,
      architectures: ['x86_64'],
      virtualizationTypes: ['hvm'],
      accelerator: null,
      instanceStorage: null,
      ebsThroughputMBps: 81.25,
      bareMetal: false,
      burstable: false,
      // AWS's current DescribeInstanceTypes data (via moto) lists the m5 family as previous generation.
      currentGeneration: false,
      spotSupported: true,
      // Its platform is in the table below.
      platform: info('m5.large').platform,
    })
  })

  it.each([
    ['m5.large', 'nitro', 'required', 'required', ['legacy-bios', 'uefi'], 'Intel'],
    ['m4.large', 'xen', 'unsupported', 'unsupported', ['legacy-bios'], 'Intel'],
    ['m5.metal', undefined, 'required', 'required', ['legacy-bios'], 'Intel'],
    ['m6g.large', 'nitro', 'required', 'required', ['uefi'], 'AWS'],
    ['m6a.large', 'nitro', 'required', 'required', ['legacy-bios', 'uefi'], 'AMD'],
    // Retired types, from AWS's previous-generation pages (derive-fixtures.py).
    ['p3.2xlarge', 'xen', 'supported', 'unsupported', ['legacy-bios'], 'Intel'],
    ['g2.2xlarge', 'xen', 'unsupported', 'unsupported', ['legacy-bios'], 'Intel'],
    ['i3.metal', undefined, 'required', 'required', ['legacy-bios'], 'Intel'],
  ])(
    'gives %s hypervisor %s, ENA %s, EBS NVMe %s, boot modes %j, CPU %s',
    (name, hypervisor, ena, nvme, boot, cpu) => {
      expect(info(name).platform).toEqual({
        hypervisor,
        enaSupport: ena,
        ebsNvmeSupport: nvme,
        bootModes: boot,
        cpuManufacturer: cpu,
      })
    },
  )

  it('gives g4dn.xlarge one NVIDIA GPU and one 125 GB SSD', () => {
    expect(info('g4dn.xlarge')).toMatchObject({
      accelerator: { kind: 'gpu', count: 1, manufacturer: 'NVIDIA' },
      instanceStorage: { disks: 1, diskSizeGb: 125, ssd: true },
      currentGeneration: true,
    })
  })

  it.each([
    ['t3.large', true],
    ['t4g.micro', true],
    ['t2.medium', true],
    ['m5.large', false],
    ['c6i.xlarge', false],
  ])('marks %s burstable: %s', (name, burstable) => {
    expect(info(name).burstable).toBe(burstable)
  })

  it('lists every a1 type as arm64 only', () => {
    const a1 = [...embeddedCatalog().values()].filter((t) => t.name.startsWith('a1.'))
    expect(a1.map((t) => t.name).sort()).toEqual([
      'a1.2xlarge',
      'a1.4xlarge',
      'a1.large',
      'a1.medium',
      'a1.metal',
      'a1.xlarge',
    ])
    for (const type of a1) expect(type.architectures).toEqual(['arm64'])
  })

  it('describes m1.small as a previous-generation i386/x86_64 type that boots paravirtual AMIs on an HDD', () => {
    expect(info('m1.small')).toMatchObject({
      currentGeneration: false,
      architectures: ['i386', 'x86_64'],
      virtualizationTypes: ['hvm', 'paravirtual'],
      instanceStorage: { disks: 1, diskSizeGb: 160, ssd: false },
    })
  })

  it.each([
    ['p3.2xlarge', { kind: 'gpu', count: 1, manufacturer: 'NVIDIA', model: 'V100' }],
    ['p3.16xlarge', { kind: 'gpu', count: 8, manufacturer: 'NVIDIA', model: 'V100' }],
    ['p2.8xlarge', { kind: 'gpu', count: 8, manufacturer: 'NVIDIA', model: 'K80' }],
    ['f1.2xlarge', { kind: 'fpga', count: 1, manufacturer: 'Xilinx' }],
    ['f2.6xlarge', { kind: 'fpga', count: 1, manufacturer: 'Xilinx' }],
    ['inf1.xlarge', { kind: 'inference', count: 1, manufacturer: 'AWS' }],
    ['trn1.32xlarge', { kind: 'inference', count: 16, manufacturer: 'AWS' }],
    ['g5.48xlarge', { kind: 'gpu', count: 8, manufacturer: 'NVIDIA', model: 'A10G' }],
    ['c5.large', null],
  ])('gives %s the accelerator %o', (name, accelerator) => {
    expect(info(name).accelerator).toEqual(accelerator)
  })

  it('keeps the retired GPU types the capacity traces use, with their catalogue sizes', () => {
    expect(info('p3.2xlarge')).toMatchObject({
      vcpus: 8,
      memoryMiB: 62_464,
      currentGeneration: false,
      spotSupported: true,
    })
    expect(info('p2.xlarge')).toMatchObject({ vcpus: 4, memoryMiB: 62_464, currentGeneration: false })
  })

  it.each([
    ['i3.metal', true],
    ['m5.metal', true],
    ['m5.24xlarge', false],
  ])('marks %s bare metal: %s', (name, bareMetal) => {
    expect(info(name).bareMetal).toBe(bareMetal)
  })

  it.each(['mac1.metal', 'u-6tb1.112xlarge', 'hpc7g.16xlarge'])('marks %s as not offered on spot', (name) => {
    expect(info(name).spotSupported).toBe(false)
  })

  it('records mac types with their mac architectures', () => {
    expect(info('mac1.metal').architectures).toEqual(['x86_64_mac'])
    expect(info('mac2.metal').architectures).toEqual(['arm64_mac'])
  })

  it('knows every type that has a us-east-1 on-demand or spot price', () => {
    const catalog = embeddedCatalog()
    const priced = [...embeddedOnDemandPrices('us-east-1', 'Linux/UNIX').prices.keys()]
    const spot = [...embeddedSpotPriceSteps('us-east-1').keys()].map((pool) => pool.split('/')[0] ?? '')
    expect([...priced, ...spot].filter((type) => !catalog.has(type))).toEqual([])
    expect(catalog.size).toBeGreaterThan(1200)
  })

  it('returns the same map on every call', () => {
    expect(embeddedCatalog()).toBe(embeddedCatalog())
  })
})
