import { describe, expect, it } from 'vitest'
import { actionsOf, cloudWithFleet, harness } from './support.ts'

const overQuota = async () => ({
  ok: false as const,
  errors: [
    {
      instanceType: 'm5.large',
      code: 'MaxSpotInstanceCountExceeded',
      message: 'Max spot instance count exceeded',
    },
    { instanceType: 'm5a.large', code: 'InsufficientInstanceCapacity', message: 'none' },
  ],
})

describe('a launch refused by the Spot vCPU quota', () => {
  it('is reported as the quota, backs the instance off, and stops the group’s other launches this run', async () => {
    const cloud = cloudWithFleet(8)
    let asked = 0
    cloud.launchSpot = () => {
      asked++
      return overQuota()
    }
    const h = harness({ 'us-east-1': cloud }, { MAX_REPLACEMENTS_IN_FLIGHT: '50%' })
    const summary = await h.run()

    const launches = actionsOf(summary).filter((a) => a.kind === 'launch-spot')
    expect(launches.length).toBeGreaterThan(1)
    expect(asked).toBe(1)
    const [first, ...rest] = launches
    expect(first?.detail).toContain("launch refused by the account's Spot vCPU quota")
    expect(first?.detail).not.toContain('no spot capacity')
    for (const skipped of rest)
      expect(skipped.detail).toBe('not attempted: the Spot vCPU quota refused a launch first')
    const backedOff = [...cloud.instances.values()].filter(
      (i) => i.tags['spotswap:no-spot-capacity-until'] !== undefined,
    )
    expect(backedOff).toHaveLength(1)
    // Fleet metrics are per region unless GROUP_METRICS: the region's count is the group's here.
    const refused = h.recorded.metrics.flatMap((m) =>
      m.dimensions.Group === undefined ? m.values.filter((v) => v.name === 'LaunchesRefused') : [],
    )
    expect(refused).toEqual([expect.objectContaining({ value: 1 })])
  })
})
