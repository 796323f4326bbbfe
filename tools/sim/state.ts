/**
 * The simulated account's mutable state: instances and Auto Scaling groups per region. Behaviour lives
 * in ec2.ts and asg.ts; the simulated SDK clients (sdk/) answer from it in the SDK's shapes.
 */

import type { CapacityProviderShape } from '../../lambdas/aws/cloud.ts'
import type { LifecycleHook, SpotLaunchResult } from '../../lambdas/core/port.ts'
import type { InstanceState, LaunchTemplateRef, Lifecycle, TrafficSources } from '../../lambdas/core/types.ts'
import type { ApiGate } from './api-gate.ts'
import type { CapacityModel } from './capacity.ts'
import type { SimCluster } from './ecs-cluster-state.ts'
import type { SimLoadBalancer } from './load-balancer-state.ts'
import type { SpotMarket } from './market.ts'
import type { ScenarioCommitments, SimImage } from './scenario/types.ts'

/** Who started an instance: present at the start, Auto Scaling, or spotswap through CreateFleet. */
/** `owner`: launched by someone else than Auto Scaling and spotswap (chaos forges launches so). */
export type InstanceOrigin = 'initial' | 'asg' | 'spotswap' | 'owner'

export interface SimInstance {
  readonly id: string
  readonly region: string
  readonly type: string
  readonly zone: string
  readonly subnetId: string
  readonly lifecycle: Lifecycle
  state: InstanceState
  readonly launchMs: number
  tags: Record<string, string>
  readonly platform: string
  /** DisableApiTermination. */
  terminationProtected: boolean
  /** The group the instance was started by or for; its cost is charged there. */
  readonly costGroup: string | undefined
  readonly origin: InstanceOrigin
  /** When billing stopped (the move to shutting-down). */
  billedUntilMs: number | undefined
  /** When EC2 will interrupt it, once the two-minute warning was given. */
  interruptAtMs: number | undefined
  /** Its image is broken: it fails every load balancer health check (unhealthyReplacementFraction). */
  readonly neverHealthy: boolean
  /** An EC2 scheduled event on it (tools/sim/maintenance.ts), once EC2 scheduled one. */
  scheduledEvent?: { readonly code: string; readonly notBeforeMs: number; readonly completed?: boolean }
  /** The owner's now: launched by someone else, or a member the owner detached. spotswap must not touch it. */
  ownerKeeps?: boolean
}

export interface SimMember {
  lifecycleState: string
  protectedFromScaleIn: boolean
  /** When AttachInstances made it a member; undefined for members Auto Scaling launched or the scenario began with. */
  readonly attachedMs?: number
}

export interface GroupSizes {
  readonly minSize: number
  readonly maxSize: number
  readonly desiredCapacity: number
}

export interface SimGroup {
  readonly name: string
  readonly region: string
  minSize: number
  maxSize: number
  desiredCapacity: number
  readonly healthCheckGracePeriodSeconds: number
  tags: Record<string, string>
  /** Tag keys copied onto the instances the group launches (the owner's tags; not spotswap's bookkeeping). */
  readonly propagatedKeys: Set<string>
  readonly launchTemplate: LaunchTemplateRef | undefined
  readonly launchConfigurationName: string | undefined
  /** The type the group launches (its template's or configuration's). */
  readonly instanceType: string
  readonly zones: readonly string[]
  readonly hooks: readonly LifecycleHook[]
  /** Its instance refreshes, newest first, as DescribeInstanceRefreshes lists them (group-features.ts runs them). */
  readonly refreshes: SimRefresh[]
  /** DescribeInstanceRefreshes fails for it (scenario `instanceRefreshesUnreadable`). */
  readonly refreshesUnreadable: boolean
  /** Suspended Auto Scaling processes (Launch, Terminate, AddToLoadBalancer are modelled). */
  readonly suspendedProcesses: ReadonlySet<string>
  /** CapacityRebalance: it replaces a spot member on a rebalance recommendation (group-features.ts). */
  readonly capacityRebalance: boolean
  /** Its warm pool: stopped instances beside it, not members, drawn on first when it scales out. */
  readonly warmPool: SimWarmPool | undefined
  /**
   * Members Auto Scaling is replacing itself (Capacity Rebalancing, instance refresh), old id → new id:
   * while both are in the group it stands one above desired capacity on purpose, and does not scale in.
   */
  readonly replacing: Map<string, SimReplacement>
  /** Instance id → membership, in attachment order. */
  readonly members: Map<string, SimMember>
  /** The sizes the group's owner set; spotswap must leave them exactly so. */
  owner: GroupSizes
  /** When its owner asked for it back on-demand (`spotswap revert`, Invocations.requestRevert). */
  revertRequestedMs?: number
  /**
   * Auto Scaling's own launches for it fail (no on-demand capacity for its type, a template that no longer
   * launches): desired capacity stays where it was set and nothing comes, as a failed scaling activity
   * leaves it (asg.ts reconcile). Set by a test, never by a scenario.
   */
  ownLaunchesFail?: boolean
  /**
   * Its scaling activities, oldest first: the simulator writes those of the owner's changes of desired
   * capacity and of the launches Auto Scaling could not make, in Auto Scaling's words.
   */
  readonly activities: SimActivity[]
  /** Its target groups and classic load balancers (load-balancers.ts), in the scenario's order. */
  readonly loadBalancers: readonly SimLoadBalancer[]
  /** The same, as DescribeAutoScalingGroups reports them. */
  readonly trafficSources: TrafficSources
  /** The share of the instances spotswap launches for it that never turn healthy. */
  readonly unhealthyReplacementFraction: number
  /** What its AMI carries: a launch of a type needing more is refused or never boots (fleet.ts). */
  readonly image: SimImage
}

