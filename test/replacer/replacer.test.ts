import { describe, expect, it } from 'vitest'
import {
  FANOUT_LEASE_SECONDS,
  REGION_LANES,
  REPLACER_TIMEOUT_SECONDS,
  TAG_JOINED_GROUP,
  TAG_LAUNCH_TEMPLATE_ID,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_SWAP,
  TAG_SWAP_ID,
} from '../../lambdas/core/constants.ts'
import { allLanes, laneMessageGroupId, laneOf } from '../../lambdas/core/region/lanes.ts'
import { awsError, FakeCloud } from '../fakes/fake-cloud.ts'
import { actionsOf, cloudWithFleet, harness, START, spotShare, strayOf } from './support.ts'

/** Every lane's message group of each region, in the order the scheduled invocation sends them. */
const laneGroupIds = (...regions: string[]) =>
  regions.flatMap((region) => allLanes(REGION_LANES).map(({ index }) => laneMessageGroupId(region, index)))

/** A launch for the group `opted-out` from its template, recorded by its partner (a member) as its outcome. */
const optedOutLaunch = (cloud: ReturnType<typeof cloudWithFleet>, tags: Record<string, string>) => {
  const partner = cloud.addInstance({ group: 'opted-out' })
  const instance = cloud.addInstance({
    lifecycle: 'spot',
    tags: {
      'launched-for-asg': 'opted-out',
      'launched-for-replacing-instance': partner.id,
      [TAG_LAUNCH_TEMPLATE_ID]: cloud.group('opted-out').launchTemplate?.id ?? '',
      ...tags,
    },
  })
  cloud.seedInstanceTags(partner.id, {
    [TAG_REPLACEMENT_ATTEMPT]: `1:${instance.id}@2026-01-01T00:00:00.000Z`,
  })
  return instance
}

