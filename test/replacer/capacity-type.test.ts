/**
 * A group counted in vCPUs or MiB (DesiredCapacityType) is skipped with its reason, beside a group counted
 * in instances that is converted; its open swap waits, nothing written, until it counts instances again.
 */
import { describe, expect, it } from 'vitest'
import { TAG_SWAP } from '../../lambdas/core/constants.ts'
import { trafficSourceKey } from '../../lambdas/core/port.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, harness, START } from './support.ts'

const TG = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/0123456789abcdef'

const launchesFor = (cloud: FakeCloud, group: string) =>
  cloud.calls.filter(
    (c) =>
      c.method === 'launchSpot' &&
      (c.args[0] as { tags: Record<string, string> }).tags['launched-for-asg'] === group,
  )

describe('groups counted in vCPUs or memory', () => {
  it('skips the vcpu group with its reason and converts the other', async () => {
    const cloud = cloudWithFleet(2)
    cloud.addGroup('ml', { maxSize: 2, desiredCapacityType: 'vcpu' })
    for (let i = 0; i < 2; i++)
      cloud.addInstance({
        group: 'ml',
        zone: 'us-east-1b',
        launchTime: new Date(START.getTime() - 3_600_000),
      })
    const summary = await harness({ 'us-east-1': cloud }).run()
    expect(launchesFor(cloud, 'ml')).toEqual([])
    expect(launchesFor(cloud, 'web').length).toBeGreaterThan(0)
    expect(summary.regions[0]?.groups).toContainEqual(
      expect.objectContaining({
        group: 'ml',
        skipCode: 'capacity-not-in-instances',
        skipped: 'capacity-not-in-instances (DesiredCapacityType vcpu: a swap counts instances, not vcpu)',
      }),
    )
  })

  it('leaves an open swap alone once its group counts vCPUs, and finishes it once it counts instances again', async () => {
    const cloud = cloudWithFleet(1, {
      trafficSources: { targetGroupArns: [TG], classicLoadBalancerNames: [], unreadable: [] },
    })
    cloud.healthSettings.set(trafficSourceKey('target-group', TG), {
      intervalSeconds: 30,
      healthyThreshold: 3,
    })
    const h = harness({ 'us-east-1': cloud })
    const [partner] = [...cloud.group('web').members.keys()]
    await h.run()
    h.advanceMinutes(6)
    await h.run()
    const replacement = [...cloud.group('web').members.keys()].find((id) => id !== partner) ?? ''
    expect(cloud.group('web')).toMatchObject({ desiredCapacity: 2, maxSize: 2 })
    expect(cloud.group('web').tags[TAG_SWAP]).toBeDefined()

    cloud.group('web').desiredCapacityType = 'vcpu'
    cloud.markHealthy(replacement)
    h.advanceMinutes(2)
    cloud.calls.length = 0
    const held = await h.run()
    expect(cloud.mutations).toEqual([])
    expect([...cloud.group('web').members.keys()]).toEqual([partner, replacement])
    expect(held.regions[0]?.groups?.[0]).toMatchObject({ skipCode: 'capacity-not-in-instances' })

    cloud.group('web').desiredCapacityType = 'units'
    h.advanceMinutes(5)
    await h.run()
    expect(cloud.staying('web')).toEqual([replacement])
    expect(cloud.group('web')).toMatchObject({ desiredCapacity: 1, maxSize: 1 })
    expect(cloud.group('web').tags[TAG_SWAP]).toBeUndefined()
  })
})
