/**
 * What moto 5 does with the calls spotswap makes, as assertions. The end-to-end suites rely on the first
 * kind; the `quirk:` cases pin where moto differs from AWS, so a moto upgrade that changes either is
 * noticed here first, not as a mysterious failure elsewhere.
 */
import {
  AttachInstancesCommand,
  DescribeAutoScalingGroupsCommand,
  DetachInstancesCommand,
  TerminateInstanceInAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling'
import {
  CreateFleetCommand,
  DescribeInstanceAttributeCommand,
  DescribeInstancesCommand,
  DescribeInstanceTypesCommand,
  DescribeRegionsCommand,
  DescribeSpotPriceHistoryCommand,
  ModifyInstanceAttributeCommand,
  paginateDescribeInstanceTypes,
  paginateDescribeSpotPriceHistory,
  type SpotOptionsRequest,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2'
import { GetProductsCommand, PricingClient } from '@aws-sdk/client-pricing'
import { describe, expect, it } from 'vitest'
import { autoScaling, ec2, motoRegion, tagsOf } from './support/clients.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import {
  allInstances,
  createGroup,
  createLaunchTemplate,
  createNetwork,
  createSpotInstances,
  groupState,
  SEED_INSTANCE_TYPE,
} from './support/world.ts'

/** moto serialises thousands of rows as XML: 3-8 s for the full catalogue or price list, more under load. */
const CATALOGUE_TIMEOUT_MS = 60_000

const instancesById = async (ids: string[]) => {
  const described = await ec2().send(new DescribeInstancesCommand({ InstanceIds: ids }))
  return (described.Reservations ?? []).flatMap((reservation) => reservation.Instances ?? [])
}

const spotFleet = async (spotOptions: SpotOptionsRequest, capacity = 1) => {
  const network = await createNetwork()
  const template = await createLaunchTemplate({ name: 'probe' })
  const [first, second] = network.subnets
  const fleet = await ec2().send(
    new CreateFleetCommand({
      Type: 'instant',
      LaunchTemplateConfigs: [
        {
          LaunchTemplateSpecification: { LaunchTemplateId: template.id, Version: '$Latest' },
          Overrides: [
            { InstanceType: 'm5a.large', SubnetId: second?.id, Priority: 0 },
            { InstanceType: 'm5.large', SubnetId: first?.id, Priority: 1 },
          ],
        },
      ],
      TargetCapacitySpecification: { TotalTargetCapacity: capacity, DefaultTargetCapacityType: 'spot' },
      SpotOptions: spotOptions,
      TagSpecifications: [{ ResourceType: 'instance', Tags: [{ Key: 'launched-for-asg', Value: 'web' }] }],
    }),
  )
  const ids = (fleet.Instances ?? []).flatMap((launched) => launched.InstanceIds ?? [])
  return { fleet, ids, secondSubnet: second?.id }
}

describeMoto('moto as spotswap uses it', (moto) => {
  freshAccountPerTest(moto)

  describe('CreateFleet type instant', () => {
    it('launches spot instances with the TagSpecifications tags and returns their ids', async () => {
      const { fleet, ids } = await spotFleet({ AllocationStrategy: 'capacity-optimized-prioritized' })

      expect(fleet.Errors ?? []).toEqual([])
      expect(ids).toHaveLength(1)
      const [instance] = await instancesById(ids)
      expect(instance?.InstanceLifecycle).toBe('spot')
      expect(instance?.State?.Name).toBe('running')
      expect(tagsOf(instance?.Tags)).toMatchObject({ 'launched-for-asg': 'web' })
    })

    it.each(['lowest-price', 'capacity-optimized', 'price-capacity-optimized'] as const)(
      'quirk: fills all capacity from the first override under %s (AWS spreads by the strategy)',
      async (strategy) => {
        const { ids, secondSubnet } = await spotFleet({ AllocationStrategy: strategy }, 3)

        const instances = await instancesById(ids)
        expect(instances.map((i) => [i.InstanceType, i.SubnetId])).toEqual(
          Array(3).fill(['m5a.large', secondSubnet]),
        )
      },
    )
  })

  describe('group membership', () => {
    const groupWithSpareSpot = async () => {
      const group = await createGroup({ name: 'web', desired: 2, min: 1, max: 4 })
      const subnetId = group.network.subnets[0]?.id ?? ''
      const [spotId = ''] = await createSpotInstances({
        launchTemplateId: group.launchTemplate?.id ?? '',
        subnetId,
      })
      return { group, spotId }
    }

    it('AttachInstances raises desired by one; TerminateInstanceInAutoScalingGroup with decrement lowers it back', async () => {
      const { spotId } = await groupWithSpareSpot()
      await autoScaling().send(
        new AttachInstancesCommand({ AutoScalingGroupName: 'web', InstanceIds: [spotId] }),
      )
      const attached = await groupState('web')
      expect(attached.desired).toBe(3)
      expect(attached.members).toContainEqual({
        id: spotId,
        lifecycleState: 'InService',
        lifecycle: 'spot',
        type: 'm5.large',
      })

      const onDemand = attached.members.find((member) => member.lifecycle === 'on-demand')?.id ?? ''
      await autoScaling().send(
        new TerminateInstanceInAutoScalingGroupCommand({
          InstanceId: onDemand,
          ShouldDecrementDesiredCapacity: true,
        }),
      )

      const after = await groupState('web')
      expect(after.desired).toBe(2)
      expect(after.members.map((member) => member.id)).not.toContain(onDemand)
      // quirk: terminated at once; AWS shows the member as Terminating first (longer with a lifecycle hook).
      expect((await instancesById([onDemand]))[0]?.State?.Name).toBe('terminated')
    })

    it('DetachInstances without decrement keeps desired and launches a replacement at once (AWS: asynchronously)', async () => {
      await createGroup({ name: 'web', desired: 2, min: 1, max: 4 })
      const [detached = '', kept] = (await groupState('web')).members.map((member) => member.id)

      await autoScaling().send(
        new DetachInstancesCommand({
          AutoScalingGroupName: 'web',
          InstanceIds: [detached],
          ShouldDecrementDesiredCapacity: false,
        }),
      )

      const after = await groupState('web')
      expect(after.desired).toBe(2)
      expect(after.members).toHaveLength(2)
      expect(after.members.map((member) => member.id)).toContain(kept)
      expect(after.members.map((member) => member.id)).not.toContain(detached)
      const [instance] = await instancesById([detached])
      expect(instance?.State?.Name).toBe('running')
      expect(tagsOf(instance?.Tags)).not.toHaveProperty('aws:autoscaling:groupName')
    })

    it('quirk: replaces a member terminated through EC2 at once (AWS waits for a health check)', async () => {
      await createGroup({ name: 'web', desired: 2, min: 1, max: 4 })
      const [victim = ''] = (await groupState('web')).members.map((member) => member.id)

      await ec2().send(new TerminateInstancesCommand({ InstanceIds: [victim] }))

      const after = await groupState('web')
      expect(after.members).toHaveLength(2)
      expect(after.members.map((member) => member.id)).not.toContain(victim)
    })

    it('quirk: AttachInstances beyond MaxSize fails with ResourceContention (AWS: ValidationError)', async () => {
      const group = await createGroup({ name: 'web', desired: 2, min: 1, max: 2 })
      const [spotId = ''] = await createSpotInstances({
        launchTemplateId: group.launchTemplate?.id ?? '',
        subnetId: group.network.subnets[0]?.id ?? '',
      })

      const attach = autoScaling().send(
        new AttachInstancesCommand({ AutoScalingGroupName: 'web', InstanceIds: [spotId] }),
      )

      await expect(attach).rejects.toMatchObject({ name: 'ResourceContentionFault' })
      expect((await groupState('web')).desired).toBe(2)
    })

    it('quirk: stores HealthCheckGracePeriod 0 as 300 and launches every member in the first subnet', async () => {
      const group = await createGroup({ name: 'web', desired: 3, min: 3, max: 3, healthCheckGracePeriod: 0 })

      const described = await autoScaling().send(
        new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: ['web'] }),
      )
      expect(described.AutoScalingGroups?.[0]?.HealthCheckGracePeriod).toBe(300)
      const zones = new Set((await allInstances()).map((instance) => instance.zone))
      expect([...zones]).toEqual([group.network.subnets[0]?.zone])
    })
  })

  describe('DescribeAutoScalingGroups', () => {
    it.each([
      [{ Name: 'tag:spot-enabled', Values: ['true'] }, ['opted-in']],
      [{ Name: 'tag-key', Values: ['spot-enabled'] }, ['opted-in', 'opted-out']],
    ])('narrows server-side with filter %o', async (filter, expected) => {
      const network = await createNetwork()
      await createGroup({
        name: 'opted-in',
        desired: 0,
        min: 0,
        max: 1,
        network,
        tags: { 'spot-enabled': 'true' },
      })
      await createGroup({
        name: 'opted-out',
        desired: 0,
        min: 0,
        max: 1,
        network,
        tags: { 'spot-enabled': 'false' },
      })
      await createGroup({ name: 'untagged', desired: 0, min: 0, max: 1, network })

      const described = await autoScaling().send(new DescribeAutoScalingGroupsCommand({ Filters: [filter] }))

      expect(described.AutoScalingGroups?.map((group) => group.AutoScalingGroupName).sort()).toEqual(expected)
    })
  })

  describe('EC2 reads', () => {
    it('quirk: DescribeSpotPriceHistory at StartTime=now returns one dummy row per zone, timestamped 2006', async () => {
      const history = await ec2().send(
        new DescribeSpotPriceHistoryCommand({ StartTime: new Date(), InstanceTypes: [SEED_INSTANCE_TYPE] }),
      )

      const rows = history.SpotPriceHistory ?? []
      expect(rows.map((row) => row.AvailabilityZone)).toEqual([
        'us-east-1a',
        'us-east-1b',
        'us-east-1c',
        'us-east-1d',
        'us-east-1f',
      ])
      expect(
        new Set(
          rows.map((row) => [row.SpotPrice, row.ProductDescription, row.Timestamp?.getUTCFullYear()].join()),
        ),
      ).toEqual(new Set(['0.00001,Linux/UNIX (Amazon VPC),2006']))
    })

    it(
      'DescribeSpotPriceHistory pages through every type (quirk: moto ignores MaxResults, one page)',
      async () => {
        const pages = []
        for await (const page of paginateDescribeSpotPriceHistory(
          { client: ec2(), pageSize: 1000 },
          { StartTime: new Date() },
        )) {
          pages.push(page)
        }

        expect(pages).toHaveLength(1)
        expect(pages[0]?.SpotPriceHistory?.length).toBeGreaterThan(1000)
      },
      CATALOGUE_TIMEOUT_MS,
    )

    it(
      'DescribeInstanceTypes pages through the whole catalogue (quirk: moto ignores MaxResults, one page)',
      async () => {
        const pages = []
        for await (const page of paginateDescribeInstanceTypes({ client: ec2(), pageSize: 100 }, {}))
          pages.push(page)

        const types = pages.flatMap((page) => page.InstanceTypes ?? [])
        expect(pages).toHaveLength(1)
        expect(types.length).toBeGreaterThan(500)
        expect(types.find((type) => type.InstanceType === SEED_INSTANCE_TYPE)).toMatchObject({
          SupportedUsageClasses: ['on-demand', 'spot'],
          VCpuInfo: { DefaultVCpus: 2 },
          MemoryInfo: { SizeInMiB: 8192 },
        })
      },
      CATALOGUE_TIMEOUT_MS,
    )

    it('quirk: marks m5/c5/r5/m6i families CurrentGeneration=false, so the seed type is previous generation', async () => {
      const described = await ec2().send(
        new DescribeInstanceTypesCommand({
          InstanceTypes: ['m5.large', 'c5.large', 'm6i.large', 'm7i.large'],
        }),
      )

      const current = Object.fromEntries(
        (described.InstanceTypes ?? []).map((t) => [t.InstanceType, t.CurrentGeneration]),
      )
      expect(current).toEqual({ 'm5.large': false, 'c5.large': false, 'm6i.large': false, 'm7i.large': true })
    })

    it('DescribeRegions lists the commercial regions', async () => {
      const regions = await ec2().send(new DescribeRegionsCommand({}))

      const names = (regions.Regions ?? []).map((region) => region.RegionName)
      expect(names).toEqual(expect.arrayContaining(['us-east-1', 'us-west-2', 'eu-west-1', 'ap-southeast-2']))
    })

    it('DescribeInstanceAttribute reports disableApiTermination, which then blocks TerminateInstances', async () => {
      await createGroup({ name: 'web', desired: 1, min: 1, max: 1 })
      const [instance] = await allInstances()
      const id = instance?.id ?? ''
      const protection = async () =>
        (
          await ec2().send(
            new DescribeInstanceAttributeCommand({ InstanceId: id, Attribute: 'disableApiTermination' }),
          )
        ).DisableApiTermination?.Value
      expect(await protection()).toBe(false)

      await ec2().send(
        new ModifyInstanceAttributeCommand({ InstanceId: id, DisableApiTermination: { Value: true } }),
      )

      expect(await protection()).toBe(true)
      await expect(ec2().send(new TerminateInstancesCommand({ InstanceIds: [id] }))).rejects.toMatchObject({
        name: 'OperationNotPermitted',
      })
    })
  })

  describe('known failures', () => {
    it.each([
      [
        'CreateFleet with SpotOptions but no AllocationStrategy',
        () => spotFleet({ InstanceInterruptionBehavior: 'terminate' }),
      ],
      [
        'DescribeInstances filtered on instance-lifecycle (once any instance exists)',
        async () => {
          await createGroup({ name: 'web', desired: 1, min: 1, max: 1 })
          return ec2().send(
            new DescribeInstancesCommand({ Filters: [{ Name: 'instance-lifecycle', Values: ['spot'] }] }),
          )
        },
      ],
      [
        'DescribeAutoScalingGroups with MaxRecords above 100',
        () => autoScaling().send(new DescribeAutoScalingGroupsCommand({ MaxRecords: 101 })),
      ],
      [
        'Pricing GetProducts (moto has no Pricing API)',
        () =>
          new PricingClient({ region: motoRegion('us-east-1'), maxAttempts: 1 }).send(
            new GetProductsCommand({ ServiceCode: 'AmazonEC2' }),
          ),
      ],
    ])('quirk: %s fails with HTTP 500', async (_call, call) => {
      await expect(call()).rejects.toMatchObject({ $metadata: { httpStatusCode: 500 } })
    })

    it('quirk: DescribeInstances filtered on availability-zone finds nothing', async () => {
      const group = await createGroup({ name: 'web', desired: 1, min: 1, max: 1 })
      expect(await allInstances()).toHaveLength(1)

      const filtered = await ec2().send(
        new DescribeInstancesCommand({
          Filters: [{ Name: 'availability-zone', Values: [group.network.subnets[0]?.zone ?? ''] }],
        }),
      )

      expect(filtered.Reservations ?? []).toEqual([])
    })
  })
})
