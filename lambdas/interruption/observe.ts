/**
 * Gathers what the decision needs about one instance in two rounds of parallel reads: the instance
 * and its group membership, then its group and lifecycle hooks; and, only for a spot member that may be
 * replaced ahead of its interruption, its termination protection; for a spot member a replacement was
 * launched for, which member a swap attached for it. Events carry no group name.
 */
import type { GlobalConfig } from '../core/config/config.ts'
import { groupQuery } from '../core/config/managed.ts'
import {
  TAG_INTERRUPTION_WARNED,
  TAG_REBALANCE_AT_RISK,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
} from '../core/constants.ts'
import { type OwnerChanges, readActivities } from '../core/group/scaling-activities.ts'
import { needsPendingReplacement, type PendingReplacement } from '../core/interruption/deadline-attach.ts'
import type { InterruptionSignal, InterruptionSnapshot } from '../core/interruption/decision.ts'
import { targetGroupName } from '../core/interruption/interruption.ts'
import { mayReplaceAhead } from '../core/interruption/leave.ts'
import { recordedOutcome } from '../core/plan/attempts.ts'
import type { LifecycleHook } from '../core/port.ts'
import { partialUnits } from '../core/swap/partial-attach.ts'
import { readSwapRecord } from '../core/swap/record.ts'
import type { Group, Instance } from '../core/types.ts'
import { verifyObserved } from '../verify-markers.ts'
import type { InterruptionCloud } from './deps.ts'

/** Tags of a spot member a replacement was launched for: it may be the partner of an attached one. */
const PARTNER_TAGS = [TAG_INTERRUPTION_WARNED, TAG_REBALANCE_AT_RISK, TAG_REPLACEMENT_ATTEMPT]

export const observeInstance = async (
  cloud: InterruptionCloud,
  signal: InterruptionSignal,
  config: GlobalConfig,
  now: Date,
  canRequestRuns: boolean,
): Promise<InterruptionSnapshot> => {
  const { instanceId } = signal
  const [instances, membership] = await Promise.all([
    cloud.describeInstances([instanceId]),
    cloud.groupOfInstances([instanceId]),
  ])
  const read = instances.find((candidate) => candidate.id === instanceId)
  // The instance's markers decide whether it may be a partner: verified before anything reads them.
  const first = await verifyObserved(cloud, [], read === undefined ? [] : [read], now)
  const instance = read === undefined ? undefined : first.instances.get(read.id)
  const memberOf = membership.get(instanceId)
  const groupName = targetGroupName(instance, memberOf)
  let group: Group | undefined
  let hooks: readonly LifecycleHook[] = []
  let terminationProtected = false
  if (instance !== undefined && groupName !== undefined) {
    // Only managed groups are listed, so an unmanaged group is simply not found: the same query the
    // replacer uses, which keeps the two Lambdas in agreement about what is theirs. Asked by name: one
    // request within the two-minute warning, however many groups the region has.
    const [groups, groupHooks] = await Promise.all([
      cloud.describeGroups({ ...groupQuery(config), names: [groupName] }),
      memberOf === undefined ? Promise.resolve([]) : cloud.lifecycleHooks(groupName),
    ])
    group = groups.find((candidate) => candidate.name === groupName)
    hooks = groupHooks
    // A protected member is not replaced ahead (the replacer may not retire it); read only when it matters.
    if (
      canRequestRuns &&
      memberOf !== undefined &&
      group !== undefined &&
      mayReplaceAhead(instance, group, hooks, config)
    )
      terminationProtected = (await cloud.terminationProtected([instanceId])).has(instanceId)
  }
  // At a member's deadline: is it the partner of a replacement a swap attached (whose unit it may take)?
  let replacement: Instance | undefined
  // A spot member a replacement was launched for (replaced ahead, at risk, or moving to a cheaper pool) may
  // be the partner of an attached one: then leaving takes the attach's unit with it.
  const mayBePartner =
    instance !== undefined &&
    instance.lifecycle === 'spot' &&
    ((signal.kind === 'spot-interruption' && signal.deadline === true) ||
      PARTNER_TAGS.some((key) => instance.tags[key] !== undefined))
  if (mayBePartner && group !== undefined && memberOf !== undefined) {
    const others = group.members.map((m) => m.instanceId).filter((id) => id !== instanceId)
    const described = others.length > 0 ? await cloud.describeInstances(others) : []
    replacement = described.find((i) => i.tags[TAG_REPLACING_INSTANCE] === instanceId)
  }
  // Outside any group: what its partner recorded decides whether it is spotswap's launch to terminate.
  const partnerId = memberOf === undefined ? instance?.tags[TAG_REPLACING_INSTANCE] : undefined
  const partner =
    partnerId === undefined || group === undefined
      ? undefined
      : (await cloud.describeInstances([partnerId], { includeTerminated: true }))[0]
  const verified = await verifyObserved(
    cloud,
    group === undefined ? [] : [group],
    [partner, replacement].filter((i): i is Instance => i !== undefined),
    now,
  )
  const held = [...first.heldGroups.values(), ...verified.heldGroups.values()][0]
  const untrusted = [...first.untrusted, ...verified.untrusted]
  const believedGroup = group === undefined ? undefined : verified.groups[0]
  const believedPartner = partner === undefined ? undefined : verified.instances.get(partner.id)
  const believedReplacement = replacement === undefined ? undefined : verified.instances.get(replacement.id)
  const pendingReplacement =
    memberOf === undefined || believedGroup === undefined || instance === undefined
      ? undefined
      : await pendingReplacementOf(cloud, signal, instance, believedGroup, now)
  const ownerChanges =
    memberOf === undefined || believedGroup === undefined
      ? undefined
      : await partialAttachProof(cloud, believedGroup)
  return {
    instance,
    memberOf,
    group: believedGroup,
    ...(ownerChanges === undefined ? {} : { ownerChanges }),
    hooks,
    ...(believedPartner === undefined ? {} : { partner: believedPartner }),
    ...(pendingReplacement === undefined ? {} : { pendingReplacement }),
    terminationProtected,
    canRequestRuns,
    config,
    now,
    ...(believedReplacement === undefined
      ? {}
      : { replacementOf: believedReplacement.id, replacementTags: believedReplacement.tags }),
    ...(untrusted.length === 0 ? {} : { untrustedMarkers: untrusted }),
    ...(held === undefined && first.heldInstances.size + verified.heldInstances.size === 0
      ? {}
      : { markersUnverifiable: held ?? `a marker of ${instanceId} or its partner could not be verified` }),
  }
}

