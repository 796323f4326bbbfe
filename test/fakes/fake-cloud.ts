/**
 * A small stateful Auto Scaling + EC2 account for one region, behind the CloudPort. It behaves like AWS
 * where the Lambdas depend on it (a group backfills when it loses an instance without a desired-capacity
 * decrement, a termination hook holds an instance in Terminating:Wait, acting on a non-member fails)
 * and records every call, so tests assert on outcomes and on the exact mutations made.
 */

import { TAG_LAUNCH_TEMPLATE_ID } from '../../lambdas/core/constants.ts'
import type { EcsCapacityProvider } from '../../lambdas/core/ecs/capacity-provider.ts'
import type { EcsCluster, EcsContainerInstance, EcsStateFailure } from '../../lambdas/core/ecs/cluster.ts'
import type { EcsTask } from '../../lambdas/core/ecs/tasks.ts'
import type { InstanceRefresh } from '../../lambdas/core/group/instance-refresh.ts'
import type { ScalingActivity } from '../../lambdas/core/group/scaling-activities.ts'
import type { SpotRequestStatus } from '../../lambdas/core/interruption/confirmation.ts'
import type { ScheduledEvent } from '../../lambdas/core/maintenance/events.ts'
import {
  GROUP_MARKERS,
  INSTANCE_MARKERS,
  type MarkerRead,
  type MarkerVerdict,
  resourceName,
} from '../../lambdas/core/markers.ts'
import {
  type CloudPort,
  type DescribeInstancesOptions,
  type GroupQuery,
  type LifecycleHook,
  PORT_WRITES,
  type SpotLaunchRequest,
  type SpotLaunchResult,
  type TargetState,
  type TrafficHealth,
  trafficSourceKey,
} from '../../lambdas/core/port.ts'
import {
  type Catalog,
  type Group,
  type GroupMember,
  type Instance,
  NO_TRAFFIC_SOURCES,
  type OnDemandPrices,
  type SpotPrice,
  type TrafficSources,
} from '../../lambdas/core/types.ts'

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

export type FakeInstance = Mutable<Instance>

export interface FakeGroup extends Mutable<Omit<Group, 'members'>> {
  /** Instance id → Auto Scaling lifecycle state. */
  readonly members: Map<string, string>
  hooks: LifecycleHook[]
  /** Its instance refreshes, newest first, as DescribeInstanceRefreshes lists them. */
  refreshes: InstanceRefresh[]
  /** The type the group launches when it backfills (its launch template's type). */
  launchType: string
  /**
   * Its scaling activities, oldest first: a test writes those it needs, and the fake writes one per launch
   * Auto Scaling could not make (launchesFail).
   */
  activities: ScalingActivity[]
}

/** An error shaped like an AWS SDK v3 ServiceException, for the error classifiers. */
export const awsError = (name: string, httpStatusCode: number, message = name): Error =>
  Object.assign(new Error(message), {
    name,
    $fault: httpStatusCode >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode },
  })

export const throttlingError = (): Error => awsError('Throttling', 400, 'Rate exceeded')
export const serviceUnavailableError = (): Error =>
  awsError('ServiceUnavailable', 503, 'Service is unavailable')

const MUTATIONS: ReadonlySet<string> = new Set(PORT_WRITES)

