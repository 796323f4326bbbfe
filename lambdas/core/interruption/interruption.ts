/**
 * What to do when EC2 warns that a spot instance is about to be interrupted, or recommends moving off
 * it. A pure function of the event and an observed snapshot: the handler observes, this decides, the
 * handler executes. Every input that is not a live spot instance of a managed group is a no-op with a
 * reason, which is also what makes duplicate and late deliveries harmless.
 */
import { groupConfig } from '../config/group-config.ts'
import { isBeingDeleted, isLeavingGroup, isManaged, staysInGroup } from '../config/managed.ts'
import {
  TAG_JOINED_GROUP,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP,
  TAG_SWAP_ID,
} from '../constants.ts'
import { launchProvenance, untrustedReason } from '../group/provenance.ts'
import { oneFewerAtAttach, provenPartialAttach } from '../swap/partial-attach.ts'
import { currentRecord, formatSwapRecord, readSwapRecord, recordedDesired, stepDown } from '../swap/record.ts'
import type { Instance } from '../types.ts'
import { attachAndLeave, attachAtDeadline } from './deadline-attach.ts'
import {
  type DecisionContext,
  type InterruptionAction,
  type InterruptionDecision,
  type InterruptionSignal,
  type InterruptionSnapshot,
  skip,
} from './decision.ts'
import { leaveAction, leaveBy } from './leave.ts'
import { replaceAhead, requestReplacement } from './replace-ahead.ts'

const GONE_STATES = new Set(['shutting-down', 'terminated'])

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
  // Neither believed nor dismissed: what the decision would do with the marker absent may be wrong.
  if (snapshot.markersUnverifiable !== undefined)
    return skip('markers-unverifiable', groupName, snapshot.markersUnverifiable)
  if (isBeingDeleted(group)) {
    return skip('group-deleting', groupName, `group ${groupName} is being deleted`)
  }
  const { config, errors } = groupConfig(snapshot.config.defaults, group.name, group.tags)
  const context: DecisionContext = { signal, instance, group, config, configErrors: errors, snapshot }
  return memberOf === undefined ? decideUnattached(context) : decideMember(context)
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
  // A swap whose later attach chunk never joined holds the pairs desired capacity shows, once the
  // scaling activities prove no one else changed it (as core/swap/recover.ts goes on with them).
  const partial =
    record === undefined
      ? undefined
      : provenPartialAttach(record, group.desiredCapacity, context.snapshot.ownerChanges)
  const held = partial ?? record
  const decrement =
    otherSide !== undefined &&
    held !== undefined &&
    held.pairs > 0 &&
    group.desiredCapacity === recordedDesired(held)
  // Leaving with the decrement settles the pair at once; otherwise the member is replaced ahead if it can be.
  const deadline = signal.kind === 'spot-interruption' && signal.deadline === true
  const ahead = mode === 'replace' && !decrement && !deadline ? replaceAhead(context, member) : undefined
  if (ahead !== undefined) return { ...ahead, actions: [...actions, ...ahead.actions] }
  const leave = leaveBy(mode, ec2WillTerminate)
  // A swap that died before its attach: the reminder finishes the pair when it can prove it (deadline-attach.ts).
  const atDeadline =
    deadline && !decrement
      ? attachAtDeadline({
          member: instance,
          group,
          onGroup,
          pending: context.snapshot.pendingReplacement,
          now: context.snapshot.now,
        })
      : undefined
  if (atDeadline?.kind === 'attach') return attachAndLeave(context, atDeadline, leave, actions)
  // The decrement is recorded ahead as one pair fewer, so the replacer tells it from an owner's resize.
  if (decrement && record !== undefined) {
    const announced =
      partial === undefined
        ? stepDown(record, instance.id)
        : oneFewerAtAttach(record, instance.tags[TAG_JOINED_GROUP] !== undefined)
    actions.push({
      kind: 'record-swap',
      instanceId: instance.id,
      group: group.name,
      tags: { [TAG_SWAP]: formatSwapRecord(announced) },
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
    detail: `${what} for ${instance.id} in ${group.name}: ${leave} ${decrement ? `with a decrement (the other side of its pair, ${otherSide}, is in service)` : 'without decrementing desired capacity'}${atDeadline === undefined ? '' : `; its replacement not attached (${atDeadline.code}: ${atDeadline.detail})`}`,
    configErrors,
    actions,
  }
}
