/**
 * The simulator's CloudPort for one region and one invocation: the same port as lambdas/aws/cloud.ts,
 * so the replacer's planner and executor and the interruption handler run against it unchanged. Every
 * method answers asynchronously, like the SDK, and each request passes the region's API gate.
 */

import type { InstanceRefresh } from '../../lambdas/core/group/instance-refresh.ts'
import type { ScalingActivity } from '../../lambdas/core/group/scaling-activities.ts'
import type {
  CloudPort,
  DescribeInstancesOptions,
  GroupQuery,
  LifecycleHook,
  SpotLaunchRequest,
  SpotLaunchResult,
  TrafficHealth,
} from '../../lambdas/core/port.ts'
import type {
  Catalog,
  Group,
  Instance,
  OnDemandPrices,
  SpotPrice,
  TrafficSources,
} from '../../lambdas/core/types.ts'
import type { Session } from './faults.ts'
import type { PortContext } from './port-context.ts'
import * as reads from './port-reads.ts'
import * as writes from './port-writes.ts'
import type { World } from './world.ts'

/** Runs synchronously but settles like a network call, so concurrent callers interleave as with the SDK. */
const answer = async <T>(work: () => T): Promise<T> => {
  await Promise.resolve()
  return work()
}

export class SimCloud implements CloudPort {
  readonly region: string
  private readonly ctx: PortContext

  constructor(world: World, region: string, session: Session) {
    this.region = region
    this.ctx = { world, region: world.region(region), session }
  }

  describeGroups(query: GroupQuery): Promise<Group[]> {
    return answer(() => reads.describeGroups(this.ctx, query))
  }
  describeInstances(ids: readonly string[], options?: DescribeInstancesOptions): Promise<Instance[]> {
    return answer(() => reads.describeInstances(this.ctx, ids, options))
  }
  describeLaunchedSpotInstances(): Promise<Instance[]> {
    return answer(() => reads.describeLaunchedSpotInstances(this.ctx))
  }
  describeInstanceTypes(): Promise<Catalog> {
    return answer(() => reads.describeInstanceTypes(this.ctx))
  }
  describeSpotPrices(productDescription: string, _now: Date): Promise<SpotPrice[]> {
    return answer(() => reads.describeSpotPrices(this.ctx, productDescription))
  }
  onDemandPrices(platform: string): Promise<OnDemandPrices> {
    return answer(() => reads.onDemandPrices(this.ctx, platform))
  }
  terminationProtected(ids: readonly string[]): Promise<Set<string>> {
    return answer(() => reads.terminationProtected(this.ctx, ids))
  }
  stackStatuses(stackNames: readonly string[]): Promise<Map<string, string>> {
    return answer(() => reads.stackStatuses(this.ctx, stackNames))
  }
  lifecycleHooks(groupName: string): Promise<LifecycleHook[]> {
    return answer(() => reads.lifecycleHooks(this.ctx, groupName))
  }
  instanceRefreshes(groupName: string): Promise<InstanceRefresh[]> {
    return answer(() => reads.instanceRefreshes(this.ctx, groupName))
  }
  groupOfInstances(ids: readonly string[]): Promise<Map<string, string>> {
    return answer(() => reads.groupOfInstances(this.ctx, ids))
  }
  subnetZones(subnetIds: readonly string[]): Promise<Map<string, string>> {
    return answer(() => reads.subnetZones(this.ctx, subnetIds))
  }
  scalingActivities(groupName: string, since: Date): Promise<ScalingActivity[]> {
    return answer(() => reads.scalingActivities(this.ctx, groupName, since))
  }
  trafficHealth(sources: TrafficSources, ids: readonly string[]): Promise<TrafficHealth> {
    return answer(() => reads.trafficHealth(this.ctx, sources, ids))
  }
  launchSpot(request: SpotLaunchRequest): Promise<SpotLaunchResult> {
    return answer(() => writes.launchSpot(this.ctx, request))
  }
  attachInstances(groupName: string, ids: readonly string[]): Promise<void> {
    return answer(() => writes.attachInstances(this.ctx, groupName, ids))
  }
  detachInstances(groupName: string, ids: readonly string[], decrementDesired: boolean): Promise<void> {
    return answer(() => writes.detachInstances(this.ctx, groupName, ids, decrementDesired))
  }
  terminateInGroup(instanceId: string, decrementDesired: boolean): Promise<void> {
    return answer(() => writes.terminateInGroup(this.ctx, instanceId, decrementDesired))
  }
  terminateInstances(ids: readonly string[]): Promise<void> {
    return answer(() => writes.terminateInstances(this.ctx, ids))
  }
  setMaxSize(groupName: string, maxSize: number): Promise<void> {
    return answer(() => writes.setMaxSize(this.ctx, groupName, maxSize))
  }
  tagGroup(groupName: string, tags: Readonly<Record<string, string>>): Promise<void> {
    return answer(() => writes.tagGroup(this.ctx, groupName, tags))
  }
  untagGroup(groupName: string, keys: readonly string[]): Promise<void> {
    return answer(() => writes.untagGroup(this.ctx, groupName, keys))
  }
  untagInstances(ids: readonly string[], keys: readonly string[]): Promise<void> {
    return answer(() => writes.untagInstances(this.ctx, ids, keys))
  }
  /** Not on CloudPort yet; the interruption handler's rebalance `replace` needs it. */
  tagInstances(ids: readonly string[], tags: Readonly<Record<string, string>>): Promise<void> {
    return answer(() => writes.tagInstances(this.ctx, ids, tags))
  }
}