export class FakeCloud implements CloudPort {
  readonly groups = new Map<string, FakeGroup>()
  readonly instances = new Map<string, FakeInstance>()
  readonly calls: { readonly method: string; readonly args: readonly unknown[] }[] = []
  catalog: Catalog = new Map()
  spotPrices: SpotPrice[] = []
  onDemand: OnDemandPrices = { prices: new Map(), source: 'embedded' }
  readonly protectedIds = new Set<string>()
  readonly stacks = new Map<string, string>()
  /** Subnet → Availability Zone, as DescribeSubnets answers; unknown subnets are absent. */
  readonly subnets = new Map<string, string>()
  /**
   * Load balancers: instance id → traffic source key → state. As in AWS, an instance attached to a group
   * with traffic sources is registered (`initial`) and serves only once a test marks it healthy
   * (markHealthy); one that leaves the group is deregistered (`draining`). Seeded members start healthy.
   */
  readonly targetStates = new Map<string, Map<string, TargetState>>()
  /**
   * Deregistration delay per traffic source key, in seconds; unset sources get AWS's default, 300. A member
   * Auto Scaling terminates after it served (healthy in a traffic source) stays `Terminating`, its instance
   * running, until the longest of its sources' delays has passed by `now()`: Auto Scaling "waits for the
   * in-flight requests to complete, or for the maximum timeout to expire, before terminating instances"
   * (https://docs.aws.amazon.com/elasticloadbalancing/latest/classic/config-conn-drain.html). One that never
   * served has no connections and leaves at once.
   */
  readonly deregistrationDelays = new Map<string, number>()
  private readonly drainingUntil = new Map<string, { readonly group: string; readonly untilMs: number }>()
  /** Health-check settings per traffic source key; unset sources get ALB defaults (30 s × 5). */
  readonly healthSettings = new Map<string, { intervalSeconds: number; healthyThreshold: number }>()
  /**
   * Spot instances EC2 has warned of their interruption: their Spot request status is then
   * `marked-for-termination`, otherwise `fulfilled`
   * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-request-status.html). A tag never changes it.
   */
  readonly interruptionWarned = new Set<string>()
  /** EC2's time of the warning (the Spot request's Status.UpdateTime) for warned instances, when set. */
  readonly interruptionWarnedAt = new Map<string, Date>()
  /**
   * The markers spotswap signed, as `resource`, key and value: the adapter signs every marker it writes
   * (aws/markers.ts), and KMS verifies a value only for the resource and key it was signed for. The fake
   * keeps the values readable (no ` mac=` suffix) and remembers what was signed instead. Markers in tags
   * given to addGroup and addInstance count as spotswap's own earlier writes; a test forges by setting
   * tags directly.
   */
  readonly signedMarkers = new Set<string>()
  /** KMS cannot be asked (throttled, unreachable): every signed marker is unverifiable. */
  kmsUnavailable = false
  /** EC2's scheduled events, as DescribeInstanceStatus reports them (pending ones only). */
  scheduled: ScheduledEvent[] = []
  /**
   * Groups whose launches Auto Scaling cannot make (no capacity, a broken template, a quota): desired
   * capacity changes as asked, but no instance comes (the launch's scaling activity ends `Failed` with a
   * StatusMessage, and Auto Scaling tries again; https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_Activity.html).
   */
  readonly launchesFail = new Set<string>()
  /** The region's ECS capacity providers, as DescribeCapacityProviders lists them. */
  readonly capacityProviders: EcsCapacityProvider[] = []
  /** The region's ECS clusters with their capacity providers, as DescribeClusters tells them. */
  readonly clusters: EcsCluster[] = []
  /** Container instances by cluster ARN, as DescribeContainerInstances tells them. */
  readonly containerInstances = new Map<string, EcsContainerInstance[]>()
  /** The running tasks of each container instance, by its ARN, as ListTasks and DescribeTasks tell them. */
  readonly containerTasks = new Map<string, EcsTask[]>()
  /**
   * Members protected from scale-in (Auto Scaling's flag, which ECS's managed termination protection sets
   * while a member runs non-daemon tasks and removes once they stop:
   * https://docs.aws.amazon.com/AmazonECS/latest/developerguide/managed-termination-protection.html).
   */
  readonly scaleInProtected = new Set<string>()
  private readonly failures = new Map<string, Error[]>()
  private nextId = 0x1000
  private nextTemplate = 0x100
  /** The time launches are stamped with; harnesses that move time set it to their clock. */
  now: () => Date = () => new Date('2026-01-01T00:00:00Z')

  constructor(readonly region = 'us-east-1') {}

  /** The calls that change something, in order. */
  get mutations() {
    return this.calls.filter((call) => MUTATIONS.has(call.method))
  }

  /** The next call to `method` throws `error` (queued: call again to fail several times). */
  failNext(method: keyof CloudPort | 'tagInstances', error: Error): void {
    this.failures.set(method, [...(this.failures.get(method) ?? []), error])
  }

  addGroup(name: string, overrides: Partial<Omit<FakeGroup, 'members' | 'name'>> = {}): FakeGroup {
    const group: FakeGroup = {
      name,
      region: this.region,
      minSize: 0,
      maxSize: 10,
      desiredCapacity: 0,
      healthCheckGracePeriodSeconds: 300,
      tags: { 'spot-enabled': 'true' },
      propagatedTags: {},
      launchTemplate: { id: 'lt-0123456789abcdef0', name: undefined, version: '$Default' },
      launchConfigurationName: undefined,
      mixedInstancesPolicy: undefined,
      suspendedProcesses: [],
      subnetIds: ['subnet-a'],
      trafficSources: NO_TRAFFIC_SOURCES,
      capacityRebalance: false,
      status: undefined,
      hooks: [],
      refreshes: [],
      launchType: 'm5.large',
      activities: [],
      ...overrides,
      members: new Map(),
    }
    this.groups.set(name, group)
    this.sign(`group:${name}`, GROUP_MARKERS, group.tags)
    return group
  }

  /** Seeds an instance; with `group` it is attached InService and counted in desired capacity. */
  addInstance(
    overrides: Partial<FakeInstance> & { readonly group?: string; readonly lifecycleState?: string } = {},
  ) {
    const { group: groupName, lifecycleState = 'InService', ...fields } = overrides
    const instance: FakeInstance = {
      id: this.newId(),
      type: 'm5.large',
      zone: `${this.region}a`,
      subnetId: 'subnet-a',
      lifecycle: 'on-demand',
      state: 'running',
      launchTime: new Date('2026-01-01T00:00:00Z'),
      tags: {},
      platform: 'Linux/UNIX',
      ...fields,
    }
    this.instances.set(instance.id, instance)
    this.sign(`instance:${instance.id}`, INSTANCE_MARKERS, instance.tags)
    if (groupName !== undefined) {
      const group = this.group(groupName)
      group.members.set(instance.id, lifecycleState)
      group.desiredCapacity += 1
      this.register(group, instance.id, { state: 'healthy' })
    }
    return instance
  }

