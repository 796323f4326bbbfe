/**
 * What to do when EC2 warns that a spot instance is about to be interrupted, or recommends moving off
 * it. A pure function of the event and an observed snapshot: the handler observes, this decides, the
 * handler executes. Every input that is not a live spot instance of a managed group is a no-op with a
 * reason, which is also what makes duplicate and late deliveries harmless.
 */
import type { ConfigError, GlobalConfig, GroupConfig, TerminationAction } from '../config/config.ts'
import { groupConfig } from '../config/group-config.ts'
import { isBeingDeleted, isLeavingGroup, isManaged, staysInGroup } from '../config/managed.ts'
import {
  DOOMED_SWAP_DEADLINE_SECONDS,
  INTERRUPTION_RUN_DELAYS_SECONDS,
  TAG_INTERRUPTION_WARNED,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_REBALANCE_AT_RISK,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP,
  TAG_SWAP_ID,
} from '../constants.ts'
import type { InstanceAction } from '../events/definitions.ts'
import { launchProvenance, untrustedReason } from '../group/provenance.ts'
import type { LifecycleHook } from '../port.ts'
import { currentRecord, formatSwapRecord, readSwapRecord, recordedDesired, stepDown } from '../swap/record.ts'
import type { Group, GroupMember, Instance } from '../types.ts'

export { TAG_REBALANCE_AT_RISK } from '../constants.ts'

export const TERMINATING_TRANSITION = 'autoscaling:EC2_INSTANCE_TERMINATING'

/** The signal, reduced to what the decision needs; both event kinds name one instance. */
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
  /** For an instance outside any group: the partner it names, in any state (provenance reads it). */
  readonly partner?: Instance | undefined
  readonly config: Pick<GlobalConfig, 'tagFilters' | 'tagFilteringMode' | 'defaults'>
  readonly now: Date
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
])

/** True when the event concerned an instance of a managed group (acted on, or already handled). */
export const concernsManagedGroup = (decision: InterruptionDecision): boolean =>
  decision.outcome === 'act' || MANAGED_GROUP_SKIPS.has(decision.reason)

const GONE_STATES = new Set(['shutting-down', 'terminated'])

const skip = (
  reason: SkipReason,
  group: string | undefined,
  detail: string,
  configErrors: readonly ConfigError[] = [],
) => ({ outcome: 'skip', reason, group, detail, configErrors, actions: [] }) as const

/** Which group to look up for this instance: the one it is attached to, else the one it was launched for. */
export const targetGroupName = (
  instance: Instance | undefined,
  memberOf: string | undefined,
): string | undefined => memberOf ?? instance?.tags[TAG_LAUNCHED_FOR_GROUP]

export const decideInterruption = (
  signal: InterruptionSignal,
  snapshot: InterruptionSnapshot,
): InterruptionDecision => {
  const { instance, memberOf, group } = snapshot
  const id = signal.instanceId
  if (instance === undefined || GONE_STATES.has(instance.state)) {
    return skip('instance-gone', memberOf, `${id} is already terminated or unknown to EC2`)
  }
  if (instance.lifecycle !== 'spot') return skip('not-spot', memberOf, `${id} is not a spot instance`)
  const groupName = targetGroupName(instance, memberOf)
  if (groupName === undefined) {
    return skip('no-group', undefined, `${id} is in no Auto Scaling group and was not launched for one`)
  }
  if (group === undefined || group.name !== groupName || !isManaged(group.tags, snapshot.config)) {
    return skip(
      'group-not-managed',
      groupName,
      `group ${groupName} is not managed by spotswap (or no longer exists)`,
    )
  }
  if (isBeingDeleted(group)) {
    return skip('group-deleting', groupName, `group ${groupName} is being deleted`)
  }
  const { config, errors } = groupConfig(snapshot.config.defaults, group.name, group.tags)
  const context: DecisionContext = { signal, instance, group, config, configErrors: errors, snapshot }
  return memberOf === undefined ? decideUnattached(context) : decideMember(context)
}

