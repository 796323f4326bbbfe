import { describe, expect, it } from 'vitest'
import {
  REGION_LANES,
  TAG_INTERRUPTION_WARNED,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP,
  TAG_SWAP_ID,
} from '../../lambdas/core/constants.ts'
import { groupRunRequestEvent } from '../../lambdas/core/events/definitions.ts'
import { silentLog } from '../../lambdas/core/log.ts'
import { splitMarker } from '../../lambdas/core/markers.ts'
import { laneMessageGroupId, laneOf } from '../../lambdas/core/region/lanes.ts'
import { readSwapRecord } from '../../lambdas/core/swap/record.ts'
import { createHandler } from '../../lambdas/replacer/create-handler.ts'
import type { FanoutMessage } from '../../lambdas/replacer/deps.ts'
import { convertedWithDoomedMember as convertedDoomed } from '../builders/doomed-member.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'
import { actionsOf } from './support.ts'

const START = new Date('2026-01-01T00:00:00Z')

/** A marker's value without its MAC. */
const payload = (value: string | undefined): string => splitMarker(value ?? '')?.payload ?? value ?? ''

/** A converted group `web` of two spot members, the first of them warned of its interruption. */
const convertedWithDoomedMember = () => convertedDoomed(START)

const replacerFor = (cloud: FakeCloud, env: Record<string, string> = {}) => {
  const enqueued: FanoutMessage[] = []
  let now = START
  const replace = createHandler({
    env: { REGIONS: 'us-east-1', ...env },
    now: () => now,
    log: silentLog,
    metrics: { emit: () => {} },
    cloudFor: () => cloud,
    regionDirectory: { enabledRegions: async () => ['us-east-1'] },
    enqueue: async (_url, messages) => {
      enqueued.push(...messages)
    },
  })
  return {
    enqueued,
    run: (event: unknown) => replace(event),
    advanceSeconds: (seconds: number) => {
      now = new Date(now.getTime() + seconds * 1000)
    },
  }
}

const request = (id: string) => groupRunRequestEvent(id, 'us-east-1', 'web', START)
const viaSqs = (messageId: string, body: unknown) => ({
  Records: [{ eventSource: 'aws:sqs', messageId, body: JSON.stringify(body) }],
})