  /** Marks the instance healthy in every traffic source it is registered with. */
  markHealthy(id: string): void {
    for (const [source, state] of this.targetStates.get(id) ?? [])
      if (state.state !== 'draining') this.targetStates.get(id)?.set(source, { state: 'healthy' })
  }

  /** Sets the instance's state in one traffic source (or every one it is registered with). */
  setTargetState(id: string, state: TargetState, source?: string): void {
    const states = this.targetStates.get(id) ?? new Map<string, TargetState>()
    this.targetStates.set(id, states)
    for (const key of source === undefined ? [...states.keys()] : [source]) states.set(key, state)
  }

  private sourceKeys(sources: TrafficSources): string[] {
    return [
      ...sources.targetGroupArns.map((arn) => trafficSourceKey('target-group', arn)),
      ...sources.classicLoadBalancerNames.map((name) => trafficSourceKey('classic', name)),
    ]
  }

  private register(group: FakeGroup, id: string, state: TargetState): void {
    const keys = this.sourceKeys(group.trafficSources)
    if (keys.length === 0) return
    this.targetStates.set(id, new Map(keys.map((key) => [key, state])))
  }

  private deregister(id: string): void {
    for (const [source] of this.targetStates.get(id) ?? [])
      this.targetStates.get(id)?.set(source, { state: 'draining', reason: 'Target.DeregistrationInProgress' })
  }

  /** The group's members other than those draining out of it (`Terminating` until their delay passes). */
  staying(name: string): string[] {
    return [...this.group(name).members].filter(([, state]) => state !== 'Terminating').map(([id]) => id)
  }

  group(name: string): FakeGroup {
    const group = this.groups.get(name)
    if (group === undefined) throw new Error(`fake: no group ${name}`)
    return group
  }

  /** Members whose drain has ended leave, their instances terminated (Auto Scaling's own pace). */
  private settleDrains(): void {
    const nowMs = this.now().getTime()
    for (const [id, { group, untilMs }] of this.drainingUntil) {
      if (untilMs > nowMs) continue
      this.drainingUntil.delete(id)
      this.groups.get(group)?.members.delete(id)
      this.targetStates.delete(id)
      const instance = this.instances.get(id)
      if (instance !== undefined) instance.state = 'terminated'
    }
  }

  /** Seconds the instance drains once deregistered: 0 when it never served, else its sources' longest delay. */
  private drainSeconds(id: string): number {
    let seconds = 0
    for (const [key, state] of this.targetStates.get(id) ?? [])
      if (state.state === 'healthy' || state.state === 'InService')
        seconds = Math.max(seconds, this.deregistrationDelays.get(key) ?? 300)
    return seconds
  }

  async describeGroups(query: GroupQuery): Promise<Group[]> {
    this.settleDrains()
    this.record('describeGroups', query)
    return [...this.groups.values()].filter((g) => matchesQuery(g, query)).map((g) => this.snapshot(g))
  }

  async describeInstances(ids: readonly string[], options?: DescribeInstancesOptions): Promise<Instance[]> {
    this.settleDrains()
    this.record('describeInstances', ids)
    return ids.flatMap((id) => {
      const instance = this.instances.get(id)
      return instance === undefined || (instance.state === 'terminated' && !options?.includeTerminated)
        ? []
        : [{ ...instance, tags: { ...instance.tags } }]
    })
  }

  async describeLaunchedSpotInstances(): Promise<Instance[]> {
    this.record('describeLaunchedSpotInstances')
    return [...this.instances.values()].filter(
      (i) => (i.state === 'pending' || i.state === 'running') && i.tags['launched-for-asg'] !== undefined,
    )
  }

  async describeInstanceTypes(): Promise<Catalog> {
    this.record('describeInstanceTypes')
    return this.catalog
  }

  async describeSpotPrices(productDescription: string, now: Date): Promise<SpotPrice[]> {
    this.record('describeSpotPrices', productDescription, now)
    return this.spotPrices.filter((p) => p.productDescription === productDescription)
  }

  async onDemandPrices(platform: string): Promise<OnDemandPrices> {
    this.record('onDemandPrices', platform)
    return this.onDemand
  }

  async terminationProtected(ids: readonly string[]): Promise<Set<string>> {
    this.record('terminationProtected', ids)
    return new Set(ids.filter((id) => this.protectedIds.has(id)))
  }

  async stackStatuses(stackNames: readonly string[]): Promise<Map<string, string>> {
    this.record('stackStatuses', stackNames)
    return new Map(
      stackNames.flatMap((n) => (this.stacks.has(n) ? [[n, this.stacks.get(n) as string] as const] : [])),
    )
  }