interface DecisionContext {
  readonly signal: InterruptionSignal
  readonly instance: Instance
  readonly group: Group
  readonly config: GroupConfig
  readonly configErrors: readonly ConfigError[]
  readonly snapshot: InterruptionSnapshot
}

/** A spot instance launched for the group but not attached yet: it has no capacity to protect. */
const decideUnattached = ({
  signal,
  instance,
  group,
  config,
  configErrors,
  snapshot,
}: DecisionContext): InterruptionDecision => {
  if (signal.kind === 'rebalance-recommendation' && config.rebalanceAction === 'ignore') {
    return skip('rebalance-ignored', group.name, `rebalance action for ${group.name} is ignore`, configErrors)
  }
  // Only spotswap's own launch is terminated: a member someone detached, or an instance tagged like a
  // launch, is theirs (core/group/provenance.ts).
  const verdict = launchProvenance(instance, group, snapshot.partner)
  if (!verdict.ours)
    return skip(
      'not-spotswaps-launch',
      group.name,
      untrustedReason({ instanceId: instance.id, ...verdict }),
      configErrors,
    )
  return {
    outcome: 'act',
    reason: 'unattached-launched-instance',
    group: group.name,
    detail: `${instance.id} was launched for ${group.name} but never attached; terminating it`,
    configErrors,
    actions: [{ kind: 'terminate-instance', instanceId: instance.id }],
  }
}

const decideMember = (context: DecisionContext): InterruptionDecision => {
  const { signal, instance, group, config, configErrors } = context
  const member = group.members.find((m) => m.instanceId === instance.id)
  if (member === undefined || isLeavingGroup(member.lifecycleState)) {
    const state = member?.lifecycleState ?? 'no longer listed'
    return skip(
      'already-leaving-group',
      group.name,
      `${instance.id} is already leaving ${group.name} (${state})`,
      configErrors,
    )
  }
  // Auto Scaling replaces this group's at-risk and interrupted spot members itself: acting too would
  // replace one unit twice. (Its on-demand members are still converted by the replacer.)
  if (group.capacityRebalance && !(signal.kind === 'spot-interruption' && signal.deadline === true))
    return skip(
      'capacity-rebalance-group',
      group.name,
      `${group.name} has Capacity Rebalancing on: Auto Scaling replaces ${instance.id} itself`,
      configErrors,
    )
  if (signal.kind === 'rebalance-recommendation') {
    if (config.rebalanceAction === 'ignore') {
      return skip(
        'rebalance-ignored',
        group.name,
        `rebalance action for ${group.name} is ignore`,
        configErrors,
      )
    }
    if (config.rebalanceAction === 'replace') return requestReplacement(context)
  }
  // An interruption warning, or a rebalance recommendation configured to act like one.
  const mode = leaveAction(config.terminationNotificationAction, context.snapshot.hooks)
  const ec2WillTerminate = signal.kind === 'spot-interruption' && signal.instanceAction === 'terminate'
  const actions: InterruptionAction[] = []
  if (instance.tags[TAG_LAUNCHED_FOR_GROUP] !== undefined) {
    actions.push({ kind: 'untag-instance', instanceId: instance.id, keys: [TAG_LAUNCHED_FOR_GROUP] })
  }
  // A replacement attached by a swap that never retired its partner still holds the swap's +1 of desired
  // capacity: leaving with a decrement gives it back (the partner covers the capacity). Only while the
  // swap record (as it stands) says desired is exactly what the swap left: after an owner's resize, or
  // without a record, the +1 cannot be told from the owner's, and a decrement could take the group below
  // their figure; the member then leaves without one and the group backfills (a +1 left costs money).
  // So does a doomed partner of an attached replacement at its deadline (the pair's unit is the attach's).
  const partner = instance.tags[TAG_REPLACING_INSTANCE]
  const onGroup = readSwapRecord(group.tags)
  const record =
    onGroup.kind === 'read' ? currentRecord(onGroup.record, (id) => staysInGroup(group, id)) : undefined
  // A member can be both: a former replacement (its tag still names a long-gone partner) now replaced
  // itself. Whichever side is still in service makes the pair.
  const inService = (id: string | undefined): boolean =>
    id !== undefined && group.members.some((m) => m.instanceId === id && m.lifecycleState === 'InService')
  // With a version-2 record, only a pair of that swap holds one of its units: the replacement carries its id.
  const ofOpenSwap = (replacementTags: Readonly<Record<string, string>> | undefined): boolean =>
    record?.id === undefined || replacementTags?.[TAG_SWAP_ID] === record.id
  const otherSide = [
    ofOpenSwap(context.snapshot.replacementTags) ? context.snapshot.replacementOf : undefined,
    ofOpenSwap(instance.tags) ? partner : undefined,
  ].find(inService)
  const decrement =
    otherSide !== undefined &&
    record !== undefined &&
    record.pairs > 0 &&
    group.desiredCapacity === recordedDesired(record)
  // Leaving with the decrement settles the pair at once; otherwise the member is replaced ahead if it can be.
  const deadline = signal.kind === 'spot-interruption' && signal.deadline === true
  const ahead = mode === 'replace' && !decrement && !deadline ? replaceAhead(context, member) : undefined
  if (ahead !== undefined) return { ...ahead, actions: [...actions, ...ahead.actions] }
  const leave = leaveBy(mode, ec2WillTerminate)
  // The decrement is recorded ahead as one pair fewer, so the replacer tells it from an owner's resize.
  if (decrement && record !== undefined) {
    actions.push({
      kind: 'record-swap',
      instanceId: instance.id,
      group: group.name,
      tags: { [TAG_SWAP]: formatSwapRecord(stepDown(record, instance.id)) },
    })
  }
  actions.push({ kind: leave, instanceId: instance.id, group: group.name, decrement })
  const what = deadline
    ? 'deadline of a member replaced ahead'
    : signal.kind === 'spot-interruption'
      ? `interruption (${signal.instanceAction})`
      : 'rebalance recommendation'
  return {
    outcome: 'act',
    reason: signal.kind === 'spot-interruption' ? 'interrupted-member' : 'at-risk-member',
    group: group.name,
    detail: `${what} for ${instance.id} in ${group.name}: ${leave} ${decrement ? `with a decrement (the other side of its pair, ${otherSide}, is in service)` : 'without decrementing desired capacity'}`,
    configErrors,
    actions,
  }
}

