/**
 * Markers spotswap acts on carry a MAC (` mac=<43 base64url characters>` after the value) computed with a
 * key only spotswap's roles can use. This module is the pure half: which tags are markers, the message the
 * MAC covers, how a value splits into its payload and MAC, and how long a verified value is believed.
 * Signing and verifying (KMS GenerateMac/VerifyMac) are the adapter's (aws/markers.ts).
 *
 * Only `aws:` tag keys are reserved (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/Using_Tags.html):
 * anyone who can tag a group or an instance can write `spotswap:*`, so a value is believed only with a MAC.
 */
import {
  REBALANCE_MARK_MAX_AGE_SECONDS,
  REVERT_MARKER_MARGIN_SECONDS,
  SWAP_RECORD_MAX_AGE_SECONDS,
  TAG_ECS_DRAINED,
  TAG_INTERRUPTION_WARNED,
  TAG_JOINED_GROUP,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_MAINTENANCE,
  TAG_ORIGINAL_MAX_SIZE,
  TAG_REBALANCE_AT_RISK,
  TAG_RELEASED_SWAP_ID,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP,
  TAG_SWAP_DESIRED,
  TAG_SWAP_ID,
  TAG_SWAP_STARTED,
} from './constants.ts'
import { parseMaintenanceMarker } from './maintenance/marker.ts'
import { revertMarkerBelievedUntil, TAG_REVERT } from './revert/marker.ts'
import { readSwapRecord } from './swap/record.ts'
import type { Group, Instance } from './types.ts'

/**
 * Markers on a group: the swap record, the replacement ahead of a scheduled event, and the tags of the version-1 record, which nothing writes any
 * more: never signed, they are always read as absent (a MaxSize no one proved is never written back).
 */
export const GROUP_MARKERS: readonly string[] = [
  TAG_SWAP,
  TAG_SWAP_DESIRED,
  TAG_SWAP_STARTED,
  TAG_ORIGINAL_MAX_SIZE,
  TAG_MAINTENANCE,
  // It makes spotswap raise desired capacity and retire members (core/revert/).
  TAG_REVERT,
]

/** Markers on an instance. */
export const INSTANCE_MARKERS: readonly string[] = [
  TAG_INTERRUPTION_WARNED,
  TAG_REBALANCE_AT_RISK,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_SWAP_ID,
  TAG_JOINED_GROUP,
  TAG_RELEASED_SWAP_ID,
  // It makes spotswap set a container instance ACTIVE again (core/ecs/drain.ts).
  TAG_ECS_DRAINED,
]

const MARKERS = new Set([...GROUP_MARKERS, ...INSTANCE_MARKERS])

/** Whether writing this tag key needs a MAC. */
export const isMarker = (key: string): boolean => MARKERS.has(key)

/** A group by name (the adapter knows its ARN, which the MAC covers) or an instance by id. */
export type MarkerResource =
  | { readonly kind: 'group'; readonly name: string }
  | { readonly kind: 'instance'; readonly id: string }

/** One marker as read: its resource, its key and its whole value (MAC included). */
export interface MarkerRead {
  readonly resource: MarkerResource
  readonly key: string
  readonly value: string
}

/**
 * `valid`: the MAC verified. `unsigned`: no MAC at all (a value written before MACs, or by someone else).
 * `bad-mac`: KMS refused the MAC (copied from another resource, key or value; forged). `unverifiable`: KMS
 * could not be asked (throttled, unreachable, no key configured): not known to be forged, not believed.
 */
export type MarkerVerdict = 'valid' | 'unsigned' | 'bad-mac' | 'unverifiable'

/** A marker treated as absent, for the report: `expired` verified but is older than its life. */
export interface UntrustedMarker {
  readonly resource: string
  readonly key: string
  readonly reason: 'unsigned' | 'bad-mac' | 'expired'
}

export const resourceName = (resource: MarkerResource): string =>
  resource.kind === 'group' ? `group:${resource.name}` : `instance:${resource.id}`

const MAC_SUFFIX = / mac=([A-Za-z0-9_-]{43})$/

/** The value a marker tag carries: the payload, then its MAC. 48 characters on top of the payload. */
export const withMac = (payload: string, mac: string): string => `${payload} mac=${mac}`

