/**
 * Finishing a swap a crashed run left, read against the group's scaling activities: only a plan that
 * would retire one side of a pair reads them, and an owner's change since the swap started releases it.
 */
import { describe, expect, it } from 'vitest'
import { TAG_SWAP } from '../../lambdas/core/constants.ts'
import { readSwapRecord } from '../../lambdas/core/swap/record.ts'
import { awsError, type FakeCloud } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, harness, skipsOf, spotShare } from './support.ts'

/** Two on-demand members; a swap attached a spot replacement, whose partner a later run retires. */
const crashedMidSwap = async () => {
  const cloud = cloudWithFleet(2)
  const h = harness({ 'us-east-1': cloud }, { MAX_REPLACEMENTS_IN_FLIGHT: '1' })
  await h.run()
  h.advanceMinutes(6)
  await h.run()
  expect(cloud.group('web').desiredCapacity).toBe(3)
  h.advanceMinutes(5)
  cloud.calls.length = 0
  const onGroup = readSwapRecord(cloud.group('web').tags)
  const started = onGroup.kind === 'read' ? onGroup.record.startedAt : undefined
  return { cloud, h, started: started ?? new Date(Number.NaN) }
}

/**
 * Desired capacity less the units an open swap holds: the run that retires a partner may start the next
 * swap right after closing the last one.
 */
const ownersDesired = (cloud: FakeCloud): number => {
  const onGroup = readSwapRecord(cloud.group('web').tags)
  return cloud.group('web').desiredCapacity - (onGroup.kind === 'read' ? onGroup.record.pairs : 0)
}

const ownerSets = (at: Date, from: number, to: number) => ({
  startTime: new Date(at.getTime() + 4_000),
  cause: `At ${at.toISOString().replace(/\.\d{3}Z$/, 'Z')} a user request explicitly set group desired capacity changing the desired capacity from ${from} to ${to}.`,
})

