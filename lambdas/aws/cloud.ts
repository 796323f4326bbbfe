/**
 * The AWS implementation of the CloudPort for one region: wires the clients, the call counter, the
 * logger, the clock and the container caches into the modules that do the work.
 *
 * This module loads no SDK: the simulator shares it and injects its own clients. The Lambdas inject the
 * real ones (sdk-clients.ts, imported by their default-deps.ts), so the SDK loads at init. A caller that
 * injects none (the CLI's `plan`, the adapter's tests) gets the real ones imported by its first call.
 */
import type { CloudPort } from '../core/port.ts'
import {
  attachInstances,
  detachInstances,
  setDesiredCapacity,
  setMaxSize,
  tagGroup,
  tagInstances,
  terminateInGroup,
  terminateInstances,
  untagGroup,
  untagInstances,
} from './actions.ts'
import { readCommitments, regionOnDemandOf } from './commitments.ts'
import {
  type AdapterCaches,
  type AdapterLogger,
  type ApiCallListener,
  type AwsContext,
  countedCall,
  createAdapterCaches,
} from './context.ts'
import {
  ecsCapacityProviders,
  ecsClusters,
  ecsClusterTasks,
  ecsContainerInstances,
  setContainerInstancesState,
} from './ecs.ts'
import {
  describeGroups,
  groupOfInstances,
  instanceRefreshes,
  latestScalingActivities,
  lifecycleHooks,
  scalingActivities,
} from './groups.ts'
import { scheduledEvents } from './instance-status.ts'
import { describeInstances, describeLaunchedSpotInstances, terminationProtected } from './instances.ts'
import { launchSpot } from './launch.ts'
import { trafficHealth } from './load-balancers.ts'
import { verifyMarkers } from './markers.ts'
import { describeInstanceTypes, describeSpotPrices } from './market.ts'
import { onDemandPrices } from './pricing.ts'
import type { AwsClients } from './sdk.ts'
import { spotRequestStatuses } from './spot-requests.ts'
import { stackStatuses } from './stacks.ts'
import { subnetZones } from './subnets.ts'

export { type AdapterCaches, createAdapterCaches } from './context.ts'
export type * from './ecs-sdk.ts'
export { createRegionDirectory, type RegionDirectoryDeps } from './region-directory.ts'
export type * from './sdk.ts'

export interface AwsCloudDeps {
  /**
   * The services' SDK clients behind sdk.ts's narrow interfaces: the simulator's, or the real ones of
   * sdk-clients.ts. Without them, the real ones are imported by the first call.
   */
  readonly clients?: AwsClients
  /** Told `service:Operation` for every SDK call, e.g. `ec2:CreateFleet`. */
  readonly onApiCall?: ApiCallListener
  /**
   * Where the adapter's warnings go: the handler's own log (a Powertools logger in Lambda), so the
   * adapter itself loads no logging library and the simulator's runs load none at all.
   */
  readonly logger: AdapterLogger
  /** Epoch milliseconds for cache expiry; defaults to Date.now. */
  readonly now?: () => number
  /** Defaults to caches shared by every adapter in this container. */
  readonly caches?: AdapterCaches
  /**
   * The KMS HMAC key's ARN (MARKER_KEY_ARN). Without it no marker is written (a write of one is refused)
   * and none is believed: an unsigned one reads as absent, a signed one holds its group back.
   */
  readonly markerKeyArn?: string | undefined
}

/** Shared by every adapter of the container, so a warm Lambda skips the catalog and price lookups. */
const containerCaches = createAdapterCaches()

const realClients = async (region: string): Promise<AwsClients> =>
  (await import('./sdk-clients.ts')).sdkClients(region)

export const createAwsCloud = (region: string, deps: AwsCloudDeps): CloudPort => {
  const contextWith = (clients: AwsClients): AwsContext => ({
    region,
    ...clients,
    call: countedCall(deps.onApiCall),
    logger: deps.logger,
    now: deps.now ?? Date.now,
    caches: deps.caches ?? containerCaches,
    markerKeyArn: deps.markerKeyArn,
    groupArns: new Map(),
  })
  const injected = deps.clients === undefined ? undefined : contextWith(deps.clients)
  let imported: Promise<AwsContext> | undefined
  /** A module's work bound to the context; without injected clients, the first call imports the real ones. */
  const using = <Args extends unknown[], Result>(
    work: (ctx: AwsContext, ...args: Args) => Promise<Result>,
  ): ((...args: Args) => Promise<Result>) =>
    injected !== undefined
      ? (...args) => work(injected, ...args)
      : async (...args) => {
          imported ??= realClients(region).then(contextWith)
          return work(await imported, ...args)
        }
  return {
    region,
    describeGroups: using(describeGroups),
    describeInstances: using(describeInstances),
    describeLaunchedSpotInstances: using(describeLaunchedSpotInstances),
    describeInstanceTypes: using(describeInstanceTypes),
    describeSpotPrices: using(describeSpotPrices),
    onDemandPrices: using(onDemandPrices),
    terminationProtected: using(terminationProtected),
    stackStatuses: using(stackStatuses),
    lifecycleHooks: using(lifecycleHooks),
    instanceRefreshes: using(instanceRefreshes),
    groupOfInstances: using(groupOfInstances),
    subnetZones: using(subnetZones),
    spotRequestStatuses: using(spotRequestStatuses),
    scalingActivities: using(scalingActivities),
    latestScalingActivities: using(latestScalingActivities),
    trafficHealth: using(trafficHealth),
    verifyMarkers: using(verifyMarkers),
    scheduledEvents: using(scheduledEvents),
    ecsCapacityProviders: using(ecsCapacityProviders),
    ecsClusters: using(ecsClusters),
    ecsContainerInstances: using(ecsContainerInstances),
    ecsClusterTasks: using(ecsClusterTasks),
    setContainerInstancesState: using(setContainerInstancesState),
    readCommitments: using(readCommitments),
    readRegionOnDemand: using(regionOnDemandOf),
    launchSpot: using(launchSpot),
    attachInstances: using(attachInstances),
    detachInstances: using(detachInstances),
    terminateInGroup: using(terminateInGroup),
    terminateInstances: using(terminateInstances),
    setMaxSize: using(setMaxSize),
    setDesiredCapacity: using(setDesiredCapacity),
    tagGroup: using(tagGroup),
    untagGroup: using(untagGroup),
    tagInstances: using(tagInstances),
    untagInstances: using(untagInstances),
  }
}
