/** The tags a replacement launches with: what it inherits from its group and partner, and spotswap's own. */
import {
  TAG_INTERRUPTION_WARNED,
  TAG_JOINED_GROUP,
  TAG_LAUNCHED_BY,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_NO_SPOT_CAPACITY_UNTIL,
  TAG_REBALANCE_AT_RISK,
  TAG_REPLACED_TYPE,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP_ID,
} from '../constants.ts'
import { isMarker } from '../markers.ts'
import type { Group, Instance } from '../types.ts'

/** Tags that describe one instance's own state and must not be copied onto its replacement. */
const NOT_INHERITED = new Set([
  // A new launch has joined no group yet (a spot member replaced ahead carries it).
  TAG_JOINED_GROUP,
  TAG_REBALANCE_AT_RISK,
  TAG_INTERRUPTION_WARNED,
  TAG_NO_SPOT_CAPACITY_UNTIL,
  TAG_REPLACEMENT_ATTEMPT,
  // The swap that attached the partner is not the launch's: a launch named by a swap was attached by it.
  TAG_SWAP_ID,
])

/**
 * By key rather than Object.entries, which makes an array per tag: this runs for every launch of a run.
 * No marker is copied (core/markers.ts): each states something of its own instance, its MAC covers that
 * instance, and a launch's tags are not signed, so a copy would be a marker spotswap itself does not
 * believe (the partner's TAG_ECS_DRAINED on its replacement was).
 */
const copyInherited = (tags: Record<string, string>, source: Readonly<Record<string, string>>): void => {
  for (const key of Object.keys(source)) {
    if (!key.startsWith('aws:') && !NOT_INHERITED.has(key) && !isMarker(key))
      tags[key] = source[key] as string
  }
}

export const launchTags = (
  group: Group,
  original: Instance,
  replacedType: string,
): Record<string, string> => {
  const tags: Record<string, string> = {}
  copyInherited(tags, group.propagatedTags)
  copyInherited(tags, original.tags)
  tags[TAG_LAUNCHED_BY] = 'true'
  tags[TAG_LAUNCHED_FOR_GROUP] = group.name
  tags[TAG_REPLACING_INSTANCE] = original.id
  tags[TAG_REPLACED_TYPE] = replacedType
  return tags
}
