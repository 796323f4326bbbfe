/**
 * Runs a scenario: builds the account, schedules what happens to it (the owner's scaling, capacity
 * changes, scripted interruptions, the replacer's ticks), processes events in simulated time, observes
 * every group after every step, and returns the report. No wall clock and no Math.random: a seed
 * replays the same run.
 */

import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { ORPHAN_SCHEDULE_PERIODS } from '../../lambdas/core/constants.ts'
import { discardMetrics, type Log, type MetricsSink, silentLog } from '../../lambdas/core/log.ts'
import type { OnDemandStatus } from '../../lambdas/core/plan/reasons.ts'
import type { Catalog } from '../../lambdas/core/types.ts'
import { selectRegions } from '../../lambdas/replacer/select-regions.ts'
import { embeddedCatalog } from '../data/catalog.ts'
import { Accounting } from './accounting.ts'
import { ownerSetsDesired } from './asg.ts'
import { type AvailabilityFigures, AvailabilityMeter } from './availability.ts'
import { buildWorld } from './build.ts'
import { Priority } from './clock.ts'
import { commitmentFigures, spendOf, withCommitments } from './commitment-bill.ts'
import { heldOnDemand } from './commitment-floor.ts'
import { OnDemandMeter } from './commitment-meter.ts'
import { EcsServiceMeter, ecsServing } from './ecs-serving.ts'
import type { FaultHooks } from './faults.ts'
import { GroupEventLog } from './group-events.ts'
import { onGroupEvent, scheduleRefreshes } from './group-features.ts'
import { effectiveConfig, type GroupState, groupState, memberTypes } from './group-state.ts'
import { interruptGroup, scheduleCapacityChanges } from './interruptions.ts'
import type { Violation } from './invariant-ledger.ts'
import { type InvocationStats, Invocations } from './invocations.ts'
import { LivenessWatch } from './liveness.ts'
import { servingCount } from './load-balancers.ts'
import { scheduleScenarioEvents } from './maintenance.ts'
import { installMixedInstances, type MixedInstancesStats } from './mixed-instances-group.ts'
import { type SimPolicy, SPOTSWAP_POLICY } from './policy.ts'
import {
  buildReport,
  type GroupInput,
  onDemandOnlyCost,
  type SimulationReport,
  type StillOnDemand,
} from './report.ts'
import { endOf, type Scenario } from './scenario/types.ts'
import type { SimInstance } from './state.ts'
import { recordTimeline } from './timeline.ts'
import type { World } from './world.ts'

export interface SimulateOptions {
  readonly policy?: SimPolicy
  readonly catalog?: Catalog
  /** Scripted faults instead of the scenario's random ones. */
  readonly faults?: FaultHooks
  /** The engine's log lines (silent by default). */
  readonly log?: Log
  readonly metrics?: MetricsSink
  /** Told the fraction of simulated time done, after every tick. */
  readonly onProgress?: (fraction: number) => void
  /** Inspect or script the world and the Lambdas' invocations before time starts (tests, chaos runs). */
  readonly prepare?: (world: World, invocations: Invocations) => void
}

/** The report and what the benchmark also needs from a run. */
export interface SimulationRun {
  readonly report: SimulationReport
  /** Lambda invocations made (replacer runs, interruption handler invocations). */
  readonly invocations: InvocationStats
  /** Availability weighted by time (availability.ts), independent of the schedule. */
  readonly availability: AvailabilityFigures
  /**
   * The same for members that serve traffic (InService and healthy in every load balancer of the group),
   * against the owner's desired capacity.
   */
  readonly serving: AvailabilityFigures
  /** Spot instances Auto Scaling launched per group under a mixed-instances policy. */
  readonly autoScalingSpotLaunches: ReadonlyMap<string, number>
  /** What Auto Scaling did for the mixed-instances groups (launches per pool, their causes); asg-* only. */
  readonly autoScaling: MixedInstancesStats | undefined
  /**
   * Per group, the desired capacities a scaling policy standing for the owner set during the run (ECS
   * managed scaling, ecs-managed-scaling.ts), as [time, desired], in order.
   */
  readonly policyDesiredChanges: ReadonlyMap<string, readonly (readonly [number, number])[]>
}

