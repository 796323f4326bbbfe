/**
 * What a plan asks the executor to do. Every action carries the reason it was chosen, which is
 * logged as it runs and shown by `spotswap plan`.
 */
import type { AllocationStrategy } from '../config/config.ts'
import type { LaunchFailure } from '../group/launch-activities.ts'
import type { UntrustedInstance } from '../group/provenance.ts'
import type { MaintenanceAction } from '../maintenance/action.ts'
import type { ScheduledMember } from '../maintenance/plan.ts'
import type { FleetOverride } from '../port.ts'
import type { RevertAction } from '../revert/action.ts'
import type { LaunchTemplateRef } from '../types.ts'
import type { GroupFigures, GroupSkip, InstanceSkip, OnDemandStatus } from './reasons.ts'

export interface LaunchSpotAction {
  readonly kind: 'launch-spot'
  readonly group: string
  readonly replacing: string
  readonly replacingType: string
  readonly zone: string
  readonly launchTemplate: LaunchTemplateRef | undefined
  readonly launchConfigurationName: string | undefined
  readonly overrides: readonly FleetOverride[]
  readonly allocationStrategy: AllocationStrategy
  readonly tags: Readonly<Record<string, string>>
  readonly clientToken: string
  /** Recorded on the replaced instance before the launch, and with its outcome after (TAG_REPLACEMENT_ATTEMPT). */
  readonly attempt: number
  /** When this attempt was first made (kept while it is made again), ISO 8601. */
  readonly attemptSince: string
  /** When no candidate pool has capacity, the replaced instance is left alone until then (ISO 8601). */
  readonly capacityBackoffUntil: string
  /**
   * The replaced member is doomed (TAG_INTERRUPTION_WARNED): when the launch fails, it leaves the group at
   * once (DetachInstances without a decrement) so the group backfills before EC2 takes it.
   */
  readonly releaseIfNotLaunched: boolean
  /**
   * A doomed member's replacement launched while no swap is open: the swap is recorded on the group
   * (TAG_SWAP, phase `attaching`, one pair) before the launch, and the launch named with its id
   * (TAG_SWAP_ID) once EC2 returns it, so the interruption handler's deadline reminder can prove the pair
   * even when every replacer run until the deadline dies or skips the group (core/swap/launched-ahead.ts).
   */
  readonly swapAhead?: { readonly swapId: string; readonly swapRecord: string }
  /** Expected hourly saving if the first override is chosen: on-demand price − spot price. */
  readonly expectedHourlySavingsUsd: number
  /**
   * Its room in the in-flight budget is the room this run's attach or terminations free: made only once
   * they succeeded (core/plan/launch-room.ts).
   */
  readonly roomFreedBy?: RoomFreedBy
  readonly reason: string
}

/** The writes of a run whose success frees a launch's room in the in-flight budget (core/plan/launch-room.ts). */
export interface RoomFreedBy {
  /** The swap whose attach takes its replacements out of flight. */
  readonly swapId: string | undefined
  /** The launches this run terminates. */
  readonly terminated: readonly string[]
}

export interface SwapPair {
  readonly spotInstanceId: string
  readonly onDemandInstanceId: string
}

/**
 * Attach ready spot instances; their partners are retired by later runs, each once its replacement serves
 * (CompleteSwapAction). When the group is at MaxSize the executor raises it to `raiseMaxSizeTo` for the
 * duration (recording the original on the group); the run that closes the swap restores it.
 */
export interface SwapAction {
  readonly kind: 'swap'
  readonly group: string
  readonly pairs: readonly SwapPair[]
  readonly originalMaxSize: number
  readonly raiseMaxSizeTo: number | undefined
  /** Written on each replacement before the attach (TAG_SWAP_ID), naming the pair's swap. */
  readonly swapId: string
  /** Recorded on the group before anything else (TAG_SWAP, phase `attaching`). */
  readonly swapRecord: string
  /** Recorded once the attach succeeded (phase `waiting`). */
  readonly attachedRecord: string
  readonly reason: string
}

