import { CreateFleetCommand } from '@aws-sdk/client-ec2'
import { beforeEach, describe, expect, it } from 'vitest'
import { MissingLaunchSourceError } from '../../lambdas/aws/errors.ts'
import type { SpotLaunchRequest } from '../../lambdas/core/port.ts'
import { awsError, ec2Mock, resetMocks, testAdapter } from './support.ts'

beforeEach(resetMocks)

const request: SpotLaunchRequest = {
  groupName: 'web',
  launchTemplate: { id: 'lt-0a1b2c3d4e5f60718', name: 'web', version: '$Latest' },
  launchConfigurationName: undefined,
  overrides: [
    { instanceType: 'm5.large', subnetId: 'subnet-0a1a1a1a1a1a1a1a1', zone: 'eu-west-1a', priority: 0 },
    { instanceType: 't3.large', subnetId: 'subnet-0b2b2b2b2b2b2b2b2', zone: 'eu-west-1b', priority: 1 },
  ],
  allocationStrategy: 'capacity-optimized-prioritized',
  tags: { 'launched-for-asg': 'web', 'launched-by-autospotting': 'true' },
  clientToken: 'spotswap-web-i-0aaa1111bbbb2222c-1',
}

const fleetInput = () => ec2Mock.commandCalls(CreateFleetCommand)[0]?.args[0].input

const launched = (overrides: Record<string, string>) => ({
  Instances: [
    {
      LaunchTemplateAndOverrides: {
        LaunchTemplateSpecification: { LaunchTemplateId: 'lt-0a1b2c3d4e5f60718', Version: '$Latest' },
        Overrides: overrides,
      },
      Lifecycle: 'spot' as const,
      InstanceIds: ['i-0fff5555aaaa6666b'],
      InstanceType: 't3.large' as const,
    },
  ],
  Errors: [],
})

