import type { AutoScalingGroup } from '@aws-sdk/client-auto-scaling'
import type { InstanceTypeInfo as Ec2InstanceTypeInfo } from '@aws-sdk/client-ec2'
import { describe, expect, it } from 'vitest'
import { toGroup, toInstance, toInstanceTypeInfo, toSpotPrice } from '../../lambdas/aws/convert.ts'
import {
  g4dnXlarge,
  launchedSpotInstance,
  m5Large,
  mixedInstancesGroup,
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
      accelerator: { kind: 'gpu', count: 1, manufacturer: 'NVIDIA' },
      instanceStorage: { disks: 1, diskSizeGb: 125, ssd: true },
      ebsThroughputMBps: 118.75,
      bareMetal: false,
      burstable: false,
      currentGeneration: true,
      spotSupported: true,
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

describe('toGroup', () => {
  it('converts a mixed-instances group with members, tags, subnets and suspended processes', () => {
    expect(toGroup(mixedInstancesGroup, 'eu-west-1')).toEqual({
      name: 'web',
      region: 'eu-west-1',
      minSize: 1,
      maxSize: 6,
      desiredCapacity: 2,
      healthCheckGracePeriodSeconds: 120,
      tags: { 'spot-enabled': 'true', team: 'storefront' },
      propagatedTags: { team: 'storefront' },
      launchTemplate: undefined,
      launchConfigurationName: undefined,
      mixedInstancesPolicy: {
        launchTemplate: { id: 'lt-0a1b2c3d4e5f60718', name: 'web', version: '$Latest' },
        overrideTypes: ['m5.large', 't3.large'],
        overrides: [
          { instanceType: 'm5.large', launchTemplate: undefined, weightedCapacity: 1 },
          {
            instanceType: 't3.large',
            launchTemplate: { id: 'lt-0fedcba9876543210', name: undefined, version: '$Latest' },
            weightedCapacity: 1,
          },
        ],
        // An override's own template: provenance accepts launches from it too.
        overrideTemplateIds: ['lt-0fedcba9876543210'],
        onDemandBaseCapacity: 1,
        onDemandPercentageAboveBaseCapacity: 25,
      },
      suspendedProcesses: ['AZRebalance'],
      members: [
        {
          instanceId: 'i-0aaa1111bbbb2222c',
          lifecycleState: 'InService',
          healthStatus: 'Healthy',
          protectedFromScaleIn: false,
          zone: 'eu-west-1a',
          instanceType: 'm5.large',
        },
        {
          instanceId: 'i-0ddd3333eeee4444f',
          lifecycleState: 'Pending:Wait',
          healthStatus: 'Healthy',
          protectedFromScaleIn: true,
          zone: 'eu-west-1b',
          instanceType: 't3.large',
        },
      ],
      subnetIds: ['subnet-0a1a1a1a1a1a1a1a1', 'subnet-0b2b2b2b2b2b2b2b2'],
      trafficSources: { targetGroupArns: [], classicLoadBalancerNames: [], unreadable: [] },
      capacityRebalance: false,
      status: undefined,
    })
  })

  it('reads CapacityRebalance', () => {
    expect(toGroup({ ...mixedInstancesGroup, CapacityRebalance: true }, 'eu-west-1').capacityRebalance).toBe(
      true,
    )
  })

  it('reads the warm pool and leaves its instances out of the members', () => {
    const group = toGroup(
      {
        ...mixedInstancesGroup,
        MixedInstancesPolicy: undefined,
        WarmPoolConfiguration: {
          MinSize: 1,
          PoolState: 'Hibernated',
          InstanceReusePolicy: { ReuseOnScaleIn: true },
        },
        Instances: [
          ...(mixedInstancesGroup.Instances ?? []),
          ...[
            'Warmed:Pending',
            'Warmed:Stopped',
            'Warmed:Running',
            'Warmed:Hibernated',
            'Warmed:Terminating',
          ].map((state, i) => ({
            InstanceId: `i-0warm${i}`,
            AvailabilityZone: 'eu-west-1a',
            LifecycleState: state as 'Warmed:Stopped',
            HealthStatus: 'Healthy',
            ProtectedFromScaleIn: false,
          })),
        ],
      },
      'eu-west-1',
    )
    expect(group.warmPool).toEqual({ poolState: 'Hibernated', reuseOnScaleIn: true })
    expect(group.members.map((m) => m.instanceId)).toEqual(
      (mixedInstancesGroup.Instances ?? []).map((i) => i.InstanceId),
    )
  })

  it('defaults a warm pool to Stopped without reuse, and none when there is no configuration', () => {
    expect(toGroup({ ...mixedInstancesGroup, WarmPoolConfiguration: {} }, 'eu-west-1').warmPool).toEqual({
      poolState: 'Stopped',
      reuseOnScaleIn: false,
    })
    expect(toGroup(mixedInstancesGroup, 'eu-west-1').warmPool).toBeUndefined()
  })

  it('reads traffic sources from TargetGroupARNs, LoadBalancerNames and TrafficSources, once each', () => {
    const tg = 'arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup/web/0123456789abcdef'
    const tg2 = 'arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup/api/fedcba9876543210'
    const lattice = 'arn:aws:vpc-lattice:eu-west-1:123456789012:targetgroup/tg-0123456789abcdef0'
    const group: AutoScalingGroup = {
      ...mixedInstancesGroup,
      TargetGroupARNs: [tg],
      LoadBalancerNames: ['classic-web'],
      TrafficSources: [
        { Identifier: tg, Type: 'elbv2' },
        { Identifier: 'classic-web', Type: 'elb' },
        { Identifier: tg2 },
        { Identifier: lattice, Type: 'vpc-lattice' },
      ],
    }
    expect(toGroup(group, 'eu-west-1').trafficSources).toEqual({
      targetGroupArns: [tg, tg2],
      classicLoadBalancerNames: ['classic-web'],
      unreadable: [`vpc-lattice:${lattice}`],
    })
  })

  it('reads each override’s own launch template and weight (WeightedCapacity is a string)', () => {
    const group = {
      ...mixedInstancesGroup,
      MixedInstancesPolicy: {
        ...mixedInstancesGroup.MixedInstancesPolicy,
        LaunchTemplate: {
          ...mixedInstancesGroup.MixedInstancesPolicy?.LaunchTemplate,
          Overrides: [
            { InstanceType: 'm5.large', WeightedCapacity: '2' },
            {
              InstanceType: 'm6g.large',
              LaunchTemplateSpecification: { LaunchTemplateId: 'lt-0arm', Version: '4' },
            },
            { InstanceRequirements: { VCpuCount: { Min: 2 }, MemoryMiB: { Min: 4096 } } },
          ],
        },
      },
    }
    expect(toGroup(group, 'eu-west-1').mixedInstancesPolicy?.overrides).toEqual([
      { instanceType: 'm5.large', launchTemplate: undefined, weightedCapacity: 2 },
      {
        instanceType: 'm6g.large',
        launchTemplate: { id: 'lt-0arm', name: undefined, version: '4' },
        weightedCapacity: 1,
      },
    ])
  })

  it('defaults the instances distribution as Auto Scaling does: no base, 100% on-demand above it', () => {
    const group: AutoScalingGroup = {
      ...mixedInstancesGroup,
      MixedInstancesPolicy: { ...mixedInstancesGroup.MixedInstancesPolicy, InstancesDistribution: {} },
    }
    expect(toGroup(group, 'eu-west-1').mixedInstancesPolicy).toMatchObject({
      onDemandBaseCapacity: 0,
      onDemandPercentageAboveBaseCapacity: 100,
    })
  })

  it('reads a launch-template group without a version and a launch-configuration group being deleted', () => {
    const base = { ...mixedInstancesGroup, MixedInstancesPolicy: undefined }
    const templateGroup = toGroup({ ...base, LaunchTemplate: { LaunchTemplateName: 'api' } }, 'eu-west-1')
    expect(templateGroup.launchTemplate).toEqual({ id: undefined, name: 'api', version: undefined })
    expect(templateGroup.mixedInstancesPolicy).toBeUndefined()

    const configGroup = toGroup(
      { ...base, LaunchConfigurationName: 'legacy-lc', VPCZoneIdentifier: '', Status: 'Delete in progress' },
      'eu-west-1',
    )
    expect(configGroup).toMatchObject({
      launchTemplate: undefined,
      launchConfigurationName: 'legacy-lc',
      subnetIds: [],
      status: 'Delete in progress',
    })
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
