/**
 * Child process of the scale figures (scale.ts): builds one synthetic account, measures one thing, prints
 * one line `SCALE-PROBE <json>` and exits, so CPU time and peak memory belong to that measurement alone.
 *
 * - `plan`: CPU time, wall time and peak RSS of one replacer pass over every region (observe and plan,
 *   DRY_RUN so nothing is executed), on the account as built (all on-demand: unconverged) or after the
 *   real engine converged it. `at-once` (the default) runs every region at once in one process, as a
 *   local run without a fan-out queue does: the heaviest way. `by-invocation` runs them as deployed, one
 *   invocation per region or chunk of groups, one after another, and also reports the largest one.
 *   A cold pass starts from a new container's empty adapter caches (catalogue, prices, marker verdicts);
 *   a warm one from those the unmeasured pass before it filled.
 * - `steady`: API requests of one ordinary replacer run on a converged one-region account.
 *
 *   node --expose-gc --import tsx tools/bench/scale-probe.ts '{"mode":"plan",...}'
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { createAdapterCaches } from '../../lambdas/aws/cloud.ts'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { embeddedTrace } from '../data/capacity-traces.ts'
import { embeddedCatalog } from '../data/catalog.ts'
import { buildWorld } from '../sim/build.ts'
import { parseScenario } from '../sim/scenario/parse.ts'
import type { World } from '../sim/world.ts'
import {
  convergeAccount,
  type Invocation,
  runAllRegions,
  runRegionsByInvocation,
  runRegionsByLane,
  unconvergedGroups,
} from './account-runs.ts'
import { measureReference } from './reference-workload.ts'
import { syntheticAccount } from './synthetic-account.ts'

/**
 * How the pass runs the regions: all at once in one process, one invocation each as deployed, or each
 * region's lanes one after another, each lane a new container (`invocations` counts the lane runs).
 */
export type PlanShape = 'at-once' | 'by-invocation' | 'by-lane'

export type ProbeRequest =
  | {
      readonly mode: 'plan'
      readonly state: 'unconverged' | 'converged'
      readonly shape?: PlanShape
      /**
       * Measure a second pass in the same process, the first unmeasured: what a warm container pays on a
       * scheduled run (its code compiled by V8, its caches filled). By default the first pass, cold.
       */
      readonly warm?: boolean
      readonly regions: number
      readonly groupsPerRegion: number
      readonly instancesPerGroup: number
    }
  | { readonly mode: 'steady'; readonly groupsPerRegion: number; readonly instancesPerGroup: number }

export interface PlanMeasurement {
  readonly mode: 'plan'
  readonly state: 'unconverged' | 'converged'
  readonly shape: PlanShape
  readonly warm: boolean
  /** By invocation: how many, and the engine's CPU for the largest one (what one Lambda pays at most). */
  readonly invocations?: { readonly count: number; readonly largestCpuMs: number }
  readonly regions: number
  readonly groups: number
  readonly instances: number
  /** Managed groups above their on-demand minimum when the pass ran. */
  readonly unconvergedGroups: number
  /**
   * The engine's CPU for the pass, what the Lambdas would pay (the adapter's request building and
   * conversions included): the process's CPU minus the simulated services' (simulatedAwsCpuMs).
   */
  readonly cpuMs: number
  /** The whole process's CPU for the pass. */
  readonly processCpuMs: number
  /** CPU spent inside the simulated services answering requests (AWS's side, not the Lambda's). */
  readonly simulatedAwsCpuMs: number
  /**
   * CPU the metering of the simulated services cost outside what it counts (meteringOverheadMicros): the
   * probe's, not the Lambda's, so not in `cpuMs` either.
   */
  readonly meteringOverheadMs: number
  readonly wallMs: number
  /** Peak resident memory during the pass: the process, the simulated account included. */
  readonly peakRssMb: number
  /** Resident memory just before the pass, after a full GC: mostly the simulated account. */
  readonly rssBeforeMb: number
  readonly apiCalls: Readonly<Record<string, number>>
  /** CPU of the fixed reference workload (reference-workload.ts), run in the same process right after. */
  readonly referenceCpuMs: number
}

export interface SteadyMeasurement {
  readonly mode: 'steady'
  readonly groups: number
  readonly calls: number
  readonly apiCalls: Readonly<Record<string, number>>
}

export const PROBE_PREFIX = 'SCALE-PROBE '

