/**
 * Driving spotswap's region run directly against a simulated account, outside the scenario loop: to
 * bring a large account to its converged state with the real engine, and to measure one run.
 */

import { createAdapterCaches } from '../../lambdas/aws/cloud.ts'
import type { GlobalConfig } from '../../lambdas/core/config/config.ts'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { FANOUT_GROUPS_PER_REGION_MESSAGE, REGION_LANES } from '../../lambdas/core/constants.ts'
import { discardMetrics, silentLog } from '../../lambdas/core/log.ts'
import { allLanes, type RegionLane } from '../../lambdas/core/region/lanes.ts'
import { type RegionResult, runRegion } from '../../lambdas/replacer/run-region.ts'
import { simCloud } from '../sim/cloud.ts'
import { groupState } from '../sim/group-state.ts'
import type { World } from '../sim/world.ts'

let sessions = 0

/**
 * One region run per region, all at once in one process: the heaviest way the replacer plans an account.
 * Run locally without a fan-out queue, the handler runs its regions so (replacer/create-handler.ts).
 * Deployed, each region (or each chunk of FANOUT_GROUPS_PER_REGION_MESSAGE groups) is an invocation of
 * its own (the fan-out queue's batch size is 1, lib/spotswap.ts), so no Lambda holds 20 regions at once.
 */
export const runAllRegions = async (world: World, config: GlobalConfig): Promise<void> => {
  const now = world.clock.nowDate()
  await Promise.all([...world.regions.keys()].map((region) => regionRun(world, config, now, region)))
}

/** One replacer region run against the simulated account, as a fresh invocation (a session of its own). */
const regionRun = (
  world: World,
  config: GlobalConfig,
  now: Date,
  region: string,
  scope: {
    readonly splitAbove?: number
    readonly onlyGroups?: readonly string[]
    readonly lane?: RegionLane
  } = {},
): Promise<RegionResult> =>
  runRegion({
    cloud: simCloud(
      world,
      region,
      { id: ++sessions, actor: 'replacer', region, crashed: false, failedCalls: 0 },
      silentLog,
    ),
    config,
    now,
    log: silentLog,
    metrics: discardMetrics,
    ...scope,
  })

/** Wraps one region run (the scale probe meters each). */
export type Invocation = (run: () => Promise<RegionResult>) => Promise<RegionResult>

/**
 * Every region as the deployed replacer runs it: one invocation per region, and a region of more than
 * FANOUT_GROUPS_PER_REGION_MESSAGE groups handed on in chunks, each chunk an invocation of its own
 * (replacer/region-work.ts). One invocation after another, as one warm container would take them
 * (the adapter's caches are the world's). `invocation` wraps each one (the scale probe meters them).
 * Returns how many invocations it took.
 */
export const runRegionsByInvocation = async (
  world: World,
  config: GlobalConfig,
  invocation: Invocation = (run) => run(),
): Promise<number> => {
  const now = world.clock.nowDate()
  const run = (region: string, scope: { splitAbove: number } | { onlyGroups: readonly string[] }) =>
    invocation(() => regionRun(world, config, now, region, scope))
  let invocations = 0
  for (const region of world.regions.keys()) {
    const first = await run(region, { splitAbove: FANOUT_GROUPS_PER_REGION_MESSAGE })
    invocations++
    for (const chunk of first.deferred ?? []) {
      await run(region, { onlyGroups: chunk })
      invocations++
    }
  }
  return invocations
}

/**
 * Every region as its REGION_LANES lanes, one run per lane, each in a new container (empty adapter caches):
 * deployed, a region's lanes run side by side in containers of their own (core/region/lanes.ts).
 */
export const runRegionsByLane = async (
  world: World,
  config: GlobalConfig,
  invocation: Invocation = (run) => run(),
): Promise<number> => {
  const now = world.clock.nowDate()
  let runs = 0
  for (const region of world.regions.keys())
    for (const lane of allLanes(REGION_LANES)) {
      world.adapterCaches = createAdapterCaches()
      await invocation(() => regionRun(world, config, now, region, { lane }))
      runs++
    }
  return runs
}

/** Lets the account's own events (boots, shutdowns) happen for `ms`. */
export const settle = async (world: World, ms: number): Promise<void> => {
  const until = world.clock.now + ms
  for (let event = world.clock.popDue(until); event !== undefined; event = world.clock.popDue(until))
    await event.run()
  world.clock.advanceTo(until)
}

/** Managed groups still holding more on-demand instances than their minimum. */
export const unconvergedGroups = (world: World, config: GlobalConfig): number => {
  let count = 0
  for (const region of world.regions.values())
    for (const group of region.groups.values()) {
      const state = groupState(config, region, group)
      if (state.managed && state.onDemand > Math.max(state.requiredOnDemand, state.protectedOnDemand)) count++
    }
  return count
}

/** Rounds of runs needed at most: launch everything, swap everything, restore sizes. */
const CONVERGE_ROUNDS = 6

/**
 * Converges the account with the real engine, as fast as its settings allow (every on-demand instance
 * in flight at once, no grace period): what a steady account looks like after its first hour.
 */
export const convergeAccount = async (
  world: World,
  env: Readonly<Record<string, string>>,
): Promise<GlobalConfig> => {
  const { config } = parseGlobalConfig({ ...env, MAX_REPLACEMENTS_IN_FLIGHT: '100%', GRACE_PERIOD: '0' })
  for (let round = 0; round < CONVERGE_ROUNDS; round++) {
    await runAllRegions(world, config)
    await settle(world, 5 * 60_000)
  }
  const left = unconvergedGroups(world, config)
  if (left > 0) throw new Error(`convergeAccount: ${left} group(s) still above their on-demand minimum`)
  return config
}