const scheduleOwnerActions = (world: World, scenario: Scenario): void => {
  for (const spec of scenario.regions) {
    const region = world.region(spec.name)
    for (const groupSpec of spec.groups)
      for (const [at, desired] of groupSpec.desiredSchedule) {
        world.clock.schedule(at, Priority.external, `owner sets ${groupSpec.name}`, () => {
          const group = region.groups.get(groupSpec.name)
          if (group !== undefined) ownerSetsDesired(world, region, group, desired)
        })
      }
    for (const spec of scenario.regions) {
      const region = world.region(spec.name)
      for (const groupSpec of spec.groups) {
        const group = region.groups.get(groupSpec.name)
        if (group !== undefined) scheduleRefreshes(world, region, group, groupSpec.instanceRefreshes)
      }
    }
  }
  for (const interruption of scenario.interruptions) {
    const region = scenario.regions.find((r) => r.groups.some((g) => g.name === interruption.group))
    if (region === undefined) continue
    world.clock.schedule(interruption.at, Priority.external, 'scripted interruption', () => {
      interruptGroup(world, world.region(region.name), interruption.group, interruption.count)
    })
  }
  scheduleScenarioEvents(
    world,
    scenario.scheduledEvents ?? [],
    (group) => scenario.regions.find((r) => r.groups.some((g) => g.name === group))?.name,
  )
}

/**
 * A managed group left above its on-demand minimum: each on-demand member not kept for the minimum, and
 * what the engine last said of it.
 */
const stillOnDemand = (
  state: GroupState,
  statuses: readonly OnDemandStatus[],
  isOnDemandMember: (id: string) => boolean,
): StillOnDemand[] => {
  if (!state.managed || state.onDemand <= state.requiredOnDemand) return []
  // Members kept for the minimum, then protected ones (which count in it, as documented) fill the minimum.
  const rank = (s: OnDemandStatus): number =>
    s.code === 'on-demand-minimum'
      ? 0
      : s.code === 'protected-from-scale-in' || s.code === 'api-termination-protection'
        ? 1
        : 2
  return statuses
    .filter((s) => isOnDemandMember(s.instanceId))
    .sort((a, b) => rank(a) - rank(b))
    .slice(state.requiredOnDemand)
    .filter((s) => s.code !== 'on-demand-minimum')
    .map(({ instanceId, type, zone, code, detail }) => ({ instanceId, type, zone, reason: code, detail }))
}

export const simulate = async (
  scenario: Scenario,
  options: SimulateOptions = {},
): Promise<SimulationReport> => (await simulateRun(scenario, options)).report

