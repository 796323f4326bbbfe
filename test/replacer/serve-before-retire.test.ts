/**
 * Serve before retire, against the stateful fake: a group behind load balancers keeps its on-demand
 * partner until the attached replacement is healthy in every one of them; a replacement that never
 * serves leaves by its deadline and the partner stays.
 */
import { describe, expect, it } from 'vitest'
import {
  HEALTH_POLL_SECONDS,
  TAG_JOINED_GROUP,
  TAG_NO_SPOT_CAPACITY_UNTIL,
  TAG_SWAP,
} from '../../lambdas/core/constants.ts'
import { trafficSourceKey } from '../../lambdas/core/port.ts'
import { awsError, type FakeCloud, type FakeInstance } from '../fakes/fake-cloud.ts'
import { actionsOf, cloudWithFleet, harness, skipsOf, spotShare } from './support.ts'

const TG = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/0123456789abcdef'

const behindLoadBalancers = (classic = false, count = 1, env: Record<string, string> = {}) => {
  const cloud = cloudWithFleet(count, {
    trafficSources: {
      targetGroupArns: [TG],
      classicLoadBalancerNames: classic ? ['web-classic'] : [],
      unreadable: [],
    },
  })
  cloud.healthSettings.set(trafficSourceKey('target-group', TG), { intervalSeconds: 30, healthyThreshold: 3 })
  const h = harness({ 'us-east-1': cloud }, env)
  return { cloud, h }
}

/** The group's members, those draining out of it after their retirement left out. */
const members = (cloud: FakeCloud) => cloud.staying('web')
const spotMember = (cloud: FakeCloud) =>
  members(cloud).find((id) => cloud.instances.get(id)?.lifecycle === 'spot')
const onDemandMember = (cloud: FakeCloud) =>
  members(cloud).find((id) => cloud.instances.get(id)?.lifecycle === 'on-demand')

/** Launch, then attach once the grace period is over; returns the partner and its replacement. */
const attached = async (cloud: FakeCloud, h: ReturnType<typeof harness>) => {
  const partner = onDemandMember(cloud) ?? ''
  await h.run()
  // The launch's own look, at the end of the grace period, is the replacer test's concern.
  h.recorded.requested.length = 0
  h.advanceMinutes(6)
  await h.run()
  const replacement = spotMember(cloud) ?? ''
  expect(replacement).not.toBe('')
  return { partner, replacement }
}

