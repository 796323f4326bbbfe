import { describe, expect, it } from 'vitest'
import { cloudWithFleet, harness, START } from './support.ts'

describe('a region run', () => {
  it('attaches in every group before it launches in any, so a crash among the launches costs no attach', async () => {
    const cloud = cloudWithFleet(1)
    const h = harness({ 'us-east-1': cloud })
    await h.run()
    h.advanceMinutes(6)
    // A second group, listed before `web`, whose on-demand member is replaced from this run on.
    const web = cloud.group('web')
    cloud.groups.delete('web')
    cloud.addGroup('api', { maxSize: 1, healthCheckGracePeriodSeconds: 300 })
    cloud.addInstance({
      group: 'api',
      zone: 'us-east-1b',
      launchTime: new Date(START.getTime() - 60 * 60_000),
    })
    cloud.groups.set('web', web)
    cloud.calls.length = 0
    await h.run()
    const methods = cloud.mutations.map((c) => c.method)
    expect(methods).toContain('attachInstances')
    expect(methods).toContain('launchSpot')
    expect(methods.indexOf('attachInstances')).toBeLessThan(methods.indexOf('launchSpot'))
  })
})
