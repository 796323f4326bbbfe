/**
 * Groups with EC2_INSTANCE_LAUNCHING hooks: AttachInstances skips them, so a replacement would miss the
 * group's bootstrap or deployment gate. Skipped by default with that reason; an owner may opt in.
 */
import { describe, expect, it } from 'vitest'
import { cloudWithFleet, harness, spotShare } from './support.ts'

const LAUNCHING = { name: 'codedeploy-gate', transition: 'autoscaling:EC2_INSTANCE_LAUNCHING' }
const TERMINATING = { name: 'drain', transition: 'autoscaling:EC2_INSTANCE_TERMINATING' }

describe('launch lifecycle hooks', () => {
  it('skips a group with a launch hook, naming it, and launches nothing', async () => {
    const cloud = cloudWithFleet(2)
    cloud.group('web').hooks = [LAUNCHING]
    const summary = await harness({ 'us-east-1': cloud }).run()
    expect(cloud.calls.filter((c) => c.method === 'launchSpot')).toEqual([])
    expect(summary.regions[0]?.groups?.[0]).toMatchObject({
      skipCode: 'launch-hooks',
      skipped: expect.stringContaining('codedeploy-gate: an attached replacement would skip them'),
    })
  })

  it('converts it when the owner opts in with the group tag', async () => {
    const cloud = cloudWithFleet(2, {
      tags: { 'spot-enabled': 'true', autospotting_ignore_launch_hooks: 'true' },
    })
    cloud.group('web').hooks = [LAUNCHING]
    const h = harness({ 'us-east-1': cloud })
    for (let run = 0; run < 6; run++) {
      await h.run()
      h.advanceMinutes(5)
    }
    expect(spotShare(cloud)).toEqual({ spot: 2, onDemand: 0 })
  })

  it('is not held back by a termination hook alone', async () => {
    const cloud = cloudWithFleet(2)
    cloud.group('web').hooks = [TERMINATING]
    await harness({ 'us-east-1': cloud }).run()
    expect(cloud.calls.filter((c) => c.method === 'launchSpot').length).toBeGreaterThan(0)
  })

  // The instance refreshes (instance-refresh.test.ts) are read with the hooks, under the same rule.
  it('reads the hooks and refreshes only for a group about to get a replacement or a swap', async () => {
    const cloud = cloudWithFleet(2)
    const h = harness({ 'us-east-1': cloud })
    for (let run = 0; run < 6; run++) {
      await h.run()
      h.advanceMinutes(5)
    }
    expect(spotShare(cloud)).toEqual({ spot: 2, onDemand: 0 })
    cloud.calls.length = 0
    await h.run()
    expect(cloud.calls.filter((c) => ['lifecycleHooks', 'instanceRefreshes'].includes(c.method))).toEqual([])
  })
})
