/**
 * A CloudPort that can only read, and the replacer's region run through it. `plan` and `revert --dry-run`
 * run the replacer with DRY_RUN forced, which already issues no write; this guard makes that a property of
 * the wiring rather than of the engine's code paths.
 */
import type { ConfigError, GlobalConfig } from '../../lambdas/core/config/config.ts'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { discardMetrics, type Log } from '../../lambdas/core/log.ts'
import { type CloudPort, PORT_WRITES } from '../../lambdas/core/port.ts'
import { type RegionResult, runRegion } from '../../lambdas/replacer/run-region.ts'
import type { CliIo } from '../shared/io.ts'
import type { MarketSeen } from './plan-market.ts'

export class ReadOnlyViolationError extends Error {
  override readonly name = 'ReadOnlyViolationError'
}

/** `market`, when given, records the prices and catalog the replacer reads, for plan's report. */
export const readOnly = (cloud: CloudPort, market?: MarketSeen): CloudPort => {
  const refuse = (method: string) => () =>
    Promise.reject(new ReadOnlyViolationError(`spotswap plan never writes, but ${method} was called`))
  return {
    region: cloud.region,
    describeGroups: (query) => cloud.describeGroups(query),
    describeInstances: (ids, options) => cloud.describeInstances(ids, options),
    describeLaunchedSpotInstances: () => cloud.describeLaunchedSpotInstances(),
    describeInstanceTypes: async () => {
      const catalog = await cloud.describeInstanceTypes()
      if (market) market.catalog = catalog
      return catalog
    },
    describeSpotPrices: async (description, now) => {
      const prices = await cloud.describeSpotPrices(description, now)
      market?.spotPrices.set(description, prices)
      return prices
    },
    onDemandPrices: async (platform) => {
      const prices = await cloud.onDemandPrices(platform)
      market?.onDemandPrices.set(platform, prices)
      return prices
    },
    terminationProtected: (ids) => cloud.terminationProtected(ids),
    stackStatuses: (names) => cloud.stackStatuses(names),
    lifecycleHooks: (name) => cloud.lifecycleHooks(name),
    instanceRefreshes: (name) => cloud.instanceRefreshes(name),
    groupOfInstances: (ids) => cloud.groupOfInstances(ids),
    subnetZones: (ids) => cloud.subnetZones(ids),
    spotRequestStatuses: (ids) => cloud.spotRequestStatuses(ids),
    scalingActivities: (name, since) => cloud.scalingActivities(name, since),
    latestScalingActivities: (name, maxRecords) => cloud.latestScalingActivities(name, maxRecords),
    verifyMarkers: (markers) => cloud.verifyMarkers(markers),
    scheduledEvents: () => cloud.scheduledEvents(),
    ecsCapacityProviders: () => cloud.ecsCapacityProviders(),
    ecsClusters: () => cloud.ecsClusters(),
    ecsContainerInstances: (cluster) => cloud.ecsContainerInstances(cluster),
    ecsClusterTasks: (cluster) => cloud.ecsClusterTasks(cluster),
    // Optional on the port: without it the replacer plans as if the account held no commitments.
    ...(cloud.readCommitments === undefined ? {} : { readCommitments: cloud.readCommitments.bind(cloud) }),
    ...Object.fromEntries(PORT_WRITES.map((method) => [method, refuse(method)])),
  } as CloudPort
}

/**
 * The settings as the Lambdas read them from `env`, DRY_RUN forced and `regions` (when any) as REGIONS;
 * undefined, each fatal error said on stderr, when one is fatal.
 */
export const dryRunConfig = (
  command: string,
  io: CliIo,
  regions: readonly string[],
): { readonly config: GlobalConfig; readonly errors: readonly ConfigError[] } | undefined => {
  const env = { ...io.env, DRY_RUN: 'true', ...(regions.length > 0 ? { REGIONS: regions.join(',') } : {}) }
  const parsed = parseGlobalConfig(env)
  const fatal = parsed.errors.filter((e) => e.fatal)
  for (const error of fatal)
    io.err(`spotswap ${command}: ${error.name}=${JSON.stringify(error.value)} is not ${error.expected}\n`)
  return fatal.length > 0 ? undefined : parsed
}

export interface ReadOnlyRun {
  readonly now: Date
  readonly log: Log
  /** Records the prices and catalog the replacer reads. */
  readonly market?: MarketSeen
  readonly onlyGroups?: readonly string[]
  /** Groups planned as if a revert request had arrived for them. */
  readonly revert?: readonly string[]
}

/** The replacer's observe and plan steps in the port's region, through a read-only port. */
export const runReadOnly = async (
  port: CloudPort,
  config: GlobalConfig,
  { now, log, market, onlyGroups, revert }: ReadOnlyRun,
): Promise<{ readonly cloud: CloudPort; readonly result: RegionResult }> => {
  const cloud = readOnly(port, market)
  const result = await runRegion({
    cloud,
    config,
    now,
    log,
    metrics: discardMetrics,
    ...(onlyGroups === undefined ? {} : { onlyGroups }),
    ...(revert === undefined ? {} : { revert }),
  })
  return { cloud, result }
}
