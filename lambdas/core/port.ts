/**
 * The port: everything the engine asks of a cloud, for one region. `aws/` implements it with the SDK,
 * `sim/` with an in-memory account; planners and executors cannot tell them apart.
 * Methods that list things paginate internally and return everything.
 */
import type { Commitments, RunningOnDemand } from './commitments/types.ts'
import type { AllocationStrategy } from './config/config.ts'
import type { EcsCapacityProvider } from './ecs/capacity-provider.ts'
import type { EcsCluster, EcsContainerInstance, EcsStateFailure } from './ecs/cluster.ts'
import type { EcsTask } from './ecs/tasks.ts'
import type { InstanceRefresh } from './group/instance-refresh.ts'
import type { ScalingActivity } from './group/scaling-activities.ts'
import type { SpotRequestStatus } from './interruption/confirmation.ts'
import type { ScheduledEvent } from './maintenance/events.ts'
import type { MarkerRead, MarkerVerdict } from './markers.ts'
import type {
  CandidateFlag,
  Catalog,
  Group,
  Instance,
  LaunchTemplateRef,
  OnDemandPrices,
  SpotPrice,
  TrafficSources,
} from './types.ts'

/** A server-side narrowing for DescribeAutoScalingGroups; callers still match tags client-side. */
export interface GroupQuery {
  /** `tag:<key>` = any of values, or `tag-key` when values is empty. Undefined lists every group. */
  readonly tagKey: string | undefined
  readonly tagValues: readonly string[]
  /**
   * Only these groups, asked for by name (the tag filter still applies): what a chunk of a region's groups
   * or one interruption needs, without listing the whole region. Undefined: every group the filter matches.
   */
  readonly names?: readonly string[]
}

export interface LifecycleHook {
  readonly name: string
  readonly transition: string
}

export interface FleetOverride {
  readonly instanceType: string
  readonly subnetId: string | undefined
  readonly zone: string
  /** 0 = most preferred; used by capacity-optimized-prioritized. */
  readonly priority: number
  /**
   * The launch template this type launches from when it is not the request's (a MixedInstancesPolicy
   * override with its own LaunchTemplateSpecification).
   */
  readonly launchTemplate?: LaunchTemplateRef | undefined
  /** What this type changes for the workload (another CPU vendor, generation): shown by `plan`, never sent. */
  readonly flags?: readonly CandidateFlag[]
}

export interface SpotLaunchRequest {
  readonly groupName: string
  readonly launchTemplate: LaunchTemplateRef | undefined
  /** For launch-configuration groups the adapter builds (and deletes) a temporary launch template. */
  readonly launchConfigurationName: string | undefined
  readonly overrides: readonly FleetOverride[]
  readonly allocationStrategy: AllocationStrategy
  readonly tags: Readonly<Record<string, string>>
  /** Deterministic per replaced instance, so overlapping runs cannot launch twice. */
  readonly clientToken: string
}

export type SpotLaunchResult =
  | {
      readonly ok: true
      readonly instanceId: string
      readonly instanceType: string
      readonly zone: string
      /**
       * For a launch-configuration group, the temporary launch template the instance came from: recorded
       * on the partner with the outcome (provenance compares it with the instance's own
       * `aws:ec2launchtemplate:id` once the template is deleted).
       */
      readonly launchTemplateId?: string
    }
  | {
      readonly ok: false
      /** Per-override errors as the API reported them, e.g. InsufficientInstanceCapacity. */
      readonly errors: readonly {
        readonly instanceType: string | undefined
        readonly code: string
        readonly message: string
      }[]
    }

/** A load balancer's health-check settings: a registered target turns healthy after interval × threshold. */
export interface HealthCheckSettings {
  readonly intervalSeconds: number
  readonly healthyThreshold: number
}

/**
 * One instance's state in one traffic source, as the load balancer reports it: for a target group
 * TargetHealth.State (`healthy`, `initial`, `unhealthy`, `unused`, `draining`, `unavailable`), for a
 * classic load balancer InstanceState.State (`InService`, `OutOfService`, `Unknown`).
 */