/**
 * Replacing ahead: the member stays in service while the replacer launches its replacement into another
 * pool and swaps it in before EC2 takes the member, so the group never runs short and never backfills
 * with on-demand capacity. Only for a warning of termination (a stopped or hibernated instance would
 * outlive the swap's bookkeeping), never for a protected member (the replacer may not retire it), and
 * only when replacer runs can be requested; otherwise undefined, and the member leaves at once.
 */
const replaceAhead = (
  { signal, instance, group, configErrors, snapshot }: DecisionContext,
  member: GroupMember,
): Extract<InterruptionDecision, { outcome: 'act' }> | undefined => {
  if (signal.kind !== 'spot-interruption' || signal.instanceAction !== 'terminate') return undefined
  if (!snapshot.canRequestRuns || member.protectedFromScaleIn || snapshot.terminationProtected)
    return undefined
  const warnedAt = instance.tags[TAG_INTERRUPTION_WARNED] ?? (signal.warnedAt ?? snapshot.now).toISOString()
  const warnedMs = Date.parse(warnedAt)
  const deadlineMs =
    (Number.isNaN(warnedMs) ? snapshot.now.getTime() : warnedMs) + DOOMED_SWAP_DEADLINE_SECONDS * 1000
  return {
    outcome: 'act',
    reason: 'interrupted-member',
    group: group.name,
    detail: `interruption (terminate) for ${instance.id} in ${group.name}: replaced ahead; it stays in service until its replacement is swapped in`,
    configErrors,
    actions: [
      {
        kind: 'mark-interrupted',
        instanceId: instance.id,
        group: group.name,
        // The first warning's time, not this delivery's: a retried or duplicated event must not push back
        // the point after which the replacer no longer swaps (DOOMED_SWAP_DEADLINE_SECONDS).
        tags: { [TAG_INTERRUPTION_WARNED]: warnedAt },
      },
      {
        kind: 'request-runs',
        instanceId: instance.id,
        group: group.name,
        delaysSeconds: INTERRUPTION_RUN_DELAYS_SECONDS,
        // Whatever the region's replacer queue is doing, the member leaves by its deadline.
        deadlineInSeconds: Math.max(0, Math.ceil((deadlineMs - snapshot.now.getTime()) / 1000)),
        otherwise: {
          kind: 'terminate-in-group',
          instanceId: instance.id,
          group: group.name,
          decrement: false,
        },
      },
    ],
  }
}