describe('replacer runs requested for a member replaced ahead of its interruption', () => {
  it('passes each request on to the fan-out queue as a run of that group, its message id first', async () => {
    const { cloud } = convertedWithDoomedMember()
    const replacer = replacerFor(cloud, { FANOUT_QUEUE_URL: 'https://sqs/q.fifo' })
    const summary = await replacer.run(viaSqs('m-1', request('1767225600000-45s')))
    expect(cloud.mutations).toEqual([])
    expect(summary.enqueued).toEqual(['us-east-1/web'])
    const lane = laneOf('web', REGION_LANES)
    expect(replacer.enqueued).toEqual([
      expect.objectContaining({
        groupId: laneMessageGroupId('us-east-1', lane),
        deduplicationId: 'm-1-us-east-1-web',
      }),
    ])
    expect(JSON.parse(replacer.enqueued[0]?.body ?? '{}').detail).toEqual({
      region: 'us-east-1',
      groups: ['web'],
      lane,
    })
  })

  it('launches the replacement at once, attaches it as soon as it runs, and retires the doomed member once it serves', async () => {
    const { cloud, doomed } = convertedWithDoomedMember()
    const replacer = replacerFor(cloud)

    await replacer.run(request('1767225600000-0s'))
    const [launch] = cloud.calls.filter((c) => c.method === 'launchSpot')
    expect(launch).toBeDefined()
    const replacement = [...cloud.instances.values()].find((i) => i.tags[TAG_REPLACING_INSTANCE] === doomed)
    expect(replacement?.zone).toBe('us-east-1b')
    expect(replacement?.type).not.toBe('m5a.large')

    replacer.advanceSeconds(45)
    await replacer.run(request('1767225600000-45s'))
    const members = cloud.group('web').members
    expect(members.get(replacement?.id ?? '')).toBe('InService')
    // Serve before retire: the doomed member serves until the run after the attach sees its replacement serve.
    expect(members.has(doomed)).toBe(true)

    replacer.advanceSeconds(45)
    await replacer.run(request('1767225600000-90s'))
    expect(members.has(doomed)).toBe(false)
    expect(cloud.group('web').desiredCapacity).toBe(2)
    expect(cloud.group('web').maxSize).toBe(2)
  })

  it('records the swap before the launch and names the launch; the run that attaches it keeps that swap', async () => {
    const { cloud, doomed } = convertedWithDoomedMember()
    const replacer = replacerFor(cloud)
    await replacer.run(request('1767225600000-0s'))
    const replacement = [...cloud.instances.values()].find((i) => i.tags[TAG_REPLACING_INSTANCE] === doomed)
    const order = cloud.mutations.map((m) =>
      m.method === 'tagGroup' && TAG_SWAP in (m.args[1] as object) ? 'record' : m.method,
    )
    expect(order.indexOf('record')).toBeGreaterThanOrEqual(0)
    expect(order.indexOf('record')).toBeLessThan(order.indexOf('launchSpot'))
    const recorded = readSwapRecord({ [TAG_SWAP]: payload(cloud.group('web').tags[TAG_SWAP]) })
    expect(recorded).toMatchObject({
      kind: 'read',
      record: { phase: 'attaching', pairs: 1, ownerDesired: 2 },
    })
    const swapId = recorded.kind === 'read' ? recorded.record.id : undefined
    expect(payload(replacement?.tags[TAG_SWAP_ID])).toBe(swapId)

    replacer.advanceSeconds(45)
    await replacer.run(request('1767225600000-45s'))
    expect(cloud.group('web').members.get(replacement?.id ?? '')).toBe('InService')
    expect(readSwapRecord({ [TAG_SWAP]: payload(cloud.group('web').tags[TAG_SWAP]) })).toMatchObject({
      kind: 'read',
      record: { id: swapId, phase: 'waiting', pairs: 1 },
    })
  })

  it('keeps the swap recorded at the launch through a run that cannot swap the launch in', async () => {
    const { cloud, doomed } = convertedWithDoomedMember()
    const replacer = replacerFor(cloud)
    await replacer.run(request('1767225600000-0s'))
    const recorded = cloud.group('web').tags[TAG_SWAP]
    expect(recorded).toBeDefined()
    // Unread launch hooks start nothing new (launch-hooks-unreadable): no swap this run.
    cloud.failNext('lifecycleHooks', Object.assign(new Error('Rate exceeded'), { name: 'Throttling' }))
    replacer.advanceSeconds(45)
    const before = cloud.mutations.length
    const summary = await replacer.run(request('1767225600000-45s'))
    expect(JSON.stringify(summary)).toContain('launch-hooks-unreadable')
    expect(cloud.mutations.slice(before).map((m) => m.method)).not.toContain('untagGroup')
    expect(cloud.group('web').tags[TAG_SWAP]).toBe(recorded)
    expect(cloud.group('web').members.get(doomed)).toBe('InService')
  })

  it('lets the doomed member leave at once when no other pool has capacity, so the group backfills', async () => {
    const { cloud, doomed } = convertedWithDoomedMember()
    cloud.launchSpot = async () => ({
      ok: false,
      errors: [{ instanceType: 'm5.large', code: 'InsufficientInstanceCapacity', message: 'none' }],
    })
    const summary = await replacerFor(cloud).run(request('1767225600000-0s'))
    // Through Auto Scaling, without a decrement: its termination hooks and draining run, the group backfills.
    expect(cloud.mutations.filter((m) => m.method === 'terminateInGroup')).toEqual([
      { method: 'terminateInGroup', args: [doomed, false] },
    ])
    expect(cloud.mutations.map((m) => m.method)).not.toContain('detachInstances')
    expect(cloud.group('web').desiredCapacity).toBe(2)
    expect(actionsOf(summary)).toContainEqual(
      expect.objectContaining({ detail: expect.stringContaining(`${doomed} left the group`) }),
    )
  })

  it('keeps the doomed member in service when its launch fails transiently: the next requested run tries again', async () => {
    const { cloud, doomed } = convertedWithDoomedMember()
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'RequestLimitExceeded' })
    cloud.failNext('launchSpot', throttled)
    const replacer = replacerFor(cloud)
    await replacer.run(request('1767225600000-0s'))
    expect(cloud.mutations.map((m) => m.method)).not.toContain('terminateInGroup')
    expect(cloud.group('web').members.get(doomed)).toBe('InService')

    replacer.advanceSeconds(45)
    await replacer.run(request('1767225600000-45s'))
    expect(cloud.calls.filter((c) => c.method === 'launchSpot')).toHaveLength(2)
    expect([...cloud.instances.values()].some((i) => i.tags[TAG_REPLACING_INSTANCE] === doomed)).toBe(true)
  })

  it('attaches the launches of a swap recorded ahead of two doomed members only once both are ready', async () => {
    const { cloud, doomed, other } = convertedWithDoomedMember()
    cloud.seedInstanceTags(other, { [TAG_INTERRUPTION_WARNED]: START.toISOString() })
    cloud.interruptionWarned.add(other)
    const replacer = replacerFor(cloud)
    await replacer.run(request('1767225600000-0s'))
    const replacementOf = (member: string) =>
      [...cloud.instances.values()].find((i) => i.tags[TAG_REPLACING_INSTANCE] === member)
    const second = replacementOf(other)
    if (second === undefined) throw new Error('test: no replacement launched')
    // One swap id carried outside the group by a launch its swap left behind would read as attached once.
    cloud.instances.set(second.id, { ...second, state: 'pending' })
    cloud.calls.length = 0
    replacer.advanceSeconds(45)
    await replacer.run(request('1767225600000-45s'))
    expect(cloud.mutations.map((m) => m.method)).not.toContain('attachInstances')
    expect(payload(cloud.group('web').tags[TAG_SWAP])).toMatch(/phase=attaching owner=2 pairs=2 /)

    cloud.instances.set(second.id, { ...second, state: 'running' })
    replacer.advanceSeconds(5)
    await replacer.run(request('1767225600000-50s'))
    const web = cloud.group('web')
    expect(web.members.get(replacementOf(doomed)?.id ?? '')).toBe('InService')
    expect(web.members.get(second.id)).toBe('InService')
  })

  it('runs nothing for a request about a group in a region outside REGIONS', async () => {
    const { cloud } = convertedWithDoomedMember()
    const event = groupRunRequestEvent('x', 'eu-west-1', 'web', START)
    const summary = await replacerFor(cloud).run(event)
    expect(cloud.calls).toEqual([])
    expect(summary.ignored).toEqual([
      expect.objectContaining({ reason: expect.stringMatching(/^region-not-enabled/) }),
    ])
  })
})
