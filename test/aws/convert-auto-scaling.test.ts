import type { AutoScalingGroup } from '@aws-sdk/client-auto-scaling'
import { describe, expect, it } from 'vitest'
import { toGroup } from '../../lambdas/aws/convert-auto-scaling.ts'
import { mixedInstancesGroup } from './sdk-fixtures.ts'

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
      desiredCapacityType: 'units',
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

  it.each([
    [undefined, 'units'],
    ['vcpu', 'vcpu'],
    ['memory-mib', 'memory-mib'],
  ])('reads DesiredCapacityType %s as %s (units is AWS default)', (given, read) => {
    const group = toGroup({ ...mixedInstancesGroup, DesiredCapacityType: given }, 'eu-west-1')
    expect(group.desiredCapacityType).toBe(read)
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
