/**
 * Random chaos cases with fast-check: accounts of one or two regions with groups of every shape, tags
 * valid and hostile, load balancers with quick and slow health checks and replacements that never turn
 * healthy, the owner's scaling, price spikes, capacity outages (real traces and made-up ones),
 * interruptions, and the faults and races of generate-script.ts. `generateCase(seed)` is deterministic;
 * `caseArbitrary` lets fast-check shrink a failing case to a small one.
 */
import fc from 'fast-check'
import { SUSPENDED_PROCESSES } from '../../lambdas/core/group/suspended-processes.ts'
import { type CapacityTrace, embeddedTrace, embeddedTraceNames } from '../data/capacity-traces.ts'
import { embeddedZones } from '../data/spot-prices.ts'
import type { ChaosCase, OwnerAction, QueuedRuns } from './case.ts'
import { faultsArbitrary, ownerArbitrary, queuedRunsArbitrary, stormOf } from './generate-script.ts'
import { settingTags, settingValue } from './setting-values.ts'

/** Inside the embedded spot price window (2022-05-31 18:00Z–24:00Z). */
export const CHAOS_START = '2022-05-31T18:00:00Z'
const START_MS = Date.parse(CHAOS_START)

const REGIONS = ['us-east-1', 'us-west-2', 'eu-west-1'] as const
/** Small and large types; r5.16xlarge has no stand-in priced in some zones (us-east-1c: issue 16). */
const GROUP_TYPES = [
  'm5.large',
  'c5.xlarge',
  'r5.large',
  'm5.xlarge',
  't3.medium',
  'c5.large',
  'p3.2xlarge',
  'r5.16xlarge',
]
/** The group types and the pools the engine tends to pick for them: their prices and capacity are worth disturbing. */
const POOL_TYPES = [
  ...GROUP_TYPES,
  'm5d.large',
  'm5n.large',
  'r5b.large',
  'm6i.large',
  'c6a.xlarge',
  'c5a.xlarge',
]
const GRACE_PERIODS = [0, 0, 30, 60, 120, 300, 600]
/** The default TAG_FILTERS key; a custom filter below keeps it, as a glob. */
const FILTER_KEY = 'spot-enabled'

const groupArbitrary = fc.record({
  region: fc.nat(1),
  instanceType: fc.constantFrom(...GROUP_TYPES),
  min: fc.nat(3),
  extraDesired: fc.nat(6),
  extraMax: fc.nat(3),
  grace: fc.constantFrom(...GRACE_PERIODS),
  launch: fc.constantFrom('template', 'template', 'template', 'configuration'),
  terminationHook: fc.boolean(),
  protectedFromScaleIn: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.nat(3) },
  ),
  terminationProtected: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.nat(3) },
  ),
  filterTag: fc.constantFrom('true', 'true', 'true', 'true', 'true', undefined, 'false', 'yes'),
  settings: settingTags(),
  /** [when (‰ of the run), desired (‰ of min..max)] */
  schedule: fc.array(fc.tuple(fc.nat(999), fc.nat(1000)), { maxLength: 3 }),
})

/** A made-up outage: full capacity, then none (or a fraction) for a while, five minutes per tick. */
const outageArbitrary = fc
  .record({ before: fc.nat(12), during: fc.integer({ min: 1, max: 24 }), level: fc.constantFrom(0, 0, 1, 2) })
  .map(
    ({ before, during, level }): CapacityTrace => ({
      gapSeconds: 300,
      instanceType: '',
      zone: '',
      data: [...Array(before + 1).fill(4), ...Array(during).fill(level), ...Array(12).fill(4)],
    }),
  )

const poolArbitrary = fc.record({
  region: fc.nat(1),
  type: fc.constantFrom(...POOL_TYPES),
  zone: fc.nat(5),
  kind: fc.constantFrom('price', 'price', 'unavailable', 'trace', 'outage', 'outage'),
  /** [when (‰ of the run), USD/hour in tenths of a cent]: spikes above on-demand happen. */
  prices: fc.array(fc.tuple(fc.nat(999), fc.integer({ min: 1, max: 800 })), { minLength: 1, maxLength: 3 }),
  trace: fc.constantFrom(...embeddedTraceNames()),
  startIndex: fc.nat(3000),
  outage: outageArbitrary,
})