export interface TargetState {
  readonly state: string
  /** The load balancer's reason code or description, when it gives one (e.g. `Target.NotRegistered`). */
  readonly reason?: string
}

/** Traffic sources are keyed `target-group:<arn>` or `classic:<name>` (trafficSourceKey). */
export interface TrafficHealth {
  /** Health-check settings per traffic source; a source that could not be described is absent. */
  readonly settings: ReadonlyMap<string, HealthCheckSettings>
  /** Instance id → traffic source → state. An instance a source does not report is not registered there. */
  readonly states: ReadonlyMap<string, ReadonlyMap<string, TargetState>>
}

export const trafficSourceKey = (kind: 'target-group' | 'classic', id: string): string => `${kind}:${id}`

/** Records one instance's state in one traffic source, as TrafficHealth.states holds it. */
export const addTargetState = (
  states: Map<string, Map<string, TargetState>>,
  instanceId: string,
  source: string,
  state: TargetState,
): void => {
  const byInstance = states.get(instanceId) ?? new Map<string, TargetState>()
  states.set(instanceId, byInstance)
  byInstance.set(source, state)
}

export interface DescribeInstancesOptions {
  /** Partners of spotswap's launches are read in any state: provenance reads what they record. */
  readonly includeTerminated?: boolean
}

export interface CloudPort {
  readonly region: string
  describeGroups(query: GroupQuery): Promise<Group[]>
  /**
   * Instances by id, any state except terminated (terminated ones too with `includeTerminated`: EC2 shows
   * them for a while after, tags included); missing ids are simply absent.
   */
  describeInstances(ids: readonly string[], options?: DescribeInstancesOptions): Promise<Instance[]>
  /** Pending or running instances carrying `launched-for-asg`, attached or not. */
  describeLaunchedSpotInstances(): Promise<Instance[]>
  describeInstanceTypes(): Promise<Catalog>
  /** Current spot prices (StartTime = now) for one product description, e.g. `Linux/UNIX`. */
  describeSpotPrices(productDescription: string, now: Date): Promise<SpotPrice[]>
  /** On-demand prices for one platform; never throws for an unreachable Pricing API (embedded fallback). */
  onDemandPrices(platform: string): Promise<OnDemandPrices>
  /** Which of these instances have API termination protection (DisableApiTermination). */
  terminationProtected(ids: readonly string[]): Promise<Set<string>>
  /** CloudFormation stack status by stack name; stacks that do not exist are absent. */
  stackStatuses(stackNames: readonly string[]): Promise<Map<string, string>>
  lifecycleHooks(groupName: string): Promise<LifecycleHook[]>
  /** The group's instance refreshes of the last six weeks (DescribeInstanceRefreshes), any status. */
  instanceRefreshes(groupName: string): Promise<InstanceRefresh[]>
  /** Each subnet's Availability Zone (DescribeSubnets); subnets that no longer exist are absent. */
  subnetZones(subnetIds: readonly string[]): Promise<Map<string, string>>
  /**
   * The Spot request status of each of these spot instances (DescribeSpotInstanceRequests), by instance
   * id; an instance without a request is absent.
   */
  spotRequestStatuses(instanceIds: readonly string[]): Promise<Map<string, SpotRequestStatus>>
  /** Which group each instance belongs to (DescribeAutoScalingInstances); absent = no group. */
  groupOfInstances(ids: readonly string[]): Promise<Map<string, string>>
  /** The group's scaling activities that started at or after `since`, newest first. */
  scalingActivities(groupName: string, since: Date): Promise<ScalingActivity[]>
  /** The group's latest `maxRecords` scaling activities, newest first: one DescribeScalingActivities call. */
  latestScalingActivities(groupName: string, maxRecords: number): Promise<ScalingActivity[]>
  /**
   * How these instances stand in the group's target groups (DescribeTargetHealth) and classic load
   * balancers (DescribeInstanceHealth), with each source's health-check settings.
   */
  trafficHealth(sources: TrafficSources, ids: readonly string[]): Promise<TrafficHealth>
  /**
   * Whether each marker's MAC is spotswap's (core/markers.ts), in order. Never rejects: a marker that
   * cannot be checked now is `unverifiable`. The write methods sign the markers they write.
   */
  verifyMarkers(markers: readonly MarkerRead[]): Promise<MarkerVerdict[]>
  /** Pending scheduled events of the region's running instances (DescribeInstanceStatus), cached a while. */
  scheduledEvents(): Promise<ScheduledEvent[]>
  /** The region's ECS capacity providers that stand on an Auto Scaling group (DescribeCapacityProviders). */
  ecsCapacityProviders(): Promise<readonly EcsCapacityProvider[]>
  /** The region's ECS clusters with their capacity providers (ListClusters, DescribeClusters), cached. */
  ecsClusters(): Promise<readonly EcsCluster[]>
  /** A cluster's container instances (ListContainerInstances, DescribeContainerInstances). */
  ecsContainerInstances(cluster: string): Promise<readonly EcsContainerInstance[]>
  /** The tasks ECS keeps running in a cluster, each with its container instance (ListTasks, DescribeTasks). */
  ecsClusterTasks(cluster: string): Promise<readonly EcsTask[]>
  /** Sets container instances DRAINING or ACTIVE (UpdateContainerInstancesState); the ones ECS refused. */
  setContainerInstancesState(
    cluster: string,
    containerInstanceArns: readonly string[],
    status: 'ACTIVE' | 'DRAINING',
  ): Promise<readonly EcsStateFailure[]>
  /**
   * The region's active Reserved Instances and Capacity Reservations this account holds, and the Savings
   * Plans that can apply in it with their rates for `instanceTypes`, cached (aws/commitments.ts); a port
   * without it reads none. `wholeRegion`: read the plans and the region's usage even when `instanceTypes`
   * is empty (the run that publishes the region's utilization).
   */
  readCommitments?(instanceTypes?: readonly string[], wholeRegion?: boolean): Promise<Commitments>
  /** The region's running on-demand instances, managed or not, cached with the commitments (declared ones). */
  readRegionOnDemand?(): Promise<readonly RunningOnDemand[]>