describe('replacer', () => {
  it('converges a full 3-instance group to spot over a few runs with desired and MaxSize unchanged and no orphans', async () => {
    const cloud = cloudWithFleet(3)
    const h = harness({ 'us-east-1': cloud })
    for (let run = 0; run < 12; run++) {
      await h.run()
      h.advanceMinutes(5)
    }
    const group = cloud.group('web')
    expect(spotShare(cloud)).toEqual({ spot: 3, onDemand: 0 })
    expect(group.desiredCapacity).toBe(3)
    expect(group.maxSize).toBe(3)
    expect(group.tags[TAG_SWAP]).toBeUndefined()
    const running = [...cloud.instances.values()].filter((i) => i.state !== 'terminated')
    expect(running).toHaveLength(3)
    const types = running.map((i) => i.type)
    expect(types.every((t) => !t.startsWith('t'))).toBe(true)
  })

  it('attaches the spot instance in one run, retires the on-demand one in the next, and restores MaxSize last', async () => {
    const cloud = cloudWithFleet(1)
    const h = harness({ 'us-east-1': cloud })
    await h.run()
    // The launch asks for a look when its grace period (300 s, less the launch's slack) is over, which
    // comes before the next scheduled run would.
    expect(h.recorded.requested).toEqual([{ region: 'us-east-1', group: 'web', delaySeconds: 270 }])
    h.recorded.requested.length = 0
    h.advanceMinutes(6)
    cloud.calls.length = 0
    await h.run()
    expect(cloud.mutations.map((c) => c.method)).toEqual([
      'tagGroup',
      'setMaxSize',
      'tagInstances',
      'attachInstances',
      'tagInstances',
      'tagGroup',
    ])
    // The record first (phase attaching, the MaxSize to restore), the raise, the swap named on its
    // replacement just before the attach, the group it joined on it once the attach is done (membership
    // history), and the record again (waiting).
    const swapId = `s${Math.floor(Date.parse('2026-01-01T00:06:00Z') / 1000).toString(36)}`
    expect(cloud.mutations[0]?.args[1]).toEqual({
      [TAG_SWAP]: `v2 id=${swapId} phase=attaching owner=1 pairs=1 max=1 raised=2 started=2026-01-01T00:06:00.000Z`,
    })
    expect(cloud.mutations[2]?.args[1]).toEqual({ [TAG_SWAP_ID]: swapId })
    expect(cloud.mutations[4]?.args[1]).toEqual({ [TAG_JOINED_GROUP]: 'web' })
    expect(cloud.mutations[5]?.args[1]).toEqual({
      [TAG_SWAP]: `v2 id=${swapId} phase=waiting owner=1 pairs=1 max=1 raised=2 started=2026-01-01T00:06:00.000Z`,
    })
    // The partner serves until the next run sees its replacement serve (the group has no load balancer:
    // InService is serving); that run is asked for early.
    expect(h.recorded.requested).toEqual([{ region: 'us-east-1', group: 'web', delaySeconds: 30 }])
    h.advanceSeconds(30)
    cloud.calls.length = 0
    await h.run()
    expect(cloud.mutations.map((c) => c.method)).toEqual([
      'tagGroup',
      'terminateInGroup',
      'setMaxSize',
      'untagGroup',
    ])
    // The retirement recorded ahead of it, with a decrement.
    expect(cloud.mutations[0]?.args[1]).toEqual({
      [TAG_SWAP]: expect.stringMatching(
        new RegExp(`^v2 id=\\w+ phase=retiring owner=1 pairs=0 step=${cloud.mutations[1]?.args[0]} max=1 `),
      ),
    })
    expect(cloud.mutations[1]?.args[1]).toBe(true)
  })

  it('retires nothing when the attach fails, and the next run restores MaxSize and swaps again', async () => {
    const cloud = cloudWithFleet(1)
    const h = harness({ 'us-east-1': cloud })
    await h.run()
    h.advanceMinutes(6)
    cloud.failNext('attachInstances', awsError('ValidationError', 400, 'boom'))
    const summary = await h.run()
    expect(cloud.mutations.some((c) => c.method === 'terminateInGroup')).toBe(false)
    expect(actionsOf(summary)).toContainEqual(
      expect.objectContaining({
        kind: 'swap',
        status: 'failed',
        detail: expect.stringMatching(/^attach not confirmed, nothing retired/),
      }),
    )
    // The record stays, MaxSize raised with it: part of an attach may have happened, so only the next
    // run, reading desired capacity, puts it back; it finds the attach never happened.
    expect(cloud.group('web').tags[TAG_SWAP]).toMatch(/phase=attaching/)
    expect(cloud.group('web').maxSize).toBe(2)
    h.advanceMinutes(5)
    await h.run()
    expect(cloud.group('web')).toMatchObject({ desiredCapacity: 1, maxSize: 1 })
    expect(cloud.group('web').tags[TAG_SWAP]).toBeUndefined()
    for (let run = 0; run < 4; run++) {
      h.advanceMinutes(5)
      await h.run()
    }
    expect(cloud.group('web')).toMatchObject({ desiredCapacity: 1, maxSize: 1 })
    expect(spotShare(cloud)).toEqual({ spot: 1, onDemand: 0 })
  })

  it('finishes a swap whose run crashed right after the attach: retires the partner, then restores MaxSize', async () => {
    const cloud = cloudWithFleet(1)
    const h = harness({ 'us-east-1': cloud })
    await h.run()
    h.advanceMinutes(6)
    // The run dies before it records that the attach is done.
    const original = cloud.tagGroup.bind(cloud)
    let writes = 0
    cloud.tagGroup = async (name, tags) => {
      writes++
      if (writes === 2) throw new Error('process crashed')
      return original(name, tags)
    }
    await h.run()
    cloud.tagGroup = original
    expect(cloud.group('web').desiredCapacity).toBe(2)
    expect(cloud.group('web').tags[TAG_SWAP]).toMatch(/phase=attaching/)
    h.advanceMinutes(5)
    await h.run()
    expect(cloud.group('web')).toMatchObject({ desiredCapacity: 1, maxSize: 1 })
    expect(cloud.group('web').tags[TAG_SWAP]).toBeUndefined()
    expect(spotShare(cloud)).toEqual({ spot: 1, onDemand: 0 })
  })

  it('changes nothing with DRY_RUN=true but reports what it would do', async () => {
    const cloud = cloudWithFleet(3)
    const summary = await harness({ 'us-east-1': cloud }, { DRY_RUN: 'true' }).run()
    expect(cloud.mutations).toEqual([])
    expect(summary.dryRun).toBe(true)
    // All three at once: the default budget of a group without load balancers is the whole group.
    const planned = expect.objectContaining({ kind: 'launch-spot', status: 'planned' })
    expect(summary.regions[0]?.groups?.[0]?.actions).toEqual([planned, planned, planned])
  })

  it('leaves an untagged group alone', async () => {
    const cloud = cloudWithFleet(2)
    cloud.addGroup('batch', { tags: { team: 'data' } })
    cloud.addInstance({ group: 'batch' })
    await harness({ 'us-east-1': cloud }).run()
    expect(
      cloud.mutations.every((c) => JSON.stringify(c.args).includes('"web"') || c.method !== 'launchSpot'),
    ).toBe(true)
    expect(
      cloud.mutations
        .filter((c) => c.method === 'launchSpot')
        .map((c) => (c.args[0] as { groupName: string }).groupName),
    ).toEqual(['web', 'web'])
  })

  it('takes no action and says why when TAG_FILTERING_MODE is unknown', async () => {
    const cloud = cloudWithFleet(2)
    const h = harness({ 'us-east-1': cloud }, { TAG_FILTERING_MODE: 'everything' })
    const summary = await h.run()
    expect(summary.ok).toBe(false)
    expect(cloud.calls).toEqual([])
    expect(
      h.recorded.logs.some((l) => l.level === 'error' && l.attributes?.name === 'TAG_FILTERING_MODE'),
    ).toBe(true)
  })

  it('reports a bad group tag, uses the default for that key and still converts the group', async () => {
    const cloud = cloudWithFleet(2)
    cloud.group('web').tags = { ...cloud.group('web').tags, autospotting_min_on_demand_number: 'two' }
    const h = harness({ 'us-east-1': cloud })
    const summary = await h.run()
    const launch = expect.objectContaining({ kind: 'launch-spot' })
    expect(summary.regions[0]?.groups?.[0]?.actions).toEqual([launch, launch])
    expect(h.recorded.logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        attributes: expect.objectContaining({
          group: 'web',
          name: 'autospotting_min_on_demand_number',
          value: 'two',
        }),
      }),
    )
    const figures = h.recorded.logs.find((l) => l.message === 'group figures')
    expect(figures?.attributes).toMatchObject({ group: 'web', configErrors: 1 })
    const regionMetrics = h.recorded.metrics.find((m) => m.dimensions.Group === undefined)
    expect(regionMetrics?.values).toContainEqual(expect.objectContaining({ name: 'ConfigErrors', value: 1 }))
  })

  it('enqueues one message per lane of each region instead of working when FANOUT_QUEUE_URL is set', async () => {
    const east = cloudWithFleet(1)
    const west = new FakeCloud('us-west-2')
    const h = harness(
      { 'us-east-1': east, 'us-west-2': west },
      { REGIONS: 'us-*', FANOUT_QUEUE_URL: 'https://sqs/q.fifo' },
    )
    const summary = await h.run()
    expect(summary.enqueued).toEqual(['us-east-1', 'us-west-2'])
    expect(h.recorded.enqueued.map((m) => m.groupId)).toEqual(laneGroupIds('us-east-1', 'us-west-2'))
    expect(east.calls).toEqual([])
  })

  it('processes fan-out messages from SQS and hands none back when a region fails (the next run reconciles it)', async () => {
    const east = cloudWithFleet(1)
    const west = new FakeCloud('us-west-2')
    west.failNext('describeGroups', awsError('Throttling', 400))
    const h = harness({ 'us-east-1': east, 'us-west-2': west }, { REGIONS: 'us-*' })
    const record = (region: string, messageId: string) => ({
      eventSource: 'aws:sqs',
      messageId,
      body: JSON.stringify({
        source: 'spotswap',
        'detail-type': 'Region Work',
        region,
        detail: { region, lane: laneOf('web', REGION_LANES) },
      }),
    })
    const summary = await h.run({ Records: [record('us-east-1', 'm1'), record('us-west-2', 'm2')] })
    // A message handed back would hold the region's FIFO message group for its visibility timeout.
    expect(summary).not.toHaveProperty('batchItemFailures')
    expect(summary.ok).toBe(false)
    expect(summary.regions.find((r) => r.region === 'us-west-2')?.error).toMatch(/Throttling/)
    expect(east.mutations.map((c) => c.method)).toContain('launchSpot')
  })

  it('reconciles only the named group on an EC2 Instance Launch Successful event', async () => {
    const cloud = cloudWithFleet(1)
    cloud.addGroup('api', { maxSize: 2 })
    cloud.addInstance({ group: 'api', zone: 'us-east-1b' })
    const event = {
      source: 'aws.autoscaling',
      'detail-type': 'EC2 Instance Launch Successful',
      region: 'us-east-1',
      detail: { AutoScalingGroupName: 'api', EC2InstanceId: 'i-0123456789abcdef0' },
    }
    const summary = await harness({ 'us-east-1': cloud }).run(event)
    expect(summary.regions[0]?.groups?.map((g) => g.group)).toEqual(['api'])
  })

  it('ignores unknown events with a reason and touches nothing', async () => {
    const cloud = cloudWithFleet(1)
    const summary = await harness({ 'us-east-1': cloud }).run({
      source: 'aws.s3',
      'detail-type': 'Object Created',
      region: 'us-east-1',
      detail: {},
    })
    expect(summary.ignored?.[0]?.reason).toMatch(/unrecognized event aws.s3/)
    expect(cloud.calls).toEqual([])
  })

  it('terminates a spot instance launched for a group that no longer exists, but not one attached elsewhere', async () => {
    const cloud = cloudWithFleet(1)
    const stray = strayOf(cloud)
    // Tagged alike, but no partner records it: not spotswap's, left alone.
    const forged = cloud.addInstance({
      lifecycle: 'spot',
      tags: { 'launched-for-asg': 'deleted-group', 'launched-for-replacing-instance': 'i-00000000000000001' },
    })
    cloud.addGroup('manual', { tags: {} })
    const adopted = cloud.addInstance({
      group: 'manual',
      lifecycle: 'spot',
      tags: { 'launched-for-asg': 'old-name' },
    })
    await harness({ 'us-east-1': cloud }).run()
    expect(cloud.instances.get(stray.id)?.state).toBe('terminated')
    expect(cloud.instances.get(adopted.id)?.state).toBe('running')
    expect(cloud.instances.get(forged.id)?.state).toBe('running')
  })

  // Chaos seed 12239: runs blocked for 90 minutes, the partners scaled in meanwhile (so gone from EC2's
  // view), then the owner opted the group out: only the group's template can vouch for the launch.
  it('terminates a launch for a group opted out since when its partner is gone, by the group template', async () => {
    const cloud = cloudWithFleet(1)
    cloud.addGroup('opted-out', { tags: { 'spot-enabled': 'false' } })
    const template = cloud.group('opted-out').launchTemplate?.id ?? ''
    const launch = (tags: Record<string, string>) =>
      cloud.addInstance({
        lifecycle: 'spot',
        tags: {
          'launched-for-asg': 'opted-out',
          'launched-for-replacing-instance': 'i-000000000000dead0',
          ...tags,
        },
      })
    const ours = launch({ [TAG_LAUNCH_TEMPLATE_ID]: template })
    const foreign = launch({ [TAG_LAUNCH_TEMPLATE_ID]: 'lt-0aaaaaaaaaaaaaaaa' })
    const gone = cloud.addInstance({
      lifecycle: 'spot',
      tags: {
        'launched-for-asg': 'deleted-group',
        'launched-for-replacing-instance': 'i-000000000000dead1',
        [TAG_LAUNCH_TEMPLATE_ID]: template,
      },
    })
    await harness({ 'us-east-1': cloud }).run()
    expect(cloud.instances.get(ours.id)?.state).toBe('terminated')
    expect(cloud.instances.get(foreign.id)?.state).toBe('running')
    // The group is gone: nothing is left to compare its template with.
    expect(cloud.instances.get(gone.id)?.state).toBe('running')
  })

  // Chaos seed 7567: a swap named its launch and died before the attach; the owner then opted the group out.
  it('terminates a stray named by a swap its opted-out group never attached, not one it did', async () => {
    const cloud = cloudWithFleet(1)
    cloud.addGroup('opted-out', {
      tags: { 'spot-enabled': 'false' },
    })
    const neverAttached = optedOutLaunch(cloud, { [TAG_SWAP_ID]: 's1' })
    const attachedBefore = optedOutLaunch(cloud, { [TAG_SWAP_ID]: 's0' })
    // Desired capacity is still the owner's: the attach never happened.
    const group = cloud.group('opted-out')
    cloud.seedGroupTags('opted-out', {
      [TAG_SWAP]: `v2 id=s1 phase=attaching owner=${group.desiredCapacity} pairs=1`,
    })
    await harness({ 'us-east-1': cloud }).run()
    expect(cloud.instances.get(neverAttached.id)?.state).toBe('terminated')
    expect(cloud.instances.get(attachedBefore.id)?.state).toBe('running')
  })

  // Chaos seed 59: the opted-out group's record is believed only once verified, as a managed group's is.
  it('leaves alone a stray of an opted-out group whose record saying its swap never attached is forged', async () => {
    const cloud = cloudWithFleet(1)
    const group = cloud.addGroup('opted-out', { tags: { 'spot-enabled': 'false' } })
    const stray = optedOutLaunch(cloud, {})
    // Attached by swap s1 once, and taken out since: a person's now.
    cloud.seedInstanceTags(stray.id, { [TAG_SWAP_ID]: 's1' })
    // Written by someone else: no MAC.
    group.tags = {
      ...group.tags,
      [TAG_SWAP]: `v2 id=s1 phase=attaching owner=${group.desiredCapacity} pairs=1`,
    }
    await harness({ 'us-east-1': cloud }).run()
    expect(cloud.instances.get(stray.id)?.state).toBe('running')
  })

  it.each([
    ['per region, each group in the log', {}, 'group figures'],
    ['per region and per group with GROUP_METRICS', { GROUP_METRICS: 'true' }, 'group figures'],
  ])('emits savings, counts and replacement metrics %s', async (_, env: Record<string, string>, line) => {
    const cloud = cloudWithFleet(2)
    const h = harness({ 'us-east-1': cloud }, env)
    for (let run = 0; run < 6; run++) {
      await h.run()
      h.advanceMinutes(5)
    }
    const regionLast = h.recorded.metrics
      .filter((m) => m.dimensions.Group === undefined && m.values.some((v) => v.name === 'SpotInstances'))
      .at(-1)
    const value = (name: string) => regionLast?.values.find((v) => v.name === name)?.value
    expect(regionLast?.dimensions).toEqual({ Region: 'us-east-1' })
    expect(value('SpotInstances')).toBe(2)
    expect(value('HourlySavingsUsd')).toBeGreaterThan(0.05)
    const perGroup = h.recorded.metrics.filter((m) => m.dimensions.Group === 'web')
    expect(perGroup.length > 0).toBe(env.GROUP_METRICS === 'true')
    const lastLine = h.recorded.logs.filter((l) => l.message === line).at(-1)
    expect(lastLine?.attributes).toMatchObject({ region: 'us-east-1', group: 'web', spot: 2 })
  })

  it('emits nothing for a covered region with no managed group and nothing wrong', async () => {
    const h = harness(
      { 'us-east-1': cloudWithFleet(1), 'us-west-2': new FakeCloud('us-west-2') },
      { REGIONS: 'us-*' },
    )
    await h.run()
    expect(h.recorded.metrics.filter((m) => m.dimensions.Region === 'us-west-2')).toEqual([])
    expect(h.recorded.metrics.some((m) => m.dimensions.Region === 'us-east-1')).toBe(true)
  })

  it('counts the groups whose savings are estimated from the embedded price table', async () => {
    const h = harness({ 'us-east-1': cloudWithFleet(2) })
    const prices = (await h.run()).regions[0]?.groups?.[0]?.prices
    const estimated = h.recorded.metrics
      .flatMap((m) => (m.dimensions.Group === undefined ? m.values : []))
      .find((v) => v.name === 'SavingsEstimatedGroups')?.value
    expect(prices).toMatchObject({ savingsEstimated: true })
    expect(estimated).toBe(1)
  })

  it('makes only read calls on a converted account, and the same number for 1 group as for 40', async () => {
    const callsForGroups = async (groups: number) => {
      const cloud = cloudWithFleet(0)
      for (let g = 0; g < groups; g++) {
        cloud.addGroup(`g${g}`, { maxSize: 4 })
        for (let i = 0; i < 3; i++)
          cloud.addInstance({ group: `g${g}`, lifecycle: 'spot', zone: 'us-east-1b' })
      }
      cloud.calls.length = 0
      await harness({ 'us-east-1': cloud }).run()
      expect(cloud.mutations).toEqual([])
      return cloud.calls.map((c) => c.method).sort()
    }
    expect(await callsForGroups(40)).toEqual(await callsForGroups(1))
  })

  it('reads termination protection for at-risk spot members as well as on-demand ones, and respects it', async () => {
    const cloud = cloudWithFleet(0)
    cloud.addGroup('web', { maxSize: 3 })
    const atRisk = cloud.addInstance({
      group: 'web',
      lifecycle: 'spot',
      type: 'm5a.large',
      zone: 'us-east-1b',
      tags: {
        'spotswap:replaced-instance-type': 'm5.large',
        'spotswap:rebalance-at-risk': START.toISOString(),
      },
    })
    cloud.protectedIds.add(atRisk.id)
    await harness({ 'us-east-1': cloud }).run()
    expect(cloud.calls.find((c) => c.method === 'terminationProtected')?.args[0]).toEqual([atRisk.id])
    expect(cloud.mutations).toEqual([])
  })

  it('routes a launch event through the fan-out queue when there is one, so it never overlaps a region worker', async () => {
    const cloud = cloudWithFleet(1)
    const h = harness({ 'us-east-1': cloud }, { FANOUT_QUEUE_URL: 'https://sqs/q.fifo' })
    const event = {
      id: 'e-1',
      source: 'aws.autoscaling',
      'detail-type': 'EC2 Instance Launch Successful',
      region: 'us-east-1',
      detail: { AutoScalingGroupName: 'web app', EC2InstanceId: 'i-0123456789abcdef0' },
    }
    await h.run(event)
    expect(cloud.calls).toEqual([])
    const lane = laneOf('web app', REGION_LANES)
    expect(h.recorded.enqueued).toEqual([
      expect.objectContaining({
        groupId: laneMessageGroupId('us-east-1', lane),
        deduplicationId: 'us-east-1-web_app-e-1',
      }),
    ])
    const body = JSON.parse(h.recorded.enqueued[0]?.body ?? '{}')
    expect(body.detail).toEqual({ region: 'us-east-1', groups: ['web app'], lane })
  })

  it('processes a queued single-group message for that group only', async () => {
    const cloud = cloudWithFleet(1)
    cloud.addGroup('api', { maxSize: 2 })
    cloud.addInstance({ group: 'api', zone: 'us-east-1b' })
    const body = JSON.stringify({
      source: 'spotswap',
      'detail-type': 'Region Work',
      region: 'us-east-1',
      detail: { region: 'us-east-1', groups: ['api'], lane: laneOf('api', REGION_LANES) },
    })
    const summary = await harness({ 'us-east-1': cloud }).run({
      Records: [{ eventSource: 'aws:sqs', messageId: 'm1', body }],
    })
    expect(summary.regions[0]?.groups?.map((g) => g.group)).toEqual(['api'])
  })

  it('says so when a launch event names a group it does not manage', async () => {
    const cloud = cloudWithFleet(1)
    cloud.addGroup('manual', { tags: {} })
    const h = harness({ 'us-east-1': cloud })
    const event = {
      source: 'aws.autoscaling',
      'detail-type': 'EC2 Instance Launch Successful',
      region: 'us-east-1',
      detail: { AutoScalingGroupName: 'manual', EC2InstanceId: 'i-0123456789abcdef0' },
    }
    await h.run(event)
    expect(cloud.mutations).toEqual([])
    expect(h.recorded.logs).toContainEqual(
      expect.objectContaining({ level: 'info', attributes: { region: 'us-east-1', groups: ['manual'] } }),
    )
  })

  it('backs off an instance 5, 10, 20, then 30 minutes while no candidate pool has spot capacity', async () => {
    const cloud = cloudWithFleet(1)
    const original = [...cloud.group('web').members.keys()][0] as string
    const launchedAt: number[] = []
    const h = harness({ 'us-east-1': cloud })
    let minute = 0
    cloud.launchSpot = async () => {
      launchedAt.push(minute)
      return {
        ok: false,
        errors: [{ instanceType: 'm5.large', code: 'InsufficientInstanceCapacity', message: 'none' }],
      }
    }
    const summary = await h.run()
    expect(actionsOf(summary)).toContainEqual(
      expect.objectContaining({
        kind: 'launch-spot',
        status: 'failed',
        detail: expect.stringContaining('next try at 2026-01-01T00:05:00.000Z'),
      }),
    )
    expect(cloud.instances.get(original)?.tags['spotswap:no-spot-capacity-until']).toBe(
      '2026-01-01T00:05:00.000Z',
    )
    for (minute = 5; minute <= 120; minute += 5) {
      h.advanceMinutes(5)
      await h.run()
    }
    expect(launchedAt).toEqual([0, 5, 15, 35, 65, 95])
  })

  it('backs off a launch EC2 refused for a reason it will refuse again, says so, and counts it', async () => {
    const cloud = cloudWithFleet(1)
    cloud.launchSpot = async () => ({
      ok: false,
      errors: [
        { instanceType: 'm5.large', code: 'InvalidAMIID.NotFound', message: 'gone' },
        { instanceType: 'm5a.large', code: 'UnauthorizedOperation', message: 'denied' },
      ],
    })
    const h = harness({ 'us-east-1': cloud })
    const summary = await h.run()
    const original = [...cloud.group('web').members.keys()][0] as string
    expect(cloud.instances.get(original)?.tags['spotswap:no-spot-capacity-until']).toBe(
      '2026-01-01T00:05:00.000Z',
    )
    expect(actionsOf(summary)).toContainEqual(
      expect.objectContaining({
        kind: 'launch-spot',
        status: 'failed',
        detail: expect.stringContaining(
          'launch refused (m5.large: InvalidAMIID.NotFound, m5a.large: UnauthorizedOperation)',
        ),
      }),
    )
    const refused = h.recorded.metrics.flatMap((m) =>
      m.dimensions.Group === undefined ? m.values.filter((v) => v.name === 'LaunchesRefused') : [],
    )
    expect(refused).toEqual([expect.objectContaining({ value: 1 })])
    // Not asked again before the back-off ends.
    cloud.calls.length = 0
    h.advanceMinutes(1)
    await h.run()
    expect(cloud.calls.filter((c) => c.method === 'launchSpot')).toEqual([])
  })

  it('does not back off for a launch that failed for a passing reason', async () => {
    const cloud = cloudWithFleet(1)
    cloud.launchSpot = async () => ({
      ok: false,
      errors: [{ instanceType: 'm5.large', code: 'InternalError', message: 'try again' }],
    })
    await harness({ 'us-east-1': cloud }).run()
    const original = [...cloud.group('web').members.keys()][0] as string
    expect(cloud.instances.get(original)?.tags).toEqual({
      'spotswap:replacement-attempt': '1:no-instance@2026-01-01T00:00:00.000Z',
    })
  })

  it('hands a lane with more groups than one invocation should take to queued chunks of that lane', async () => {
    const cloud = cloudWithFleet(0)
    const names = Array.from({ length: 4000 }, (_, g) => `g${String(g).padStart(4, '0')}`)
    // 450 groups of lane 0 (the lane of a message that names none) and a few of other lanes.
    const lane0 = names.filter((name) => laneOf(name, REGION_LANES) === 0).slice(0, 450)
    const others = names.filter((name) => laneOf(name, REGION_LANES) !== 0).slice(0, 5)
    for (const name of [...lane0, ...others]) cloud.addGroup(name, { maxSize: 2 })
    const stray = strayOf(cloud)
    const h = harness({ 'us-east-1': cloud }, { FANOUT_QUEUE_URL: 'https://sqs/q.fifo' })
    const work = {
      source: 'spotswap',
      'detail-type': 'Region Work',
      region: 'us-east-1',
      detail: { region: 'us-east-1' },
    }
    const summary = await h.run({
      Records: [{ eventSource: 'aws:sqs', messageId: 'm1', body: JSON.stringify(work) }],
    })
    expect(summary.regions).toEqual([{ region: 'us-east-1', deferredChunks: 3 }])
    // Chunk workers only see their own groups: strays are found and cleaned by the splitting run.
    expect(cloud.instances.get(stray.id)?.state).toBe('terminated')
    expect(cloud.calls.map((c) => c.method)).toEqual([
      'describeGroups',
      'describeLaunchedSpotInstances',
      // The stray's group is not among those listed: looked up by the filter's tag key alone.
      'describeGroups',
      'describeInstances',
      'groupOfInstances',
      'terminateInstances',
    ])
    const chunks = h.recorded.enqueued.map((m) => JSON.parse(m.body).detail.groups as string[])
    expect(chunks.map((c) => c.length)).toEqual([200, 200, 50])
    expect(chunks.flat().every((name) => laneOf(name, REGION_LANES) === 0)).toBe(true)
    expect(h.recorded.enqueued.every((m) => m.groupId === laneMessageGroupId('us-east-1', 0))).toBe(true)
    expect(h.recorded.enqueued.every((m) => JSON.parse(m.body).detail.lane === 0)).toBe(true)

    // A chunk is processed as it is, never split again.
    cloud.calls.length = 0
    const chunk = { ...work, detail: { region: 'us-east-1', groups: chunks[0] } }
    const chunkSummary = await h.run({
      Records: [{ eventSource: 'aws:sqs', messageId: 'm2', body: JSON.stringify(chunk) }],
    })
    expect(chunkSummary.regions[0]?.groups).toHaveLength(200)
    // Its groups are read by name, not the region's 451 listed again.
    expect(cloud.calls.filter((c) => c.method === 'describeGroups').map((c) => c.args[0])).toEqual([
      { tagKey: 'spot-enabled', tagValues: ['true'], names: [...(chunks[0] ?? [])].sort() },
    ])
  })

  it('reads termination protection of the instance about to be retired, then of the group once one is protected', async () => {
    const cloud = cloudWithFleet(3)
    const [oldest, second, third] = [...cloud.group('web').members.keys()] as [string, string, string]
    cloud.protectedIds.add(oldest)
    // One replacement at a time: one instance is about to be retired.
    await harness({ 'us-east-1': cloud }, { MAX_REPLACEMENTS_IN_FLIGHT: '1' }).run()
    expect(cloud.calls.filter((c) => c.method === 'terminationProtected').map((c) => c.args[0])).toEqual([
      [oldest],
      [second, third],
    ])
    const launched = cloud.calls
      .filter((c) => c.method === 'launchSpot')
      .map((c) => (c.args[0] as { tags: Record<string, string> }).tags['launched-for-replacing-instance'])
    expect(launched).toEqual([second])
  })
})