/** A target group or classic load balancer: health checks from quick to slow, draining from none to AWS's default. */
const balancerArbitrary = fc.record({
  type: fc.constantFrom('target-group', 'target-group', 'classic'),
  healthCheckIntervalSeconds: fc.constantFrom(5, 10, 30, 30),
  healthyThreshold: fc.constantFrom(2, 3, 5, 10),
  deregistrationDelaySeconds: fc.constantFrom(0, 30, 300),
})

/** A group's traffic: most groups have no load balancer; some replacements never turn healthy (a broken image). */
const trafficArbitrary = fc.record({
  loadBalancers: fc.oneof(
    { weight: 3, arbitrary: fc.constant([]) },
    { weight: 2, arbitrary: fc.array(balancerArbitrary, { minLength: 1, maxLength: 2 }) },
  ),
  unhealthyReplacementFraction: fc.constantFrom(0, 0, 0, 0.2, 0.5, 1),
})

/**
 * The Auto Scaling features a group may use that change what spotswap may do with it (issue 13): a launch
 * hook (and, now and then, its owner opting in to swaps anyway, or mistyping it), suspended processes,
 * Capacity Rebalancing, a warm pool, instance refreshes and refresh states that cannot be read.
 */
const featuresArbitrary = fc.record({
  launchHook: fc.constantFrom(false, false, false, false, true),
  ignoreLaunchHooks: fc.constantFrom(undefined, undefined, 'true', 'false', 'yes'),
  suspendedProcesses: fc.oneof(
    { weight: 5, arbitrary: fc.constant<string[]>([]) },
    {
      weight: 1,
      arbitrary: fc.uniqueArray(fc.constantFrom(...Object.keys(SUSPENDED_PROCESSES)), {
        minLength: 1,
        maxLength: 2,
      }),
    },
  ),
  capacityRebalance: fc.constantFrom(false, false, false, true),
  warmPool: fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) },
  ),
  /** Start of each refresh (‰ of the run). */
  refreshes: fc.oneof(
    { weight: 4, arbitrary: fc.constant<number[]>([]) },
    { weight: 1, arbitrary: fc.array(fc.nat(999), { minLength: 1, maxLength: 2 }) },
  ),
  refreshesUnreadable: fc.constantFrom(false, false, false, false, false, true),
})

const ENV_SETTINGS = [
  'MIN_ON_DEMAND_NUMBER',
  'MIN_ON_DEMAND_PERCENTAGE',
  'MAX_REPLACEMENTS_IN_FLIGHT',
  'REBALANCE_ACTION',
  'TERMINATION_NOTIFICATION_ACTION',
  'SPOT_ALLOCATION_STRATEGY',
  'ALLOWED_INSTANCE_TYPES',
  'GRACE_PERIOD',
]

const envArbitrary = fc.record({
  settings: fc
    .uniqueArray(fc.constantFrom(...ENV_SETTINGS), { maxLength: 3 })
    .chain((names) =>
      fc.tuple(...names.map((name) => settingValue(name, 20).map((value) => [name, value] as const))),
    ),
  filtering: fc.constantFrom('default', 'default', 'default', 'opt-out', 'glob'),
  regions: fc.constantFrom('all', 'all', 'all', 'first', 'glob', 'invalid'),
  dryRun: fc.constantFrom('', '', '', '', '', '', '', '', '', '', 'true', 'maybe'),
})

const drawArbitrary = fc.record({
  durationHours: fc.constantFrom(1, 2, 2, 3, 3, 4),
  scheduleMinutes: fc.constantFrom(2, 5, 5, 5, 10),
  regionCount: fc.constantFrom(1, 1, 1, 2),
  firstRegion: fc.nat(REGIONS.length - 1),
  // Up to six zones: us-east-1 has six in the embedded prices, one of them (1c) with few types.
  zoneCounts: fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 })),
  throttle: fc.constantFrom(true, true, true, true, false),
  groups: fc.array(groupArbitrary, { minLength: 1, maxLength: 5 }),
  pools: fc.array(poolArbitrary, { maxLength: 4 }),
  /** [when (‰), group index, count] */
  interruptions: fc.array(fc.tuple(fc.nat(999), fc.nat(9), fc.integer({ min: 1, max: 3 })), { maxLength: 3 }),
  env: envArbitrary,
  faults: faultsArbitrary,
  queuedRuns: fc.array(queuedRunsArbitrary, { maxLength: 3 }),
  events: fc.record({
    duplicateRate: fc.constantFrom(0, 0, 0.2, 0.5, 1),
    delayRate: fc.constantFrom(0, 0, 0.2, 0.5),
    maxDelaySeconds: fc.constantFrom(30, 120, 600),
  }),
  owner: fc.array(ownerArbitrary, { maxLength: 2 }),
  /** Per group, by index. Drawn last, so the draws above (and the cases of older seeds) stay as they were. */
  traffic: fc.array(trafficArbitrary, { minLength: 5, maxLength: 5 }),
  /** Per group, by index; drawn after everything else for the same reason. */
  features: fc.array(featuresArbitrary, { minLength: 5, maxLength: 5 }),
})

