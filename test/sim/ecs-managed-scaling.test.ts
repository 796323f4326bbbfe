/**
 * ECS managed scaling in the simulator (tools/sim/ecs-managed-scaling.ts): CapacityProviderReservation
 * every minute, the target tracking policy that moves desired capacity to targetCapacity, the placement
 * strategy that lets instances empty out, and the scenario fields that configure them.
 */
import { describe, expect, it } from 'vitest'
import { BOOT_SECONDS } from '../../tools/sim/constants.ts'
import { type ClusterLoad, reservation, trackedDesired } from '../../tools/sim/ecs-managed-scaling.ts'
import { cycleSoon } from '../../tools/sim/ecs-scheduler.ts'
import { ON_DEMAND_POLICY } from '../../tools/sim/policy.ts'
import { simClients } from '../../tools/sim/sdk/clients.ts'
import { simulate } from '../../tools/sim/simulate.ts'
import { group, launchSpotFor, parse, problemsOf, REGION, rawScenario, testWorld } from './support.ts'

const MINUTE = 60_000

const SETTINGS = {
  targetCapacity: 100,
  minimumScalingStepSize: 1,
  maximumScalingStepSize: 10_000,
  instanceWarmupPeriod: 300,
}

const ecsGroup = (ecs: Record<string, unknown>, overrides: Record<string, unknown> = {}) =>
  group('web', {
    min: 1,
    max: 10,
    desired: 4,
    ecs: { managedDraining: false, slotsPerInstance: 4, managedScaling: {}, ...ecs },
    ...overrides,
  })

const clusterOf = (sim: ReturnType<typeof testWorld>) => {
  const cluster = sim.region.ecsClusters.get('web')
  if (cluster === undefined) throw new Error('no cluster')
  return cluster
}

const running = (sim: ReturnType<typeof testWorld>) =>
  [...clusterOf(sim).tasks.values()].filter((t) => t.status === 'RUNNING').length

const setCount = (sim: ReturnType<typeof testWorld>, service: string, count: number) => {
  const found = clusterOf(sim).services.find((s) => s.name === service)
  if (found === undefined) throw new Error(`no service ${service}`)
  found.desiredCount = count
  cycleSoon(sim.world, sim.region, clusterOf(sim))
}

describe('CapacityProviderReservation', () => {
  const load = (l: Partial<ClusterLoad>): ClusterLoad => ({
    instances: 4,
    busy: 4,
    waiting: 0,
    slotsPerInstance: 4,
    ...l,
  })

  it.each([
    ['every instance runs a task', load({}), 4, 100],
    ['two of four instances are empty', load({ busy: 2 }), 2, 50],
    ['no task and instances', load({ busy: 0 }), 0, 0],
    ['no task and no instance', load({ instances: 0, busy: 0 }), 0, 100],
    ['nine tasks wait for slots: three more instances', load({ waiting: 9 }), 7, 175],
    ['tasks wait and no instance runs', load({ instances: 0, busy: 0, waiting: 2 }), 1, 200],
  ])('%s', (_, l, needed, metric) => {
    expect(reservation(l, SETTINGS)).toMatchObject({ needed, metric })
  })

  it('scales out by at least minimumScalingStepSize and at most maximumScalingStepSize', () => {
    expect(reservation(load({ waiting: 1 }), { ...SETTINGS, minimumScalingStepSize: 3 }).needed).toBe(7)
    expect(reservation(load({ waiting: 40 }), { ...SETTINGS, maximumScalingStepSize: 2 }).needed).toBe(6)
  })

  it('tracks targetCapacity: 50% keeps as many instances spare as busy', () => {
    expect(
      trackedDesired(reservation(load({ busy: 3 }), SETTINGS), { ...SETTINGS, targetCapacity: 50 }),
    ).toBe(6)
  })
})