export interface SimReplacement {
  readonly newId: string
  /** Runs once the replacement joined, or was given up because the old member left first. */
  readonly done: (() => void) | undefined
}

export interface SimWarmPool {
  readonly minSize: number
  /** Instance ids in the pool (Warmed:Stopped), oldest first. */
  readonly instanceIds: Set<string>
}

export interface SimRefresh {
  readonly id: string
  status: string
}

export interface SimActivity {
  readonly startMs: number
  readonly cause: string
  /** A launch Auto Scaling could not make (asg.ts recordFailedLaunch): its Description and StatusMessage. */
  readonly failed?: { readonly description: string; readonly statusMessage: string }
}

export const subnetOf = (zone: string): string => `subnet-${zone}`

export const zoneOfSubnet = (subnetId: string): string | undefined =>
  subnetId.startsWith('subnet-') ? subnetId.slice('subnet-'.length) : undefined

export class SimRegion {
  readonly instances = new Map<string, SimInstance>()
  readonly groups = new Map<string, SimGroup>()
  /** CreateFleet answers by ClientToken: EC2 returns the first answer again for a repeated token. */
  readonly fleetsByToken = new Map<string, SpotLaunchResult>()
  /** Launch configurations that exist (groups launching from one). */
  readonly launchConfigurations = new Set<string>()
  /** Every group's load balancers, by traffic source key (`target-group:<arn>`, `classic:<name>`). */
  readonly loadBalancers = new Map<string, SimLoadBalancer>()
  /** Launch templates the adapter created for launch-configuration groups and has not deleted yet, by name. */
  readonly temporaryTemplates = new Map<string, { readonly id: string; readonly group: string | undefined }>()
  /** ECS capacity providers standing on the region's groups (sim/ecs.ts), as DescribeCapacityProviders lists them. */
  readonly capacityProviders: CapacityProviderShape[] = []
  /** The cluster standing on each group behind a capacity provider, by group name (sim/ecs-cluster.ts). */
  readonly ecsClusters = new Map<string, SimCluster>()
  /** The scenario's commitments in the region (sdk/commitments.ts answers them, commitment-bill.ts bills them). */
  commitments: ScenarioCommitments | undefined = undefined
  private readonly changed = new Set<SimGroup>()
  /** Instance id → the group it is a member of; kept by addMember/removeMember so lookups stay O(1). */
  private readonly membership = new Map<string, SimGroup>()

  constructor(
    readonly name: string,
    readonly zones: readonly string[],
    readonly market: SpotMarket,
    readonly capacity: CapacityModel,
    readonly gate: ApiGate,
  ) {}

  /** The group an instance is a member of (any lifecycle state), if any. */
  groupOf(instanceId: string): SimGroup | undefined {
    return this.membership.get(instanceId)
  }

  addMember(group: SimGroup, instanceId: string, member: SimMember): void {
    group.members.set(instanceId, member)
    this.membership.set(instanceId, group)
    this.touch(group)
  }

  removeMember(group: SimGroup, instanceId: string): void {
    group.members.delete(instanceId)
    if (this.membership.get(instanceId) === group) this.membership.delete(instanceId)
    this.touch(group)
  }

  setMemberState(group: SimGroup, instanceId: string, lifecycleState: string): void {
    const member = group.members.get(instanceId)
    if (member === undefined || member.lifecycleState === lifecycleState) return
    member.lifecycleState = lifecycleState
    this.touch(group)
  }

  /** Records that the group's sizes, members, or tags changed, for whoever observes groups as they change. */
  touch(group: SimGroup): void {
    this.changed.add(group)
  }

  /** The groups touched since the last call, in the order they were first touched. */
  takeChanged(): SimGroup[] {
    const groups = [...this.changed]
    this.changed.clear()
    return groups
  }

  /** Instances EC2 still reports: every state except terminated. */
  live(id: string): SimInstance | undefined {
    const instance = this.instances.get(id)
    return instance === undefined || instance.state === 'terminated' ? undefined : instance
  }
}

export const isRunningOrPending = (instance: SimInstance): boolean =>
  instance.state === 'pending' || instance.state === 'running'

/** Members that count toward desired capacity: launching or in service, not leaving. */
export const isActiveMember = (member: SimMember): boolean =>
  member.lifecycleState === 'InService' || member.lifecycleState.startsWith('Pending')
