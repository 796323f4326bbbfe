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
 * What the replacer learnt from EC2 about the region's tagged spot members: the Spot request status code
 * of each, or why it could not be read (then no member is doomed this run: unknown is never an action).
 */
export type InterruptionStatuses =
  | { readonly kind: 'read'; readonly codes: ReadonlyMap<string, string> }
  | { readonly kind: 'unreadable'; readonly error: string }

const NONE: ReadonlySet<string> = new Set()

/** The members EC2 confirms: tagged, and their Spot request status an interruption. */
export const confirmedInterruptions = (statuses: InterruptionStatuses | undefined): ReadonlySet<string> => {
  if (statuses?.kind !== 'read' || statuses.codes.size === 0) return NONE
  const confirmed = new Set<string>()
  for (const [id, code] of statuses.codes) if (INTERRUPTED_STATUS_CODES.has(code)) confirmed.add(id)
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
  const code = statuses?.kind === 'read' ? statuses.codes.get(id) : undefined
  return {
    code: 'untrusted-marker',
    reason: `untrusted-marker: ${what} but EC2's Spot request status is ${code ?? 'not found'}, not an interruption; never acted on`,
  }
}
