/**
 * The simulator's ECS cluster (tools/sim/ecs-cluster.ts, ecs-scheduler.ts): container instances that
 * register once their instance runs, services' tasks placed a task per slot, managed termination
 * protection following the tasks, DRAINING moving service tasks at the pace of their deployment
 * configuration, standalone tasks that never move; and the drain swap it lets the engine run.
 */
import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import {
  TAG_ECS_DRAINED,
  TAG_JOINED_GROUP,
  TAG_RELEASED_SWAP_ID,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP_ID,
} from '../../lambdas/core/constants.ts'
import { ownerSetsDesired } from '../../tools/sim/asg.ts'
import { shutDown } from '../../tools/sim/ec2.ts'
import { cycleSoon } from '../../tools/sim/ecs-scheduler.ts'
import { EcsServiceMeter } from '../../tools/sim/ecs-serving.ts'
import { InvariantLedger } from '../../tools/sim/invariant-ledger.ts'
import { simClients } from '../../tools/sim/sdk/clients.ts'
import { simulate } from '../../tools/sim/simulate.ts'
import { takeWrites } from '../../tools/sim/touches.ts'
import { checkWrites } from '../../tools/sim/write-invariants.ts'
import { group, parse, REGION, rawScenario, testWorld } from './support.ts'

const SERVICES = [
  { name: 'api', desiredCount: 6 },
  {
    name: 'worker',
    desiredCount: 4,
    minimumHealthyPercent: 50,
    maximumPercent: 100,
    deregistrationDelaySeconds: 30,
  },
]

const ecsGroup = (ecs: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}) =>
  group('web', {
    min: 0,
    max: 10,
    desired: 4,
    ecs: { managedDraining: false, slotsPerInstance: 4, services: SERVICES, ...ecs },
    ...overrides,
  })

const clusterOf = (sim: ReturnType<typeof testWorld>) => {
  const cluster = sim.region.ecsClusters.get('web')
  if (cluster === undefined) throw new Error('no cluster')
  return cluster
}

const running = (sim: ReturnType<typeof testWorld>, service: string) =>
  [...clusterOf(sim).tasks.values()].filter((t) => t.service === service && t.status === 'RUNNING').length

const session = (actor: 'replacer' | 'interruption' = 'replacer') => ({
  id: 1,
  actor,
  region: REGION,
  crashed: false,
  failedCalls: 0,
})

