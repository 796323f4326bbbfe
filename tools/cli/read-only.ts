/**
 * A CloudPort that can only read. `plan` runs the replacer with DRY_RUN forced, which already issues no
 * write; this guard makes that a property of the wiring rather than of the engine's code paths.
 */
import { type CloudPort, PORT_WRITES } from '../../lambdas/core/port.ts'
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
    verifyMarkers: (markers) => cloud.verifyMarkers(markers),
    scheduledEvents: () => cloud.scheduledEvents(),
    ecsCapacityProviders: () => cloud.ecsCapacityProviders(),
    ecsClusters: () => cloud.ecsClusters(),
    ecsContainerInstances: (cluster) => cloud.ecsContainerInstances(cluster),
    // Optional on the port: without it the replacer plans as if the account held no commitments.
    ...(cloud.readCommitments === undefined ? {} : { readCommitments: cloud.readCommitments.bind(cloud) }),
    ...Object.fromEntries(PORT_WRITES.map((method) => [method, refuse(method)])),
  } as CloudPort
}