  async lifecycleHooks(groupName: string): Promise<LifecycleHook[]> {
    this.record('lifecycleHooks', groupName)
    return [...(this.groups.get(groupName)?.hooks ?? [])]
  }

  async instanceRefreshes(groupName: string): Promise<InstanceRefresh[]> {
    this.record('instanceRefreshes', groupName)
    return [...(this.groups.get(groupName)?.refreshes ?? [])]
  }

  async subnetZones(subnetIds: readonly string[]): Promise<Map<string, string>> {
    this.record('subnetZones', subnetIds)
    return new Map(
      subnetIds.flatMap((id) => (this.subnets.has(id) ? [[id, this.subnets.get(id) as string]] : [])),
    )
  }

  /** Every spot instance has a Spot request (CreateFleet's and Auto Scaling's too); on-demand ones none. */
  async spotRequestStatuses(instanceIds: readonly string[]): Promise<Map<string, SpotRequestStatus>> {
    this.record('spotRequestStatuses', instanceIds)
    const codes = new Map<string, SpotRequestStatus>()
    for (const id of instanceIds) {
      if (this.instances.get(id)?.lifecycle !== 'spot') continue
      codes.set(
        id,
        this.interruptionWarned.has(id)
          ? { code: 'marked-for-termination', updatedAtMs: this.interruptionWarnedAt.get(id)?.getTime() }
          : { code: 'fulfilled' },
      )
    }
    return codes
  }

  async groupOfInstances(ids: readonly string[]): Promise<Map<string, string>> {
    this.record('groupOfInstances', ids)
    const result = new Map<string, string>()
    for (const id of ids) {
      const group = [...this.groups.values()].find((g) => g.members.has(id))
      if (group !== undefined) result.set(id, group.name)
    }
    return result
  }

  async scalingActivities(groupName: string, since: Date): Promise<ScalingActivity[]> {
    this.record('scalingActivities', groupName, since)
    return (this.groups.get(groupName)?.activities ?? [])
      .filter((a) => a.startTime.getTime() >= since.getTime())
      .sort((a, b) => b.startTime.getTime() - a.startTime.getTime())
  }

  async latestScalingActivities(groupName: string, maxRecords: number): Promise<ScalingActivity[]> {
    this.record('latestScalingActivities', groupName, maxRecords)
    return [...(this.groups.get(groupName)?.activities ?? [])]
      .sort((a, b) => b.startTime.getTime() - a.startTime.getTime())
      .slice(0, maxRecords)
  }

  async scheduledEvents(): Promise<ScheduledEvent[]> {
    this.record('scheduledEvents')
    return [...this.scheduled]
  }

  /**
   * Between MinSize and MaxSize, else a ValidationError; Auto Scaling launches from the group's template
   * (on-demand here) or scales in as scaleIn says
   * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_SetDesiredCapacity.html).
   */
  async setDesiredCapacity(groupName: string, desired: number): Promise<void> {
    this.record('setDesiredCapacity', groupName, desired)
    const group = this.group(groupName)
    if (desired < group.minSize || desired > group.maxSize)
      throw awsError(
        'ValidationError',
        400,
        `New SetDesiredCapacity value ${desired} is outside the group's bounds`,
      )
    if (this.launchesFail.has(groupName) && desired > group.desiredCapacity)
      this.launchFailed(group, group.desiredCapacity, desired)
    for (let n = group.desiredCapacity; n < desired && !this.launchesFail.has(groupName); n++) {
      const launched = this.addInstance({
        type: group.launchType,
        lifecycle: 'on-demand',
        state: 'pending',
        launchTime: this.now(),
      })
      group.members.set(launched.id, 'Pending')
      this.register(group, launched.id, { state: 'initial', reason: 'Elb.RegistrationInProgress' })
    }
    group.desiredCapacity = desired
    this.scaleIn(group)
  }

  async ecsCapacityProviders(): Promise<readonly EcsCapacityProvider[]> {
    this.record('ecsCapacityProviders')
    return [...this.capacityProviders]
  }

  async ecsClusters(): Promise<readonly EcsCluster[]> {
    this.record('ecsClusters')
    return [...this.clusters]
  }

  async ecsContainerInstances(cluster: string): Promise<readonly EcsContainerInstance[]> {
    this.record('ecsContainerInstances', cluster)
    return [...(this.containerInstances.get(cluster) ?? [])]
  }

  /**
   * As ECS: the tasks ECS keeps running in the cluster (ListTasks, RUNNING by default), each with the
   * container instance that hosts it (DescribeTasks); a cluster ECS does not hold is refused
   * (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ListTasks.html).
   */
  async ecsClusterTasks(cluster: string): Promise<readonly EcsTask[]> {
    this.record('ecsClusterTasks', cluster)
    const listed = this.containerInstances.get(cluster)
    if (listed === undefined && !this.clusters.some((c) => c.arn === cluster))
      throw awsError('ClusterNotFoundException', 400, 'Cluster not found.')
    return (listed ?? []).flatMap((ci) =>
      (this.containerTasks.get(ci.arn) ?? []).map((task) => ({ ...task, containerInstanceArn: ci.arn })),
    )
  }

