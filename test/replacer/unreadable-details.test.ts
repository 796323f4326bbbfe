/**
 * A lifecycle-hooks, stack-status or termination-protection read that fails (after the SDK's retries)
 * holds back only what depends on it. Two groups: `web`, read fine, is planned and acted on; `api`, whose
 * read fails, is held the way that read says, and its open swap is not broken.
 */
import { describe, expect, it } from 'vitest'
import { TAG_NO_SPOT_CAPACITY_UNTIL, TAG_SWAP } from '../../lambdas/core/constants.ts'
import { trafficSourceKey } from '../../lambdas/core/port.ts'
import type { ReplacerSummary } from '../../lambdas/replacer/summary.ts'
import { awsError, type FakeCloud, throttlingError } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, harness, START } from './support.ts'

const TG = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/api/0123456789abcdef'
const STACK_TAG = 'aws:cloudformation:stack-name'

const BACKOFF_ENDS = new Date(START.getTime() + 7 * 60_000).toISOString()

const membersOf = (cloud: FakeCloud, group: string) => [...cloud.group(group).members.keys()]
const launchesFor = (cloud: FakeCloud, group: string) =>
  cloud.calls.filter(
    (c) =>
      c.method === 'launchSpot' &&
      (c.args[0] as { tags: Record<string, string> }).tags['launched-for-asg'] === group,
  )
const groupResult = (summary: ReplacerSummary, group: string) =>
  summary.regions[0]?.groups?.find((g) => g.group === group)

/**
 * `web`: two on-demand members, no load balancer, whose replacements start in the third run. `api`: behind a target group, one member swapped and
 * waiting for its replacement to serve (an open swap), one more on-demand member not replaced yet (one
 * replacement in flight at a time). Returns the harness and the open swap's partner and replacement.
 */
const withOpenSwap = async () => {
  const cloud = cloudWithFleet(2, { tags: { 'spot-enabled': 'true', [STACK_TAG]: 'web-stack' } })
  // web's members too start their replacements in the third run.
  for (const id of membersOf(cloud, 'web')) {
    const instance = cloud.instances.get(id)
    if (instance !== undefined) instance.tags = { [TAG_NO_SPOT_CAPACITY_UNTIL]: BACKOFF_ENDS }
  }
  cloud.addGroup('api', {
    maxSize: 2,
    tags: { 'spot-enabled': 'true', [STACK_TAG]: 'api-stack' },
    trafficSources: { targetGroupArns: [TG], classicLoadBalancerNames: [], unreadable: [] },
  })
  cloud.healthSettings.set(trafficSourceKey('target-group', TG), { intervalSeconds: 30, healthyThreshold: 3 })
  for (let i = 0; i < 2; i++)
    cloud.addInstance({
      group: 'api',
      zone: 'us-east-1d',
      launchTime: new Date(START.getTime() - (200 - i) * 60_000),
      // The second is backed off until just before the third run, which then starts its replacement.
      tags: i === 0 ? {} : { [TAG_NO_SPOT_CAPACITY_UNTIL]: BACKOFF_ENDS },
    })
  const [partner, waiting] = membersOf(cloud, 'api') as [string, string]
  const h = harness({ 'us-east-1': cloud })
  await h.run()
  h.advanceMinutes(6)
  await h.run()
  const replacement = membersOf(cloud, 'api').find((id) => id !== partner && id !== waiting) ?? ''
  expect(replacement).not.toBe('')
  expect(cloud.group('api').tags[TAG_SWAP]).toBeDefined()
  cloud.markHealthy(replacement)
  h.advanceMinutes(2)
  cloud.calls.length = 0
  h.recorded.logs.length = 0
  h.recorded.metrics.length = 0
  return { cloud, h, partner, waiting, replacement }
}

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
    expect(h.recorded.metrics).toContainEqual({
      dimensions: { Region: 'us-east-1', Group: 'api' },
      values: [{ name: 'LifecycleHooksUnreadable', unit: 'Count', value: 1 }],
    })
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
    expect(h.recorded.metrics).toContainEqual({
      dimensions: { Region: 'us-east-1', Group: 'api' },
      values: [{ name: 'StackStatusUnreadable', unit: 'Count', value: 1 }],
    })

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
    expect(h.recorded.metrics).toContainEqual({
      dimensions: { Region: 'us-east-1', Group: 'api' },
      values: [{ name: 'TerminationProtectionUnreadable', unit: 'Count', value: 1 }],
    })

    cloud.terminationProtected = read
    h.advanceMinutes(5)
    await h.run()
    expect(membersOf(cloud, 'api')).not.toContain(partner)
    // That swap closed; the record now is the next one's, for the member launched for meanwhile.
    expect(cloud.group('api').tags[TAG_SWAP]).not.toBe(record)
  })
})
