/**
 * The single source of truth for metric names. The Lambdas emit these (EMF through Powertools) and the
 * CDK dashboard and alarms import them, so a rename cannot silently break a chart.
 */

export const METRIC_NAMESPACE = 'SpotSwap'

/**
 * Powertools adds a `service` dimension to every metric; both Lambdas use this one value so dashboards
 * and alarms can name it.
 */
export const DIMENSION_SERVICE = 'service'
export const METRIC_SERVICE = 'spotswap'

/** Dimensions: every metric is emitted per Region, and per Group where it is about one group. */
export const DIMENSION_REGION = 'Region'
export const DIMENSION_GROUP = 'Group'
export const DIMENSION_ACTION = 'Action'
/** An on-demand member's reason code (core/plan/reasons.ts OnDemandCode), on OnDemandHeldBack per region. */
export const DIMENSION_REASON = 'Reason'

export const Metric = {
  // Replacer: state of the fleet after a run.
  HourlySavingsUsd: 'HourlySavingsUsd',
  ProjectedMonthlySavingsUsd: 'ProjectedMonthlySavingsUsd',
  SpotInstances: 'SpotInstances',
  OnDemandInstances: 'OnDemandInstances',
  SpotSharePct: 'SpotSharePct',
  /**
   * On-demand members with no replacement on its way and not kept for the on-demand minimum, each for a
   * reason (per group, per region, and per region and Reason).
   */
  OnDemandHeldBack: 'OnDemandHeldBack',
  // Replacer: what a run did.
  ReplacementsStarted: 'ReplacementsStarted',
  ReplacementsCompleted: 'ReplacementsCompleted',
  ReplacementsFailed: 'ReplacementsFailed',
  OrphansTerminated: 'OrphansTerminated',
  /** Launches EC2 refused for a reason it will refuse again (permissions, parameters, template, image). */
  LaunchesRefused: 'LaunchesRefused',
  ConfigErrors: 'ConfigErrors',
  GroupsManaged: 'GroupsManaged',
  RunDurationMs: 'RunDurationMs',
  /**
   * Region runs that did nothing because Lambda could not have ended them before their fan-out message is
   * delivered again (core/region/delivery-window.ts): the poller started them late, or their record had
   * no readable receipt time. The region's next message runs it.
   */
  RegionRunsNotStarted: 'RegionRunsNotStarted',
  /**
   * Instances tagged as spotswap's launches that provenance refused (core/group/provenance.ts): left alone.
   * Anything above 0 means someone else writes spotswap's tags.
   */
  UntrustedInstances: 'UntrustedInstances',
  /**
   * Spot members tagged `spotswap:interruption-warned` whose interruption EC2 does not confirm (their Spot
   * request status, core/interruption/confirmation.ts): never acted on. Above 0, someone else writes the tag.
   */
  UntrustedMarkers: 'UntrustedMarkers',
  /**
   * Markers whose MAC does not verify (none, another resource's or key's) or that are past their life
   * (core/markers.ts): treated as absent. Above 0, someone else writes spotswap's tags, or markers written
   * before MACs are still around.
   */
  ForgedMarkers: 'ForgedMarkers',
  /**
   * Of the UntrustedInstances, launches spotswap made (their partner records them) that it cannot verify as its own: each
   * holds its partner and a place in the group's in-flight budget until a person attaches or terminates it.
   */
  UnverifiedLaunches: 'UnverifiedLaunches',
  /** Groups whose plan ran over its work budget this run (PLAN_WORK_UNITS_PER_GROUP): skipped. */
  PlanBudgetExceeded: 'PlanBudgetExceeded',
  /** Scaling-activity sentences in none of Auto Scaling's known wordings (core/group/scaling-activities.ts). */
  UnclassifiedScalingActivities: 'UnclassifiedScalingActivities',
  /**
   * Groups whose instance refreshes could not be read (an error other than throttling): they went on as if
   * none ran (core/group/instance-refresh.ts).
   */
  InstanceRefreshUnreadable: 'InstanceRefreshUnreadable',
  /** Groups whose lifecycle hooks could not be read: they started nothing new (launch-hooks-unreadable). */
  LifecycleHooksUnreadable: 'LifecycleHooksUnreadable',
  /** Groups whose stack's status could not be read: held as if it were updating (cloudformation-stack-unreadable). */
  StackStatusUnreadable: 'StackStatusUnreadable',
  /** Instances whose termination protection could not be read: treated as protected (protection-unreadable). */
  TerminationProtectionUnreadable: 'TerminationProtectionUnreadable',
  // Interruption handler.
  InterruptionsHandled: 'InterruptionsHandled',
  RebalanceRecommendationsHandled: 'RebalanceRecommendationsHandled',
  /** Reminders at the deadline of a member replaced ahead (it left then, or had already left). */
  InterruptionDeadlinesHandled: 'InterruptionDeadlinesHandled',
  InterruptionActions: 'InterruptionActions',
  InterruptionHandlerDurationMs: 'InterruptionHandlerDurationMs',
  IgnoredEvents: 'IgnoredEvents',
  /**
   * Managed groups of a region whose savings are estimated: no Pricing API answer, so their on-demand
   * prices are the embedded table's (us-east-1 for a region it does not list). Per region.
   */
  SavingsEstimatedGroups: 'SavingsEstimatedGroups',
  /**
   * A group whose swap is still open after its latest possible deadline and the runs that finish a swap
   * (replacer/report.ts swapPastDeadline): 1 per group and run while it lasts, nothing otherwise. A record
   * that only holds a raise until the owner's desired capacity comes down is not a swap and never counts.
   */
  SwapsPastDeadline: 'SwapsPastDeadline',
  /**
   * The kill switch (core/region/kill-switch.ts) as a run read it: 0 off, 1 on, 2 hard. Per Lambda
   * invocation that had work, dimensioned by service only.
   */
  KillSwitch: 'KillSwitch',
  /** The kill switch's parameter could not be read or held no known value: treated as on. */
  KillSwitchUnreadable: 'KillSwitchUnreadable',
  /** Actions a run planned and the kill switch held (per region; interruption actions per event). */
  ActionsHeldByKillSwitch: 'ActionsHeldByKillSwitch',
  /** Members with a pending EC2 scheduled event (retirement, stop, reboot, maintenance), per group. */
  ScheduledMembers: 'ScheduledMembers',
  /** Region runs whose read of scheduled events failed: nothing was replaced on it (1 per region and run). */
  ScheduledEventsUnreadable: 'ScheduledEventsUnreadable',
  /**
   * A region whose ECS capacity providers could not be read while a managed group carries AmazonECSManaged
   * (replacer/report-ecs.ts): 1 per region and run; those groups started nothing.
   */
  EcsCapacityProvidersUnreadable: 'EcsCapacityProvidersUnreadable',
  /**
   * Region runs whose commitment reads failed: planned as if the account held none, or, when only the
   * Savings Plans failed, with the members the rest does not pay for held (replacer/commitments.ts). Per region.
   */
  CommitmentsUnreadable: 'CommitmentsUnreadable',
  /**
   * Share of the region's Reserved Instances and Savings Plans its managed on-demand members use this hour,
   * percent (core/commitments/utilization.ts): only what spotswap sees, so the real figure is never lower.
   * Per region and run, when it holds any.
   */
  CommitmentUtilization: 'CommitmentUtilization',
  /**
   * A group whose revert stalled (core/revert/step.ts, replacer/report-revert.ts): its raises kept giving
   * their unit back, so nothing more is raised. 1 per group and run while it lasts.
   */
  RevertsStalled: 'RevertsStalled',
  /**
   * Groups whose remaining actions a region run did not start because Lambda would soon stop it
   * (core/region/time-budget.ts): left to the next run. Per region and run, when above 0.
   */
  GroupsPastTimeBudget: 'GroupsPastTimeBudget',
  /**
   * Renewals of a region run's lease on its fan-out message that failed or answered too late
   * (core/region/lease.ts): the run writes only until the lease it has runs out. Per region, when above 0.
   */
  FanoutLeasesLost: 'FanoutLeasesLost',
  /**
   * Members of an ECS-managed group kept from a drain swap for their tasks this run: running a standalone
   * task ECS never moves, or tasks that could not be read (replacer/report-ecs.ts). Per region and group.
   */
  EcsMembersKeptForTasks: 'EcsMembersKeptForTasks',
  /** Groups whose platform's spot prices could not be read: they started nothing new (spot-prices-unreadable). */
  SpotPricesUnreadable: 'SpotPricesUnreadable',
  /** Groups whose subnets' zones could not be read: they started nothing new (subnets-unreadable). */
  SubnetsUnreadable: 'SubnetsUnreadable',
} as const

export type MetricName = (typeof Metric)[keyof typeof Metric]
