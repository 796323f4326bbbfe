/**
 * The interruption handler's vocabulary: the signal reduced to what a decision needs, the snapshot it is
 * decided on, and the decision (act with actions, or skip with a reason).
 */
import type { ConfigError, GlobalConfig, GroupConfig } from '../config/config.ts'
import type { InstanceAction } from '../events/definitions.ts'
import type { OwnerChanges } from '../group/scaling-activities.ts'
import type { UntrustedMarker } from '../markers.ts'
import type { LifecycleHook } from '../port.ts'
import type { Group, Instance } from '../types.ts'

/** The signal, reduced to what the decision needs; both event kinds name one instance. */
/** The replacement M's replacement attempt records, as read at its deadline. */
export type PendingReplacement =
  | {
      readonly kind: 'read'
      /** Undefined when EC2 no longer shows it. */
      readonly instance: Instance | undefined
      /** The group it is attached to, if any (DescribeAutoScalingInstances). */
      readonly memberOf: string | undefined
    }
  /** A read failed: nothing is proven. */
  | { readonly kind: 'unread'; readonly error: string }

export type InterruptionSignal =
  | {
      readonly kind: 'spot-interruption'
      readonly instanceId: string
      readonly instanceAction: InstanceAction
      /** When EC2 gave the warning (the event's time), if the event says; the interruption is 120 s later. */
      readonly warnedAt?: Date | undefined
      /**
       * The deadline of a member replaced ahead has come (spotswap's own reminder): it leaves now, serving
       * replacement or not, and is not replaced ahead again.
       */
      readonly deadline?: boolean
    }
  | { readonly kind: 'rebalance-recommendation'; readonly instanceId: string }

export interface InterruptionSnapshot {
  /** From DescribeInstances; undefined when EC2 no longer knows the instance (or never did). */
  readonly instance: Instance | undefined
  /** From DescribeAutoScalingInstances: the group the instance is attached to, if any. */
  readonly memberOf: string | undefined
  /** The group the instance is attached to or was launched for, if it is among the managed groups. */
  readonly group: Group | undefined
  /** The group's lifecycle hooks; only consulted for an attached member. */
  readonly hooks: readonly LifecycleHook[]
  /** Whether the instance has API termination protection; only read for an attached member. */
  readonly terminationProtected: boolean
  /** Whether replacer runs can be requested (the run-request queue is configured): replacing ahead needs them. */
  readonly canRequestRuns: boolean
  /**
   * An attached member whose replacement tag names this instance (a swap attached it and has not retired
   * this instance yet); read only at a member's deadline.
   */
  readonly replacementOf?: string | undefined
  /** That replacement's tags (its swap's id among them). */
  readonly replacementTags?: Readonly<Record<string, string>> | undefined
  /**
   * The group's scaling activities since its open swap started, read only while its record shows a partial
   * attach (core/swap/partial-attach.ts): the proof that desired capacity above the owner's is the swap's.
   */
  readonly ownerChanges?: OwnerChanges | undefined
  /**
   * At a member's deadline while its group's record shows a swap before its attach: the replacement its
   * replacement attempt records (core/interruption/deadline-attach.ts).
   */
  readonly pendingReplacement?: PendingReplacement | undefined
  /** For an instance outside any group: the partner it names, in any state (provenance reads it). */
  readonly partner?: Instance | undefined
  readonly config: Pick<GlobalConfig, 'tagFilters' | 'tagFilteringMode' | 'defaults'>
  readonly now: Date
  /** Why a marker read for this event could not be verified (core/markers.ts): nothing is done this time. */
  readonly markersUnverifiable?: string | undefined
  /** Markers read for this event that did not verify or expired (core/markers.ts): treated as absent, reported. */
  readonly untrustedMarkers?: readonly UntrustedMarker[] | undefined
}

