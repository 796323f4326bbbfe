import { describe, expect, it } from 'vitest'
import type { SpotLaunchRequest } from '../../lambdas/core/port.ts'
import { cloudWithFleet, harness } from './support.ts'

const launchRequests = (cloud: ReturnType<typeof cloudWithFleet>): SpotLaunchRequest[] =>
  cloud.calls.flatMap((c) => (c.method === 'launchSpot' ? [c.args[0] as SpotLaunchRequest] : []))

describe('replacements go into the group’s current subnets', () => {
  it('reads the zones of a moved group’s subnets (one DescribeSubnets) and launches in the original’s zone', async () => {
    // The fleet's instances are all in subnet-a; the owner has since moved the group to two new subnets.
    const cloud = cloudWithFleet(1, { subnetIds: ['subnet-new-b', 'subnet-new-d'] })
    cloud.subnets.set('subnet-new-b', 'us-east-1b').set('subnet-new-d', 'us-east-1d')
    await harness({ 'us-east-1': cloud }).run()
    expect(cloud.calls.filter((c) => c.method === 'subnetZones')).toEqual([
      { method: 'subnetZones', args: [['subnet-new-b', 'subnet-new-d']] },
    ])
    const [request] = launchRequests(cloud)
    expect(new Set(request?.overrides.map((o) => o.subnetId))).toEqual(new Set(['subnet-new-d']))
  })

  it('reads no subnet for a group whose members are all in its subnets', async () => {
    const cloud = cloudWithFleet(2)
    await harness({ 'us-east-1': cloud }).run()
    expect(cloud.calls.map((c) => c.method)).not.toContain('subnetZones')
    expect(launchRequests(cloud).flatMap((r) => r.overrides.map((o) => o.subnetId))).not.toContain(undefined)
  })
})