/**
 * The group's scaling activities since its open swap started, only while its record shows a partial attach
 * (a later chunk of 20 never joined): the one case where a member's pair holds a unit only they can prove.
 * A read that fails is no proof, and the member leaves without a decrement, as before.
 */
const partialAttachProof = async (
  cloud: InterruptionCloud,
  group: Group,
): Promise<OwnerChanges | undefined> => {
  const onGroup = readSwapRecord(group.tags)
  if (onGroup.kind !== 'read') return undefined
  const since = onGroup.record.startedAt
  if (since === undefined || partialUnits(onGroup.record, group.desiredCapacity) === undefined)
    return undefined
  try {
    return { kind: 'read', ...readActivities(await cloud.scalingActivities(group.name, since), since) }
  } catch (error) {
    return {
      kind: 'unreadable',
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    }
  }
}

/**
 * At a member's deadline, while its group's verified record shows a swap before its attach: the replacement
 * its replacement attempt records (one DescribeInstances, one DescribeAutoScalingInstances), with its markers
 * verified. A read that fails, or a marker that cannot be verified, proves nothing: the member leaves as
 * before (core/interruption/deadline-attach.ts), and the event is not held back for it.
 */
const pendingReplacementOf = async (
  cloud: InterruptionCloud,
  signal: InterruptionSignal,
  member: Instance,
  group: Group,
  now: Date,
): Promise<PendingReplacement | undefined> => {
  if (signal.kind !== 'spot-interruption' || signal.deadline !== true || !needsPendingReplacement(group))
    return undefined
  const replacementId = recordedOutcome(member.tags[TAG_REPLACEMENT_ATTEMPT])?.instanceId
  if (replacementId === undefined) return undefined
  try {
    const [described, membership] = await Promise.all([
      cloud.describeInstances([replacementId]),
      cloud.groupOfInstances([replacementId]),
    ])
    const read = described.find((i) => i.id === replacementId)
    if (read === undefined)
      return { kind: 'read', instance: undefined, memberOf: membership.get(replacementId) }
    const verified = await verifyObserved(cloud, [], [read], now)
    if (verified.heldInstances.size > 0)
      return { kind: 'unread', error: `a marker of ${replacementId} could not be verified` }
    return {
      kind: 'read',
      instance: verified.instances.get(replacementId),
      memberOf: membership.get(replacementId),
    }
  } catch (error) {
    return {
      kind: 'unread',
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    }
  }
}