  /**
   * As ECS: only ACTIVE and DRAINING container instances change state (one still REGISTERING, or
   * DEREGISTERING, INACTIVE, REGISTRATION_FAILED, is refused), an unknown one is MISSING, and each refusal
   * comes back in the answer's failures
   * (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_UpdateContainerInstancesState.html).
   */
  async setContainerInstancesState(
    cluster: string,
    containerInstanceArns: readonly string[],
    status: 'ACTIVE' | 'DRAINING',
  ): Promise<readonly EcsStateFailure[]> {
    this.record('setContainerInstancesState', cluster, containerInstanceArns, status)
    const listed = this.containerInstances.get(cluster) ?? []
    const failures: EcsStateFailure[] = []
    for (const arn of containerInstanceArns) {
      const at = listed.findIndex((ci) => ci.arn === arn)
      const found = listed[at]
      if (found === undefined) failures.push({ arn, reason: 'MISSING' })
      else if (found.status !== 'ACTIVE' && found.status !== 'DRAINING')
        failures.push({ arn, reason: `container instance is ${found.status}` })
      else listed[at] = { ...found, status }
    }
    return failures
  }

  /**
   * A test registers `instanceId` in `cluster` with `runningTasksCount` tasks; ECS protects it from
   * scale-in while it runs any (managed termination protection).
   */
  registerContainerInstance(
    cluster: string,
    instanceId: string,
    runningTasksCount: number,
    status = 'ACTIVE',
  ) {
    const listed = this.containerInstances.get(cluster) ?? []
    const arn = `${cluster.replace(':cluster/', ':container-instance/')}/${instanceId}`
    listed.push({ arn, ec2InstanceId: instanceId, status, runningTasksCount })
    this.containerInstances.set(cluster, listed)
    // A service's tasks: ECS moves them off the instance when it drains.
    this.containerTasks.set(
      arn,
      Array.from({ length: runningTasksCount }, (_, n) => ({
        arn: `${cluster.replace(':cluster/', ':task/')}/${instanceId}-${n}`,
        group: 'service:web',
      })),
    )
    if (runningTasksCount > 0) this.scaleInProtected.add(instanceId)
  }

  /**
   * RunTask placed a standalone task on `instanceId`'s container instance: in no service, so its group is
   * `family:<family>` (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/task-groups.html), and ECS
   * protects the member while it runs.
   */
  runStandaloneTask(instanceId: string, family = 'nightly-report'): void {
    this.updateTasksOf(instanceId, (tasks, arn) => [
      ...tasks,
      { arn: `${arn.replace(':container-instance/', ':task/')}-${family}`, group: `family:${family}` },
    ])
  }

  /** Sets the container instance's tasks to `change`'s and its running count to match. */
  updateTasksOf(instanceId: string, change: (tasks: EcsTask[], arn: string) => EcsTask[]): void {
    for (const [cluster, listed] of this.containerInstances)
      this.containerInstances.set(
        cluster,
        listed.map((ci) => {
          if (ci.ec2InstanceId !== instanceId) return ci
          const tasks = change(this.containerTasks.get(ci.arn) ?? [], ci.arn)
          this.containerTasks.set(ci.arn, tasks)
          return { ...ci, runningTasksCount: tasks.length }
        }),
      )
    const left = this.containerInstanceOf(instanceId)?.runningTasksCount ?? 0
    if (left > 0) this.scaleInProtected.add(instanceId)
    else this.unprotect(instanceId)
  }

  /**
   * Removes the member's scale-in protection (SetInstanceProtection, or ECS once its tasks stop); a group
   * standing above its desired capacity because every candidate was protected scales in now.
   */
  unprotect(instanceId: string): void {
    this.scaleInProtected.delete(instanceId)
    const group = [...this.groups.values()].find((g) => g.members.has(instanceId))
    if (group !== undefined) this.scaleIn(group)
  }

  /** The container instance ECS runs on `instanceId`, if any. */
  containerInstanceOf(instanceId: string): EcsContainerInstance | undefined {
    for (const listed of this.containerInstances.values()) {
      const found = listed.find((ci) => ci.ec2InstanceId === instanceId)
      if (found !== undefined) return found
    }
    return undefined
  }

  /**
   * ECS moved the service tasks off a DRAINING container instance; a standalone task stays (ECS never
   * moves one). ECS removes the member's scale-in protection once no task runs there.
   */
  finishDrain(instanceId: string): void {
    this.updateTasksOf(instanceId, (tasks) => tasks.filter((t) => !t.group.startsWith('service:')))
  }

