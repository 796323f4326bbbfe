/**
 * Where and from what the replacer launches, against moto_server through the real adapter: a
 * MixedInstancesPolicy override's own launch template, and a group moved to other subnets. moto launches
 * a mixed group's instances from its base template whatever the overrides say, and puts every group
 * instance in the group's first subnet; the assertions are on the replacement, which CreateFleet launches
 * from the template and into the subnet spotswap asked for.
 */
import { CreateAutoScalingGroupCommand, UpdateAutoScalingGroupCommand } from '@aws-sdk/client-auto-scaling'
import { DescribeImagesCommand, DescribeInstancesCommand } from '@aws-sdk/client-ec2'
import { expect, it, vi } from 'vitest'
import { scheduledEvent } from '../events/builders.ts'
import { autoScaling, ec2 } from './support/clients.ts'
import { E2E_TIMEOUT_MS } from './support/events.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import { withEnvRestored } from './support/replacer-runs.ts'
import {
  allInstances,
  createGroup,
  createLaunchTemplate,
  createNetwork,
  groupState,
  SEED_IMAGE_ID,
} from './support/world.ts'

const REGION = 'eu-west-1'

/** Three replacer runs six minutes apart: launch, attach once the grace period is over, retire. */
const convert = async () => {
  vi.resetModules()
  process.env.REGIONS = REGION
  const { createHandler } = await import('../../lambdas/replacer/create-handler.ts')
  const { defaultDeps } = await import('../../lambdas/replacer/default-deps.ts')
  let now = new Date()
  const handle = createHandler({ ...defaultDeps(), now: () => now })
  for (let run = 0; run < 3; run++) {
    await handle(scheduledEvent({ region: REGION, time: now.toISOString() }), {})
    now = new Date(now.getTime() + 6 * 60_000)
  }
}

const spotReplacements = async () =>
  (await allInstances(REGION)).filter((i) => i.lifecycle === 'spot' && i.tags['launched-for-asg'] === 'web')

describeMoto('launch sources and subnets against moto', (moto) => {
  freshAccountPerTest(moto, { region: REGION })

  it(
    'launches a type whose MixedInstancesPolicy override names its own template from that template',
    async () => {
      const restore = withEnvRestored()
      try {
        const images = await ec2(REGION).send(
          new DescribeImagesCommand({ Filters: [{ Name: 'architecture', Values: ['x86_64'] }] }),
        )
        const ownImage = (images.Images ?? []).find((i) => i.ImageId !== SEED_IMAGE_ID)?.ImageId as string
        const network = await createNetwork(REGION)
        const base = await createLaunchTemplate({ name: 'web-base', region: REGION })
        const own = await createLaunchTemplate({ name: 'web-m5', imageId: ownImage, region: REGION })
        await autoScaling(REGION).send(
          new CreateAutoScalingGroupCommand({
            AutoScalingGroupName: 'web',
            MinSize: 1,
            MaxSize: 1,
            DesiredCapacity: 1,
            VPCZoneIdentifier: network.subnets.map((s) => s.id).join(','),
            MixedInstancesPolicy: {
              LaunchTemplate: {
                LaunchTemplateSpecification: { LaunchTemplateId: base.id, Version: '$Latest' },
                Overrides: [
                  // Ranked first (moto's spot prices are all equal; the name breaks the tie).
                  { InstanceType: 'm5.large', LaunchTemplateSpecification: { LaunchTemplateId: own.id } },
                  { InstanceType: 'm5a.large' },
                ],
              },
              // All spot above a base of 0; moto launches the group's instances on-demand regardless.
              InstancesDistribution: { OnDemandPercentageAboveBaseCapacity: 0 },
            },
            Tags: [{ Key: 'spot-enabled', Value: 'true', PropagateAtLaunch: true }],
          }),
        )
        expect((await groupState('web', REGION)).members.map((m) => m.lifecycle)).toEqual(['on-demand'])
        await convert()

        const [replacement] = await spotReplacements()
        expect(replacement?.type).toBe('m5.large')
        const described = await ec2(REGION).send(
          new DescribeInstancesCommand({ InstanceIds: [replacement?.id as string] }),
        )
        expect(described.Reservations?.[0]?.Instances?.[0]?.ImageId).toBe(ownImage)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'skips a MixedInstancesPolicy group whose overrides weigh other than 1, launching nothing',
    async () => {
      const restore = withEnvRestored()
      try {
        const network = await createNetwork(REGION)
        const base = await createLaunchTemplate({ name: 'web-base', region: REGION })
        await autoScaling(REGION).send(
          new CreateAutoScalingGroupCommand({
            AutoScalingGroupName: 'web',
            MinSize: 2,
            MaxSize: 4,
            DesiredCapacity: 2,
            VPCZoneIdentifier: network.subnets.map((s) => s.id).join(','),
            MixedInstancesPolicy: {
              LaunchTemplate: {
                LaunchTemplateSpecification: { LaunchTemplateId: base.id, Version: '$Latest' },
                Overrides: [
                  { InstanceType: 'm5.large', WeightedCapacity: '1' },
                  { InstanceType: 'm5.xlarge', WeightedCapacity: '2' },
                ],
              },
              InstancesDistribution: { OnDemandPercentageAboveBaseCapacity: 0 },
            },
            Tags: [{ Key: 'spot-enabled', Value: 'true', PropagateAtLaunch: true }],
          }),
        )
        vi.resetModules()
        process.env.REGIONS = REGION
        const { createHandler } = await import('../../lambdas/replacer/create-handler.ts')
        const { defaultDeps } = await import('../../lambdas/replacer/default-deps.ts')
        const summary = await createHandler(defaultDeps())(scheduledEvent({ region: REGION }), {})
        const group = summary.regions[0]?.groups?.find((g) => g.group === 'web')
        expect(group?.skipped).toMatch(/^weighted-capacity \(m5\.xlarge=2/)
        expect(await spotReplacements()).toEqual([])
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'launches into a subnet of the group’s current VPCZoneIdentifier after the owner moved the group',
    async () => {
      const restore = withEnvRestored()
      try {
        const seeded = await createGroup({
          name: 'web',
          desired: 1,
          min: 1,
          max: 1,
          tags: { 'spot-enabled': 'true' },
          region: REGION,
        })
        const [first, second, third] = seeded.network.subnets
        const original = (await groupState('web', REGION)).members[0]?.id
        // moto put the original in the first subnet; the owner then moves the group off it.
        expect((await allInstances(REGION)).find((i) => i.id === original)?.subnetId).toBe(first?.id)
        await autoScaling(REGION).send(
          new UpdateAutoScalingGroupCommand({
            AutoScalingGroupName: 'web',
            VPCZoneIdentifier: [second?.id, third?.id].join(','),
          }),
        )
        await convert()

        const replacements = await spotReplacements()
        expect(replacements).toHaveLength(1)
        // No subnet of the group is in the original's zone: the zone with the fewest members (both
        // empty; the first by name), read with DescribeSubnets.
        expect(replacements[0]?.subnetId).toBe(second?.id)
        expect(replacements[0]?.zone).toBe(second?.zone)
        expect((await groupState('web', REGION)).members.map((m) => m.id)).toContain(replacements[0]?.id)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )
})