/** A swap whose spot side was attached by a run that then stopped: retire the on-demand partner now. */
export interface CompleteSwapAction {
  readonly kind: 'complete-swap'
  readonly group: string
  readonly pair: SwapPair
  /**
   * Normally the partner, with a decrement that gives back the attach's +1. The replacement instead when
   * retiring the partner would break the on-demand minimum or the owner protected it meanwhile.
   */
  readonly retire: 'partner' | 'replacement'
  /** The swap record (TAG_SWAP) written ahead of the retirement. */
  readonly record?: string
  /**
   * Set when the replacement is retired because it did not serve by its deadline: the partner is tagged
   * TAG_NO_SPOT_CAPACITY_UNTIL with this time, so it gets no new replacement before then.
   */
  readonly backOffPartnerUntil?: string
  readonly reason: string
}

/**
 * A pair of a swap that closes with nothing retired, because the owner resized the group meanwhile: the
 * replacement is recorded as a member spotswap attached (TAG_JOINED_GROUP) with its swap's id
 * (TAG_RELEASED_SWAP_ID), then its link to its partner (TAG_REPLACING_INSTANCE, TAG_SWAP_ID) is removed and
 * both stay.
 */
export interface ReleasePairAction {
  readonly kind: 'release-pair'
  readonly group: string
  readonly pair: SwapPair
  /** The swap id the replacement carries (TAG_SWAP_ID), kept as TAG_RELEASED_SWAP_ID: when its swap started. */
  readonly swapId?: string
  /** Set when the owner took the swap's unit back: the partner is tagged TAG_NO_SPOT_CAPACITY_UNTIL with it. */
  readonly backOffPartnerUntil?: string
  readonly reason: string
}

/**
 * A pair of an open swap vanished without its decrement (one side taken by EC2 or someone else while
 * the interruption handler could not leave with it): Auto Scaling backfilled it and desired capacity
 * still holds the pair's unit. With no change of desired capacity by anyone else since the swap started,
 * that unit is spotswap's: one member leaves with a decrement, announced in the record like a retirement.
 */
export interface GiveBackAction {
  readonly kind: 'give-back'
  readonly group: string
  readonly instanceId: string
  /** The swap record (TAG_SWAP) written ahead of the termination. */
  readonly record: string
  readonly reason: string
}

/**
 * Members that carry spotswap's launch tags but are no pair of an open swap: they joined the group for
 * good. TAG_JOINED_GROUP is written, then `launched-for-asg` and `launched-for-replacing-instance` are
 * removed, so a member a person detaches later is never taken for a launch to clean up
 * (core/group/provenance.ts). TAG_REPLACED_TYPE stays: the savings figures read it.
 */
export interface SettleMembersAction {
  readonly kind: 'settle-members'
  readonly group: string
  readonly instanceIds: readonly string[]
  readonly reason: string
}

/** The swap is over: MaxSize back as recorded (when it was raised) and the swap record removed. */
export interface CloseSwapAction {
  readonly kind: 'close-swap'
  readonly group: string
  readonly maxSize: number | undefined
  /**
   * Launches the swap named (TAG_SWAP_ID) but never attached (`attach-not-done`): the name is removed
   * first, so they may be attached again or cleaned up. A launch outside the group still carrying a swap's
   * name was attached and taken out since: never spotswap's again (core/group/provenance.ts).
   */
  readonly unname?: readonly string[]
  /**
   * The record left in place of the swap's when MaxSize cannot go all the way back (desired capacity above
   * the MaxSize before the raise; core/swap/closing.ts heldRaise): written instead of dropping TAG_SWAP.
   */
  readonly heldRaise?: string
  readonly reason: string
}

export interface TerminateSpotAction {
  readonly kind: 'terminate-spot'
  readonly group: string
  readonly instanceId: string
  readonly reason: string
  /** Auto Scaling said, in this run, that it is a member of no group: not asked again before terminating. */
  readonly inNoGroup?: boolean
}