describe('serve before retire', () => {
  it('keeps the partner while its replacement is registered but not yet healthy, then retires it', async () => {
    const { cloud, h } = behindLoadBalancers()
    const { partner, replacement } = await attached(cloud, h)
    expect(cloud.targetStates.get(replacement)?.get(trafficSourceKey('target-group', TG))?.state).toBe(
      'initial',
    )
    expect(members(cloud)).toContain(partner)
    expect(cloud.group('web').desiredCapacity).toBe(2)
    // The first look comes soon, and reads the target group's health-check settings.
    expect(h.recorded.requested).toEqual([
      { region: 'us-east-1', group: 'web', delaySeconds: HEALTH_POLL_SECONDS },
    ])

    h.advanceSeconds(HEALTH_POLL_SECONDS)
    cloud.calls.length = 0
    const waiting = await h.run()
    expect(cloud.mutations).toEqual([])
    expect(cloud.calls.filter((c) => c.method === 'trafficHealth')).toEqual([
      { method: 'trafficHealth', args: [cloud.group('web').trafficSources, [replacement]] },
    ])
    expect(skipsOf(waiting)).toContainEqual(
      expect.objectContaining({
        instanceId: replacement,
        reason: expect.stringContaining(
          `waiting-to-serve (not-serving-yet): ${replacement} is initial (Elb.InitialHealthChecking)`,
        ),
      }),
    )
    // The next look comes when its checks (30 s × 3 healthy) should have passed: 90 s after the attach.
    expect(h.recorded.requested.at(-1)).toEqual({ region: 'us-east-1', group: 'web', delaySeconds: 60 })

    cloud.markHealthy(replacement)
    h.advanceSeconds(60)
    await h.run()
    expect(members(cloud)).toEqual([replacement])
    expect(cloud.group('web')).toMatchObject({ desiredCapacity: 1, maxSize: 1 })
    expect(cloud.group('web').tags[TAG_SWAP]).toBeUndefined()
    // The partner served: Auto Scaling lets it drain for the deregistration delay before it terminates it.
    expect(cloud.group('web').members.get(partner)).toBe('Terminating')
    expect(cloud.instances.get(partner)?.state).toBe('running')
    h.advanceSeconds(300)
    cloud.calls.length = 0
    await h.run()
    // Auto Scaling's doing: spotswap writes nothing to the partner meanwhile.
    expect(cloud.mutations.filter((m) => JSON.stringify(m.args).includes(partner))).toEqual([])
    expect(cloud.group('web').members.has(partner)).toBe(false)
    expect(cloud.instances.get(partner)?.state).toBe('terminated')
  })

  it('waits for every load balancer: healthy in the target group is not enough while the classic one says OutOfService', async () => {
    const { cloud, h } = behindLoadBalancers(true)
    const { partner, replacement } = await attached(cloud, h)
    cloud.setTargetState(replacement, { state: 'healthy' }, trafficSourceKey('target-group', TG))
    cloud.setTargetState(
      replacement,
      { state: 'OutOfService', reason: 'Instance' },
      trafficSourceKey('classic', 'web-classic'),
    )
    h.advanceMinutes(3)
    await h.run()
    expect(members(cloud)).toContain(partner)
    cloud.markHealthy(replacement)
    cloud.setTargetState(replacement, { state: 'InService' }, trafficSourceKey('classic', 'web-classic'))
    h.advanceSeconds(30)
    await h.run()
    expect(members(cloud)).toEqual([replacement])
  })

  it('retires the replacement, keeps the partner and backs it off when the replacement never serves', async () => {
    const { cloud, h } = behindLoadBalancers()
    const { partner, replacement } = await attached(cloud, h)
    cloud.setTargetState(replacement, { state: 'unhealthy', reason: 'Target.FailedHealthChecks' })
    // Grace 300 s + 2 × 90 s of checks = 480 s after the attach.
    h.advanceSeconds(470)
    await h.run()
    expect(members(cloud)).toEqual(expect.arrayContaining([partner, replacement]))
    h.advanceSeconds(20)
    const summary = await h.run()
    expect(members(cloud)).toEqual([partner])
    expect(cloud.instances.get(replacement)?.state).toBe('terminated')
    expect(cloud.group('web')).toMatchObject({ desiredCapacity: 1, maxSize: 1 })
    expect(cloud.group('web').tags[TAG_SWAP]).toBeUndefined()
    const backoff = Date.parse(cloud.instances.get(partner)?.tags[TAG_NO_SPOT_CAPACITY_UNTIL] ?? '')
    expect(backoff).toBeGreaterThan(Date.parse('2026-01-01T00:14:00Z'))
    expect(actionsOf(summary)).toContainEqual(
      expect.objectContaining({
        kind: 'complete-swap',
        reason: expect.stringMatching(/^not-serving-by-deadline/),
      }),
    )
    // No new replacement for the partner until the back-off is over.
    cloud.calls.length = 0
    h.advanceMinutes(1)
    await h.run()
    expect(cloud.calls.filter((c) => c.method === 'launchSpot')).toEqual([])
  })

  // Chaos seed 7045: the attach's response was lost, so its run recorded no membership; the owner resized
  // and the pair was released. Without its partner's link the replacement was provably spotswap's no more,
  // and stayed in the group never serving.
  it('takes out a released replacement that never serves though its attach recorded no membership', async () => {
    const { cloud, h } = behindLoadBalancers()
    const { partner, replacement } = await attached(cloud, h)
    const { [TAG_JOINED_GROUP]: _unwritten, ...tags } = cloud.instances.get(replacement)?.tags ?? {}
    cloud.instances.set(replacement, { ...(cloud.instances.get(replacement) as FakeInstance), tags })
    cloud.setTargetState(replacement, { state: 'unhealthy', reason: 'Target.FailedHealthChecks' })
    // The owner scales out by one meanwhile: the swap's record no longer accounts for desired capacity.
    const group = cloud.group('web')
    group.desiredCapacity = 3
    group.maxSize = 3
    cloud.addInstance({ group: 'web' })
    h.advanceMinutes(1)
    const released = await h.run()
    expect(actionsOf(released)).toContainEqual(expect.objectContaining({ kind: 'release-pair' }))
    expect(members(cloud)).toEqual(expect.arrayContaining([partner, replacement]))
    h.advanceMinutes(30)
    await h.run()
    expect(members(cloud)).not.toContain(replacement)
    expect(cloud.mutations).toContainEqual({ method: 'terminateInGroup', args: [replacement, false] })
  })

  it('retires nothing while the health cannot be read; by the deadline it gives the replacement up', async () => {
    const { cloud, h } = behindLoadBalancers()
    const { partner, replacement } = await attached(cloud, h)
    cloud.markHealthy(replacement)
    // Grace 300 s and no health-check settings read: the deadline is 300 s after the attach.
    for (const seconds of [150, 120]) {
      cloud.failNext('trafficHealth', awsError('Throttling', 400, 'Rate exceeded'))
      h.advanceSeconds(seconds)
      const summary = await h.run()
      expect(skipsOf(summary)).toContainEqual(
        expect.objectContaining({
          instanceId: replacement,
          reason: expect.stringContaining('load-balancer health could not be read'),
        }),
      )
    }
    expect(cloud.mutations.filter((c) => c.method === 'terminateInGroup')).toEqual([])
    expect(members(cloud)).toEqual(expect.arrayContaining([partner, replacement]))
    // Unreadable at the deadline: the replacement leaves with its unit, the partner (which serves) stays.
    cloud.failNext('trafficHealth', awsError('AccessDenied', 403, 'not authorized'))
    h.advanceSeconds(30)
    const summary = await h.run()
    expect(actionsOf(summary)).toContainEqual(
      expect.objectContaining({
        kind: 'complete-swap',
        reason: expect.stringMatching(/^not-serving-by-deadline/),
      }),
    )
    expect(members(cloud)).toEqual([partner])
    expect(cloud.group('web')).toMatchObject({ desiredCapacity: 1, maxSize: 1 })
  })

  it('never asks for load-balancer health in a group without load balancers', async () => {
    const cloud = cloudWithFleet(2)
    const h = harness({ 'us-east-1': cloud })
    for (let run = 0; run < 6; run++) {
      await h.run()
      h.advanceMinutes(5)
    }
    expect(spotShare(cloud)).toEqual({ spot: 2, onDemand: 0 })
    expect(cloud.calls.filter((c) => c.method === 'trafficHealth')).toEqual([])
  })

  it('skips a group whose traffic source health it cannot read (VPC Lattice), naming it', async () => {
    const lattice = 'arn:aws:vpc-lattice:us-east-1:123456789012:targetgroup/tg-0123456789abcdef0'
    const cloud = cloudWithFleet(1, {
      trafficSources: {
        targetGroupArns: [],
        classicLoadBalancerNames: [],
        unreadable: [`vpc-lattice:${lattice}`],
      },
    })
    const h = harness({ 'us-east-1': cloud })
    const summary = await h.run()
    expect(cloud.mutations).toEqual([])
    expect(summary.regions[0]?.groups?.[0]).toMatchObject({
      skipped: `traffic-source-health-unreadable (vpc-lattice:${lattice})`,
      skipCode: 'traffic-source-health-unreadable',
    })
  })

  it('asks for no early look on a dry run', async () => {
    const cloud = cloudWithFleet(1)
    const h = harness({ 'us-east-1': cloud }, { DRY_RUN: 'true' })
    await h.run()
    h.advanceMinutes(6)
    await h.run()
    expect(h.recorded.requested).toEqual([])
  })
})