describe('the ECS cluster of a simulated group', () => {
  it('starts with every member registered, the tasks spread a task per slot, the busy members protected', () => {
    const sim = testWorld(rawScenario([ecsGroup()]))
    const cluster = clusterOf(sim)
    expect([...cluster.containerInstances.values()].map((ci) => ci.status)).toEqual([
      'ACTIVE',
      'ACTIVE',
      'ACTIVE',
      'ACTIVE',
    ])
    const perInstance = sim.members('web').map((i) => cluster.tasksOn(i.id).length)
    expect(perInstance).toEqual([3, 3, 2, 2])
    expect(running(sim, 'api')).toBe(6)
    expect(running(sim, 'worker')).toBe(4)
    expect([...sim.group('web').members.values()].every((m) => m.protectedFromScaleIn)).toBe(true)
  })

  it('places no more tasks than the slots, and lifts the protection of an idle member', () => {
    const sim = testWorld(
      rawScenario([ecsGroup({ services: [{ name: 'api', desiredCount: 2 }], slotsPerInstance: 1 })]),
    )
    const protectedOnes = [...sim.group('web').members.values()].filter((m) => m.protectedFromScaleIn)
    expect(protectedOnes).toHaveLength(2)
  })

  it("keeps the scenario's protection as the owner's without managed termination protection", () => {
    const sim = testWorld(
      rawScenario([ecsGroup({ managedTerminationProtection: false }, { protectedFromScaleIn: 1 })]),
    )
    expect([...sim.group('web').members.values()].map((m) => m.protectedFromScaleIn)).toEqual([
      true,
      false,
      false,
      false,
    ])
  })

  it('registers a new instance an agent delay after it runs, and places tasks it could not place before', async () => {
    const sim = testWorld(rawScenario([ecsGroup({ services: [{ name: 'api', desiredCount: 20 }] })]))
    expect(running(sim, 'api')).toBe(16)
    ownerSetsDesired(sim.world, sim.region, sim.group('web'), 5)
    await sim.advance(40_000 + 29_000)
    expect(clusterOf(sim).containerInstances.size).toBe(4)
    await sim.advance(1_000 + 30_000 + 1)
    expect(clusterOf(sim).containerInstances.size).toBe(5)
    expect(running(sim, 'api')).toBe(20)
  })

  it('moves service tasks off a DRAINING instance replacements first (minimum 100%), keeps standalone tasks', async () => {
    const sim = testWorld(
      rawScenario([ecsGroup({ services: [{ name: 'api', desiredCount: 4 }] }, { protectedFromScaleIn: 1 })]),
    )
    const cluster = clusterOf(sim)
    const [first] = sim.members('web')
    if (first === undefined) throw new Error('no member')
    const { ecs } = simClients(sim.world, REGION, session())
    const ci = cluster.containerInstances.get(first.id)
    const answer = await ecs?.updateContainerInstancesState({
      cluster: cluster.arn,
      containerInstances: [ci?.arn ?? ''],
      status: 'DRAINING',
    })
    expect(answer?.failures).toEqual([])
    const lowest: number[] = []
    for (let s = 0; s < 400; s += 5) {
      await sim.advance(5_000)
      lowest.push(running(sim, 'api'))
    }
    expect(Math.min(...lowest)).toBe(4)
    expect(cluster.tasksOn(first.id).map((t) => t.group)).toEqual(['family:standalone'])
    expect(sim.group('web').members.get(first.id)?.protectedFromScaleIn).toBe(true)
  })

  it('stops first down to the minimum when the maximum allows no more (minimum 50%, maximum 100%)', async () => {
    const sim = testWorld(
      rawScenario([
        ecsGroup(
          {
            services: [
              {
                name: 'worker',
                desiredCount: 4,
                minimumHealthyPercent: 50,
                maximumPercent: 100,
                deregistrationDelaySeconds: 0,
              },
            ],
            slotsPerInstance: 2,
          },
          { desired: 3 },
        ),
      ]),
    )
    const cluster = clusterOf(sim)
    const busiest = sim.members('web').find((i) => cluster.tasksOn(i.id).length === 2)
    if (busiest === undefined) throw new Error('no busy member')
    const { ecs } = simClients(sim.world, REGION, session())
    await ecs?.updateContainerInstancesState({
      cluster: cluster.name,
      containerInstances: [cluster.containerInstances.get(busiest.id)?.arn ?? ''],
      status: 'DRAINING',
    })
    await sim.advance(1)
    expect(running(sim, 'worker')).toBe(2)
    await sim.advance(31_000)
    expect(running(sim, 'worker')).toBe(4)
    expect(cluster.tasksOn(busiest.id)).toEqual([])
    expect(sim.group('web').members.get(busiest.id)?.protectedFromScaleIn).toBe(false)
  })

  it('moves nothing when 100% / 100% allows neither a stop nor a start', async () => {
    const sim = testWorld(
      rawScenario([
        ecsGroup({
          services: [{ name: 'api', desiredCount: 4, minimumHealthyPercent: 100, maximumPercent: 100 }],
        }),
      ]),
    )
    const cluster = clusterOf(sim)
    const busy = sim.members('web').find((i) => cluster.tasksOn(i.id).length > 0)
    if (busy === undefined) throw new Error('no busy member')
    const { ecs } = simClients(sim.world, REGION, session())
    const arn = cluster.containerInstances.get(busy.id)?.arn ?? ''
    await ecs?.updateContainerInstancesState({
      cluster: cluster.arn,
      containerInstances: [arn],
      status: 'DRAINING',
    })
    await sim.advance(120_000)
    expect(cluster.tasksOn(busy.id).map((t) => t.status)).toEqual(['RUNNING'])
    expect(running(sim, 'api')).toBe(4)
  })

  it('answers as ECS: unknown cluster, more than 10 updates, an unknown container instance', async () => {
    const sim = testWorld(rawScenario([ecsGroup()]))
    const { ecs } = simClients(sim.world, REGION, session())
    await expect(ecs?.listContainerInstances({})).rejects.toMatchObject({ name: 'ClusterNotFoundException' })
    const cluster = clusterOf(sim)
    const arns = [...cluster.containerInstances.values()].map((ci) => ci.arn)
    await expect(
      ecs?.updateContainerInstancesState({
        cluster: cluster.arn,
        containerInstances: Array(11).fill(arns[0]),
        status: 'DRAINING',
      }),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' })
    const answer = await ecs?.updateContainerInstancesState({
      cluster: cluster.arn,
      containerInstances: ['nope'],
      status: 'ACTIVE',
    })
    expect(answer?.failures).toEqual([{ arn: 'nope', reason: 'MISSING' }])
    const listed = await ecs?.listContainerInstances({ cluster: cluster.arn, maxResults: 3 })
    expect(listed?.containerInstanceArns).toHaveLength(3)
    const described = await ecs?.describeContainerInstances({
      cluster: cluster.arn,
      containerInstances: arns,
    })
    expect(described?.containerInstances?.map((c) => c.runningTasksCount)).toEqual([3, 3, 2, 2])
  })
})

describe('serving for an ECS group', () => {
  it('is the tasks running against what the services want, not the members in service', async () => {
    const report = await simulate(
      parse(
        rawScenario([ecsGroup({ services: [{ name: 'api', desiredCount: 20 }] }, { tags: {} })], {
          durationHours: 1,
        }),
      ),
    )
    expect(report.groups.web?.servingAvailabilityPct).toBe(80)
    // In instances: a fifth of the owner's 4 for the hour.
    expect(report.groups.web?.unservedCapacityHours).toBe(0.8)
  })

  it('counts the minutes a service runs below its minimum, not while an owner raise is placed', async () => {
    const sim = testWorld(rawScenario([ecsGroup({ services: [{ name: 'api', desiredCount: 8 }] })]))
    const meter = new EcsServiceMeter()
    const web = sim.group('web')
    const observe = () => meter.observe(sim.region, web, sim.world.clock.now)
    observe()
    const service = sim.region.ecsClusters.get('web')?.services[0]
    if (service === undefined) throw new Error('no service')
    service.desiredCount = 12
    cycleSoon(sim.world, sim.region, clusterOf(sim))
    await sim.advance(1)
    observe()
    await sim.advance(60_000)
    observe()
    const [first] = sim.members('web')
    if (first === undefined) throw new Error('no member')
    shutDown(sim.world, first)
    observe()
    await sim.advance(1)
    observe()
    // Its tasks are placed again at once and run 30 s later: half a minute below the minimum.
    await sim.advance(30_000)
    observe()
    expect(meter.figures(sim.region, web, sim.world.clock.now)).toEqual({
      api: { desiredCount: 12, belowMinimumHealthyMinutes: 0.5, lowestHealthyPct: 75 },
    })
  })
})

describe('the drain swap under simulation', () => {
  it('converts every member ECS protects, no service below its minimum, serving counted in tasks', async () => {
    const report = await simulate(parse(rawScenario([ecsGroup()], { durationHours: 3 })))
    expect(report.groups.web?.final).toMatchObject({ inService: 4, spot: 4, onDemand: 0 })
    // A false alarm without invariant 5's exception: the drain marks a member ECS protects.
    expect(report.violations).toEqual([])
    expect(report.groups.web?.ecsServices).toEqual({
      api: { desiredCount: 6, belowMinimumHealthyMinutes: 0, lowestHealthyPct: 100 },
      worker: { desiredCount: 4, belowMinimumHealthyMinutes: 0, lowestHealthyPct: 75 },
    })
    expect(report.groups.web?.servingAvailabilityPct).toBeGreaterThan(99)
  })

  it('stalls on a standalone task: the member keeps it, stays on demand, ACTIVE again once the drain gave up', async () => {
    let sim: { region: import('../../tools/sim/state.ts').SimRegion } | undefined
    await simulate(
      parse(
        rawScenario(
          [ecsGroup({ services: [{ name: 'api', desiredCount: 4 }] }, { protectedFromScaleIn: 1 })],
          {
            durationHours: 0.5,
          },
        ),
      ),
      { prepare: (world) => (sim = { region: world.region(REGION) }) },
    )
    const cluster = sim?.region.ecsClusters.get('web')
    const standalone = [...(cluster?.tasks.values() ?? [])].filter((t) => t.group === 'family:standalone')
    expect(standalone).toHaveLength(1)
    const holder = standalone[0]?.instanceId ?? ''
    expect(sim?.region.instances.get(holder)).toMatchObject({ lifecycle: 'on-demand', state: 'running' })
    expect(cluster?.containerInstances.get(holder)?.status).toBe('ACTIVE')
  }, 60_000)
})

describe("invariant 5's exception", () => {
  const config = parseGlobalConfig({}).config
  it.each([
    ['the drain marker', TAG_ECS_DRAINED],
    ['the replacement attempt', TAG_REPLACEMENT_ATTEMPT],
  ])('lets the drain swap write %s on a member ECS protects', async (_, key) => {
    const sim = testWorld(rawScenario([ecsGroup()]))
    const cloud = sim.cloud()
    const [first] = sim.members('web')
    await cloud.tagInstances([first?.id ?? ''], { [key]: 'x' })
    const ctx = { config, region: sim.region, ledger: new InvariantLedger() }
    expect(checkWrites(ctx, takeWrites(cloud.session), 'now')).toEqual([])
  })

  it.each([
    [
      'retired while ECS protects it',
      (cloud: ReturnType<ReturnType<typeof testWorld>['cloud']>, id: string) =>
        cloud.terminateInGroup(id, true),
    ],
    [
      'tagged with anything else',
      (cloud: ReturnType<ReturnType<typeof testWorld>['cloud']>, id: string) =>
        cloud.tagInstances([id], { owner: 'x' }),
    ],
    [
      'given a pair link',
      (cloud: ReturnType<ReturnType<typeof testWorld>['cloud']>, id: string) =>
        cloud.tagInstances([id], { [TAG_REPLACING_INSTANCE]: 'i-0', [TAG_SWAP_ID]: 'swap-1' }),
    ],
    [
      'untagged of anything but a pair link',
      (cloud: ReturnType<ReturnType<typeof testWorld>['cloud']>, id: string) =>
        cloud.untagInstances([id], [TAG_REPLACING_INSTANCE, 'owner']),
    ],
  ])('still catches a member ECS protects %s', async (_, act) => {
    const sim = testWorld(rawScenario([ecsGroup()]))
    const cloud = sim.cloud()
    const [first] = sim.members('web')
    await act(cloud, first?.id ?? '')
    const ctx = { config, region: sim.region, ledger: new InvariantLedger() }
    expect(checkWrites(ctx, takeWrites(cloud.session), 'now').map((v) => v.invariant)).toContain(
      'untouchable-touched',
    )
  })

  it.each([
    ['', false],
    [' with managed draining on', true],
  ])('lets a release remove the pair tags of a member ECS protects%s', async (_, managedDraining) => {
    const sim = testWorld(rawScenario([ecsGroup({ managedDraining })]))
    const cloud = sim.cloud()
    const [first] = sim.members('web')
    const id = first?.id ?? ''
    await cloud.tagInstances([id], { [TAG_JOINED_GROUP]: 'web', [TAG_RELEASED_SWAP_ID]: 'swap-1' })
    await cloud.untagInstances([id], [TAG_REPLACING_INSTANCE, TAG_SWAP_ID])
    const ctx = { config, region: sim.region, ledger: new InvariantLedger() }
    expect(checkWrites(ctx, takeWrites(cloud.session), 'now')).toEqual([])
  })

  it('lets spotswap retire a member ECS protects when managed draining drains it', async () => {
    const sim = testWorld(rawScenario([ecsGroup({ managedDraining: true })]))
    const cloud = sim.cloud()
    const [first] = sim.members('web')
    await cloud.terminateInGroup(first?.id ?? '', true)
    const ctx = { config, region: sim.region, ledger: new InvariantLedger() }
    expect(checkWrites(ctx, takeWrites(cloud.session), 'now')).toEqual([])
  })

  it('still catches a protected member of a managed-draining group set DRAINING by spotswap', async () => {
    const sim = testWorld(rawScenario([ecsGroup({ managedDraining: true })]))
    const cloud = sim.cloud()
    const [first] = sim.members('web')
    const cluster = clusterOf(sim)
    const arn = cluster.containerInstances.get(first?.id ?? '')?.arn ?? ''
    await cloud.setContainerInstancesState(cluster.arn, [arn], 'DRAINING')
    const ctx = { config, region: sim.region, ledger: new InvariantLedger() }
    expect(checkWrites(ctx, takeWrites(cloud.session), 'now').map((v) => v.invariant)).toContain(
      'untouchable-touched',
    )
  })

  it('still catches the drain marker on a member of a group with managed draining on', async () => {
    const sim = testWorld(rawScenario([ecsGroup({ managedDraining: true })]))
    const cloud = sim.cloud()
    const [first] = sim.members('web')
    await cloud.tagInstances([first?.id ?? ''], { [TAG_ECS_DRAINED]: 'x' })
    const ctx = { config, region: sim.region, ledger: new InvariantLedger() }
    expect(checkWrites(ctx, takeWrites(cloud.session), 'now').map((v) => v.invariant)).toEqual([
      'untouchable-touched',
    ])
  })
})
