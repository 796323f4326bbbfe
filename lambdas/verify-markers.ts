/**
 * Both Lambdas' observe, last step: the markers on what was read are verified (the port asks KMS; the replacer only
 * those its run may act on, core/marker-relevance.ts), and core sees only believed values. The others are reported (untrusted, by both Lambdas' report step) or hold back their group for
 * this run (unverifiable), so a KMS outage releases nothing an open swap holds.
 */
import type { Log, MetricsSink } from './core/log.ts'
import { instancesActedOn, type MarkerRelevance, withoutInstanceMarkers } from './core/marker-relevance.ts'
import {
  formatUntrustedMarker,
  heldByUnverifiable,
  judgeMarkers,
  markerReads,
  type UntrustedMarker,
  withBelievedGroupMarkers,
  withBelievedInstanceMarkers,
} from './core/markers.ts'
import { DIMENSION_REGION, Metric } from './core/metric-names.ts'
import type { CloudPort } from './core/port.ts'
import type { Group, Instance } from './core/types.ts'

export interface VerifiedObservation {
  readonly groups: readonly Group[]
  /** By id, with only their believed markers. */
  readonly instances: ReadonlyMap<string, Instance>
  readonly untrusted: readonly UntrustedMarker[]
  /** Group name → why it waits this run. */
  readonly heldGroups: ReadonlyMap<string, string>
  /** Instances carrying (or naming a partner carrying) an unverifiable marker: nothing is done to them. */
  readonly heldInstances: ReadonlySet<string>
}

/**
 * With `relevance`, only the markers of instances the run may act on are verified; the others' are
 * dropped unverified (core/marker-relevance.ts). Without, every marker read is verified.
 */
export const verifyObserved = async (
  cloud: Pick<CloudPort, 'verifyMarkers'>,
  groups: readonly Group[],
  instances: readonly Instance[],
  now: Date,
  relevance?: MarkerRelevance,
): Promise<VerifiedObservation> => {
  const actedOn = relevance === undefined ? undefined : instancesActedOn(relevance, instances)
  const checked = actedOn === undefined ? instances : instances.filter((i) => actedOn.has(i.id))
  const reads = markerReads(groups, checked)
  const verdicts = reads.length === 0 ? [] : await cloud.verifyMarkers(reads)
  const judged = judgeMarkers(reads, verdicts, now)
  const held = heldByUnverifiable(judged.unverifiable, groups, instances)
  const believed = new Map<string, Instance>()
  for (const i of instances)
    believed.set(
      i.id,
      actedOn === undefined || actedOn.has(i.id)
        ? withBelievedInstanceMarkers(i, judged)
        : withoutInstanceMarkers(i),
    )
  return {
    groups: groups.map((group) => withBelievedGroupMarkers(group, judged)),
    instances: believed,
    untrusted: judged.untrusted,
    heldGroups: held.groups,
    heldInstances: held.instances,
  }
}

/** Markers that did not verify (core/markers.ts): a warning each, and their count per region. */
export const reportForgedMarkers = (
  { log, metrics }: { readonly log: Log; readonly metrics: MetricsSink },
  region: string,
  markers: readonly UntrustedMarker[],
): void => {
  if (markers.length === 0) return
  for (const marker of markers)
    log.warn('marker not believed', { region, marker: formatUntrustedMarker(marker) })
  metrics.emit({ [DIMENSION_REGION]: region }, [
    { name: Metric.ForgedMarkers, unit: 'Count', value: markers.length },
  ])
}
