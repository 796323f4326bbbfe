/**
 * The AWS implementation of the CloudPort for one region: wires the clients, the call counter, the
 * logger, the clock and the container caches into the modules that do the work.
 */
import type { CloudPort } from '../core/port.ts'
import { createLogger, powertoolsLog } from '../telemetry.ts'
import {
  attachInstances,
  detachInstances,
  setMaxSize,
  tagGroup,
  tagInstances,
  terminateInGroup,
  terminateInstances,
  untagGroup,
  untagInstances,
} from './actions.ts'
import {
  type AdapterCaches,
  type AdapterLogger,
  type ApiCallListener,
  type AwsContext,
  countedCall,
  createAdapterCaches,
} from './context.ts'
import {
  describeGroups,
  groupOfInstances,
  instanceRefreshes,
  lifecycleHooks,
  scalingActivities,
} from './groups.ts'
import { describeInstances, describeLaunchedSpotInstances, terminationProtected } from './instances.ts'
import { launchSpot } from './launch.ts'
import { trafficHealth } from './load-balancers.ts'
import { describeInstanceTypes, describeSpotPrices } from './market.ts'
import { onDemandPrices } from './pricing.ts'
import type { AwsClients } from './sdk.ts'
import { sdkClients } from './sdk-clients.ts'
import { stackStatuses } from './stacks.ts'
import { subnetZones } from './subnets.ts'

export { type AdapterCaches, createAdapterCaches } from './context.ts'
export { createRegionDirectory, type RegionDirectoryDeps } from './region-directory.ts'
export type * from './sdk.ts'

export interface AwsCloudDeps {
  /** The services' SDK clients behind sdk.ts's narrow interfaces; defaults to the real ones (the simulator passes its own). */
  readonly clients?: AwsClients
  /** Told `service:Operation` for every SDK call, e.g. `ec2:CreateFleet`. */
  readonly onApiCall?: ApiCallListener
  /** Defaults to a Powertools logger. */
  readonly logger?: AdapterLogger
  /** Epoch milliseconds for cache expiry; defaults to Date.now. */
  readonly now?: () => number
  /** Defaults to caches shared by every adapter in this container. */
  readonly caches?: AdapterCaches
}

/** Shared by every adapter of the container, so a warm Lambda skips the catalog and price lookups. */
const containerCaches = createAdapterCaches()

let defaultLogger: AdapterLogger | undefined
const adapterLogger = (): AdapterLogger => {
  defaultLogger ??= powertoolsLog(createLogger('spotswap'))
  return defaultLogger
}

export const createAwsCloud = (region: string, deps: AwsCloudDeps = {}): CloudPort => {
  const ctx: AwsContext = {
    region,
    ...(deps.clients ?? sdkClients(region)),
    call: countedCall(deps.onApiCall),
    logger: deps.logger ?? adapterLogger(),
    now: deps.now ?? Date.now,
    caches: deps.caches ?? containerCaches,
  }
  return {
    region,
    describeGroups: (query) => describeGroups(ctx, query),
    describeInstances: (ids, options) => describeInstances(ctx, ids, options),
    describeLaunchedSpotInstances: () => describeLaunchedSpotInstances(ctx),
    describeInstanceTypes: () => describeInstanceTypes(ctx),
    describeSpotPrices: (productDescription, now) => describeSpotPrices(ctx, productDescription, now),
    onDemandPrices: (platform) => onDemandPrices(ctx, platform),
    terminationProtected: (ids) => terminationProtected(ctx, ids),
    stackStatuses: (names) => stackStatuses(ctx, names),
    lifecycleHooks: (groupName) => lifecycleHooks(ctx, groupName),
    instanceRefreshes: (groupName) => instanceRefreshes(ctx, groupName),
    groupOfInstances: (ids) => groupOfInstances(ctx, ids),
    subnetZones: (ids) => subnetZones(ctx, ids),
    scalingActivities: (name, since) => scalingActivities(ctx, name, since),
    trafficHealth: (sources, ids) => trafficHealth(ctx, sources, ids),
    launchSpot: (request) => launchSpot(ctx, request),
    attachInstances: (groupName, ids) => attachInstances(ctx, groupName, ids),
    detachInstances: (groupName, ids, decrement) => detachInstances(ctx, groupName, ids, decrement),
    terminateInGroup: (instanceId, decrement) => terminateInGroup(ctx, instanceId, decrement),
    terminateInstances: (ids) => terminateInstances(ctx, ids),
    setMaxSize: (groupName, maxSize) => setMaxSize(ctx, groupName, maxSize),
    tagGroup: (groupName, tags) => tagGroup(ctx, groupName, tags),
    untagGroup: (groupName, keys) => untagGroup(ctx, groupName, keys),
    tagInstances: (ids, tags) => tagInstances(ctx, ids, tags),
    untagInstances: (ids, keys) => untagInstances(ctx, ids, keys),
  }
}
