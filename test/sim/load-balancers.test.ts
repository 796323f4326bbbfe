import { describe, expect, it } from 'vitest'
import { TAG_REPLACING_INSTANCE } from '../../lambdas/core/constants.ts'
import { trafficSourceKey } from '../../lambdas/core/port.ts'
import { BOOT_SECONDS, TERMINATION_HOOK_SECONDS } from '../../tools/sim/constants.ts'
import { isServing, servingCount } from '../../tools/sim/load-balancers.ts'
import { group, type RawGroup, rawScenario, type TestWorld, testWorld } from './support.ts'

const TARGET_GROUP = {
  type: 'target-group',
  healthCheckIntervalSeconds: 10,
  healthyThreshold: 3,
  deregistrationDelaySeconds: 60,
}
const CLASSIC = {
  type: 'classic',
  healthCheckIntervalSeconds: 20,
  healthyThreshold: 2,
  deregistrationDelaySeconds: 30,
}

const behind = (balancers: readonly object[], overrides: Record<string, unknown> = {}): RawGroup =>
  group('web', { desired: 2, max: 6, loadBalancers: balancers, ...overrides })

const sourcesOf = (sim: TestWorld) => sim.group('web').trafficSources

/** The instance's state in every traffic source of `web`, as the port reports it. */
const health = async (sim: TestWorld, id: string) => {
  const read = await sim.cloud().trafficHealth(sourcesOf(sim), [id])
  return Object.fromEntries(
    [...(read.states.get(id) ?? [])].map(([key, state]) => [key.split(':')[0], state]),
  )
}

/** A spot instance launched by spotswap for `web`, booted (running) but not attached. */
const bootedSpot = async (sim: TestWorld, tags: Record<string, string> = {}, token = 'launch-1') => {
  const launched = await sim.cloud().launchSpot({
    groupName: 'web',
    launchTemplate: { id: 'lt-1', name: undefined, version: '$Default' },
    launchConfigurationName: undefined,
    overrides: [{ instanceType: 'm5.large', zone: 'us-east-1b', subnetId: 'subnet-us-east-1b', priority: 0 }],
    allocationStrategy: 'lowest-price',
    tags: { 'launched-for-asg': 'web', ...tags },
    clientToken: token,
  })
  await sim.advance(BOOT_SECONDS * 1000)
  if (!launched.ok) throw new Error('launch failed')
  return launched.instanceId
}