/**
 * Whether a warning for this member could be answered by replacing it ahead (the configured action, or
 * `auto` without a termination hook): the only case in which its termination protection matters.
 */
export const mayReplaceAhead = (
  instance: Instance,
  group: Group,
  hooks: readonly LifecycleHook[],
  config: Pick<GlobalConfig, 'defaults'>,
): boolean =>
  instance.lifecycle === 'spot' &&
  leaveAction(
    groupConfig(config.defaults, group.name, group.tags).config.terminationNotificationAction,
    hooks,
  ) === 'replace'

/**
 * How a member leaves once it must. Through Auto Scaling (TerminateInstanceInAutoScalingGroup) whenever
 * spotswap is the one that ends it, so the group's termination hooks and load-balancer draining run
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/lifecycle-hooks-overview.html) and, without a
 * decrement, the group launches its replacement
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_TerminateInstanceInAutoScalingGroup.html).
 * DetachInstances only where the owner asked for `detach` and EC2 terminates the instance anyway: it
 * leaves the group at once, deregistered from its load balancers, and EC2 ends it
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_DetachInstances.html). A detached
 * instance spotswap still wanted gone would need ec2:TerminateInstances on an instance of a group, which
 * skips both hooks and draining: never.
 */
const leaveBy = (
  mode: 'terminate-in-group' | 'detach' | 'replace',
  ec2WillTerminate: boolean,
): 'terminate-in-group' | 'detach' =>
  mode === 'detach' && ec2WillTerminate ? 'detach' : 'terminate-in-group'

/**
 * `auto` terminates through the group when a termination hook exists, so the user's draining runs in
 * the two minutes left; without one, it replaces the member ahead of the interruption (which falls back
 * to leaving at once through the group, which backfills, when it cannot).
 */
const leaveAction = (
  mode: TerminationAction,
  hooks: readonly LifecycleHook[],
): 'terminate-in-group' | 'detach' | 'replace' => {
  if (mode === 'terminate') return 'terminate-in-group'
  if (mode === 'detach' || mode === 'replace') return mode
  return hooks.some((hook) => hook.transition === TERMINATING_TRANSITION) ? 'terminate-in-group' : 'replace'
}

const requestReplacement = ({
  instance,
  group,
  configErrors,
  snapshot,
}: DecisionContext): InterruptionDecision => {
  const requestedAt = instance.tags[TAG_REBALANCE_AT_RISK]
  if (requestedAt !== undefined) {
    return skip(
      'replacement-already-requested',
      group.name,
      `replacement of ${instance.id} was already requested at ${requestedAt}`,
      configErrors,
    )
  }
  return {
    outcome: 'act',
    reason: 'at-risk-member',
    group: group.name,
    detail: `rebalance recommendation for ${instance.id} in ${group.name}: replacement requested from a different pool`,
    configErrors,
    actions: [
      {
        kind: 'request-replacement',
        instanceId: instance.id,
        group: group.name,
        tags: { [TAG_REBALANCE_AT_RISK]: snapshot.now.toISOString() },
      },
    ],
  }
}