describe('the replacer with many members protected from API termination', () => {
  // Chaos seed 7442: read one at a time, four protected oldest members used up the run's rounds, and each
  // run ended before reaching an unprotected one: five on-demand members kept for good.
  it('reaches the first unprotected member however many older ones are protected', async () => {
    const cloud = cloudWithFleet(20)
    const ids = [...cloud.group('web').members.keys()]
    for (const id of ids.slice(0, 16)) cloud.protectedIds.add(id)
    await harness({ 'us-east-1': cloud }).run()
    const launched = cloud.calls
      .filter((c) => c.method === 'launchSpot')
      .map((c) => (c.args[0] as { tags: Record<string, string> }).tags['launched-for-replacing-instance'])
    expect(launched).toEqual(ids.slice(16, 16 + launched.length))
    expect(launched.length).toBeGreaterThan(0)
  })
})

describe('the replacer moving a replacement to another zone', () => {
  // Its own zone has no compatible spot pool; the group's other subnets are known only to DescribeSubnets.
  it('reads the zones of the group subnets no instance tells, then launches in the balanced one', async () => {
    const cloud = cloudWithFleet(0, { subnetIds: ['subnet-b', 'subnet-c', 'subnet-d'] })
    cloud.spotPrices = cloud.spotPrices.filter((row) => row.zone !== 'us-east-1c')
    for (const [subnet, zone] of [
      ['subnet-b', 'us-east-1b'],
      ['subnet-c', 'us-east-1c'],
      ['subnet-d', 'us-east-1d'],
    ] as const)
      cloud.subnets.set(subnet, zone)
    const add = (zone: string, subnetId: string, lifecycle: 'spot' | 'on-demand') =>
      cloud.addInstance({
        group: 'web',
        zone,
        subnetId,
        lifecycle,
        launchTime: new Date(START.getTime() - 6e6),
      })
    add('us-east-1b', 'subnet-b', 'spot')
    const stuck = add('us-east-1c', 'subnet-c', 'on-demand')
    cloud.group('web').maxSize = 3
    await harness({ 'us-east-1': cloud }, { MIN_ON_DEMAND_NUMBER: '0' }).run()
    expect(cloud.calls.filter((c) => c.method === 'subnetZones').map((c) => c.args[0])).toEqual([
      ['subnet-d'],
    ])
    const launch = cloud.calls.find((c) => c.method === 'launchSpot')?.args[0] as {
      tags: Record<string, string>
      overrides: { subnetId?: string }[]
    }
    expect(launch.tags['launched-for-replacing-instance']).toBe(stuck.id)
    expect(new Set(launch.overrides.map((o) => o.subnetId))).toEqual(new Set(['subnet-d']))
  })
})

