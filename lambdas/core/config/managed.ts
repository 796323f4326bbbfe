/**
 * Which groups spotswap manages. Shared by the replacer and the interruption handler, so both always
 * agree: an instance of a group the replacer would not touch is never touched on interruption either.
 */

import type { GroupQuery } from '../port.ts'
import type { Group } from '../types.ts'
import type { GlobalConfig, TagFilter } from './config.ts'
import { matchesAny, matchesGlob } from './glob.ts'

const matchesAll = (tags: Readonly<Record<string, string>>, filters: readonly TagFilter[]): boolean =>
  filters.every((filter) => {
    const value = tags[filter.key]
    return value !== undefined && matchesGlob(value, filter.value)
  })

/** opt-out excludes a group that sets any filter key to `false` (AutoSpotting's `spot-enabled=false`). */
const optedOut = (tags: Readonly<Record<string, string>>, filters: readonly TagFilter[]): boolean =>
  filters.some((filter) => tags[filter.key]?.trim().toLowerCase() === 'false')

export const isManaged = (
  tags: Readonly<Record<string, string>>,
  config: Pick<GlobalConfig, 'tagFilters' | 'tagFilteringMode'>,
): boolean =>
  config.tagFilteringMode === 'opt-in'
    ? matchesAll(tags, config.tagFilters)
    : !optedOut(tags, config.tagFilters)

/**
 * The narrowest server-side query that cannot miss a managed group: in opt-in mode the first filter
 * (by exact value when it has no wildcard), in opt-out mode every group.
 */
export const groupQuery = (config: Pick<GlobalConfig, 'tagFilters' | 'tagFilteringMode'>): GroupQuery => {
  const first = config.tagFilters[0]
  if (config.tagFilteringMode === 'opt-out' || first === undefined)
    return { tagKey: undefined, tagValues: [] }
  const exact = !/[*?]/.test(first.value)
  return { tagKey: first.key, tagValues: exact ? [first.value] : [] }
}

/** Whether REGIONS covers a region (empty REGIONS covers every enabled region). */
export const isRegionCovered = (region: string, config: Pick<GlobalConfig, 'regions'>): boolean =>
  config.regions.length === 0 || matchesAny(region, config.regions)

/** Auto Scaling reports `Delete in progress` on a group being deleted: nothing may be done to it. */
export const isBeingDeleted = (group: Pick<Group, 'status'>): boolean =>
  group.status?.toLowerCase().includes('delete') === true

/** Auto Scaling lifecycle states in which an instance is already on its way out of its group. */
export const isLeavingGroup = (lifecycleState: string): boolean =>
  /^(Terminating|Terminated|Detaching|Detached)/.test(lifecycleState)

/** Whether `instanceId` is a member of `group` that is not leaving it. */
export const staysInGroup = (group: Group, instanceId: string): boolean =>
  group.members.some((m) => m.instanceId === instanceId && !isLeavingGroup(m.lifecycleState))