const accountWorld = (regions: number, groupsPerRegion: number, instancesPerGroup: number) => {
  const catalog = embeddedCatalog()
  const raw = syntheticAccount({
    name: 'scale',
    description: 'scale measurement',
    regions,
    groupsPerRegion,
    instancesPerGroup,
    durationHours: 1,
    throttle: false,
  })
  const scenario = parseScenario(raw, { source: 'scale', catalog, resolveTrace: embeddedTrace })
  return { scenario, world: buildWorld(scenario, { catalog }) }
}

const callsSince = (world: World, before: ReadonlyMap<string, number>): Record<string, number> => {
  const calls: Record<string, number> = {}
  for (const [operation, count] of [...world.counter.total].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const made = count - (before.get(operation) ?? 0)
    if (made > 0) calls[operation] = made
  }
  return calls
}

const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10

const PEAK_RESET = '/proc/self/clear_refs'
const STATUS = '/proc/self/status'

/**
 * Peak RSS from here on: Linux lets a process reset its high-water mark (clear_refs 5) and read it back
 * (VmHWM), so the peak of the measured pass is not the peak of building or converging the account.
 * Elsewhere, the process's lifetime peak.
 */
const peakTracker = (): (() => number) => {
  try {
    writeFileSync(PEAK_RESET, '5')
    return () => {
      const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(STATUS, 'utf8'))?.[1]
      return kb === undefined ? process.resourceUsage().maxRSS * 1024 : Number(kb) * 1024
    }
  } catch {
    return () => process.resourceUsage().maxRSS * 1024
  }
}

/** Metered parts a calibration times: a few tens of ms of CPU. */
const CALIBRATION_PARTS = 20_000

/**
 * What one metered part (api-gate.ts ApiGate.metered) costs the process beyond what it counts, µs: the
 * halves of its two `process.cpuUsage()` calls outside the counted span, and the bookkeeping around them.
 * About 4 µs on the bench machine: the 50,000 requests of a 100,000-instance pass would otherwise charge
 * the engine some 200 ms of the probe's own work. Timed on the world's own gate with empty parts, the
 * counter put back as it was.
 */
export const meteringOverheadMicros = (world: World, parts = CALIBRATION_PARTS): number => {
  const gate = world.regions.values().next().value?.gate
  if (gate === undefined) return 0
  const { counter } = world
  const saved = { meterCpu: counter.meterCpu, cpuMicros: counter.cpuMicros, parts: counter.meteredParts }
  counter.meterCpu = true
  // Once untimed, so V8 has compiled the loop and the gate's part as they run in the pass.
  for (let part = 0; part < parts; part++) gate.metered(() => part)
  const countedWarm = counter.cpuMicros - saved.cpuMicros
  const started = process.cpuUsage()
  for (let part = 0; part < parts; part++) gate.metered(() => part)
  const used = process.cpuUsage(started)
  const counted = counter.cpuMicros - saved.cpuMicros - countedWarm
  counter.meterCpu = saved.meterCpu
  counter.cpuMicros = saved.cpuMicros
  counter.meteredParts = saved.parts
  return Math.max(0, (used.user + used.system - counted) / parts)
}

/**
 * The engine's share of CPU, µs: the process's, less what the simulated services spent answering and
 * what metering them cost beyond that (`parts` metered parts at `perPartMicros` each).
 */
export const engineCpuMicros = (
  processMicros: number,
  simulatedMicros: number,
  parts: number,
  perPartMicros: number,
): number => processMicros - simulatedMicros - parts * perPartMicros

/** Terminated instances are gone for EC2 and the engine; the simulator only keeps them for its records. */
const forgetTerminated = (world: World): void => {
  for (const region of world.regions.values())
    for (const [id, instance] of region.instances)
      if (instance.state === 'terminated') region.instances.delete(id)
}

/**
 * The in-flight budget the planning passes plan with: a quarter of each group, the same work in every
 * version, so the figures and the regression gate compare code, not a default. The default (`auto`) plans
 * a launch for every on-demand member of these groups without load balancers at once, 3.3 times as many
 * (docs/benchmark.md gives what that pass costs).
 */
const PLANNED_IN_FLIGHT = '25%'

