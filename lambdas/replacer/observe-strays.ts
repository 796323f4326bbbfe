/**
 * The stray scan of a region's observe: launched-for spot instances whose group is not managed (or gone),
 * and the groups they name that still exist (provenance compares their templates).
 */
import { TAG_LAUNCHED_FOR_GROUP } from '../core/constants.ts'
import type { CloudPort, GroupQuery } from '../core/port.ts'
import type { Group, Instance } from '../core/types.ts'
import { describeError } from './outcome.ts'

/** Launched-for spot instances that are members of no managed group and whose group is not managed. */
export const straysAmong = (
  launched: readonly Instance[],
  managed: readonly Group[],
  memberIds: ReadonlySet<string>,
): Instance[] => {
  const names = new Set(managed.map((g) => g.name))
  return launched.filter((i) => !memberIds.has(i.id) && !names.has(i.tags[TAG_LAUNCHED_FOR_GROUP] ?? ''))
}

/**
 * The groups that strays name and that still exist, by name. A group opted out by the value of the filter
 * tag is outside a query for the opted-in value: those are looked up once more by the tag key alone (one
 * call, only when such strays exist). A group that lost the tag altogether is not found: its strays are
 * reported, never terminated.
 */
const groupsOfStrays = async (
  cloud: CloudPort,
  query: GroupQuery,
  strays: readonly Instance[],
  listed: readonly Group[],
): Promise<Map<string, Group>> => {
  const names = new Set(strays.map((i) => i.tags[TAG_LAUNCHED_FOR_GROUP] ?? ''))
  const found = new Map(listed.filter((g) => names.has(g.name)).map((g) => [g.name, g]))
  if (found.size === names.size || query.tagKey === undefined || query.tagValues.length === 0) return found
  for (const group of await cloud.describeGroups({ tagKey: query.tagKey, tagValues: [] }))
    if (names.has(group.name)) found.set(group.name, group)
  return found
}

/** The strays with the groups they name; none when those groups cannot be read (strays wait for the next run). */
export interface StrayScan {
  readonly strays: readonly Instance[]
  readonly strayGroups?: ReadonlyMap<string, Group>
  /** Why the strays were left for the next run: the read of the groups they name failed. */
  readonly straysUnreadable?: string
}

/** A read about strays only: when it fails, the region's groups go on and the strays wait. */
export const scanStrays = async (
  cloud: CloudPort,
  query: GroupQuery,
  strays: readonly Instance[],
  listed: readonly Group[],
): Promise<StrayScan> => {
  try {
    return { strays, strayGroups: await groupsOfStrays(cloud, query, strays, listed) }
  } catch (error) {
    return { strays: [], straysUnreadable: describeError(error) }
  }
}
