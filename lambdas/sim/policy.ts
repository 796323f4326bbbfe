/**
 * How the simulated account is managed: which of spotswap's Lambdas run, on what schedule and with which
 * environment. A policy is configuration, so the benchmark compares alternatives (AutoSpotting's
 * behaviour, no replacement at all) on the same scenario without touching the engine.
 */

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
