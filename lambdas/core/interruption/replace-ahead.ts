/** Answers that keep the member in service: replacing it ahead of its interruption, or asking for its replacement. */
import {
  DOOMED_SWAP_DEADLINE_SECONDS,
  INTERRUPTION_NOTICE_SECONDS,
  INTERRUPTION_RUN_DELAYS_SECONDS,
  TAG_INTERRUPTION_WARNED,
  TAG_REBALANCE_AT_RISK,
} from '../constants.ts'
import type { GroupMember } from '../types.ts'
import { type DecisionContext, type InterruptionDecision, skip } from './decision.ts'

/**
 * When EC2 first warned the member, epoch ms: the time already tagged when it is within one notice before
 * this event (a retried or duplicated delivery must not push back the point after which the replacer no
 * longer swaps), else this event's. Anyone may write the tag: a time outside that window (long ago, or
 * after the event) is not EC2's, and would bring the member's release forward or put it off.
 */
const firstWarning = (tagged: string | undefined, eventAt: Date): number => {
  const taggedMs = Date.parse(tagged ?? '')
  const eventMs = eventAt.getTime()
  return taggedMs <= eventMs && taggedMs >= eventMs - INTERRUPTION_NOTICE_SECONDS * 1000 ? taggedMs : eventMs
}

/**
 * Replacing ahead: the member stays in service while the replacer launches its replacement into another
 * pool and swaps it in before EC2 takes the member, so the group never runs short and never backfills
 * with on-demand capacity. Only for a warning of termination (a stopped or hibernated instance would
 * outlive the swap's bookkeeping), never for a protected member (the replacer may not retire it), and
 * only when replacer runs can be requested; otherwise undefined, and the member leaves at once.
 */
export const replaceAhead = (
  { signal, instance, group, configErrors, snapshot }: DecisionContext,
  member: GroupMember,
): Extract<InterruptionDecision, { outcome: 'act' }> | undefined => {
  if (signal.kind !== 'spot-interruption' || signal.instanceAction !== 'terminate') return undefined
  if (!snapshot.canRequestRuns || member.protectedFromScaleIn || snapshot.terminationProtected)
    return undefined
  const warnedMs = firstWarning(instance.tags[TAG_INTERRUPTION_WARNED], signal.warnedAt ?? snapshot.now)
  const warnedAt = new Date(warnedMs).toISOString()
  const deadlineMs = warnedMs + DOOMED_SWAP_DEADLINE_SECONDS * 1000
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
        // The first warning's time, not this delivery's (firstWarning).
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

export const requestReplacement = ({
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