describe('ECS managed scaling of a simulated group', () => {
  it('raises desired capacity to fit the tasks a service scales out to, and places them all', async () => {
    const sim = testWorld(rawScenario([ecsGroup({ services: [{ name: 'api', desiredCount: 16 }] })]))
    setCount(sim, 'api', 24)
    await sim.advance(MINUTE + 1)
    expect(sim.group('web').desiredCapacity).toBe(6)
    expect(sim.group('web').owner.desiredCapacity).toBe(6)
    expect(sim.group('web').activities.at(-1)?.cause).toMatch(
      /triggered policy .* changing the desired capacity from 4 to 6\.$/,
    )
    await sim.advance(10 * MINUTE)
    expect(running(sim)).toBe(24)
    expect(sim.group('web').desiredCapacity).toBe(6)
  })

  it('scales in to what the tasks need once binpack empties instances and ECS lifts their protection', async () => {
    const sim = testWorld(
      rawScenario([
        ecsGroup(
          {
            services: [
              {
                name: 'worker',
                desiredCount: 24,
                placementStrategy: 'binpack',
                deregistrationDelaySeconds: 0,
              },
            ],
          },
          { desired: 6 },
        ),
      ]),
    )
    setCount(sim, 'worker', 8)
    await sim.advance(1)
    const busy = sim.members('web').filter((i) => clusterOf(sim).tasksOn(i.id).length > 0)
    expect(busy).toHaveLength(2)
    const unprotected = [...sim.group('web').members.values()].filter((m) => !m.protectedFromScaleIn)
    expect(unprotected).toHaveLength(4)
    await sim.advance(14 * MINUTE)
    expect(sim.group('web').desiredCapacity).toBe(6)
    await sim.advance(3 * MINUTE)
    expect(sim.group('web').desiredCapacity).toBe(2)
    await sim.advance(10 * MINUTE)
    expect(sim.members('web').map((i) => i.id)).toEqual(busy.map((i) => i.id))
    expect(running(sim)).toBe(8)
  })

  it('keeps spare instances with targetCapacity below 100', async () => {
    const sim = testWorld(
      rawScenario([
        ecsGroup({
          managedScaling: { targetCapacity: 50 },
          services: [{ name: 'api', desiredCount: 8, placementStrategy: 'binpack' }],
        }),
      ]),
    )
    await sim.advance(6 * MINUTE)
    expect(sim.group('web').desiredCapacity).toBe(4)
    await sim.advance(30 * MINUTE)
    expect(sim.group('web').desiredCapacity).toBe(4)
    setCount(sim, 'api', 12)
    await sim.advance(MINUTE + 1)
    expect(sim.group('web').desiredCapacity).toBe(6)
  })

  it('scales out no further while an instance is within its warm-up', async () => {
    const sim = testWorld(
      rawScenario([
        ecsGroup({
          managedScaling: { maximumScalingStepSize: 1, instanceWarmupPeriod: 600 },
          services: [{ name: 'api', desiredCount: 16 }],
        }),
      ]),
    )
    setCount(sim, 'api', 24)
    await sim.advance(MINUTE + 1)
    expect(sim.group('web').desiredCapacity).toBe(5)
    await sim.advance(8 * MINUTE)
    expect(sim.group('web').desiredCapacity).toBe(5)
    await sim.advance(2 * MINUTE)
    expect(sim.group('web').desiredCapacity).toBe(6)
  })

  it("counts spotswap's attached replacement: 15 minutes empty, and the scale-in takes an empty member", async () => {
    const sim = testWorld(rawScenario([ecsGroup({ services: [{ name: 'api', desiredCount: 16 }] })]))
    const cloud = sim.cloud()
    const launched = await launchSpotFor(cloud, 'web', 'm5.large', 'us-east-1b')
    if (!launched.ok) throw new Error('launch failed')
    await sim.advance(BOOT_SECONDS * 1000)
    await cloud.attachInstances('web', [launched.instanceId])
    expect(sim.group('web').desiredCapacity).toBe(5)
    await sim.advance(14 * MINUTE)
    expect(sim.group('web').desiredCapacity).toBe(5)
    expect(clusterOf(sim).tasksOn(launched.instanceId)).toEqual([])
    await sim.advance(2 * MINUTE)
    expect(sim.group('web').desiredCapacity).toBe(4)
    await sim.advance(5 * MINUTE)
    expect(sim.region.groupOf(launched.instanceId)).toBeUndefined()
    expect(running(sim)).toBe(16)
  })

  it("prices the on-demand baseline at the desired capacity managed scaling set, the owner's figure", async () => {
    const scenario = parse(
      rawScenario(
        [
          ecsGroup({
            services: [{ name: 'api', desiredCount: 16, desiredSchedule: [['2022-05-31T18:30:00Z', 28]] }],
          }),
        ],
        { durationHours: 2 },
      ),
    )
    const report = await simulate(scenario, { policy: ON_DEMAND_POLICY })
    expect(report.groups.web?.final.desired).toBe(7)
    // Three more instances for the last 90 minutes, less the minutes before they ran.
    expect(report.groups.web?.savingsPct).toBeGreaterThan(0)
    expect(report.groups.web?.savingsPct).toBeLessThan(1)
  })

  it('leaves desired capacity to the owner without managed scaling', async () => {
    const sim = testWorld(
      rawScenario([ecsGroup({ managedScaling: undefined, services: [{ name: 'api', desiredCount: 16 }] })]),
    )
    setCount(sim, 'api', 24)
    await sim.advance(30 * MINUTE)
    expect(sim.group('web').desiredCapacity).toBe(4)
  })

  it('answers DescribeCapacityProviders with the configured settings', async () => {
    const sim = testWorld(
      rawScenario([
        ecsGroup({ managedScaling: { targetCapacity: 90, minimumScalingStepSize: 2 } }),
        group('off', { ecs: {} }),
      ]),
    )
    const session = { id: 1, actor: 'replacer' as const, region: REGION, crashed: false, failedCalls: 0 }
    const answer = await simClients(sim.world, REGION, session).ecs?.describeCapacityProviders({})
    const byName = new Map(answer?.capacityProviders?.map((p) => [p.name, p.autoScalingGroupProvider]))
    expect(byName.get('web-capacity')?.managedScaling).toEqual({
      status: 'ENABLED',
      targetCapacity: 90,
      minimumScalingStepSize: 2,
      maximumScalingStepSize: 10_000,
      instanceWarmupPeriod: 300,
    })
    expect(byName.get('off-capacity')?.managedScaling).toEqual({ status: 'DISABLED' })
  })
})