describe('launchSpot', () => {
  it('launches a type whose MixedInstancesPolicy override names its own template from that template', async () => {
    ec2Mock.on(CreateFleetCommand).resolves(launched({ InstanceType: 'm6g.large' }))
    const arm = { id: 'lt-0arm', name: undefined, version: '3' }
    await testAdapter().cloud.launchSpot({
      ...request,
      overrides: [
        {
          instanceType: 'm6g.large',
          subnetId: 'subnet-a',
          zone: 'eu-west-1a',
          priority: 0,
          launchTemplate: arm,
        },
        { instanceType: 'm5.large', subnetId: 'subnet-a', zone: 'eu-west-1a', priority: 1 },
        {
          instanceType: 'c6g.large',
          subnetId: 'subnet-a',
          zone: 'eu-west-1a',
          priority: 2,
          launchTemplate: arm,
        },
      ],
    })
    expect(fleetInput()?.LaunchTemplateConfigs).toEqual([
      {
        LaunchTemplateSpecification: { LaunchTemplateId: 'lt-0arm', Version: '3' },
        Overrides: [
          { InstanceType: 'm6g.large', SubnetId: 'subnet-a', Priority: 0 },
          { InstanceType: 'c6g.large', SubnetId: 'subnet-a', Priority: 2 },
        ],
      },
      {
        LaunchTemplateSpecification: { LaunchTemplateId: 'lt-0a1b2c3d4e5f60718', Version: '$Latest' },
        Overrides: [{ InstanceType: 'm5.large', SubnetId: 'subnet-a', Priority: 1 }],
      },
    ])
  })

  it('creates an instant fleet of one spot instance from the group template with tags and the client token', async () => {
    ec2Mock
      .on(CreateFleetCommand)
      .resolves(launched({ InstanceType: 't3.large', SubnetId: 'subnet-0b2b2b2b2b2b2b2b2' }))
    const { cloud, apiCalls } = testAdapter()

    const result = await cloud.launchSpot(request)

    expect(result).toEqual({
      ok: true,
      instanceId: 'i-0fff5555aaaa6666b',
      instanceType: 't3.large',
      zone: 'eu-west-1b',
    })
    const tags = [
      { Key: 'launched-for-asg', Value: 'web' },
      { Key: 'launched-by-autospotting', Value: 'true' },
    ]
    expect(fleetInput()).toEqual({
      Type: 'instant',
      ClientToken: 'spotswap-web-i-0aaa1111bbbb2222c-1',
      TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'spot' },
      SpotOptions: { AllocationStrategy: 'capacity-optimized-prioritized' },
      LaunchTemplateConfigs: [
        {
          LaunchTemplateSpecification: { LaunchTemplateId: 'lt-0a1b2c3d4e5f60718', Version: '$Latest' },
          Overrides: [
            { InstanceType: 'm5.large', SubnetId: 'subnet-0a1a1a1a1a1a1a1a1', Priority: 0 },
            { InstanceType: 't3.large', SubnetId: 'subnet-0b2b2b2b2b2b2b2b2', Priority: 1 },
          ],
        },
      ],
      TagSpecifications: [
        { ResourceType: 'instance', Tags: tags },
        { ResourceType: 'fleet', Tags: tags },
      ],
    })
    expect(apiCalls).toEqual(['ec2:CreateFleet'])
  })

  it.each([
    ['price-capacity-optimized', 'price-capacity-optimized'],
    ['capacity-optimized-prioritized', 'capacity-optimized-prioritized'],
    ['lowest-price', 'lowest-price'],
  ] as const)('maps the %s strategy to SpotOptions.AllocationStrategy %s', async (strategy, expected) => {
    ec2Mock.on(CreateFleetCommand).resolves(launched({ InstanceType: 't3.large' }))
    await testAdapter().cloud.launchSpot({ ...request, allocationStrategy: strategy })
    expect(fleetInput()?.SpotOptions).toEqual({ AllocationStrategy: expected })
  })

  it('never sends the flags plan shows for a candidate', async () => {
    ec2Mock.on(CreateFleetCommand).resolves(launched({ InstanceType: 'm5a.large' }))
    await testAdapter().cloud.launchSpot({
      ...request,
      overrides: [
        {
          instanceType: 'm5a.large',
          subnetId: 'subnet-a',
          zone: 'eu-west-1a',
          priority: 0,
          flags: ['cpu-vendor-change'],
        },
      ],
    })
    expect(fleetInput()?.LaunchTemplateConfigs?.[0]?.Overrides).toEqual([
      { InstanceType: 'm5a.large', SubnetId: 'subnet-a', Priority: 0 },
    ])
  })

  it('names the zone instead of a subnet for a group without subnets', async () => {
    ec2Mock
      .on(CreateFleetCommand)
      .resolves(launched({ InstanceType: 'm5.large', AvailabilityZone: 'eu-west-1a' }))
    const result = await testAdapter().cloud.launchSpot({
      ...request,
      overrides: [{ instanceType: 'm5.large', subnetId: undefined, zone: 'eu-west-1a', priority: 0 }],
    })
    expect(fleetInput()?.LaunchTemplateConfigs?.[0]?.Overrides).toEqual([
      { InstanceType: 'm5.large', AvailabilityZone: 'eu-west-1a', Priority: 0 },
    ])
    expect(result).toMatchObject({ ok: true, zone: 'eu-west-1a' })
  })

  it.each([
    [
      'a name and no version as the $Default version',
      { id: undefined, name: 'web', version: undefined },
      { LaunchTemplateName: 'web', Version: '$Default' },
    ],
    [
      'both id and name by id only',
      { id: 'lt-1', name: 'web', version: '7' },
      { LaunchTemplateId: 'lt-1', Version: '7' },
    ],
  ])('refers to a template with %s', async (_label, launchTemplate, expected) => {
    ec2Mock.on(CreateFleetCommand).resolves(launched({ InstanceType: 't3.large' }))
    await testAdapter().cloud.launchSpot({ ...request, launchTemplate })
    expect(fleetInput()?.LaunchTemplateConfigs?.[0]?.LaunchTemplateSpecification).toEqual(expected)
  })

  it('sends no tag specifications when there are no tags', async () => {
    ec2Mock.on(CreateFleetCommand).resolves(launched({ InstanceType: 't3.large' }))
    await testAdapter().cloud.launchSpot({ ...request, tags: {} })
    expect(fleetInput()?.TagSpecifications).toBeUndefined()
  })

  it('returns the per-override errors when no instance was launched', async () => {
    ec2Mock.on(CreateFleetCommand).resolves({
      Instances: [],
      Errors: [
        {
          LaunchTemplateAndOverrides: {
            Overrides: { InstanceType: 'm5.large', SubnetId: 'subnet-0a1a1a1a1a1a1a1a1' },
          },
          Lifecycle: 'spot',
          ErrorCode: 'InsufficientInstanceCapacity',
          ErrorMessage:
            'We currently do not have sufficient m5.large capacity in the Availability Zone you requested.',
        },
        {
          LaunchTemplateAndOverrides: {
            Overrides: { InstanceType: 't3.large', SubnetId: 'subnet-0b2b2b2b2b2b2b2b2' },
          },
          Lifecycle: 'spot',
          ErrorCode: 'SpotMaxPriceTooLow',
          ErrorMessage:
            'Your Spot request price is lower than the minimum required Spot request fulfillment price.',
        },
      ],
    })

    const result = await testAdapter().cloud.launchSpot(request)

    expect(result).toEqual({
      ok: false,
      errors: [
        {
          instanceType: 'm5.large',
          code: 'InsufficientInstanceCapacity',
          message:
            'We currently do not have sufficient m5.large capacity in the Availability Zone you requested.',
        },
        {
          instanceType: 't3.large',
          code: 'SpotMaxPriceTooLow',
          message:
            'Your Spot request price is lower than the minimum required Spot request fulfillment price.',
        },
      ],
    })
  })

  it('reports an empty answer as a failed launch rather than inventing an instance', async () => {
    ec2Mock.on(CreateFleetCommand).resolves({ Instances: [], Errors: [] })
    await expect(testAdapter().cloud.launchSpot(request)).resolves.toMatchObject({
      ok: false,
      errors: [{ code: 'NoInstanceLaunched' }],
    })
  })

  it('turns a capacity error thrown for the whole request into a failed launch', async () => {
    ec2Mock.on(CreateFleetCommand).rejects(awsError('InsufficientInstanceCapacity', 'no capacity', 500))
    await expect(testAdapter().cloud.launchSpot(request)).resolves.toEqual({
      ok: false,
      errors: [{ instanceType: undefined, code: 'InsufficientInstanceCapacity', message: 'no capacity' }],
    })
  })

  it('lets any other request failure through', async () => {
    ec2Mock.on(CreateFleetCommand).rejects(awsError('InvalidParameterValue', 'bad template'))
    await expect(testAdapter().cloud.launchSpot(request)).rejects.toThrow('bad template')
  })

  it('refuses a request with neither a launch template nor a launch configuration', async () => {
    await expect(
      testAdapter().cloud.launchSpot({ ...request, launchTemplate: undefined }),
    ).rejects.toBeInstanceOf(MissingLaunchSourceError)
    expect(ec2Mock).not.toHaveReceivedAnyCommand()
  })
})
