/**
 * A run request that asks for a revert (`spotswap revert`, a region-work message with `revert`): the
 * replacer writes the group's `spotswap:revert` marker (signed like every marker spotswap acts on), and the
 * same run plans the revert's first step (core/revert/plan.ts). A group already reverting, or reverted, is
 * left as it is; so is one whose markers cannot be verified this run (its marker may be an open step). A
 * stalled revert (no unit of spotswap's held) starts over with its count at zero.
 */
import type { Log } from '../core/log.ts'
import type { CloudPort } from '../core/port.ts'
import { formatRevertMarker, readRevertMarker, TAG_REVERT } from '../core/revert/marker.ts'
import type { ManagedGroup, RegionSnapshot } from './observe.ts'

export interface RevertRequest {
  readonly cloud: CloudPort
  readonly log: Log
  readonly dryRun: boolean
  /** The groups asked to revert; undefined or empty for a run that asks nothing. */
  readonly revert?: readonly string[] | undefined
}

const REQUESTED = formatRevertMarker({ phase: 'requested' })

const requestOne = async (options: RevertRequest, managed: ManagedGroup): Promise<ManagedGroup> => {
  const { group } = managed
  if (!options.revert?.includes(group.name)) return managed
  const region = options.cloud.region
  // A stalled revert starts over when asked again (core/revert/step.ts): that is its owner's retry.
  const stalled = readRevertMarker(group.tags)
  const retry = stalled.kind === 'read' && stalled.marker.phase === 'stalled'
  if ((group.tags[TAG_REVERT] !== undefined && !retry) || managed.markersUnverifiable !== undefined) {
    options.log.info('revert asked for a group already reverting, or whose markers wait: left as it is', {
      region,
      group: group.name,
    })
    return managed
  }
  if (!options.dryRun) await options.cloud.tagGroup(group.name, { [TAG_REVERT]: REQUESTED })
  options.log.info(retry ? 'stalled revert asked again: starting over' : 'revert requested', {
    region,
    group: group.name,
    dryRun: options.dryRun,
  })
  return { ...managed, group: { ...group, tags: { ...group.tags, [TAG_REVERT]: REQUESTED } } }
}

/** The snapshot with the marker of each group asked to revert, written first (not in a dry run). */
export const requestReverts = async (
  options: RevertRequest,
  snapshot: RegionSnapshot,
): Promise<RegionSnapshot> => {
  if (options.revert === undefined || options.revert.length === 0) return snapshot
  const groups: ManagedGroup[] = []
  for (const managed of snapshot.groups) groups.push(await requestOne(options, managed))
  return { ...snapshot, groups }
}