/** The payload and MAC of a value; undefined when it carries no MAC. */
export const splitMarker = (
  value: string,
): { readonly payload: string; readonly mac: string } | undefined => {
  const match = MAC_SUFFIX.exec(value)
  if (match === null) return undefined
  return { payload: value.slice(0, match.index), mac: match[1] as string }
}

/** Where the MAC is computed: the account and region the resource lives in. */
export interface MarkerScope {
  readonly account: string
  readonly region: string
}

/**
 * The message the MAC covers: a version, the account and region, the resource (a group's ARN, which
 * embeds a random id, so a record does not survive the group's deletion and re-creation under its name;
 * an instance id), the tag key (a value cannot move to another key) and the payload (which carries a time).
 */
export const markerMessage = (scope: MarkerScope, resource: string, key: string, payload: string): string =>
  ['spotswap-marker/1', `${scope.account}:${scope.region}`, resource, key, payload].join('\n')

const ageSeconds = (at: Date | undefined, now: Date): number =>
  at === undefined ? Number.POSITIVE_INFINITY : (now.getTime() - at.getTime()) / 1000

const leadingTime = (payload: string): Date | undefined => {
  const ms = Date.parse(payload)
  return Number.isNaN(ms) ? undefined : new Date(ms)
}

/**
 * Whether a verified payload is past its life: a swap record or a maintenance raise older than the longest
 * a swap can be open, a revert's raise or retirement past its raise's deadline and a margin (a value
 * copied from an earlier raise and replayed), a rebalance mark older than a recommendation stays useful. The other markers
 * are judged by their own rules (the interruption warning's 100 s, the attempt's orphan periods) or only
 * ever make spotswap leave an instance alone.
 */
export const markerExpired = (key: string, payload: string, now: Date): boolean => {
  if (key === TAG_SWAP) {
    // Every record spotswap signs carries `started` (core/plan/swap-start.ts): one without is not expired
    // here, its MAC already says spotswap wrote it.
    const read = readSwapRecord({ [TAG_SWAP]: payload })
    const startedAt = read.kind === 'read' ? read.record.startedAt : undefined
    return startedAt !== undefined && ageSeconds(startedAt, now) > SWAP_RECORD_MAX_AGE_SECONDS
  }
  // A raise for a scheduled event lasts no longer than a swap can (its deadline is the health deadline's).
  if (key === TAG_MAINTENANCE) {
    const startedAt = parseMaintenanceMarker(payload)?.startedAt
    return startedAt !== undefined && ageSeconds(startedAt, now) > SWAP_RECORD_MAX_AGE_SECONDS
  }
  if (key === TAG_REBALANCE_AT_RISK)
    return ageSeconds(leadingTime(payload), now) > REBALANCE_MARK_MAX_AGE_SECONDS
  // A revert's raise or retirement, past its raise's deadline and a margin (a replayed earlier value).
  if (key === TAG_REVERT) {
    const until = revertMarkerBelievedUntil(payload, REVERT_MARKER_MARGIN_SECONDS)
    return until !== undefined && now.getTime() > until.getTime()
  }
  return false
}

/** Every marker tag on these groups and instances, as read (converged groups and members carry none but joined-group). */
export const markerReads = (groups: readonly Group[], instances: Iterable<Instance>): MarkerRead[] => {
  const reads: MarkerRead[] = []
  for (const group of groups)
    for (const key of GROUP_MARKERS) {
      const value = group.tags[key]
      if (value !== undefined) reads.push({ resource: { kind: 'group', name: group.name }, key, value })
    }
  for (const instance of instances)
    for (const key of INSTANCE_MARKERS) {
      const value = instance.tags[key]
      if (value === undefined || (key === TAG_RELEASED_SWAP_ID && settled(instance))) continue
      reads.push({ resource: { kind: 'instance', id: instance.id }, key, value })
    }
  return reads
}

/**
 * Seen serving (launch tags removed): its released swap's id, read only for the never-served deadline
 * (core/swap/never-served.ts), is not needed, so a converged run spends no VerifyMac on it.
 */
const settled = (instance: Instance): boolean =>
  instance.tags[TAG_LAUNCHED_FOR_GROUP] === undefined && instance.tags[TAG_REPLACING_INSTANCE] === undefined