  async trafficHealth(sources: TrafficSources, ids: readonly string[]): Promise<TrafficHealth> {
    this.record('trafficHealth', sources, ids)
    const keys = this.sourceKeys(sources)
    const settings = new Map(
      keys.map((key) => [key, this.healthSettings.get(key) ?? { intervalSeconds: 30, healthyThreshold: 5 }]),
    )
    const states = new Map<string, Map<string, TargetState>>()
    for (const id of ids) {
      const known = this.targetStates.get(id)
      const reported = new Map<string, TargetState>()
      for (const key of keys) {
        const state = known?.get(key)
        if (state !== undefined) reported.set(key, state)
      }
      states.set(id, reported)
    }
    return { settings, states }
  }

  /**
   * CreateFleet's client tokens: the request each was first used with, and EC2's answer. Used again with
   * the same request, EC2 answers the same; with another, IdempotentParameterMismatch
   * (https://docs.aws.amazon.com/ec2/latest/devguide/ec2-api-idempotency.html).
   */
  readonly fleetTokens = new Map<string, { readonly request: string; readonly result: SpotLaunchResult }>()
  /** Like moto's CreateFleet, write no `aws:ec2launchtemplate:id` on what it launches. */
  omitLaunchTemplateTag = false

  async launchSpot(request: SpotLaunchRequest): Promise<SpotLaunchResult> {
    this.record('launchSpot', request)
    const parameters = JSON.stringify({ ...request, clientToken: undefined })
    const earlier = this.fleetTokens.get(request.clientToken)
    if (earlier !== undefined && earlier.request !== parameters)
      throw awsError('IdempotentParameterMismatch', 400, `Client token ${request.clientToken} reused`)
    if (earlier !== undefined) return earlier.result
    const result = this.launchFleet(request)
    this.fleetTokens.set(request.clientToken, { request: parameters, result })
    return result
  }

  private launchFleet(request: SpotLaunchRequest): SpotLaunchResult {
    const first = request.overrides[0]
    if (first === undefined)
      return {
        ok: false,
        errors: [{ instanceType: undefined, code: 'InvalidParameter', message: 'no overrides' }],
      }
    // EC2 tags what it launches from a template with the template's id; a launch-configuration group's
    // launch comes from a temporary template, whose id the answer names.
    const temporary =
      request.launchTemplate === undefined
        ? `lt-0${(this.nextTemplate++).toString(16).padStart(16, '0')}`
        : undefined
    const template = request.launchTemplate?.id ?? temporary
    const instance = this.addInstance({
      type: first.instanceType,
      zone: first.zone,
      subnetId: first.subnetId,
      lifecycle: 'spot',
      launchTime: this.now(),
      tags: {
        ...request.tags,
        ...(template === undefined || this.omitLaunchTemplateTag
          ? {}
          : { [TAG_LAUNCH_TEMPLATE_ID]: template }),
      },
    })
    return {
      ok: true,
      instanceId: instance.id,
      instanceType: instance.type,
      zone: instance.zone,
      ...(temporary === undefined ? {} : { launchTemplateId: temporary }),
    }
  }

  async attachInstances(groupName: string, ids: readonly string[]): Promise<void> {
    this.record('attachInstances', groupName, ids)
    const group = this.group(groupName)
    if (group.desiredCapacity + ids.length > group.maxSize)
      throw awsError('ValidationError', 400, 'exceeds MaxSize')
    for (const id of ids) {
      group.members.set(this.liveInstance(id).id, 'InService')
      this.register(group, id, { state: 'initial', reason: 'Elb.InitialHealthChecking' })
    }
    group.desiredCapacity += ids.length
  }

  async detachInstances(groupName: string, ids: readonly string[], decrementDesired: boolean): Promise<void> {
    this.record('detachInstances', groupName, ids, decrementDesired)
    const group = this.group(groupName)
    for (const id of ids) this.leaveGroup(group, id, decrementDesired)
  }

  async terminateInGroup(instanceId: string, decrementDesired: boolean): Promise<void> {
    this.record('terminateInGroup', instanceId, decrementDesired)
    const group = [...this.groups.values()].find((g) => g.members.has(instanceId))
    if (group === undefined)
      throw awsError(
        'ValidationError',
        400,
        `Instance Id not found - No managed instance found for instance ID: ${instanceId}`,
      )
    if (group.hooks.some((h) => h.transition === 'autoscaling:EC2_INSTANCE_TERMINATING')) {
      // The hook holds the instance until the user's drain completes; capacity is replaced meanwhile.
      group.members.set(instanceId, 'Terminating:Wait')
      this.deregister(instanceId)
      if (decrementDesired) group.desiredCapacity -= 1
      else this.backfill(group, this.liveInstance(instanceId).zone)
      return
    }
    const drainSeconds = this.drainSeconds(instanceId)
    if (drainSeconds > 0) {
      // Out of the group's capacity at once (a replacement launches without a decrement), running until drained.
      this.leaveGroup(group, instanceId, decrementDesired)
      group.members.set(instanceId, 'Terminating')
      this.drainingUntil.set(instanceId, {
        group: group.name,
        untilMs: this.now().getTime() + drainSeconds * 1000,
      })
      return
    }
    this.leaveGroup(group, instanceId, decrementDesired)
    this.liveInstance(instanceId).state = 'terminated'
  }