  launchSpot(request: SpotLaunchRequest): Promise<SpotLaunchResult>
  attachInstances(groupName: string, ids: readonly string[]): Promise<void>
  detachInstances(groupName: string, ids: readonly string[], decrementDesired: boolean): Promise<void>
  terminateInGroup(instanceId: string, decrementDesired: boolean): Promise<void>
  terminateInstances(ids: readonly string[]): Promise<void>
  setMaxSize(groupName: string, maxSize: number): Promise<void>
  /** SetDesiredCapacity: Auto Scaling launches or terminates members to reach it (core/maintenance/). */
  setDesiredCapacity(groupName: string, desired: number): Promise<void>
  tagGroup(groupName: string, tags: Readonly<Record<string, string>>): Promise<void>
  untagGroup(groupName: string, keys: readonly string[]): Promise<void>
  tagInstances(ids: readonly string[], tags: Readonly<Record<string, string>>): Promise<void>
  untagInstances(ids: readonly string[], keys: readonly string[]): Promise<void>
}

/** The port's methods that change something; every other method only reads. */
export const PORT_WRITES = [
  'launchSpot',
  'attachInstances',
  'detachInstances',
  'terminateInGroup',
  'terminateInstances',
  'setMaxSize',
  'setDesiredCapacity',
  'tagGroup',
  'untagGroup',
  'tagInstances',
  'untagInstances',
  'setContainerInstancesState',
] as const satisfies readonly (keyof CloudPort)[]

/** Region discovery is account-wide, so it lives outside the per-region port. */
export interface RegionDirectory {
  enabledRegions(): Promise<string[]>
}