export type InterruptionAction =
  /** Remove `launched-for-asg` first, so the replacer never attaches (or re-attaches) a doomed instance. */
  | { readonly kind: 'untag-instance'; readonly instanceId: string; readonly keys: readonly string[] }
  /**
   * TerminateInstanceInAutoScalingGroup: termination hooks run. Without a decrement the group backfills;
   * with one (see `decrement`) it does not need to.
   */
  | {
      readonly kind: 'terminate-in-group'
      readonly instanceId: string
      readonly group: string
      readonly decrement: boolean
    }
  /** DetachInstances: without a decrement the group launches a replacement at once. */
  | {
      readonly kind: 'detach'
      readonly instanceId: string
      readonly group: string
      readonly decrement: boolean
    }
  /**
   * The swap record (TAG_SWAP), written ahead of a decrement that takes a pair
   * away, so the replacer can tell that decrement from an owner's resize.
   */
  | {
      readonly kind: 'record-swap'
      readonly instanceId: string
      readonly group: string
      readonly tags: Readonly<Record<string, string>>
    }
  /**
   * TerminateInstances: only for a spot instance spotswap launched that never joined a group (a member
   * always leaves through Auto Scaling, see leaveBy).
   */
  | { readonly kind: 'terminate-instance'; readonly instanceId: string }
  /**
   * Mark a doomed member for the replacer to replace ahead of its interruption (TAG_INTERRUPTION_WARNED):
   * it stays in service, and in the group, until its replacement is swapped in.
   */
  | {
      readonly kind: 'mark-interrupted'
      readonly instanceId: string
      readonly group: string
      readonly tags: Readonly<Record<string, string>>
    }
  /**
   * Ask for replacer runs of the group after these delays (the run-request queue), and for the handler's
   * own reminder at the member's deadline (`deadlineInSeconds`, its deadline queue). If the runs cannot be
   * requested, `otherwise` is done instead: the member leaves at once, as it would without replacing ahead.
   */
  | {
      readonly kind: 'request-runs'
      readonly instanceId: string
      readonly group: string
      readonly delaysSeconds: readonly number[]
      readonly deadlineInSeconds: number
      readonly otherwise: Extract<InterruptionAction, { kind: 'terminate-in-group' }>
    }
  /**
   * AttachInstances of a doomed member's replacement at its deadline, recorded as a member
   * (TAG_JOINED_GROUP) like a swap's (core/interruption/deadline-attach.ts). If the attach fails, `otherwise`
   * is done instead (the member leaves without a decrement) and the actions after it are not.
   */
  | {
      readonly kind: 'attach-replacement'
      readonly instanceId: string
      readonly group: string
      readonly otherwise: Extract<InterruptionAction, { kind: 'terminate-in-group' | 'detach' }>
    }
  /** Tag an at-risk member for the replacer to swap out (see TAG_REBALANCE_AT_RISK). */
  | {
      readonly kind: 'request-replacement'
      readonly instanceId: string
      readonly group: string
      readonly tags: Readonly<Record<string, string>>
    }

export type SkipReason =
  | 'instance-gone'
  | 'not-spot'
  | 'no-group'
  | 'not-spotswaps-launch'
  | 'group-not-managed'
  | 'group-deleting'
  | 'already-leaving-group'
  | 'rebalance-ignored'
  | 'replacement-already-requested'
  | 'capacity-rebalance-group'
  | 'markers-unverifiable'

export type ActReason = 'interrupted-member' | 'at-risk-member' | 'unattached-launched-instance'

interface DecisionBase {
  readonly group: string | undefined
  /** One sentence for the log line. */
  readonly detail: string
  /** Invalid `autospotting_*` tags on the group; their defaults were used. */
  readonly configErrors: readonly ConfigError[]
}

export type InterruptionDecision =
  | (DecisionBase & { readonly outcome: 'skip'; readonly reason: SkipReason; readonly actions: readonly [] })
  | (DecisionBase & {
      readonly outcome: 'act'
      readonly reason: ActReason
      readonly actions: readonly InterruptionAction[]
    })

/** Skips decided after the group was found to be managed: the event was spotswap's, nothing was left to do. */
const MANAGED_GROUP_SKIPS: ReadonlySet<SkipReason> = new Set([
  'group-deleting',
  'already-leaving-group',
  'rebalance-ignored',
  'replacement-already-requested',
  'capacity-rebalance-group',
  'markers-unverifiable',
])

/** True when the event concerned an instance of a managed group (acted on, or already handled). */
export const concernsManagedGroup = (decision: InterruptionDecision): boolean =>
  decision.outcome === 'act' || MANAGED_GROUP_SKIPS.has(decision.reason)

export const skip = (
  reason: SkipReason,
  group: string | undefined,
  detail: string,
  configErrors: readonly ConfigError[] = [],
) => ({ outcome: 'skip', reason, group, detail, configErrors, actions: [] }) as const

export interface DecisionContext {
  readonly signal: InterruptionSignal
  readonly instance: Instance
  readonly group: Group
  readonly config: GroupConfig
  readonly configErrors: readonly ConfigError[]
  readonly snapshot: InterruptionSnapshot
}