/** What core may believe of the markers read: verified payloads, the rest reported or holding their group. */
export interface JudgedMarkers {
  /** `group:<name>` / `instance:<id>` → key → the verified, fresh payload. */
  readonly believed: ReadonlyMap<string, ReadonlyMap<string, string>>
  /** Treated as absent and reported. */
  readonly untrusted: readonly UntrustedMarker[]
  /** Could not be checked this run: their groups wait. */
  readonly unverifiable: readonly MarkerRead[]
}

export const judgeMarkers = (
  reads: readonly MarkerRead[],
  verdicts: readonly MarkerVerdict[],
  now: Date,
): JudgedMarkers => {
  const believed = new Map<string, Map<string, string>>()
  const untrusted: UntrustedMarker[] = []
  const unverifiable: MarkerRead[] = []
  reads.forEach((read, i) => {
    const verdict = verdicts[i] ?? 'unverifiable'
    const resource = resourceName(read.resource)
    if (verdict === 'unverifiable') unverifiable.push(read)
    else if (verdict !== 'valid') untrusted.push({ resource, key: read.key, reason: verdict })
    else {
      const payload = splitMarker(read.value)?.payload ?? read.value
      if (markerExpired(read.key, payload, now))
        untrusted.push({ resource, key: read.key, reason: 'expired' })
      else believed.set(resource, (believed.get(resource) ?? new Map()).set(read.key, payload))
    }
  })
  return { believed, untrusted, unverifiable }
}

/** Tags as core sees them: each marker replaced by its believed payload, or removed. */
export const believedTags = (
  tags: Readonly<Record<string, string>>,
  markerKeys: readonly string[],
  believed: ReadonlyMap<string, string> | undefined,
): Record<string, string> => {
  const result: Record<string, string> = {}
  for (const [key, value] of Object.entries(tags)) {
    if (!markerKeys.includes(key)) result[key] = value
    else {
      const payload = believed?.get(key)
      if (payload !== undefined) result[key] = payload
    }
  }
  return result
}

/** The group with only its believed markers. */
export const withBelievedGroupMarkers = (group: Group, judged: JudgedMarkers): Group => {
  return {
    ...group,
    tags: believedTags(group.tags, GROUP_MARKERS, judged.believed.get(`group:${group.name}`)),
  }
}

/** The instance with only its believed markers. */
export const withBelievedInstanceMarkers = (instance: Instance, judged: JudgedMarkers): Instance => ({
  ...instance,
  tags: believedTags(instance.tags, INSTANCE_MARKERS, judged.believed.get(`instance:${instance.id}`)),
})

export const formatUntrustedMarker = (marker: UntrustedMarker): string =>
  `${marker.resource} ${marker.key}: ${marker.reason}; treated as absent`

/**
 * The groups an unverifiable marker holds back: a group's own; an instance's group (a member's, or the one
 * it was launched for); a partner's, through the launch that names it. The instances themselves, so a
 * stray carrying one (or naming a partner that does) is left alone this run.
 */
export const heldByUnverifiable = (
  unverifiable: readonly MarkerRead[],
  groups: readonly Group[],
  instances: Iterable<Instance>,
): { readonly groups: ReadonlyMap<string, string>; readonly instances: ReadonlySet<string> } => {
  const heldGroups = new Map<string, string>()
  const heldInstances = new Set<string>()
  if (unverifiable.length === 0) return { groups: heldGroups, instances: heldInstances }
  const groupOf = new Map<string, string>()
  const all = [...instances]
  for (const instance of all) {
    const owner = instance.tags[TAG_LAUNCHED_FOR_GROUP]
    if (owner === undefined) continue
    groupOf.set(instance.id, owner)
    const partner = instance.tags[TAG_REPLACING_INSTANCE]
    if (partner !== undefined && !groupOf.has(partner)) groupOf.set(partner, owner)
  }
  for (const group of groups) for (const member of group.members) groupOf.set(member.instanceId, group.name)
  for (const read of unverifiable) {
    const detail = `${resourceName(read.resource)} ${read.key} could not be verified; the next run verifies again`
    if (read.resource.kind === 'group') heldGroups.set(read.resource.name, detail)
    else {
      const { id } = read.resource
      heldInstances.add(id)
      for (const instance of all)
        if (instance.tags[TAG_REPLACING_INSTANCE] === id) heldInstances.add(instance.id)
      const group = groupOf.get(id)
      if (group !== undefined && !heldGroups.has(group)) heldGroups.set(group, detail)
    }
  }
  return { groups: heldGroups, instances: heldInstances }
}
