/**
 * How the simulated account is managed: which of spotswap's Lambdas run, on what schedule and with which
 * environment, or whether Auto Scaling itself runs the managed groups as mixed-instances groups. A policy
 * is configuration, so the benchmark compares alternatives (AutoSpotting's behaviour, AWS's
 * MixedInstancesPolicy, no replacement at all) on the same scenario without touching the engine.
 */
import type { MixedInstancesDistribution } from './mixed-instances.ts'

export interface SimPolicy {
  readonly name: string
  /** Variables applied over the scenario's `env`. */
  readonly env: Readonly<Record<string, string>>
  /** Run the replacer on its schedule. */
  readonly replacer: boolean
  /** Minutes between replacer runs; undefined = the scenario's `scheduleMinutes`. */
  readonly scheduleMinutes?: number
  /** Run the replacer for a group when Auto Scaling reports a successful launch (the deployed event rule). */
  readonly launchEvents: boolean
  /** Deliver spot interruption warnings and rebalance recommendations to the interruption handler. */
  readonly interruptionHandler: boolean
  /**
   * Which early runs of a group the replacer may ask for through the run-request queue: `all` (default:
   * a swap waiting for its replacements to serve, and a replacement at the end of its grace period) or
   * `swaps`. AutoSpotting swaps a ready replacement in at its scheduled run and retires the on-demand
   * instance in the same run: the swap's looks stand for that same-run retirement, but a replacement
   * warmed up between runs waits for the next one.
   */
  readonly runRequests?: 'all' | 'swaps'
  /** The planner's pool cap (see PlanInput.maxPoolShare); undefined = the engine's default. */
  readonly maxPoolShare?: number
  /** Lanes per region (core/region/lanes.ts); undefined = the deployment's REGION_LANES. */
  readonly lanes?: number
  /**
   * Auto Scaling runs every managed group as a MixedInstancesPolicy group with this distribution from the
   * start (mixed-instances-group.ts); spotswap's Lambdas should then be off.
   */
  readonly mixedInstances?: MixedInstancesDistribution
}

/** spotswap as deployed: scheduled runs, launch events and the interruption handler. */
export const SPOTSWAP_POLICY: SimPolicy = {
  name: 'spotswap',
  env: {},
  replacer: true,
  launchEvents: true,
  interruptionHandler: true,
}

/** Nothing replaced: the on-demand baseline. */
export const ON_DEMAND_POLICY: SimPolicy = {
  name: 'on-demand',
  env: {},
  replacer: false,
  launchEvents: false,
  interruptionHandler: false,
}

/**
 * The same engine configured as AutoSpotting Community Edition behaves: a run every 30 minutes, one
 * replacement in flight per group, the cheapest compatible pool, no wait for the health check grace
 * period, an interrupted instance detached, rebalance recommendations ignored, no launch-event runs,
 * a spot instance never moved to a cheaper pool. No diversification either: any pool may hold the whole group (maxPoolShare 1).
 */
export const AUTOSPOTTING_POLICY: SimPolicy = {
  name: 'autospotting',
  env: {
    MAX_REPLACEMENTS_IN_FLIGHT: '1',
    SPOT_ALLOCATION_STRATEGY: 'lowest-price',
    GRACE_PERIOD: '0',
    TERMINATION_NOTIFICATION_ACTION: 'detach',
    REBALANCE_ACTION: 'ignore',
    CHEAPER_POOL_MIN_SAVING_PERCENTAGE: '0',
  },
  replacer: true,
  scheduleMinutes: 30,
  launchEvents: false,
  interruptionHandler: true,
  runRequests: 'swaps',
  maxPoolShare: 1,
  // One pass over each region, as AutoSpotting's single invocation makes: a crash holds all its groups.
  lanes: 1,
}

const autoScalingOnly = { env: {}, replacer: false, launchEvents: false, interruptionHandler: false }

/** AWS's own answer: a MixedInstancesPolicy group, lowest-price over AWS's default two pools per zone. */
export const ASG_LOWEST_PRICE_POLICY: SimPolicy = {
  name: 'asg-lowest-price',
  ...autoScalingOnly,
  mixedInstances: { spotAllocationStrategy: 'lowest-price', spotInstancePools: 2, capacityRebalance: true },
}

/** A MixedInstancesPolicy group with the allocation strategy AWS recommends. */
export const ASG_PRICE_CAPACITY_OPTIMIZED_POLICY: SimPolicy = {
  name: 'asg-price-capacity-optimized',
  ...autoScalingOnly,
  mixedInstances: {
    spotAllocationStrategy: 'price-capacity-optimized',
    spotInstancePools: 2,
    capacityRebalance: true,
  },
}