/**
 * A doomed member (TAG_INTERRUPTION_WARNED) that cannot be replaced ahead of its interruption leaves the
 * group now (TerminateInstanceInAutoScalingGroup without a decrement, so its termination hooks and
 * draining run), as the interruption handler would have done: the group backfills at once instead of when
 * EC2 takes the member.
 */
export interface ReleaseDoomedAction {
  readonly kind: 'release-doomed'
  readonly group: string
  readonly instanceId: string
  readonly reason: string
}

export type Action =
  | EcsStateAction
  | MaintenanceAction
  | RevertAction
  | LaunchSpotAction
  | ReleaseDoomedAction
  | SwapAction
  | CompleteSwapAction
  | GiveBackAction
  | CloseSwapAction
  | ReleasePairAction
  | SettleMembersAction
  | TerminateSpotAction

export interface GroupPlan {
  readonly group: string
  readonly region: string
  /** Set when the group is not acted on this run (cleanup of orphans still happens): `<code> (<detail>)`. */
  readonly skipped: string | undefined
  /** The same, typed. */
  readonly skip?: GroupSkip
  readonly actions: readonly Action[]
  readonly instanceSkips: readonly InstanceSkip[]
  /**
   * Every on-demand member in service, and what is happening to it: being replaced, or held back for a
   * reason (core/plan/liveness.ts). Empty for a group with no on-demand member.
   */
  readonly onDemand: readonly OnDemandStatus[]
  readonly figures: GroupFigures
  /** Attached replacements whose load-balancer health the plan needs (read, then planned again). */
  readonly awaitingHealth?: readonly string[]
  /** Members with an EC2 scheduled event, and what spotswap does about each (core/maintenance/plan.ts). */
  readonly scheduled?: readonly ScheduledMember[]
  /** The open swap needs the group's scaling activities (core/swap/recovery.ts): read, then planned again. */
  readonly awaitingActivities?: true
  /**
   * Group subnets whose zone a replacement in another zone needed and nobody knew (core/plan/subnets.ts
   * balancedElsewhere): read, then planned again.
   */
  readonly unknownSubnets?: readonly string[]
  /**
   * Instances tagged as spotswap's launches (or as an open swap's replacements) that provenance refused
   * (core/group/provenance.ts): never attached, terminated nor counted as pairs; logged and counted.
   */
  readonly untrusted?: readonly UntrustedInstance[]
  /**
   * Of those, the launches spotswap made and cannot verify (provenance.ts isUnverifiedLaunch): each holds
   * its partner and a place in the in-flight budget; reported (UnverifiedLaunches) until resolved.
   */
  readonly unverified?: readonly UntrustedInstance[]
  /**
   * Look at the group again this many seconds from now (a delayed run request), when that comes before
   * the next scheduled run would: a swap waits for its replacements to serve.
   */
  readonly lookAgainSeconds?: number
  /** `warm-up`: the look is for a replacement at the end of its grace period, not for an open swap. */
  readonly lookAgainFor?: 'warm-up'
  /**
   * With a `warm-up` look: the later look the group's open swap asks for (its health, a doomed partner's
   * deadline). The look at `lookAgainSeconds` asks for it again; a caller that takes no warm-up looks (the
   * simulator's AutoSpotting model) takes this one.
   */
  readonly swapLookSeconds?: number
  /** Why Auto Scaling launched nothing for the group's revert, when it said (core/group/launch-activities.ts). */
  readonly revertLaunchFailure?: LaunchFailure
}

/** A container-instance state change of a drain swap (core/ecs/drain.ts). */
export interface EcsStateAction {
  readonly kind: 'ecs-drain' | 'ecs-undrain'
  readonly group: string
  readonly instanceId: string
  readonly cluster: string
  readonly containerInstanceArn: string
  /** `ecs-drain` only: TAG_ECS_DRAINED's value, the open swap's id. */
  readonly swapId?: string
  readonly reason: string
}
