/**
 * Measures what one steady scheduled run of a converged synthetic account does (API calls, metrics, log
 * bytes, invocations) and what it saves, for the running-cost figures (running-cost.ts). The real engine
 * runs against the simulator, with recording telemetry in place of Powertools.
 */
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { FANOUT_GROUPS_PER_REGION_MESSAGE, REGION_LANES } from '../../lambdas/core/constants.ts'
import { type Log, type MetricsSink, silentLog } from '../../lambdas/core/log.ts'
import { METRIC_NAMESPACE, METRIC_SERVICE } from '../../lambdas/core/metric-names.ts'
import { allLanes } from '../../lambdas/core/region/lanes.ts'
import { runRegion } from '../../lambdas/replacer/run-region.ts'
import { embeddedTrace } from '../data/capacity-traces.ts'
import { embeddedCatalog } from '../data/catalog.ts'
import { buildWorld } from '../sim/build.ts'
import { simCloud } from '../sim/cloud.ts'
import { parseScenario } from '../sim/scenario/parse.ts'
import { convergeAccount } from './account-runs.ts'
import { monthlyRunningCost, type RunMeasurement, type RunningCost } from './running-cost.ts'
import { syntheticAccount } from './synthetic-account.ts'

export interface CostShape {
  readonly name: string
  readonly regions: number
  readonly groupsPerRegion: number
  readonly instancesPerGroup: number
}

/** Three accounts of groups of 4 instances of common types (synthetic-account.ts GROUP_TYPES). */
export const COST_SHAPES: readonly CostShape[] = [
  { name: '10 groups', regions: 1, groupsPerRegion: 10, instancesPerGroup: 4 },
  { name: '100 groups', regions: 2, groupsPerRegion: 50, instancesPerGroup: 4 },
  { name: '1,000 groups', regions: 5, groupsPerRegion: 200, instancesPerGroup: 4 },
]

const SCHEDULE_MINUTES = 5
/** Keys Powertools Logger adds to every line (level, timestamp, service, sampling rate, trace id), bytes. */
const LOGGER_OVERHEAD_BYTES = 160

const recordingLog = (bytes: { total: number }): Log => {
  const line = (message: string, attributes?: Record<string, unknown>) => {
    bytes.total += LOGGER_OVERHEAD_BYTES + JSON.stringify({ message, ...attributes }).length + 1
  }
  return { debug: () => {}, info: line, warn: line, error: line }
}

/** Counts distinct metrics, and the bytes of the EMF document Powertools writes for each emit. */
const recordingMetrics = (seen: Set<string>, bytes: { total: number }): MetricsSink => ({
  emit(dimensions, values) {
    const keys = [...Object.keys(dimensions), 'service']
    for (const value of values) seen.add(JSON.stringify([value.name, dimensions]))
    const document = {
      _aws: {
        Timestamp: 1_780_000_000_000,
        CloudWatchMetrics: [
          {
            Namespace: METRIC_NAMESPACE,
            Dimensions: [keys],
            Metrics: values.map((v) => ({ Name: v.name, Unit: v.unit })),
          },
        ],
      },
      service: METRIC_SERVICE,
      ...dimensions,
      ...Object.fromEntries(values.map((v) => [v.name, v.value])),
    }
    bytes.total += JSON.stringify(document).length + 1
  },
})

export const measureRun = async (shape: CostShape): Promise<RunMeasurement> => {
  const catalog = embeddedCatalog()
  const raw = syntheticAccount({
    name: shape.name,
    description: 'running cost',
    regions: shape.regions,
    groupsPerRegion: shape.groupsPerRegion,
    instancesPerGroup: shape.instancesPerGroup,
    durationHours: 1,
    throttle: false,
  })
  const scenario = parseScenario(raw, { source: 'running-cost', catalog, resolveTrace: embeddedTrace })
  const world = buildWorld(scenario, { catalog })
  await convergeAccount(world, scenario.env)
  const { config } = parseGlobalConfig({ ...scenario.env, DRY_RUN: 'true' })
  const metrics = new Set<string>()
  const bytes = { total: 0 }
  const callsBefore = [...world.counter.total.values()].reduce((a, b) => a + b, 0)
  let hourlySavingsUsd = 0
  let spotInstances = 0
  let chunks = 0
  let session = 0
  // As deployed: each region's run is one invocation per lane (core/region/lanes.ts).
  const lanes = allLanes(REGION_LANES)
  for (const region of world.regions.keys())
    for (const lane of lanes) {
      const result = await runRegion({
        cloud: simCloud(
          world,
          region,
          { id: ++session, actor: 'replacer', region, crashed: false, failedCalls: 0 },
          silentLog,
        ),
        config,
        now: world.clock.nowDate(),
        log: recordingLog(bytes),
        metrics: recordingMetrics(metrics, bytes),
        lane,
      })
      chunks += Math.max(0, Math.ceil(result.groups.length / FANOUT_GROUPS_PER_REGION_MESSAGE) - 1)
      for (const { plan } of result.groups) {
        hourlySavingsUsd += plan.figures.hourlySavingsUsd
        spotInstances += plan.figures.spot
      }
    }
  const apiCalls = [...world.counter.total.values()].reduce((a, b) => a + b, 0) - callsBefore
  const fanoutMessages = shape.regions * lanes.length + chunks
  return {
    regions: shape.regions,
    groups: shape.regions * shape.groupsPerRegion,
    spotInstances,
    invocations: 1 + fanoutMessages,
    apiCalls,
    // RunDurationMs, which the invocation around each region run emits (replacer/region-work.ts).
    metrics: metrics.size + shape.regions,
    logBytes: bytes.total,
    fanoutMessages,
    hourlySavingsUsd,
  }
}

export interface RunningCostFigures {
  readonly shape: CostShape
  readonly run: RunMeasurement
  readonly cost: RunningCost
}

export const measureRunningCosts = async (
  shapes: readonly CostShape[] = COST_SHAPES,
): Promise<RunningCostFigures[]> => {
  const figures: RunningCostFigures[] = []
  for (const shape of shapes) {
    const run = await measureRun(shape)
    figures.push({ shape, run, cost: monthlyRunningCost(run, SCHEDULE_MINUTES) })
  }
  return figures
}
