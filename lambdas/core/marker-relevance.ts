/**
 * Which instances' markers a replacer run verifies: those a decision of this run may act on. A converged
 * member keeps two markers for good (TAG_JOINED_GROUP, TAG_SWAP_ID), and verifying them costs a KMS
 * request each: two per instance in every run of a new container, flat in nothing. Those two are only
 * ever read about launches outside their group (core/group/provenance.ts), members not yet seen serving
 * (core/swap/never-served.ts) and the pairs of a group's open swap (core/swap/recover.ts,
 * partial-attach.ts). So the markers of an instance are verified when it is one of those, carries a marker
 * that makes spotswap act on a member by itself (a warning, a rebalance mark, a replacement attempt), or
 * is the partner a verified launch names; the others' markers are treated as absent, unverified, which no
 * decision acts on. A marker is never believed without its MAC: it is verified or dropped.
 */
import {
  TAG_INTERRUPTION_WARNED,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_REBALANCE_AT_RISK,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
} from './constants.ts'
import { GROUP_MARKERS, INSTANCE_MARKERS } from './markers.ts'
import type { Group, Instance } from './types.ts'

/** Instance markers that make a run act on the member carrying them, whatever its group's state. */
const ACTING_MARKERS: readonly string[] = [
  TAG_INTERRUPTION_WARNED,
  TAG_REBALANCE_AT_RISK,
  TAG_REPLACEMENT_ATTEMPT,
]

/** What the run acts on: its groups, and the launches outside them it judges. */
export interface MarkerRelevance {
  /** The groups this run plans (a lane's, a chunk's, or the region's). */
  readonly groups: readonly Group[]
  /** Whether the run judges launches made for this group outside any of its groups (its own, or strays). */
  readonly judgesLaunchesFor: (groupName: string) => boolean
}

/** Still carries the launch tags (plain tags, not markers): a launch, or a member not yet seen serving. */
const unsettled = (instance: Instance): boolean =>
  instance.tags[TAG_LAUNCHED_FOR_GROUP] !== undefined || instance.tags[TAG_REPLACING_INSTANCE] !== undefined

const carriesAny = (tags: Readonly<Record<string, string>>, keys: readonly string[]): boolean =>
  keys.some((key) => tags[key] !== undefined)

/** The ids of the instances whose markers this run may act on. */
export const instancesActedOn = (relevance: MarkerRelevance, instances: Iterable<Instance>): Set<string> => {
  // Whether each member's group carries a marker, told once per group rather than once per member.
  const inMarkedGroup = new Map<string, boolean>()
  for (const group of relevance.groups) {
    const marked = carriesAny(group.tags, GROUP_MARKERS)
    for (const member of group.members) inMarkedGroup.set(member.instanceId, marked)
  }
  const ids = new Set<string>()
  const partners: string[] = []
  for (const instance of instances) {
    const marked = inMarkedGroup.get(instance.id)
    const actedOn =
      marked === undefined
        ? unsettled(instance) && relevance.judgesLaunchesFor(instance.tags[TAG_LAUNCHED_FOR_GROUP] ?? '')
        : marked || unsettled(instance) || carriesAny(instance.tags, ACTING_MARKERS)
    if (!actedOn) continue
    ids.add(instance.id)
    const partner = instance.tags[TAG_REPLACING_INSTANCE]
    if (partner !== undefined) partners.push(partner)
  }
  for (const partner of partners) ids.add(partner)
  return ids
}

/** The instance with no marker at all: what core sees of markers it was not asked to verify. */
export const withoutInstanceMarkers = (instance: Instance): Instance => {
  if (!carriesAny(instance.tags, INSTANCE_MARKERS)) return instance
  const tags: Record<string, string> = {}
  for (const [key, value] of Object.entries(instance.tags))
    if (!INSTANCE_MARKERS.includes(key)) tags[key] = value
  return { ...instance, tags }
}
