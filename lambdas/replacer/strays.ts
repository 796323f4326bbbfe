/**
 * Cleans up one region's strays: reads their partners' records and their group membership, and
 * terminates the ones core/region/strays.ts judges spotswap's and in no group. The others are reported.
 */
import { TAG_REPLACING_INSTANCE } from '../core/constants.ts'
import type { Log, MetricsSink } from '../core/log.ts'
import type { TerminateSpotAction } from '../core/plan/actions.ts'
import type { CloudPort } from '../core/port.ts'
import { judgeStrays, launchedForOf, strayPartnerIds, strayTerminations } from '../core/region/strays.ts'
import type { Group, Instance } from '../core/types.ts'
import { verifyObserved } from '../verify-markers.ts'
import { executeActions } from './execute.ts'
import { describeError, type Outcome } from './outcome.ts'
import { reportUntrusted } from './report.ts'

interface StrayOptions {
  readonly log: Log
  readonly metrics: MetricsSink
  readonly dryRun: boolean
  readonly now: Date
}

/** Strays a failed read left for the next run: a warning. The region's groups went on. */
export const reportStraysUnreadable = (log: Log, region: string, error: string): void =>
  log.warn('strays unreadable: left for the next run', { region, error })

export const cleanStrays = async (
  candidates: readonly Instance[],
  groups: ReadonlyMap<string, Group> | undefined,
  cloud: CloudPort,
  options: StrayOptions,
): Promise<Outcome[]> => {
  if (candidates.length === 0) return []
  let terminations: TerminateSpotAction[]
  try {
    terminations = await judgedTerminations(candidates, groups, cloud, options)
  } catch (error) {
    // Reads about strays only: they wait for the next run, and the region's groups go on.
    reportStraysUnreadable(options.log, cloud.region, describeError(error))
    return []
  }
  return terminations.length === 0 ? [] : executeActions(cloud, terminations, options.dryRun)
}

/** The strays judged spotswap's and that AWS says are in no group, to terminate; the others reported. */
const judgedTerminations = async (
  candidates: readonly Instance[],
  groups: ReadonlyMap<string, Group> | undefined,
  cloud: CloudPort,
  options: StrayOptions,
): Promise<TerminateSpotAction[]> => {
  const read = await cloud.describeInstances(strayPartnerIds(candidates), { includeTerminated: true })
  // The partners' records and the groups' swap records are believed only once verified (a record read
  // with its MAC parses as none, so an unattached swap's launches read as attached, chaos seed 59); a
  // stray naming an unverifiable one waits.
  const verified = await verifyObserved(cloud, [...(groups?.values() ?? [])], read, options.now)
  const held = verified.heldInstances
  const judged = candidates.filter(
    (i) =>
      !held.has(i.id) &&
      !held.has(i.tags[TAG_REPLACING_INSTANCE] ?? '') &&
      !verified.heldGroups.has(launchedForOf(i)),
  )
  const believedGroups = groups === undefined ? undefined : new Map(verified.groups.map((g) => [g.name, g]))
  const { ours, untrusted } = judgeStrays(judged, believedGroups, verified.instances)
  for (const { group, instance } of untrusted) reportUntrusted(options, cloud.region, group, [instance])
  if (ours.length === 0) return []
  const owners = await cloud.groupOfInstances(ours.map((i) => i.id))
  return strayTerminations(ours, owners)
}