describe('load balancers of a simulated group', () => {
  it('are reported by DescribeAutoScalingGroups with stable ids: target groups by ARN, classic ones by name', async () => {
    const sim = testWorld(rawScenario([behind([TARGET_GROUP, CLASSIC])]))
    const [web] = await sim.cloud().describeGroups({ tagKey: undefined, tagValues: [] })
    expect(web?.trafficSources).toEqual({
      targetGroupArns: [
        expect.stringMatching(
          /^arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup\/web-1\/[0-9a-f]{16}$/,
        ),
      ],
      classicLoadBalancerNames: ['web-2'],
      unreadable: [],
    })
    expect(testWorld(rawScenario([behind([TARGET_GROUP, CLASSIC])])).group('web').trafficSources).toEqual(
      web?.trafficSources,
    )
  })

  it('report no traffic sources for a group without load balancers, and read nothing for them', async () => {
    const sim = testWorld(rawScenario([group('web')]))
    const [web] = await sim.cloud().describeGroups({ tagKey: undefined, tagValues: [] })
    expect(web?.trafficSources).toEqual({ targetGroupArns: [], classicLoadBalancerNames: [], unreadable: [] })
    const calls = sim.world.counter.total.size
    const [member] = sim.members('web')
    expect(await sim.cloud().trafficHealth(sourcesOf(sim), [member?.id ?? ''])).toEqual({
      settings: new Map(),
      states: new Map(),
    })
    expect(sim.world.counter.total.size).toBe(calls)
  })

  it('hold the initial members registered and healthy', async () => {
    const sim = testWorld(rawScenario([behind([TARGET_GROUP, CLASSIC])]))
    const [member] = sim.members('web')
    expect(await health(sim, member?.id ?? '')).toEqual({
      'target-group': { state: 'healthy' },
      classic: { state: 'InService', reason: 'N/A' },
    })
    expect(servingCount(sim.group('web'), sim.world.clock.now)).toBe(2)
  })

  it('register an attached instance at once; it serves after interval × healthy threshold of each', async () => {
    const sim = testWorld(rawScenario([behind([TARGET_GROUP, CLASSIC])]))
    const spot = await bootedSpot(sim)
    expect(await health(sim, spot)).toEqual({
      'target-group': { state: 'unused', reason: 'Target.NotRegistered' },
    })
    await sim.cloud().attachInstances('web', [spot])
    expect(await health(sim, spot)).toEqual({
      'target-group': { state: 'initial', reason: 'Elb.InitialHealthChecking' },
      classic: { state: 'OutOfService', reason: 'ELB' },
    })
    // The target group decides after 10 s × 3, the classic load balancer after 20 s × 2.
    await sim.advance(31_000)
    expect((await health(sim, spot))['target-group']).toEqual({ state: 'healthy' })
    expect(isServing(sim.group('web'), spot, sim.world.clock.now)).toBe(false)
    await sim.advance(10_000)
    expect((await health(sim, spot)).classic).toEqual({ state: 'InService', reason: 'N/A' })
    expect(isServing(sim.group('web'), spot, sim.world.clock.now)).toBe(true)
  })

  it('register an instance Auto Scaling launches when it is InService, after its boot', async () => {
    const sim = testWorld(rawScenario([behind([TARGET_GROUP])]))
    await sim.cloud().terminateInGroup(sim.members('web')[0]?.id ?? '', false)
    const [launched] = sim.members('web', 'Pending')
    const id = launched?.id ?? ''
    expect(await health(sim, id)).toEqual({
      'target-group': { state: 'unused', reason: 'Target.NotRegistered' },
    })
    await sim.advance(BOOT_SECONDS * 1000)
    expect(await health(sim, id)).toEqual({
      'target-group': { state: 'initial', reason: 'Elb.InitialHealthChecking' },
    })
    await sim.advance(30_000)
    expect(await health(sim, id)).toEqual({ 'target-group': { state: 'healthy' } })
  })

  it('drain an instance that leaves the group for the deregistration delay, then no longer report it', async () => {
    const sim = testWorld(rawScenario([behind([TARGET_GROUP, CLASSIC])]))
    const [leaving] = sim.members('web')
    const id = leaving?.id ?? ''
    await sim.cloud().detachInstances('web', [id], false)
    expect(await health(sim, id)).toEqual({
      'target-group': { state: 'draining', reason: 'Target.DeregistrationInProgress' },
      // A classic load balancer says InService: "Instance deregistration currently in progress".
      classic: { state: 'InService', reason: 'ELB' },
    })
    await sim.advance(30_000)
    expect(await health(sim, id)).toEqual({
      'target-group': { state: 'draining', reason: 'Target.DeregistrationInProgress' },
    })
    await sim.advance(30_000)
    expect(await health(sim, id)).toEqual({
      'target-group': { state: 'unused', reason: 'Target.NotRegistered' },
    })
  })

  it('hold a terminating member Terminating, running and billed, until it drained; the hook holds it after', async () => {
    const sim = testWorld(rawScenario([behind([TARGET_GROUP], { terminationHook: true })]))
    const [member] = sim.members('web')
    const id = member?.id ?? ''
    await sim.cloud().terminateInGroup(id, true)
    const state = () => sim.group('web').members.get(id)?.lifecycleState
    expect(state()).toBe('Terminating')
    expect(await health(sim, id)).toEqual({
      'target-group': { state: 'draining', reason: 'Target.DeregistrationInProgress' },
    })
    await sim.advance(59_000)
    expect(state()).toBe('Terminating')
    expect(sim.region.instances.get(id)?.state).toBe('running')
    expect(sim.region.instances.get(id)?.billedUntilMs).toBeUndefined()
    await sim.advance(1_000)
    expect(state()).toBe('Terminating:Wait')
    await sim.advance(TERMINATION_HOOK_SECONDS * 1000)
    expect(state()).toBe('Terminating:Proceed')
    expect(sim.region.instances.get(id)?.billedUntilMs).toBeDefined()
    expect(servingCount(sim.group('web'), sim.world.clock.now)).toBe(1)
  })

  it('wait for the longest deregistration delay of the group before shutting a member down', async () => {
    const sim = testWorld(rawScenario([behind([TARGET_GROUP, CLASSIC])]))
    const [member] = sim.members('web')
    const id = member?.id ?? ''
    await sim.cloud().terminateInGroup(id, false)
    const from = sim.world.clock.now
    await sim.advance(30_000)
    expect(sim.region.instances.get(id)?.state).toBe('running')
    await sim.advance(30_000)
    expect(sim.region.instances.get(id)?.state).toBe('shutting-down')
    expect(sim.region.instances.get(id)?.billedUntilMs).toBe(from + 60_000)
  })

  it('shut a member down at once when it never served: a deregistered target without connections is gone at once', async () => {
    const sim = testWorld(rawScenario([behind([TARGET_GROUP], { unhealthyReplacementFraction: 1 })]))
    const spot = await bootedSpot(sim)
    await sim.cloud().attachInstances('web', [spot])
    await sim.advance(5_000)
    await sim.cloud().terminateInGroup(spot, true)
    expect(await health(sim, spot)).toEqual({
      'target-group': { state: 'unused', reason: 'Target.NotRegistered' },
    })
    expect(sim.region.instances.get(spot)?.state).toBe('shutting-down')
  })

  it('let EC2 take a member while it drains: it leaves once terminated, and the drain ends nothing twice', async () => {
    const sim = testWorld(rawScenario([behind([TARGET_GROUP], { terminationHook: true })]))
    const [member] = sim.members('web')
    const id = member?.id ?? ''
    await sim.cloud().terminateInGroup(id, true)
    await sim.advance(10_000)
    await sim.cloud().terminateInstances([id])
    const stoppedMs = sim.world.clock.now
    await sim.advance(120_000)
    expect(sim.group('web').members.has(id)).toBe(false)
    expect(sim.region.instances.get(id)?.state).toBe('terminated')
    expect(sim.region.instances.get(id)?.billedUntilMs).toBe(stoppedMs)
  })

  // 10 s × the unhealthy threshold (2, AWS's default), not × the healthy threshold (3): a target that
  // fails every check is unhealthy once it failed enough of them to tell.
  it('never let a broken replacement turn healthy: unhealthy once it failed the unhealthy threshold of checks', async () => {
    const sim = testWorld(rawScenario([behind([TARGET_GROUP], { unhealthyReplacementFraction: 1 })]))
    const spot = await bootedSpot(sim)
    await sim.cloud().attachInstances('web', [spot])
    await sim.advance(19_000)
    expect(await health(sim, spot)).toEqual({
      'target-group': { state: 'initial', reason: 'Elb.InitialHealthChecking' },
    })
    await sim.advance(1_000)
    expect(await health(sim, spot)).toEqual({
      'target-group': { state: 'unhealthy', reason: 'Target.FailedHealthChecks' },
    })
    await sim.advance(3_600_000)
    expect(isServing(sim.group('web'), spot, sim.world.clock.now)).toBe(false)
  })

  it('draw the broken replacements from the seed: the same ones for the same seed, about the share asked', async () => {
    const brokenOf = async (seed: number) => {
      const sim = testWorld(
        rawScenario([behind([TARGET_GROUP], { unhealthyReplacementFraction: 0.3 })], { seed }),
      )
      const broken: boolean[] = []
      for (let n = 0; n < 40; n++) {
        const id = await bootedSpot(sim, {}, `token-${n}`)
        broken.push(sim.region.instances.get(id)?.neverHealthy === true)
      }
      return broken
    }
    const first = await brokenOf(7)
    expect(await brokenOf(7)).toEqual(first)
    expect(await brokenOf(8)).not.toEqual(first)
    expect(first.filter(Boolean).length).toBeGreaterThan(4)
    expect(first.filter(Boolean).length).toBeLessThan(20)
    // Instances Auto Scaling launches are not spotswap's replacements: their image is the group's own.
    const sim = testWorld(rawScenario([behind([TARGET_GROUP], { unhealthyReplacementFraction: 1 })]))
    await sim.cloud().terminateInGroup(sim.members('web')[0]?.id ?? '', false)
    expect(sim.members('web', 'Pending')[0]?.neverHealthy).toBe(false)
  })

  it('touch the group when a member turns healthy, so observers see the change when it happens', async () => {
    const sim = testWorld(rawScenario([behind([TARGET_GROUP])]))
    const spot = await bootedSpot(sim, { [TAG_REPLACING_INSTANCE]: sim.members('web')[0]?.id ?? '' })
    await sim.cloud().attachInstances('web', [spot])
    sim.region.takeChanged()
    await sim.advance(29_000)
    expect(sim.region.takeChanged()).toEqual([])
    await sim.advance(1_000)
    expect(sim.region.takeChanged().map((g) => g.name)).toEqual(['web'])
  })

  it('answer through the API gate as the adapter asks: settings, then health per target group and per classic load balancer', async () => {
    const sim = testWorld(rawScenario([behind([TARGET_GROUP, TARGET_GROUP, CLASSIC])]))
    const ids = sim.members('web').map((m) => m.id)
    const read = await sim.cloud().trafficHealth(sourcesOf(sim), ids)
    expect(Object.fromEntries(sim.world.counter.total)).toEqual({
      'elasticloadbalancing:DescribeTargetGroups': 1,
      'elasticloadbalancing:DescribeTargetHealth': 2,
      'elasticloadbalancing:DescribeLoadBalancers': 1,
      'elasticloadbalancing:DescribeInstanceHealth': 1,
    })
    expect(sim.world.counter.byGroup.get('web')?.get('elasticloadbalancing:DescribeTargetHealth')).toBe(2)
    const [first, second] = sourcesOf(sim).targetGroupArns
    expect(read.settings).toEqual(
      new Map([
        [trafficSourceKey('target-group', first ?? ''), { intervalSeconds: 10, healthyThreshold: 3 }],
        [trafficSourceKey('target-group', second ?? ''), { intervalSeconds: 10, healthyThreshold: 3 }],
        [trafficSourceKey('classic', 'web-3'), { intervalSeconds: 20, healthyThreshold: 2 }],
      ]),
    )
    expect([...(read.states.get(ids[0] ?? '')?.keys() ?? [])]).toHaveLength(3)
  })

  it('fail a read of a target group that does not exist, as Elastic Load Balancing does', async () => {
    const sim = testWorld(rawScenario([behind([TARGET_GROUP])]))
    const sources = {
      targetGroupArns: ['arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/gone/0'],
      classicLoadBalancerNames: [],
      unreadable: [],
    }
    await expect(sim.cloud().trafficHealth(sources, [sim.members('web')[0]?.id ?? ''])).rejects.toMatchObject(
      {
        name: 'TargetGroupNotFound',
      },
    )
  })
})
