/** What planGroup sees: one group and everything observed around it. */
import type { MemberCoverage } from '../commitments/coverage.ts'
import type { GroupConfig } from '../config/config.ts'
import type { EcsManagement } from '../ecs/capacity-provider.ts'
import type { RefreshObservation } from '../group/instance-refresh.ts'
import type { OwnerChanges } from '../group/scaling-activities.ts'
import type { HealthObservation } from '../group/serving.ts'
import type { InterruptionStatuses } from '../interruption/confirmation.ts'
import type { ScheduledEvent } from '../maintenance/events.ts'
import type { LifecycleHook } from '../port.ts'
import type { Catalog, Group, Instance, SpotPriceBook } from '../types.ts'
import type { GroupSkip } from './reasons.ts'
import type { Selection } from './selection.ts'
import { compareCodePoints } from './selection.ts'

export interface PlanInput {
  readonly group: Group
  /** Details of the group's members and of the spot instances launched for it, by id. */
  readonly instances: ReadonlyMap<string, Instance>
  /** Pending or running instances tagged `launched-for-asg=<group>` that are not members of it. */
  readonly launched: readonly Instance[]
  readonly catalog: Catalog
  readonly spotPrices: SpotPriceBook
  readonly onDemandPrices: ReadonlyMap<string, number>
  readonly config: GroupConfig
  readonly scheduleMinutes: number
  /** Instances known to have API termination protection. */
  readonly terminationProtected: ReadonlySet<string>
  /** Status of the CloudFormation stack that owns the group, when it has one. */
  readonly stackStatus: string | undefined
  /** Why the status of the group's stack could not be read; the group waits as if the stack were updating. */
  readonly stackStatusUnreadable?: string | undefined
  readonly now: Date
  /**
   * Shared across the groups of one run that see the same spot prices (one product description):
   * a selection depends only on type, zone and the selection settings, not on the group.
   */
  readonly selectionCache?: Map<string, Selection>
  /**
   * The largest share of a group's spot instances one type/zone pool may hold while others exist.
   * @default MAX_POOL_SHARE (about a third). 1 turns diversification off (how AutoSpotting behaves).
   */
  readonly maxPoolShare?: number
  /**
   * The owner's changes of desired capacity since the group's open swap started, from its scaling
   * activities; undefined when not read (the replacer reads them only for a plan that would retire).
   */
  readonly ownerChanges?: OwnerChanges | undefined
  /**
   * Load-balancer health of the group's attached replacements; undefined when not read (the replacer
   * reads it only for a plan whose swap waits for them: GroupPlan.awaitingHealth).
   */
  readonly health?: HealthObservation | undefined
  /**
   * The group's lifecycle hooks; undefined when not read (the replacer reads them only for a plan that
   * would launch or swap).
   */
  readonly lifecycleHooks?: readonly LifecycleHook[] | undefined
  /** Why a marker of the group or its instances could not be verified (core/markers.ts); the group waits. */
  readonly markersUnverifiable?: string | undefined
  /** Why the group's lifecycle hooks could not be read; the group starts nothing new. */
  readonly lifecycleHooksUnreadable?: string | undefined
  /**
   * Why a region-level read the group needs failed (core/region/region-reads.ts): it starts nothing new,
   * and what needs no such data goes on. Judged after a revert, which needs neither prices nor subnets.
   */
  readonly regionReadSkip?: GroupSkip | undefined
  /**
   * The group's instance refreshes; undefined when not read (the replacer reads them only for a plan that
   * would launch or swap, like the hooks).
   */
  readonly instanceRefresh?: RefreshObservation | undefined
  /**
   * Subnet → zone for subnets of the group no observed instance is in (DescribeSubnets); the others' zones
   * are read off the instances. Only consulted when a replaced instance's subnet left the group.
   */
  readonly subnetZones?: ReadonlyMap<string, string> | undefined
  /**
   * EC2's Spot request status of the members tagged `spotswap:interruption-warned`; undefined when none was
   * read. Only members whose status is an interruption are doomed (core/interruption/confirmation.ts).
   */
  readonly interruptions?: InterruptionStatuses | undefined
  /** Members' pending EC2 scheduled events by instance id; undefined when not read (core/maintenance/). */
  readonly scheduledEvents?: ReadonlyMap<string, ScheduledEvent> | undefined
  /**
   * What the group is to ECS (core/ecs/capacity-provider.ts); undefined for a group without the
   * AmazonECSManaged tag.
   */
  readonly ecs?: EcsManagement | undefined
  /**
   * On-demand members a commitment pays for (core/commitments/coverage.ts), by instance id; none when the
   * region's commitments are not read (COMMITMENTS=ignore) or cover none of them.
   */
  readonly commitments?: ReadonlyMap<string, MemberCoverage> | undefined
  /** Work units the plan may spend choosing instance types. @default PLAN_WORK_UNITS_PER_GROUP */
  readonly workUnits?: number
}

/** Oldest first, ties by id: the order in which on-demand instances are replaced. */
export const byLaunchTimeThenId = (a: Instance, b: Instance): number =>
  a.launchTime.getTime() - b.launchTime.getTime() || compareCodePoints(a.id, b.id)