  async terminateInstances(ids: readonly string[]): Promise<void> {
    this.record('terminateInstances', ids)
    for (const id of ids) {
      const instance = this.instances.get(id)
      if (instance === undefined)
        throw awsError('InvalidInstanceID.NotFound', 400, `The instance ID '${id}' does not exist`)
      instance.state = 'terminated'
      // A member draining out of its group leaves with its instance.
      const draining = this.drainingUntil.get(id)
      if (draining !== undefined) {
        this.drainingUntil.delete(id)
        this.groups.get(draining.group)?.members.delete(id)
      }
    }
  }

  /**
   * MaxSize alone: refused below MinSize; below desired capacity it lowers desired to it and the group
   * scales in (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_UpdateAutoScalingGroup.html).
   */
  async setMaxSize(groupName: string, maxSize: number): Promise<void> {
    this.record('setMaxSize', groupName, maxSize)
    const group = this.group(groupName)
    if (maxSize < group.minSize)
      throw awsError(
        'ValidationError',
        400,
        `Max bound, ${maxSize}, must be greater than or equal to min bound, ${group.minSize}`,
      )
    group.maxSize = maxSize
    if (group.desiredCapacity <= maxSize) return
    group.desiredCapacity = maxSize
    this.scaleIn(group)
  }

  /**
   * Auto Scaling's scale-in: while the group's launching and in-service members outnumber its desired
   * capacity, it terminates one it may take (scaleInCandidates), through the termination hook when the
   * group has one. When every remaining candidate is protected from scale-in, desired capacity stays
   * lowered and the group stays above it until a protection is removed
   * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-instance-protection.html).
   * The fake takes the newest candidates first: tests assert on counts and on protection, not on which.
   */
  private scaleIn(group: FakeGroup): void {
    const excess = scaleInExcess(group)
    if (excess <= 0) return
    for (const id of scaleInCandidates(group, this.scaleInProtected).reverse().slice(0, excess)) {
      this.deregister(id)
      if (group.hooks.some((h) => h.transition === 'autoscaling:EC2_INSTANCE_TERMINATING')) {
        group.members.set(id, 'Terminating:Wait')
        continue
      }
      group.members.delete(id)
      this.liveInstance(id).state = 'terminated'
    }
  }

  async tagGroup(groupName: string, tags: Readonly<Record<string, string>>): Promise<void> {
    this.record('tagGroup', groupName, tags)
    const group = this.group(groupName)
    group.tags = { ...group.tags, ...tags }
    this.sign(`group:${groupName}`, GROUP_MARKERS, tags)
  }

  async untagGroup(groupName: string, keys: readonly string[]): Promise<void> {
    this.record('untagGroup', groupName, keys)
    const group = this.group(groupName)
    group.tags = Object.fromEntries(Object.entries(group.tags).filter(([key]) => !keys.includes(key)))
  }

  async tagInstances(ids: readonly string[], tags: Readonly<Record<string, string>>): Promise<void> {
    this.record('tagInstances', ids, tags)
    for (const id of ids) {
      const instance = this.liveInstance(id)
      instance.tags = { ...instance.tags, ...tags }
      this.sign(`instance:${id}`, INSTANCE_MARKERS, tags)
    }
  }

  /**
   * KMS's verdict: `valid` for a value signed for this resource and key, `bad-mac` for one signed for
   * another (a MAC copied), `unsigned` for one never signed.
   */
  async verifyMarkers(markers: readonly MarkerRead[]): Promise<MarkerVerdict[]> {
    const signedValues = new Set(
      [...this.signedMarkers].map((signed) => signed.split('\n').slice(1).join('\n')),
    )
    return markers.map(({ resource, key, value }): MarkerVerdict => {
      if (this.signedMarkers.has(`${resourceName(resource)}\n${key}\n${value}`))
        return this.kmsUnavailable ? 'unverifiable' : 'valid'
      return signedValues.has(`${key}\n${value}`) ? 'bad-mac' : 'unsigned'
    })
  }

  /** Sets tags on an instance as spotswap wrote them in an earlier run: its markers signed. */
  seedInstanceTags(id: string, tags: Readonly<Record<string, string>>): void {
    const instance = this.instances.get(id)
    if (instance === undefined) throw new Error(`fake: no instance ${id}`)
    instance.tags = { ...instance.tags, ...tags }
    this.sign(`instance:${id}`, INSTANCE_MARKERS, tags)
  }

  /** Sets tags on a group as spotswap wrote them in an earlier run: its markers signed. */
  seedGroupTags(name: string, tags: Readonly<Record<string, string>>): void {
    const group = this.group(name)
    group.tags = { ...group.tags, ...tags }
    this.sign(`group:${name}`, GROUP_MARKERS, tags)
  }

  /** Records the markers among these tags as signed for the resource. */
  private sign(
    resource: string,
    markerKeys: readonly string[],
    tags: Readonly<Record<string, string>>,
  ): void {
    for (const [key, value] of Object.entries(tags))
      if (markerKeys.includes(key)) this.signedMarkers.add(`${resource}\n${key}\n${value}`)
  }