type Draw = typeof drawArbitrary extends fc.Arbitrary<infer T> ? T : never

const traceLengths = new Map<string, number>()
const traceLength = (name: string): number => {
  let length = traceLengths.get(name)
  if (length === undefined) {
    length = embeddedTrace(name)?.data.length ?? 1
    traceLengths.set(name, length)
  }
  return length
}

const at = (draw: Draw, permille: number): number =>
  START_MS + Math.floor((permille / 1000) * draw.durationHours * 3_600_000)
const iso = (ms: number): string => new Date(ms).toISOString()

const pick = <T>(items: readonly T[], index: number): T => items[index % items.length] as T

const envOf = (draw: Draw, regions: readonly string[]): Record<string, string> => {
  const env: Record<string, string> = Object.fromEntries(draw.env.settings)
  if (draw.env.filtering === 'opt-out') env.TAG_FILTERING_MODE = 'opt-out'
  if (draw.env.filtering === 'glob') env.TAG_FILTERS = `${FILTER_KEY}=t*`
  if (draw.env.regions === 'first') env.REGIONS = regions[0] as string
  if (draw.env.regions === 'glob') env.REGIONS = 'us-*'
  // Fatal: the Lambdas must start, say why, and touch nothing.
  if (draw.env.regions === 'invalid') env.REGIONS = 'us_east_1!'
  if (draw.env.dryRun !== '') env.DRY_RUN = draw.env.dryRun
  return env
}

/** A group's feature fields in the scenario format; the defaults are left out, so plain groups read as before. */
const featureFields = (draw: Draw, f: Draw['features'][number]): Record<string, unknown> => ({
  ...(f.launchHook ? { launchHook: true } : {}),
  ...(f.suspendedProcesses.length > 0 ? { suspendedProcesses: f.suspendedProcesses } : {}),
  ...(f.capacityRebalance ? { capacityRebalance: true } : {}),
  ...(f.warmPool === undefined ? {} : { warmPool: { minSize: f.warmPool } }),
  ...(f.refreshes.length > 0 ? { instanceRefreshes: f.refreshes.map((when) => iso(at(draw, when))) } : {}),
  ...(f.refreshesUnreadable ? { instanceRefreshesUnreadable: true } : {}),
})

