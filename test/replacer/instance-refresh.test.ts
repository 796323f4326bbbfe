/**
 * Instance refreshes: while one runs, Auto Scaling replaces the group's instances itself, so the group is
 * skipped. An unreadable refresh state (an error other than throttling) lets the group go on, with a
 * warning and a metric; a throttled read holds the group for this run only.
 */
import { describe, expect, it } from 'vitest'
import { awsError, throttlingError } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, harness } from './support.ts'

const launches = (cloud: ReturnType<typeof cloudWithFleet>) =>
  cloud.calls.filter((c) => c.method === 'launchSpot')

describe('instance refresh', () => {
  it.each(['Pending', 'InProgress', 'Cancelling', 'RollbackInProgress', 'Baking'])(
    'skips a group whose refresh is %s, naming it, and launches nothing',
    async (status) => {
      const cloud = cloudWithFleet(2)
      cloud.group('web').refreshes = [
        { id: 'refresh-2', status },
        { id: 'refresh-1', status: 'Successful' },
      ]
      const summary = await harness({ 'us-east-1': cloud }).run()
      expect(launches(cloud)).toEqual([])
      expect(summary.regions[0]?.groups?.[0]).toMatchObject({
        skipCode: 'instance-refresh',
        skipped: `instance-refresh (refresh-2 is ${status})`,
      })
    },
  )

  it.each(['Successful', 'Failed', 'Cancelled', 'RollbackFailed', 'RollbackSuccessful'])(
    'converts a group whose last refresh is %s',
    async (status) => {
      const cloud = cloudWithFleet(2)
      cloud.group('web').refreshes = [{ id: 'refresh-1', status }]
      await harness({ 'us-east-1': cloud }).run()
      expect(launches(cloud).length).toBeGreaterThan(0)
    },
  )

  it('goes on as if none ran when the refreshes cannot be read, with a warning and a metric', async () => {
    const cloud = cloudWithFleet(2)
    cloud.group('web').refreshes = [{ id: 'refresh-1', status: 'InProgress' }]
    // moto answers DescribeInstanceRefreshes with an HTML 500; a missing permission is a 403.
    cloud.failNext('instanceRefreshes', awsError('InternalFailure', 500, 'unexpected HTML answer'))
    const h = harness({ 'us-east-1': cloud })
    await h.run()
    expect(launches(cloud).length).toBeGreaterThan(0)
    expect(h.recorded.logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'instance refreshes unreadable: the group proceeds as if none were running',
        attributes: expect.objectContaining({
          group: 'web',
          error: 'InternalFailure: unexpected HTML answer',
        }),
      }),
    )
    expect(h.recorded.metrics).toContainEqual({
      dimensions: { Region: 'us-east-1', Group: 'web' },
      values: [{ name: 'InstanceRefreshUnreadable', unit: 'Count', value: 1 }],
    })
  })

  it('holds the group for this run when the read is throttled, and reads again next run', async () => {
    const cloud = cloudWithFleet(2)
    cloud.failNext('instanceRefreshes', throttlingError())
    const h = harness({ 'us-east-1': cloud })
    const summary = await h.run()
    expect(launches(cloud)).toEqual([])
    expect(summary.regions[0]?.groups?.[0]).toMatchObject({ skipCode: 'instance-refresh-unknown' })
    h.advanceMinutes(5)
    await h.run()
    expect(launches(cloud).length).toBeGreaterThan(0)
  })
})