const measurePlan = async (request: Extract<ProbeRequest, { mode: 'plan' }>): Promise<PlanMeasurement> => {
  const { scenario, world } = accountWorld(
    request.regions,
    request.groupsPerRegion,
    request.instancesPerGroup,
  )
  if (request.state === 'converged') {
    await convergeAccount(world, scenario.env)
    forgetTerminated(world)
  }
  const { config } = parseGlobalConfig({
    ...scenario.env,
    DRY_RUN: 'true',
    MAX_REPLACEMENTS_IN_FLIGHT: PLANNED_IN_FLIGHT,
  })
  const warm = request.warm === true
  const perPart = meteringOverheadMicros(world)
  // DRY_RUN changes nothing in the account: the measured pass plans the same account again.
  // A new container: nothing the convergence (or any earlier pass) read is cached.
  world.adapterCaches = createAdapterCaches()
  if (warm) await runAllRegions(world, config)
  globalThis.gc?.()
  const rssBefore = process.memoryUsage().rss
  const peak = peakTracker()
  const before = new Map(world.counter.total)
  world.counter.meterCpu = true
  const partsBefore = world.counter.meteredParts
  const cpu = process.cpuUsage()
  const started = performance.now()
  const shape = request.shape ?? 'at-once'
  let invocations: PlanMeasurement['invocations']
  if (shape === 'at-once') await runAllRegions(world, config)
  else {
    let largest = 0
    const metered: Invocation = async (run) => {
      const { cpuMicros, meteredParts } = world.counter
      const before = { cpu: process.cpuUsage(), simulated: cpuMicros, parts: meteredParts }
      const result = await run()
      const used = process.cpuUsage(before.cpu)
      const engine = engineCpuMicros(
        used.user + used.system,
        world.counter.cpuMicros - before.simulated,
        world.counter.meteredParts - before.parts,
        perPart,
      )
      largest = Math.max(largest, engine)
      return result
    }
    const count =
      shape === 'by-lane'
        ? await runRegionsByLane(world, config, metered)
        : await runRegionsByInvocation(world, config, metered)
    invocations = { count, largestCpuMs: Math.round(largest / 1000) }
  }
  const wallMs = performance.now() - started
  const used = process.cpuUsage(cpu)
  world.counter.meterCpu = false
  const processCpuMs = (used.user + used.system) / 1000
  const parts = world.counter.meteredParts - partsBefore
  const referenceCpuMs = measureReference()
  const simulatedAwsCpuMs = world.counter.cpuMicros / 1000
  const engineMicros = engineCpuMicros(used.user + used.system, world.counter.cpuMicros, parts, perPart)
  return {
    mode: 'plan',
    state: request.state,
    shape,
    warm,
    ...(invocations === undefined ? {} : { invocations }),
    regions: request.regions,
    groups: request.regions * request.groupsPerRegion,
    instances: request.regions * request.groupsPerRegion * request.instancesPerGroup,
    unconvergedGroups: unconvergedGroups(world, config),
    cpuMs: Math.round(engineMicros / 1000),
    processCpuMs: Math.round(processCpuMs),
    simulatedAwsCpuMs: Math.round(simulatedAwsCpuMs),
    meteringOverheadMs: Math.round((parts * perPart) / 1000),
    wallMs: Math.round(wallMs),
    peakRssMb: mb(peak()),
    rssBeforeMb: mb(rssBefore),
    apiCalls: callsSince(world, before),
    referenceCpuMs,
  }
}

const measureSteady = async (
  request: Extract<ProbeRequest, { mode: 'steady' }>,
): Promise<SteadyMeasurement> => {
  const { scenario, world } = accountWorld(1, request.groupsPerRegion, request.instancesPerGroup)
  const { config } = parseGlobalConfig(scenario.env)
  await convergeAccount(world, scenario.env)
  // One ordinary run to restore anything the fast convergence left (sizes, tags), then the measured one.
  await runAllRegions(world, config)
  const before = new Map(world.counter.total)
  await runAllRegions(world, config)
  const apiCalls = callsSince(world, before)
  return {
    mode: 'steady',
    groups: request.groupsPerRegion,
    calls: Object.values(apiCalls).reduce((sum, n) => sum + n, 0),
    apiCalls,
  }
}

export const probe = (request: ProbeRequest): Promise<PlanMeasurement | SteadyMeasurement> =>
  request.mode === 'plan' ? measurePlan(request) : measureSteady(request)

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await probe(JSON.parse(process.argv[2] ?? '{}') as ProbeRequest)
  process.stdout.write(`${PROBE_PREFIX}${JSON.stringify(result)}\n`)
}