describe('finishing a swap against the scaling activities', () => {
  it('retires the partner when no one changed desired capacity since the swap started', async () => {
    const { cloud, h, started } = await crashedMidSwap()
    await h.run()
    expect(cloud.calls.filter((c) => c.method === 'scalingActivities')).toEqual([
      { method: 'scalingActivities', args: ['web', started] },
    ])
    expect(ownersDesired(cloud)).toBe(2)
    // The partner is gone; the second replacement was attached by the next swap, in the same run.
    expect(cloud.mutations.filter((c) => c.method === 'terminateInGroup')).toHaveLength(1)
    expect(spotShare(cloud)).toEqual({ spot: 2, onDemand: 1 })
  })

  it('releases the pair, leaving desired as the owner set it, after the owner scaled in and out again', async () => {
    const { cloud, h, started } = await crashedMidSwap()
    const group = cloud.group('web')
    group.activities.push(
      ownerSets(new Date(started.getTime() + 60_000), 3, 2),
      ownerSets(new Date(started.getTime() + 120_000), 2, 3),
    )
    await h.run()
    expect(group.desiredCapacity).toBe(3)
    // Desired (3, set while the raise stood) keeps MaxSize at 3: the rest of the raise is held, recorded.
    expect(group.maxSize).toBe(3)
    expect(readSwapRecord(group.tags)).toMatchObject({
      kind: 'read',
      record: { pairs: 0, ownerDesired: 3, originalMaxSize: 2, raisedMaxSize: 3 },
    })
    expect(spotShare(cloud)).toEqual({ spot: 1, onDemand: 2 })
    expect(cloud.mutations.filter((c) => c.method === 'terminateInGroup')).toEqual([])
  })

  it('counts sentences in an unknown wording in a metric and a warning, and still retires', async () => {
    const { cloud, h, started } = await crashedMidSwap()
    cloud.group('web').activities.push({
      startTime: new Date(started.getTime() + 10_000),
      cause: `At ${new Date(started.getTime() + 5_000).toISOString().replace(/\.\d{3}Z$/, 'Z')} the group was resized by a request of a new kind.`,
    })
    await h.run()
    expect(ownersDesired(cloud)).toBe(2)
    const counted = h.recorded.metrics.flatMap((m) =>
      m.values
        .filter((v) => v.name === 'UnclassifiedScalingActivities')
        .map((v) => ({ ...m.dimensions, value: v.value })),
    )
    expect(counted).toEqual([{ Region: 'us-east-1', Group: 'web', value: 1 }])
    expect(h.recorded.logs).toContainEqual(
      expect.objectContaining({ level: 'warn', message: 'scaling activities in an unknown wording' }),
    )
  })

  it('is not misled by a change from before the swap started', async () => {
    const { cloud, h, started } = await crashedMidSwap()
    cloud.group('web').activities.push(ownerSets(new Date(started.getTime() - 60_000), 1, 2))
    await h.run()
    expect(ownersDesired(cloud)).toBe(2)
  })

  it('waits while the activities cannot be read, then finishes', async () => {
    const { cloud, h } = await crashedMidSwap()
    cloud.failNext('scalingActivities', awsError('Throttling', 400, 'Rate exceeded'))
    await h.run()
    expect(cloud.group('web').desiredCapacity).toBe(3)
    expect(cloud.mutations.filter((c) => c.method === 'terminateInGroup')).toEqual([])
    h.advanceMinutes(5)
    await h.run()
    expect(ownersDesired(cloud)).toBe(2)
  })

  it('gives back the unit of a pair whose replacement left without its decrement, after reading protection', async () => {
    const { cloud, h } = await crashedMidSwap()
    const group = cloud.group('web')
    const replacement = [...group.members.keys()].find((id) => cloud.instances.get(id)?.lifecycle === 'spot')
    // EC2 took the replacement and the interruption handler could not leave with the decrement.
    await cloud.detachInstances('web', [replacement ?? ''], false)
    for (const id of group.members.keys()) group.members.set(id, 'InService')
    const before = group.tags[TAG_SWAP]
    cloud.calls.length = 0
    await h.run()
    const retired = cloud.mutations.find((c) => c.method === 'terminateInGroup')?.args[0] as string
    expect(cloud.calls.find((c) => c.method === 'terminationProtected')?.args[0]).toContain(retired)
    expect(ownersDesired(cloud)).toBe(2)
    // The old swap is closed; the record, if any, is the next swap's, started in the same run.
    expect(group.tags[TAG_SWAP]?.split(' ')[1]).not.toBe(before?.split(' ')[1])
  })

  it('leaves that unit when someone else changed desired capacity since the swap started', async () => {
    const { cloud, h, started } = await crashedMidSwap()
    const group = cloud.group('web')
    const replacement = [...group.members.keys()].find((id) => cloud.instances.get(id)?.lifecycle === 'spot')
    await cloud.detachInstances('web', [replacement ?? ''], false)
    for (const id of group.members.keys()) group.members.set(id, 'InService')
    group.activities.push(
      ownerSets(new Date(started.getTime() + 60_000), 3, 2),
      ownerSets(new Date(started.getTime() + 120_000), 2, 3),
    )
    await h.run()
    expect(group.desiredCapacity).toBe(3)
    expect(cloud.mutations.filter((c) => c.method === 'terminateInGroup')).toEqual([])
  })

  it('reads them only in the runs that retire a partner', async () => {
    const cloud = cloudWithFleet(2)
    const h = harness({ 'us-east-1': cloud })
    const runs: { read: boolean; retired: boolean }[] = []
    for (let run = 0; run < 4; run++) {
      cloud.calls.length = 0
      await h.run()
      runs.push({
        read: cloud.calls.some((c) => c.method === 'scalingActivities'),
        retired: cloud.mutations.some((c) => c.method === 'terminateInGroup'),
      })
      h.advanceMinutes(5)
    }
    expect(runs.some((r) => r.retired)).toBe(true)
    for (const run of runs) expect(run.read).toBe(run.retired)
  })
})

/**
 * A swap recorded at its attach whose attach failed: phase `attaching`, nothing attached, desired the
 * owner's 2; the replacement is still outside the group.
 */
const attachFailed = async () => {
  const cloud = cloudWithFleet(2)
  const h = harness({ 'us-east-1': cloud }, { MAX_REPLACEMENTS_IN_FLIGHT: '1' })
  await h.run()
  h.advanceMinutes(6)
  cloud.failNext('attachInstances', awsError('ServiceUnavailable', 503, 'Service is unavailable'))
  await h.run()
  const group = cloud.group('web')
  const onGroup = readSwapRecord(group.tags)
  expect(onGroup.kind === 'read' && onGroup.record.phase).toBe('attaching')
  expect(group.desiredCapacity).toBe(2)
  const launch = [...cloud.instances.values()].find((i) => i.lifecycle === 'spot')
  expect(launch !== undefined && !group.members.has(launch.id)).toBe(true)
  h.advanceMinutes(5)
  cloud.calls.length = 0
  const started = onGroup.kind === 'read' ? onGroup.record.startedAt : undefined
  return { cloud, h, group, launch: launch?.id ?? '', started: started ?? new Date(Number.NaN) }
}

