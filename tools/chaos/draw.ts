/**
 * What fast-check draws for one chaos case (drawArbitrary): the regions, groups, pools, load balancers,
 * Auto Scaling features, environment and script. generate.ts assembles a case from a draw.
 */
import fc from 'fast-check'
import { SUSPENDED_PROCESSES } from '../../lambdas/core/group/suspended-processes.ts'
import { type CapacityTrace, embeddedTraceNames } from '../data/capacity-traces.ts'
import { faultsArbitrary, ownerArbitrary, queuedRunsArbitrary } from './generate-script.ts'
import { settingTags, settingValue } from './setting-values.ts'

/** Inside the embedded spot price window (2022-05-31 18:00Z–24:00Z). */
export const CHAOS_START = '2022-05-31T18:00:00Z'
export const START_MS = Date.parse(CHAOS_START)

export const REGIONS = ['us-east-1', 'us-west-2', 'eu-west-1'] as const
/** Small and large types; r5.16xlarge has no stand-in priced in some zones (us-east-1c: issue 16). */
export const GROUP_TYPES = [
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
export const POOL_TYPES = [
  ...GROUP_TYPES,
  'm5d.large',
  'm5n.large',
  'r5b.large',
  'm6i.large',
  'c6a.xlarge',
  'c5a.xlarge',
]
export const GRACE_PERIODS = [0, 0, 30, 60, 120, 300, 600]
/** The default TAG_FILTERS key; a custom filter below keeps it, as a glob. */
export const FILTER_KEY = 'spot-enabled'

export const groupArbitrary = fc.record({
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
export const outageArbitrary = fc
  .record({ before: fc.nat(12), during: fc.integer({ min: 1, max: 24 }), level: fc.constantFrom(0, 0, 1, 2) })
  .map(
    ({ before, during, level }): CapacityTrace => ({
      gapSeconds: 300,
      instanceType: '',
      zone: '',
      data: [...Array(before + 1).fill(4), ...Array(during).fill(level), ...Array(12).fill(4)],
    }),
  )

export const poolArbitrary = fc.record({
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
export const balancerArbitrary = fc.record({
  type: fc.constantFrom('target-group', 'target-group', 'classic'),
  healthCheckIntervalSeconds: fc.constantFrom(5, 10, 30, 30),
  healthyThreshold: fc.constantFrom(2, 3, 5, 10),
  deregistrationDelaySeconds: fc.constantFrom(0, 30, 300),
})

/** A group's traffic: most groups have no load balancer; some replacements never turn healthy (a broken image). */
export const trafficArbitrary = fc.record({
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
export const featuresArbitrary = fc.record({
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

export const ENV_SETTINGS = [
  'MIN_ON_DEMAND_NUMBER',
  'MIN_ON_DEMAND_PERCENTAGE',
  'MAX_REPLACEMENTS_IN_FLIGHT',
  'REBALANCE_ACTION',
  'TERMINATION_NOTIFICATION_ACTION',
  'SPOT_ALLOCATION_STRATEGY',
  'ALLOWED_INSTANCE_TYPES',
  'GRACE_PERIOD',
]

export const envArbitrary = fc.record({
  settings: fc
    .uniqueArray(fc.constantFrom(...ENV_SETTINGS), { maxLength: 3 })
    .chain((names) =>
      fc.tuple(...names.map((name) => settingValue(name, 20).map((value) => [name, value] as const))),
    ),
  filtering: fc.constantFrom('default', 'default', 'default', 'opt-out', 'glob'),
  regions: fc.constantFrom('all', 'all', 'all', 'first', 'glob', 'invalid'),
  dryRun: fc.constantFrom('', '', '', '', '', '', '', '', '', '', 'true', 'maybe'),
})

const maxSizeChange = fc.record({
  at: fc.nat(999),
  group: fc.nat(9),
  raise: fc.boolean(),
  by: fc.integer({ min: 1, max: 6 }),
})
type MaxSizeChange = typeof maxSizeChange extends fc.Arbitrary<infer T> ? T : never

export const drawArbitrary = fc.record({
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
  /** The owner setting MaxSize alone (as a scheduled action can), from their own, up or down; drawn last too. */
  maxSizeChanges: fc.oneof(
    { weight: 3, arbitrary: fc.constant<MaxSizeChange[]>([]) },
    { weight: 1, arbitrary: fc.array(maxSizeChange, { minLength: 1, maxLength: 2 }) },
  ),
  /**
   * Now and then the first group is large and full (21 to 45 members, all replaced at once: swaps of more
   * than 20 pairs, attached in chunks of 20), and some of its later AttachInstances requests are refused
   * (its second or after: a later chunk of a swap).
   */
  large: fc.option(
    fc.record({
      size: fc.integer({ min: 21, max: 45 }),
      refusedAttaches: fc.uniqueArray(fc.integer({ min: 2, max: 4 }), { maxLength: 2 }),
    }),
    { freq: 10, nil: null },
  ),
})

export type Draw = typeof drawArbitrary extends fc.Arbitrary<infer T> ? T : never
