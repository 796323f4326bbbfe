import type { InstanceTypeInfo as Ec2InstanceTypeInfo } from '@aws-sdk/client-ec2'
import { describe, expect, it } from 'vitest'
import { toInstance, toInstanceTypeInfo, toSpotPrice } from '../../lambdas/aws/convert-ec2.ts'
import {
  g4dnXlarge,
  launchedSpotInstance,
  m5Large,
  onDemandWindowsInstance,
  t3Large,
} from './sdk-fixtures.ts'

describe('toInstanceTypeInfo', () => {
  it('converts g4dn.xlarge with its GPU and local NVMe disk', () => {
    expect(toInstanceTypeInfo(g4dnXlarge)).toEqual({
      name: 'g4dn.xlarge',
      vcpus: 4,
      memoryMiB: 16384,
      architectures: ['x86_64'],
      virtualizationTypes: ['hvm'],
      accelerator: { kind: 'gpu', count: 1, manufacturer: 'NVIDIA', model: 'T4' },
      instanceStorage: { disks: 1, diskSizeGb: 125, ssd: true },
      ebsThroughputMBps: 118.75,
      bareMetal: false,
      burstable: false,
      currentGeneration: true,
      spotSupported: true,
      platform: {
        hypervisor: 'nitro',
        enaSupport: 'required',
        ebsNvmeSupport: 'required',
        bootModes: ['legacy-bios', 'uefi'],
        cpuManufacturer: 'Intel',
      },
    })
  })

  it('reads a type that reports no platform facts as asking nothing of the image and proving nothing', () => {
    const bare: Ec2InstanceTypeInfo = { InstanceType: 'm5.large', Hypervisor: 'kvm' as 'nitro' }
    expect(toInstanceTypeInfo(bare).platform).toEqual({
      hypervisor: undefined,
      enaSupport: 'supported',
      ebsNvmeSupport: 'supported',
      bootModes: [],
      cpuManufacturer: '',
    })
  })

  it('marks t3.large burstable and without instance storage', () => {
    expect(toInstanceTypeInfo(t3Large)).toMatchObject({
      name: 't3.large',
      vcpus: 2,
      memoryMiB: 8192,
      burstable: true,
      accelerator: null,
      instanceStorage: null,
      ebsThroughputMBps: 86.875,
    })
  })

  it('converts m5.large as a plain current-generation type', () => {
    expect(toInstanceTypeInfo(m5Large)).toMatchObject({
      name: 'm5.large',
      burstable: false,
      accelerator: null,
      ebsThroughputMBps: 81.25,
      spotSupported: true,
    })
  })

  it.each<[string, Partial<Ec2InstanceTypeInfo>, unknown]>([
    [
      'FpgaInfo as an fpga',
      { FpgaInfo: { Fpgas: [{ Name: 'Virtex UltraScale (VU9P)', Manufacturer: 'Xilinx', Count: 2 }] } },
      { kind: 'fpga', count: 2, manufacturer: 'Xilinx' },
    ],
    [
      'InferenceAcceleratorInfo as inference',
      { InferenceAcceleratorInfo: { Accelerators: [{ Count: 4, Name: 'Inferentia', Manufacturer: 'AWS' }] } },
      { kind: 'inference', count: 4, manufacturer: 'AWS' },
    ],
    [
      'NeuronInfo as inference made by AWS',
      {
        NeuronInfo: {
          NeuronDevices: [{ Count: 1, Name: 'Inferentia2', CoreInfo: { Count: 2, Version: 2 } }],
        },
      },
      { kind: 'inference', count: 1, manufacturer: 'AWS' },
    ],
    ['no accelerator info as none', {}, null],
  ])('reads %s', (_label, accelerators, expected) => {
    expect(toInstanceTypeInfo({ ...m5Large, ...accelerators }).accelerator).toEqual(expected)
  })

  it('reports an on-demand-only type as not spot-supported', () => {
    expect(toInstanceTypeInfo({ ...m5Large, SupportedUsageClasses: ['on-demand'] }).spotSupported).toBe(false)
  })

  it('keeps only the architectures the core knows', () => {
    const info = toInstanceTypeInfo({
      ...m5Large,
      ProcessorInfo: { SupportedArchitectures: ['arm64', 'x86_64_mac'] },
    })
    expect(info.architectures).toEqual(['arm64', 'x86_64_mac'])
  })
})

describe('toInstance', () => {
  it('converts a spot instance launched by spotswap', () => {
    expect(toInstance(launchedSpotInstance)).toEqual({
      id: 'i-0fff5555aaaa6666b',
      type: 't3.large',
      zone: 'eu-west-1b',
      subnetId: 'subnet-0b2b2b2b2b2b2b2b2',
      lifecycle: 'spot',
      state: 'running',
      launchTime: new Date('2026-03-02T09:41:07.000Z'),
      tags: { 'launched-for-asg': 'web', 'launched-by-autospotting': 'true', team: 'storefront' },
      platform: 'Linux/UNIX',
    })
  })

  it('treats an instance without InstanceLifecycle as on-demand and keeps its platform', () => {
    expect(toInstance(onDemandWindowsInstance)).toMatchObject({
      lifecycle: 'on-demand',
      state: 'stopped',
      platform: 'Windows',
    })
  })

  it('reports Linux/UNIX when PlatformDetails is missing', () => {
    expect(toInstance({ ...launchedSpotInstance, PlatformDetails: undefined })?.platform).toBe('Linux/UNIX')
  })

  it.each([
    ['id', { InstanceId: undefined }],
    ['zone', { Placement: {} }],
    ['launch time', { LaunchTime: undefined }],
    ['state', { State: undefined }],
  ])('skips an instance described without its %s', (_field, missing) => {
    expect(toInstance({ ...launchedSpotInstance, ...missing })).toBeUndefined()
  })
})

describe('toSpotPrice', () => {
  it('parses the price string', () => {
    const row = {
      AvailabilityZone: 'eu-west-1b',
      InstanceType: 't3.large' as const,
      ProductDescription: 'Linux/UNIX' as const,
      SpotPrice: '0.028700',
      Timestamp: new Date('2026-03-02T09:00:00Z'),
    }
    expect(toSpotPrice(row)).toEqual({
      instanceType: 't3.large',
      zone: 'eu-west-1b',
      productDescription: 'Linux/UNIX',
      priceUsd: 0.0287,
      timestamp: new Date('2026-03-02T09:00:00Z'),
    })
    expect(toSpotPrice({ ...row, SpotPrice: 'n/a' })).toBeUndefined()
  })
})