const leftAlone = (logs: readonly { message: string }[]) =>
  logs.filter((l) => l.message === 'instance tagged as spotswap launch left alone')

describe('a swap whose attach nothing confirms, with desired at the owner’s plus its pairs', () => {
  // Chaos seed 2148: the attach failed, then the owner scaled out by exactly the pairs. Desired read as
  // if the attach had happened and its replacement had left since, so the launch was refused as having
  // joined the group, and no run attached or terminated it.
  it('reads the activities, closes the swap and keeps the launch when the owner scaled out meanwhile', async () => {
    const { cloud, h, group, launch, started } = await attachFailed()
    group.activities.push(ownerSets(new Date(started.getTime() + 60_000), 2, 3))
    // Its instance still boots: a give-back would have to wait for it, so nothing else reads the activities.
    cloud.addInstance({
      group: 'web',
      lifecycleState: 'Pending',
      launchTime: new Date(started.getTime() + 60_000),
    })
    h.recorded.logs.length = 0
    await h.run()
    expect(cloud.calls.filter((c) => c.method === 'scalingActivities')).toEqual([
      { method: 'scalingActivities', args: ['web', started] },
    ])
    expect(leftAlone(h.recorded.logs)).toEqual([])
    expect(h.recorded.logs).toContainEqual(
      expect.objectContaining({
        message: 'action done',
        attributes: expect.objectContaining({
          kind: 'close-swap',
          reason: expect.stringContaining('owner-changed'),
        }),
      }),
    )
    // The owner's 3 stand; the launch is spotswap's again: attached by a later swap or terminated.
    expect(group.desiredCapacity).toBe(3)
    for (
      let run = 0;
      run < 6 && cloud.instances.get(launch)?.state === 'running' && !group.members.has(launch);
      run++
    ) {
      h.advanceMinutes(5)
      await h.run()
    }
    expect(group.members.has(launch) || cloud.instances.get(launch)?.state !== 'running').toBe(true)
    expect(leftAlone(h.recorded.logs)).toEqual([])
  })

  it('gives the unit back when the activities show no owner’s change: the attach happened', async () => {
    const { cloud, h, group, launch } = await attachFailed()
    // The attach took effect after all (into the MaxSize the swap raised), and the replacement left
    // without its decrement since.
    group.maxSize = 3
    await cloud.attachInstances('web', [launch])
    await cloud.detachInstances('web', [launch], false)
    for (const id of group.members.keys()) group.members.set(id, 'InService')
    expect(group.desiredCapacity).toBe(3)
    cloud.calls.length = 0
    await h.run()
    expect(cloud.calls.filter((c) => c.method === 'scalingActivities')).toHaveLength(1)
    expect(ownersDesired(cloud)).toBe(2)
    expect(cloud.mutations.filter((c) => c.method === 'terminateInGroup')).toHaveLength(1)
  })

  it('waits, giving nothing back, while the activities cannot be read', async () => {
    const { cloud, h, group, launch, started } = await attachFailed()
    group.activities.push(ownerSets(new Date(started.getTime() + 60_000), 2, 3))
    cloud.addInstance({ group: 'web', lifecycleState: 'Pending' })
    cloud.failNext('scalingActivities', awsError('Throttling', 400, 'Rate exceeded'))
    h.recorded.logs.length = 0
    const summary = await h.run()
    expect(group.desiredCapacity).toBe(3)
    expect(
      cloud.mutations.filter((c) => c.method === 'terminateInGroup' || c.method === 'detachInstances'),
    ).toEqual([])
    expect(readSwapRecord(group.tags).kind).toBe('read')
    // The launch is undecided, not foreign: it waits with the swap, and no warning calls it not spotswap's.
    expect(skipsOf(summary)).toContainEqual(
      expect.objectContaining({
        instanceId: launch,
        code: 'swap-waits',
        reason: expect.stringMatching(
          /^swap waits \(activities-unreadable\): .*Rate exceeded.*neither attached nor terminated/,
        ),
      }),
    )
    expect(skipsOf(summary).filter((s) => s.code === 'not-spotswaps-launch')).toEqual([])
    expect(leftAlone(h.recorded.logs)).toEqual([])
  })
})
