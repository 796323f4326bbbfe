import { describe, expect, it } from 'vitest'
import { group, launchSpotFor, rawScenario, testWorld } from './support.ts'

const counts = (sim: ReturnType<typeof testWorld>) => Object.fromEntries(sim.world.counter.total)

describe('API requests counted as the AWS adapter makes them', () => {
  it('pages DescribeAutoScalingGroups by 100 groups', async () => {
    const groups = Array.from({ length: 250 }, (_, i) => group(`g${i}`, { desired: 0 }))
    const sim = testWorld(rawScenario(groups))
    const seen = await sim.cloud().describeGroups({ tagKey: undefined, tagValues: [] })
    expect(seen).toHaveLength(250)
    expect(counts(sim)).toEqual({ 'autoscaling:DescribeAutoScalingGroups': 3 })
  })

  it('asks DescribeInstances for at most 200 ids at a time, and reads the catalogue once per cache lifetime', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 3 })]))
    const cloud = sim.cloud()
    const ids = [
      ...sim.members('web').map((i) => i.id),
      ...Array.from({ length: 300 }, (_, i) => `i-${i.toString(16).padStart(17, '0')}`),
    ]
    expect(await cloud.describeInstances(ids)).toHaveLength(3)
    const catalog = await cloud.describeInstanceTypes()
    await cloud.describeInstanceTypes()
    expect(counts(sim)).toEqual({
      'ec2:DescribeInstances': 2,
      'ec2:DescribeInstanceTypes': Math.ceil(catalog.size / 100),
    })
  })

  it('launches a launch-configuration group through a temporary template it deletes afterwards', async () => {
    const sim = testWorld(rawScenario([group('legacy', { launch: 'configuration' })]))
    const result = await sim.cloud().launchSpot({
      groupName: 'legacy',
      launchTemplate: undefined,
      launchConfigurationName: 'legacy-configuration',
      overrides: [
        { instanceType: 'm5.large', zone: 'us-east-1b', subnetId: 'subnet-us-east-1b', priority: 0 },
      ],
      allocationStrategy: 'lowest-price',
      tags: {},
      clientToken: 'token',
    })
    expect(result.ok).toBe(true)
    expect(counts(sim)).toEqual({
      'autoscaling:DescribeLaunchConfigurations': 1,
      'ec2:CreateLaunchTemplate': 1,
      'ec2:CreateFleet': 1,
      'ec2:DeleteLaunchTemplate': 1,
    })
    expect(sim.region.temporaryTemplates.size).toBe(0)
  })

  it('attributes requests about a group to it', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 1 })]))
    await launchSpotFor(sim.cloud(), 'web', 'm5.large', 'us-east-1b')
    await sim.cloud().lifecycleHooks('web')
    expect(Object.fromEntries(sim.world.counter.byGroup.get('web') ?? [])).toEqual({
      'ec2:CreateFleet': 1,
      'autoscaling:DescribeLifecycleHooks': 1,
    })
  })
})