describe('the replacer on Lambda', () => {
  it('refuses to run without the FIFO fan-out queue, naming it, and makes no AWS call', async () => {
    const cloud = cloudWithFleet(2)
    const h = harness({ 'us-east-1': cloud }, { AWS_LAMBDA_FUNCTION_NAME: 'spotswap-replacer' })
    const summary = await h.run()
    expect(summary.ok).toBe(false)
    expect(summary.configErrors).toEqual([
      expect.objectContaining({
        name: 'FANOUT_QUEUE_URL',
        fatal: true,
        expected: expect.stringContaining('never overlap'),
      }),
    ])
    expect(cloud.calls).toEqual([])
  })

  it('runs with it, through the queue', async () => {
    const cloud = cloudWithFleet(2)
    const h = harness(
      { 'us-east-1': cloud },
      { AWS_LAMBDA_FUNCTION_NAME: 'spotswap-replacer', FANOUT_QUEUE_URL: 'https://sqs/q.fifo' },
    )
    const summary = await h.run()
    expect(summary.ok).toBe(true)
    expect(h.recorded.enqueued.map((m) => m.groupId)).toEqual(laneGroupIds('us-east-1'))
  })

  describe('a region run from the fan-out queue', () => {
    const onLambda = { AWS_LAMBDA_FUNCTION_NAME: 'spotswap-replacer', FANOUT_QUEUE_URL: 'https://sqs/q.fifo' }
    const lane = laneOf('web', REGION_LANES)
    const work = {
      source: 'spotswap',
      'detail-type': 'Region Work',
      region: 'us-east-1',
      detail: { region: 'us-east-1', lane },
    }
    /** A fan-out record as Lambda's SQS poller delivers it, SQS's receipt attributes as strings. */
    const delivered = (attributes: Record<string, string>) => ({
      Records: [{ eventSource: 'aws:sqs', messageId: 'm1', body: JSON.stringify(work), attributes }],
    })
    const receivedSecondsAgo = (
      seconds: number,
      count = 1,
      messageGroupId = laneMessageGroupId('us-east-1', lane),
    ) =>
      delivered({
        ApproximateFirstReceiveTimestamp: String(START.getTime() - seconds * 1000),
        ApproximateReceiveCount: String(count),
        MessageGroupId: messageGroupId,
      })
    /** Lambda's context: the whole function timeout left, as at the start of an invocation. */
    const context = { getRemainingTimeInMillis: () => REPLACER_TIMEOUT_SECONDS * 1000 }
    const notStarted = (h: ReturnType<typeof harness>) =>
      h.recorded.metrics.flatMap((m) => m.values.filter((v) => v.name === 'RegionRunsNotStarted'))

    it('runs when Lambda stops it before SQS can deliver its message again', async () => {
      const cloud = cloudWithFleet(2)
      const h = harness({ 'us-east-1': cloud }, onLambda)
      const summary = await h.run(receivedSecondsAgo(20), context)
      expect(summary.ignored).toBeUndefined()
      expect(cloud.mutations.map((c) => c.method)).toContain('launchSpot')
      expect(notStarted(h)).toEqual([])
    })

    it('does nothing when started too late for that (a retried throttled invocation), and says so', async () => {
      const cloud = cloudWithFleet(2)
      const h = harness({ 'us-east-1': cloud }, onLambda)
      const summary = await h.run(receivedSecondsAgo(40), context)
      expect(cloud.calls).toEqual([])
      expect(summary.ok).toBe(true)
      expect(summary.ignored).toEqual([
        { messageId: 'm1', reason: expect.stringMatching(/^late-delivery: this invocation may run until/) },
      ])
      expect(notStarted(h)).toEqual([{ name: 'RegionRunsNotStarted', unit: 'Count', value: 1 }])
    })

    it('judges a redelivered message by its receive count', async () => {
      // The first run may have shortened its visibility to a lease: the second receipt can be that early.
      const cloud = cloudWithFleet(2)
      const h = harness({ 'us-east-1': cloud }, onLambda)
      await h.run(receivedSecondsAgo(FANOUT_LEASE_SECONDS + 5, 2), context)
      expect(cloud.mutations.map((c) => c.method)).toContain('launchSpot')
      const late = cloudWithFleet(2)
      const refused = await harness({ 'us-east-1': late }, onLambda).run(
        receivedSecondsAgo(FANOUT_LEASE_SECONDS + 30, 2),
        context,
      )
      expect(late.mutations).toEqual([])
      expect(refused.ignored?.[0]?.reason).toMatch(/^late-delivery: /)
    })

    it.each([
      ['no attributes', {}],
      [
        'a timestamp that is not one',
        { ApproximateFirstReceiveTimestamp: 'soon', ApproximateReceiveCount: '1' },
      ],
    ])(
      'does nothing on Lambda when the record has %s: it cannot prove the run ends in time',
      async (_what, attributes) => {
        const cloud = cloudWithFleet(2)
        const h = harness({ 'us-east-1': cloud }, onLambda)
        const summary = await h.run(delivered(attributes), context)
        expect(cloud.calls).toEqual([])
        expect(summary.ignored?.[0]?.reason).toMatch(/^unreadable-delivery: SQS record without a readable/)
      },
    )
  })
})
