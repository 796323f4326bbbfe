/**
 * Whether EC2 confirms that a spot member tagged `spotswap:interruption-warned` will be interrupted. Anyone
 * with ec2:CreateTags can write that tag (only the `aws:` prefix is reserved), so the replacer believes it
 * only when the instance's Spot request says so; a tagged member EC2 does not confirm is not doomed, and is
 * reported. The interruption handler needs no such check for the event it receives: only AWS can put an
 * event of source `aws.ec2`.
 */

import { TAG_INTERRUPTION_WARNED } from '../constants.ts'
import type { Group, Instance } from '../types.ts'

/**
 * Spot request status codes that say EC2 is interrupting, or has interrupted, the instance: the two-minute
 * warning shows as `marked-for-termination` (or `marked-for-stop`), then the terminal code
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-request-status.html, and
 * spot-instances-request-status-lifecycle.html). Every spot instance has a Spot request, CreateFleet's
 * `instant` ones included (finding-an-interrupted-Spot-Instance.html points at its status code). A
 * member still `fulfilled` is not being interrupted, whatever its tags say.
 */
export const INTERRUPTED_STATUS_CODES: ReadonlySet<string> = new Set([
  'marked-for-termination',
  'marked-for-stop',
  'instance-terminated-by-price',
  'instance-terminated-no-capacity',
  'instance-terminated-capacity-oversubscribed',
  'instance-stopped-by-price',
  'instance-stopped-no-capacity',
])

/**
 * A spot instance's Spot request status: its code and when EC2 last changed it (`Status.UpdateTime`,
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_SpotInstanceStatus.html), epoch ms when EC2
 * gave it. For `marked-for-termination` that is the moment of the two-minute warning.
 */
export interface SpotRequestStatus {
  readonly code: string
  readonly updatedAtMs?: number | undefined
}

/**
 * What the replacer learnt from EC2 about the region's tagged spot members: the Spot request status of
 * each, or why it could not be read (then no member is doomed this run: unknown is never an action).
 */
export type InterruptionStatuses =
  | { readonly kind: 'read'; readonly codes: ReadonlyMap<string, SpotRequestStatus> }
  | { readonly kind: 'unreadable'; readonly error: string }

/** Codes that say EC2 has already taken the instance (the warning's two minutes are over). */
const TAKEN_PREFIXES = ['instance-terminated-', 'instance-stopped-']

/**
 * When EC2 warned a confirmed member, epoch ms: EC2's own time (the status's UpdateTime while it is
 * `marked-for-*`) when it gave one, since the tag's time is anyone's to rewrite and a later one would put
 * the member's release off until EC2 has taken it. Once EC2 has taken the member, no later than the
 * notice before that status. The tag's time only when EC2 gave no time.
 */
export const warnedAtMs = (
  statuses: InterruptionStatuses | undefined,
  id: string,
  taggedMs: number,
  noticeMs: number,
): number => {
  const status = statuses?.kind === 'read' ? statuses.codes.get(id) : undefined
  const at = status?.updatedAtMs
  if (status === undefined || at === undefined || !Number.isFinite(at)) return taggedMs
  if (status.code.startsWith('marked-for-')) return at
  if (TAKEN_PREFIXES.some((prefix) => status.code.startsWith(prefix)))
    return Number.isFinite(taggedMs) ? Math.min(taggedMs, at - noticeMs) : at - noticeMs
  return taggedMs
}

const NONE: ReadonlySet<string> = new Set()

/** The members EC2 confirms: tagged, and their Spot request status an interruption. */
export const confirmedInterruptions = (statuses: InterruptionStatuses | undefined): ReadonlySet<string> => {
  if (statuses?.kind !== 'read' || statuses.codes.size === 0) return NONE
  const confirmed = new Set<string>()
  for (const [id, status] of statuses.codes) if (INTERRUPTED_STATUS_CODES.has(status.code)) confirmed.add(id)
  return confirmed
}

/**
 * In-service spot members carrying the interruption marker: the only ones whose Spot request is read, so
 * a converged region (no member tagged) makes no extra call.
 */
export const markedSpotMembers = (
  groups: readonly Group[],
  instances: ReadonlyMap<string, Instance>,
): string[] => {
  const ids: string[] = []
  for (const group of groups)
    for (const member of group.members) {
      if (member.lifecycleState !== 'InService') continue
      const instance = instances.get(member.instanceId)
      if (instance?.lifecycle === 'spot' && instance.tags[TAG_INTERRUPTION_WARNED] !== undefined)
        ids.push(instance.id)
    }
  return ids
}

/** Why a tagged member is not treated as doomed, for `plan`, the log and the UntrustedMarkers metric. */
export const unconfirmedReason = (
  id: string,
  statuses: InterruptionStatuses | undefined,
): { readonly code: 'untrusted-marker' | 'marker-unverified'; readonly reason: string } => {
  const what = `tagged ${TAG_INTERRUPTION_WARNED}`
  if (statuses?.kind === 'unreadable')
    return {
      code: 'marker-unverified',
      reason: `marker-unverified: ${what}, its Spot request status unreadable this run (${statuses.error}); not treated as interrupted`,
    }
  const code = statuses?.kind === 'read' ? statuses.codes.get(id)?.code : undefined
  return {
    code: 'untrusted-marker',
    reason: `untrusted-marker: ${what} but EC2's Spot request status is ${code ?? 'not found'}, not an interruption; never acted on`,
  }
}
