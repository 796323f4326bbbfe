/**
 * A lifecycle-hooks, stack-status or termination-protection read that fails (after the SDK's retries)
 * holds back only what depends on it. Two groups: `web`, read fine, is planned and acted on; `api`, whose
 * read fails, is held the way that read says, and its open swap is not broken.
 */
import { describe, expect, it } from 'vitest'
import { TAG_SWAP } from '../../lambdas/core/constants.ts'
import { awsError, throttlingError } from '../fakes/fake-cloud.ts'
import { countedOnce, groupResult, launchesFor, membersOf, withOpenSwap } from './open-swap-support.ts'

describe('a failed detail read holds back only its group', () => {
  it('sets up an open swap on api that the next run finishes, and a launch for its other member', async () => {
    const { cloud, h, partner, waiting, replacement } = await withOpenSwap()
    await h.run()
    expect(launchesFor(cloud, 'web').length).toBeGreaterThan(0)
    expect(membersOf(cloud, 'api')).toEqual([waiting, replacement])
    expect(membersOf(cloud, 'api')).not.toContain(partner)
    expect(launchesFor(cloud, 'api')).toHaveLength(1)
  })

  it.each([
    [
      'a denial',
      awsError('AccessDenied', 403, 'not authorized to perform autoscaling:DescribeLifecycleHooks'),
    ],
    ['throttling', throttlingError()],
  ])('hooks unreadable (%s): api starts nothing, its open swap finishes, web goes on', async (_, error) => {
    const { cloud, h, partner, waiting, replacement } = await withOpenSwap()
    const read = cloud.lifecycleHooks.bind(cloud)
    cloud.lifecycleHooks = async (name) => {
      if (name === 'api') throw error
      return read(name)
    }
    const summary = await h.run()
    expect(launchesFor(cloud, 'web').length).toBeGreaterThan(0)
    expect(launchesFor(cloud, 'api')).toEqual([])
    expect(membersOf(cloud, 'api')).toEqual([waiting, replacement])
    expect(membersOf(cloud, 'api')).not.toContain(partner)
    expect(cloud.group('api').tags[TAG_SWAP]).toBeUndefined()
    expect(groupResult(summary, 'api')).toMatchObject({
      skipCode: 'launch-hooks-unreadable',
      skipped: expect.stringContaining(`${error.name}: `),
    })
    expect(h.recorded.logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'lifecycle hooks unreadable: the group starts no replacement or swap this run',
        attributes: expect.objectContaining({ group: 'api', read: 'lifecycle-hooks' }),
      }),
    )
    expect(h.recorded.metrics).toContainEqual(countedOnce('api', 'LifecycleHooksUnreadable'))
  })

  it('stack status unreadable: api waits as if its stack were updating, swap kept; web goes on', async () => {
    const { cloud, h, partner, waiting, replacement } = await withOpenSwap()
    const read = cloud.stackStatuses.bind(cloud)
    cloud.stackStatuses = async (names) => {
      if (names.includes('api-stack')) throw awsError('InternalFailure', 500, 'unexpected answer')
      return read(names)
    }
    const record = cloud.group('api').tags[TAG_SWAP]
    const summary = await h.run()
    expect(launchesFor(cloud, 'web').length).toBeGreaterThan(0)
    expect(launchesFor(cloud, 'api')).toEqual([])
    expect(membersOf(cloud, 'api')).toEqual([partner, waiting, replacement])
    expect(cloud.group('api')).toMatchObject({ desiredCapacity: 3, maxSize: 3 })
    expect(cloud.group('api').tags[TAG_SWAP]).toBe(record)
    expect(groupResult(summary, 'api')).toMatchObject({
      skipCode: 'cloudformation-stack-unreadable',
      skipped: expect.stringContaining('InternalFailure: unexpected answer'),
    })
    expect(h.recorded.metrics).toContainEqual(countedOnce('api', 'StackStatusUnreadable'))

    cloud.stackStatuses = read
    h.advanceMinutes(5)
    await h.run()
    expect(membersOf(cloud, 'api')).not.toContain(partner)
    expect(cloud.group('api').tags[TAG_SWAP]).toBeUndefined()
  })

  it('termination protection unreadable: that instance is treated as protected, swap kept; the rest goes on', async () => {
    const { cloud, h, partner, waiting, replacement } = await withOpenSwap()
    const read = cloud.terminationProtected.bind(cloud)
    cloud.terminationProtected = async (ids) => {
      if (ids.includes(partner)) throw awsError('InternalError', 500, 'try again')
      return read(ids)
    }
    const record = cloud.group('api').tags[TAG_SWAP]
    const summary = await h.run()
    expect(launchesFor(cloud, 'web').length).toBeGreaterThan(0)
    // Only the partner's read failed: api's other member gets its replacement.
    expect(launchesFor(cloud, 'api')).toHaveLength(1)
    expect(membersOf(cloud, 'api')).toEqual([partner, waiting, replacement])
    expect(cloud.group('api').tags[TAG_SWAP]).toBe(record)
    const onDemand = groupResult(summary, 'api')?.stillOnDemand as { instanceId: string; code: string }[]
    expect(onDemand).toContainEqual(
      expect.objectContaining({
        instanceId: partner,
        code: 'protection-unreadable',
        detail: expect.stringContaining(`${partner} (InternalError: try again)`),
      }),
    )
    expect(h.recorded.metrics).toContainEqual(countedOnce('api', 'TerminationProtectionUnreadable'))

    cloud.terminationProtected = read
    h.advanceMinutes(5)
    await h.run()
    expect(membersOf(cloud, 'api')).not.toContain(partner)
    // That swap closed; the record now is the next one's, for the member launched for meanwhile.
    expect(cloud.group('api').tags[TAG_SWAP]).not.toBe(record)
  })
})