  async untagInstances(ids: readonly string[], keys: readonly string[]): Promise<void> {
    this.record('untagInstances', ids, keys)
    for (const id of ids) {
      const instance = this.liveInstance(id)
      instance.tags = Object.fromEntries(Object.entries(instance.tags).filter(([key]) => !keys.includes(key)))
    }
  }

  private record(method: string, ...args: unknown[]): void {
    this.calls.push({ method, args })
    const queued = this.failures.get(method)
    const error = queued?.shift()
    if (error !== undefined) throw error
  }

  private newId(): string {
    this.nextId += 1
    return `i-${this.nextId.toString(16).padStart(17, '0')}`
  }

  private liveInstance(id: string): FakeInstance {
    const instance = this.instances.get(id)
    if (instance === undefined || instance.state === 'terminated') {
      throw awsError('InvalidInstanceID.NotFound', 400, `The instance ID '${id}' does not exist`)
    }
    return instance
  }

  private leaveGroup(group: FakeGroup, id: string, decrementDesired: boolean): void {
    const state = group.members.get(id)
    if (state !== 'InService' && state !== 'Standby') {
      throw awsError(
        'ValidationError',
        400,
        `The instance ${id} is not part of Auto Scaling group ${group.name} or is not InService`,
      )
    }
    group.members.delete(id)
    this.deregister(id)
    if (decrementDesired) group.desiredCapacity -= 1
    else this.backfill(group, this.liveInstance(id).zone)
  }

  /** What Auto Scaling does when an instance leaves without a decrement: launch on-demand at once. */
  private backfill(group: FakeGroup, zone: string): void {
    if (this.launchesFail.has(group.name)) {
      const size = scaleInExcess(group) + group.desiredCapacity
      this.launchFailed(group, size, size + 1, zone)
      return
    }
    const instance = this.addInstance({
      type: group.launchType,
      zone,
      lifecycle: 'on-demand',
      state: 'pending',
    })
    group.members.set(instance.id, 'Pending')
  }

  /**
   * The scaling activity of a launch Auto Scaling could not make: `Failed`, with EC2's reason as its
   * StatusMessage (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_Activity.html).
   */
  private launchFailed(group: FakeGroup, from: number, to: number, zone = `${this.region}a`): void {
    const now = this.now()
    const reason = `We currently do not have sufficient ${group.launchType} capacity in the Availability Zone you requested (${zone}). Our system will be working on provisioning additional capacity. Launching EC2 instance failed.`
    group.activities.push({
      startTime: now,
      cause: `At ${now.toISOString().replace(/\.\d{3}Z$/, 'Z')} an instance was started in response to a difference between desired and actual capacity, increasing the capacity from ${from} to ${to}.`,
      description: `Launching a new EC2 instance.  Status Reason: ${reason}`,
      statusCode: 'Failed',
      statusMessage: reason,
    })
  }

  private snapshot(group: FakeGroup): Group {
    const {
      members,
      hooks: _hooks,
      refreshes: _refreshes,
      launchType: _launchType,
      activities: _activities,
      ...fields
    } = group
    const asMembers: GroupMember[] = [...members].map(([instanceId, lifecycleState]) => {
      const instance = this.instances.get(instanceId)
      return {
        instanceId,
        lifecycleState,
        healthStatus: 'Healthy',
        protectedFromScaleIn: this.scaleInProtected.has(instanceId),
        zone: instance?.zone ?? `${this.region}a`,
        instanceType: instance?.type,
      }
    })
    return { ...fields, tags: { ...fields.tags }, members: asMembers }
  }
}

/**
 * Members counted in the group's capacity: launching (Pending, Pending:Wait, Pending:Proceed) and
 * InService. One in Standby is not (entering Standby decrements desired capacity or launches a
 * replacement), nor one terminating or detaching
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/as-enter-exit-standby.html).
 */
const inCapacity = (state: string): boolean => state === 'InService' || state.startsWith('Pending')

/** How many members scale-in has to take for the group to stand at its desired capacity. */
const scaleInExcess = (group: FakeGroup): number =>
  [...group.members.values()].filter(inCapacity).length - group.desiredCapacity

/**
 * The members scale-in may take, oldest first: launching ones (scale-in protection starts only once a
 * member is InService) and those InService not protected from scale-in
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-instance-protection.html).
 */
const scaleInCandidates = (group: FakeGroup, protectedIds: ReadonlySet<string>): string[] =>
  [...group.members]
    .filter(([id, state]) => inCapacity(state) && (state !== 'InService' || !protectedIds.has(id)))
    .map(([id]) => id)

const matchesQuery = (group: FakeGroup, query: GroupQuery): boolean => {
  if (query.names !== undefined && !query.names.includes(group.name)) return false
  if (query.tagKey === undefined) return true
  const value = group.tags[query.tagKey]
  return value !== undefined && (query.tagValues.length === 0 || query.tagValues.includes(value))
}