const assemble = (seed: number, draw: Draw): ChaosCase => {
  const regionNames = Array.from({ length: draw.regionCount }, (_, i) => pick(REGIONS, draw.firstRegion + i))
  const zones = regionNames.map((name, i) => embeddedZones(name).slice(0, draw.zoneCounts[i]))
  const durationMs = draw.durationHours * 3_600_000
  const groups = draw.groups.map((g, i) => {
    const desired = g.min + g.extraDesired
    const max = Math.max(1, desired + g.extraMax)
    const tags: Record<string, string> = { team: 'chaos', ...g.settings }
    if (g.filterTag !== undefined) tags[FILTER_KEY] = g.filterTag
    const traffic = draw.traffic[i]
    const features = draw.features[i]
    if (features?.launchHook && features.ignoreLaunchHooks !== undefined)
      tags.autospotting_ignore_launch_hooks = features.ignoreLaunchHooks
    return {
      region: g.region % draw.regionCount,
      spec: {
        name: `g${i + 1}`,
        instanceType: g.instanceType,
        min: g.min,
        max,
        desired,
        tags,
        healthCheckGracePeriod: g.grace,
        launch: g.launch,
        terminationHook: g.terminationHook,
        protectedFromScaleIn: Math.min(g.protectedFromScaleIn, desired),
        terminationProtected: Math.min(g.terminationProtected, desired),
        desiredSchedule: g.schedule.map(([when, level]) => [
          iso(at(draw, when)),
          g.min + Math.round((level / 1000) * (max - g.min)),
        ]),
        ...(traffic === undefined || traffic.loadBalancers.length === 0
          ? {}
          : {
              loadBalancers: traffic.loadBalancers,
              unhealthyReplacementFraction: traffic.unhealthyReplacementFraction,
            }),
        ...(features === undefined ? {} : featureFields(draw, features)),
      },
    }
  })
  const traces: Record<string, CapacityTrace> = {}
  const regions = regionNames.map((name, r) => {
    const spotPrices: Record<string, Record<string, unknown>> = {}
    const capacity: Record<string, unknown> = {}
    draw.pools.forEach((pool, i) => {
      if (pool.region % draw.regionCount !== r) return
      const zone = pick(zones[r] as string[], pool.zone)
      const key = `${pool.type}/${zone}`
      if (pool.kind === 'price') {
        const steps = pool.prices.map(([when, tenths]) => [iso(at(draw, when)), tenths / 1000])
        spotPrices[pool.type] = { ...spotPrices[pool.type], [zone]: steps }
      } else if (pool.kind === 'unavailable') capacity[key] = { available: false }
      else if (pool.kind === 'trace')
        capacity[key] = { trace: pool.trace, startIndex: pool.startIndex % traceLength(pool.trace) }
      else {
        const name = `chaos/outage-${i}`
        traces[name] = pool.outage
        capacity[key] = { trace: name }
      }
    })
    return [
      name,
      {
        zones: zones[r],
        spotPrices,
        capacity,
        groups: groups.filter((g) => g.region === r).map((g) => g.spec),
      },
    ] as const
  })
  const groupOf = (index: number) => pick(groups, index)
  const period = draw.scheduleMinutes * 60_000
  const queuedRuns = draw.queuedRuns.map((o): QueuedRuns => {
    const region = pick(regionNames, o.region)
    const sameRegion = groups.filter((g) => regionNames[g.region] === region)
    const start = at(draw, o.at)
    const boundary = START_MS + Math.max(1, Math.ceil((start - START_MS) / period)) * period
    return {
      atMs: o.nearBoundary ? boundary - o.leadMs : start,
      region,
      delayMs: o.nearBoundary ? o.leadMs : o.delayMs,
      secondGroup:
        o.secondGroup === null || sameRegion.length === 0
          ? undefined
          : pick(sameRegion, o.secondGroup).spec.name,
    }
  })
  const owner = draw.owner.map(
    (o): OwnerAction => ({
      atMs: at(draw, o.at),
      region: regionNames[groupOf(o.group).region] as string,
      group: groupOf(o.group).spec.name,
      kind: o.kind,
      member: o.member,
    }),
  )
  return {
    seed,
    scenario: {
      name: `chaos-${seed}`,
      seed,
      start: CHAOS_START,
      durationHours: draw.durationHours,
      scheduleMinutes: draw.scheduleMinutes,
      env: envOf(draw, regionNames),
      regions: Object.fromEntries(regions),
      faults: { apiErrorRate: 0, throttle: draw.throttle, crashRate: 0 },
      interruptions: draw.interruptions.map(([when, group, count]) => ({
        at: iso(at(draw, when)),
        group: groupOf(group).spec.name,
        count,
      })),
    },
    traces,
    faults: {
      errorRate: draw.faults.errorRate,
      crashRate: draw.faults.crashRate,
      crashes: draw.faults.crashes,
      storms: draw.faults.storms.map((s) => stormOf(s, durationMs / 60_000)),
    },
    queuedRuns,
    events: draw.events,
    owner,
  }
}

export const caseArbitrary = (seed: number): fc.Arbitrary<ChaosCase> =>
  drawArbitrary.map((draw) => assemble(seed, draw))

/** The case of `seed`: the first value fast-check draws with that seed, so `fc.check` with it starts there too. */
export const generateCase = (seed: number): ChaosCase => {
  const [chaos] = fc.sample(caseArbitrary(seed), { seed, numRuns: 1 })
  if (chaos === undefined) throw new Error(`fast-check drew no case for seed ${seed}`)
  return chaos
}