export const simulateRun = async (
  scenario: Scenario,
  options: SimulateOptions = {},
): Promise<SimulationRun> => {
  const policy = options.policy ?? SPOTSWAP_POLICY
  const scheduleMinutes = policy.scheduleMinutes ?? scenario.scheduleMinutes
  const env = { SCHEDULE_MINUTES: String(scheduleMinutes), ...scenario.env, ...policy.env }
  const { config, errors } = parseGlobalConfig(env)
  const fatalConfig = errors.filter((e) => e.fatal).map((e) => e.name)
  const replacerRuns = policy.replacer && fatalConfig.length === 0
  const log = options.log ?? silentLog
  for (const error of errors) log.warn('invalid configuration value', { ...error })

  const world = buildWorld(scenario, {
    catalog: options.catalog ?? embeddedCatalog(),
    ...(options.faults ? { faults: options.faults } : {}),
  })
  const start = scenario.start
  const end = endOf(scenario)
  const violations: Violation[] = []
  const deadlineOf = (instance: SimInstance): number | undefined => {
    const group =
      instance.origin === 'spotswap'
        ? world.region(instance.region).groups.get(instance.costGroup ?? '')
        : undefined
    if (group === undefined) return undefined
    const grace = effectiveConfig(config, group).gracePeriodSeconds ?? group.healthCheckGracePeriodSeconds
    return instance.launchMs + (grace + ORPHAN_SCHEDULE_PERIODS * config.scheduleMinutes * 60) * 1000
  }
  // Orphan time is a figure of the report; the `orphan` invariant is checked after runs (invariants.ts).
  const accounting = new Accounting(world, { start, end }, { deadlineOf, onOrphan: () => {} })
  world.observe(accounting)
  const meter = new OnDemandMeter(world)
  world.observe(meter)
  const groupEvents = new GroupEventLog(world, start)
  world.observe(groupEvents)
  const availability = new AvailabilityMeter()
  const serving = new AvailabilityMeter()
  const ecsServices = new EcsServiceMeter()
  // Group states are piecewise constant: observing the groups that changed after each step is exact.
  const observeChanged = (): void => {
    for (const region of world.regions.values())
      for (const group of region.takeChanged()) {
        const state = groupState(config, region, group)
        accounting.observe(group.name, state, () => heldOnDemand(config, region, group, world.clock.now))
        availability.observe(group.name, world.clock.now, state)
        // Against what the owner asked for: a swap's own +1 while its replacement gets healthy is no demand.
        serving.observe(
          group.name,
          world.clock.now,
          ecsServing(region, group) ?? {
            inService: servingCount(group, world.clock.now),
            desired: group.owner.desiredCapacity,
          },
        )
        ecsServices.observe(region, group, world.clock.now)
      }
  }
  const liveness = new LivenessWatch(world, config)
  const invocations = new Invocations({
    world,
    config,
    env,
    policy,
    log,
    metrics: options.metrics ?? discardMetrics,
    violations,
    fatalConfig,
    afterInvocation: observeChanged,
    onPlanned: (region, plan) => {
      liveness.report(region, plan.group, plan.onDemand)
      groupEvents.planned(plan)
    },
  })
  const mixed = policy.mixedInstances && installMixedInstances(world, config, policy.mixedInstances, end)
  world.onEvent((event) => {
    mixed?.onEvent(event)
    onGroupEvent(world, event)
    invocations.deliver(event)
  })
  options.prepare?.(world, invocations)

  scheduleOwnerActions(world, scenario)
  for (const region of world.regions.values()) scheduleCapacityChanges(world, region, end)
  const timeline: ReturnType<typeof recordTimeline> = []
  // REGIONS with wildcards costs one DescribeRegions per run, as in the Lambda.
  const directory = {
    enabledRegions: async () => {
      world.counter.count('ec2:DescribeRegions', undefined)
      return [...world.regions.keys()].sort()
    },
  }
  for (let tick = start; tick < end; tick += scheduleMinutes * 60_000) {
    world.clock.schedule(tick, Priority.tick, 'replacer tick', async () => {
      if (replacerRuns) {
        const { regions } = await selectRegions(config.regions, directory)
        for (const region of regions) if (world.regions.has(region)) await invocations.runReplacer(region)
        violations.push(...liveness.check(invocations.failingRegions()))
      }
      timeline.push(...recordTimeline(world, config, tick))
      options.onProgress?.((world.clock.now - start) / (end - start))
    })
  }

  for (const region of world.regions.values()) for (const group of region.groups.values()) region.touch(group)
  observeChanged()
  for (let event = world.clock.popDue(end); event !== undefined; event = world.clock.popDue(end)) {
    await event.run()
    observeChanged()
  }
  world.clock.advanceTo(end)
  accounting.finish()
  meter.finish(end)
  options.onProgress?.(1)

  const groups: GroupInput[] = scenario.regions.flatMap((spec) => {
    const region = world.region(spec.name)
    return spec.groups.map((groupSpec) => {
      const group = region.groups.get(groupSpec.name)
      if (group === undefined) throw new Error(`simulator: group ${groupSpec.name} vanished`)
      const state = groupState(config, region, group)
      return {
        name: group.name,
        managed: state.managed,
        onDemandOnlyCostUsd: onDemandOnlyCost(
          scenario,
          groupSpec,
          region.market.onDemandPrice(groupSpec.instanceType) ?? 0,
          region.ecsClusters.get(group.name)?.desiredChanges,
        ),
        tally: accounting.tally(group.name),
        final: {
          desired: state.desired,
          inService: state.inService,
          spot: state.spot,
          onDemand: state.onDemand,
          types: memberTypes(region, group),
        },
        ecsServices: ecsServices.figures(region, group, end),
        stillOnDemand: stillOnDemand(state, liveness.statusesOf(region.name, group.name), (id) => {
          const member = group.members.get(id)
          return member?.lifecycleState === 'InService' && region.instances.get(id)?.lifecycle === 'on-demand'
        }),
        explanation: {
          onDemandMinimum: state.requiredOnDemand,
          runs: groupEvents.runs(group.name),
          events: groupEvents.events(group.name),
        },
      }
    })
  })
  const servingFigures = serving.finish(end)
  return {
    report: withCommitments(
      buildReport(scenario, groups, timeline, violations, world.counter, servingFigures),
      commitmentFigures(scenario, world, meter, spendOf(groups)),
    ),
    invocations: invocations.stats,
    availability: availability.finish(end),
    serving: servingFigures,
    autoScalingSpotLaunches: mixed?.spotLaunches ?? new Map(),
    autoScaling: mixed || undefined,
    policyDesiredChanges: new Map(
      [...world.regions.values()].flatMap((region) =>
        [...region.ecsClusters].map(([group, cluster]) => [group, cluster.desiredChanges] as const),
      ),
    ),
  }
}