describe('the on-demand minimum while replacements wait to serve', () => {
  it('launches nothing for the members the minimum keeps while the open swap’s partners wait to leave', async () => {
    const { cloud, h } = behindLoadBalancers(false, 4, {
      MIN_ON_DEMAND_NUMBER: '2',
      MAX_REPLACEMENTS_IN_FLIGHT: '100%',
    })
    const launched = () => cloud.calls.filter((c) => c.method === 'launchSpot').length
    await h.run()
    expect(launched()).toBe(2)
    h.advanceMinutes(6)
    await h.run()
    expect(spotShare(cloud)).toEqual({ spot: 2, onDemand: 4 })
    // Both partners wait for their replacements to serve: the two members left are the minimum's.
    h.advanceMinutes(1)
    await h.run()
    expect(launched()).toBe(2)
    // Said once, when the first run kept them; never launched for since.
    const said = h.recorded.logs.filter((l) => l.message === 'still on-demand').map((l) => l.attributes?.code)
    expect(said).toEqual(['on-demand-minimum', 'on-demand-minimum'])
    for (const id of members(cloud)) if (cloud.instances.get(id)?.lifecycle === 'spot') cloud.markHealthy(id)
    h.advanceMinutes(1)
    await h.run()
    expect(spotShare(cloud)).toEqual({ spot: 2, onDemand: 2 })
    expect(launched()).toBe(2)
  })
})