describe('the scenario fields of managed scaling and placement', () => {
  it('fills in the defaults ECS uses', () => {
    const scenario = parse(rawScenario([ecsGroup({ services: [{ name: 'api', desiredCount: 1 }] })]))
    const ecs = scenario.regions[0]?.groups[0]?.ecs
    expect(ecs?.managedScaling).toEqual(SETTINGS)
    expect(ecs?.services[0]?.placementStrategy).toBe('spread')
  })

  it.each([
    ['a target capacity of 0', { managedScaling: { targetCapacity: 0 } }, 'managedScaling.targetCapacity'],
    [
      'a target capacity above 100',
      { managedScaling: { targetCapacity: 101 } },
      'managedScaling.targetCapacity',
    ],
    [
      'a negative warm-up',
      { managedScaling: { instanceWarmupPeriod: -1 } },
      'managedScaling.instanceWarmupPeriod',
    ],
    ['an unknown field', { managedScaling: { targetCapacty: 90 } }, 'managedScaling.targetCapacty'],
    [
      'an unknown placement strategy',
      { services: [{ name: 'api', desiredCount: 1, placementStrategy: 'random' }] },
      'services[0].placementStrategy',
    ],
    [
      'a minimum step above the maximum',
      { managedScaling: { minimumScalingStepSize: 5, maximumScalingStepSize: 2 } },
      'managedScaling.minimumScalingStepSize',
    ],
  ])('rejects %s', (_, ecs, path) => {
    const problems = problemsOf(rawScenario([ecsGroup(ecs)]))
    expect(problems.map((p) => p.path)).toContain(`$.regions["us-east-1"].groups[0].ecs.${path}`)
  })
})
