/**
 * The region's commitment coverage for this run, as COMMITMENTS says: none (`ignore`), the commitments
 * declared for this region, or this account's own (`account`: its active Reserved Instances and Capacity
 * Reservations, read through the port and cached).
 *
 * A Savings Plans read that fails leaves the RIs and reservations read standing, and holds the members they
 * do not pay for in full (core/commitments/unreadable.ts): a warning and a metric. Any other unreadable read
 * is a warning and a metric, and the run plans as if the account held no commitments:
 * spotswap then replaces what it replaced before it knew of commitments. Keeping every on-demand member
 * instead would be safe for a bill with commitments, but would stop every account without any (most of
 * them, and any account whose role lacks the read) from saving anything until the read is fixed.
 */

import type { MemberCoverage } from '../core/commitments/coverage.ts'
import { listingDoubts, settledListing } from '../core/commitments/listing-doubts.ts'
import {
  holdsNone,
  managedTypes,
  type RegionUsageInput,
  regionCoverage,
  regionUsage,
} from '../core/commitments/region-usage.ts'
import { declaredIn } from '../core/commitments/setting.ts'
import type { Commitments, RunningOnDemand, UsageLine } from '../core/commitments/types.ts'
import { commitmentUtilization } from '../core/commitments/utilization.ts'
import type { GlobalConfig } from '../core/config/config.ts'
import type { Log, MetricsSink } from '../core/log.ts'
import { DIMENSION_REGION, Metric } from '../core/metric-names.ts'
import type { CloudPort } from '../core/port.ts'
import { doesRegionWork, type RegionLane } from '../core/region/lanes.ts'
import type { DeferredRegion } from './observe.ts'
import { describeError } from './outcome.ts'

interface CommitmentReads {
  readonly cloud: CloudPort
  readonly config: GlobalConfig
  readonly log: Log
  readonly metrics: MetricsSink
  /** The run's lane and named groups: only a whole-region run of the region's work lane publishes utilization. */
  readonly lane?: RegionLane | undefined
  readonly onlyGroup?: string | undefined
  readonly onlyGroups?: readonly string[] | undefined
}

/**
 * Whether this run publishes the region's CommitmentUtilization: the scheduled run of the lane that does
 * the region's work, one a region per schedule period however many lanes and run requests there are. When
 * that lane is split into chunks, the splitting run publishes it (reportSplitRegionUtilization): a chunk
 * names its groups.
 */
const publishesUtilization = (reads: CommitmentReads): boolean =>
  doesRegionWork(reads.lane) && reads.onlyGroup === undefined && (reads.onlyGroups ?? []).length === 0

/** Capacity Reservation slots priced at the region's on-demand prices, which the adapter does not know. */
const priced = (commitments: Commitments, snapshot: RegionUsageInput): Commitments => ({
  ...commitments,
  capacityReservations: commitments.capacityReservations.map((cr) => ({
    ...cr,
    onDemandRateUsd: snapshot.onDemandPrices.get(cr.platform)?.prices.get(cr.type) ?? cr.onDemandRateUsd,
  })),
})

/**
 * The snapshot with the on-demand prices of every platform the region's usage runs, not only its own
 * groups': Savings Plans rank usage by its savings, so every lane must price the same usage alike to share
 * one assignment (a lane with no group of a platform would otherwise price it 0). A price that cannot be
 * read leaves that platform unpriced, as before.
 */
const pricedUsage = async <S extends RegionUsageInput>(
  cloud: CloudPort,
  snapshot: S,
  usage: readonly RunningOnDemand[] | undefined,
): Promise<S> => {
  const missing = [...new Set((usage ?? []).map((i) => i.platform))].filter(
    (platform) => !snapshot.onDemandPrices.has(platform),
  )
  if (missing.length === 0) return snapshot
  const prices = new Map(snapshot.onDemandPrices)
  for (const platform of missing.sort())
    await cloud.onDemandPrices(platform).then(
      (read) => prices.set(platform, read),
      () => undefined,
    )
  return { ...snapshot, onDemandPrices: prices }
}

const accountCommitments = async (
  reads: CommitmentReads,
  region: string,
  instanceTypes: readonly string[],
): Promise<Commitments | undefined> => {
  const { cloud } = reads
  if (cloud.readCommitments === undefined) return undefined
  try {
    return await cloud.readCommitments(instanceTypes, publishesUtilization(reads))
  } catch (error) {
    reportUnreadable(reads, region, describeError(error), 'all')
    return undefined
  }
}

/**
 * Declared commitments, with the region's on-demand usage read as for the account's own, so every lane
 * weighs them against the same region-wide usage and together they keep no more than they cover. Where the
 * usage cannot be read, they are weighed against the run's own members: each lane may then keep up to
 * what they cover (savings lost for a run, no commitment wasted).
 */
const declaredCommitments = async (
  reads: CommitmentReads,
  declared: Commitments,
  region: string,
): Promise<Commitments> => {
  const read = reads.cloud.readRegionOnDemand
  const holdsNone = declared.reservedInstances.length === 0 && declared.savingsPlans.length === 0
  if (read === undefined || holdsNone) return declared
  try {
    return { ...declared, regionOnDemand: await read() }
  } catch (error) {
    reportUnreadable(reads, region, describeError(error), 'region-usage')
    return declared
  }
}

const UNREADABLE = {
  all: 'commitments unreadable: planned as if the account held none',
  'savings-plans':
    'Savings Plans unreadable: the RIs and reservations read stand; members they do not pay for in full are held this run',
  'region-usage':
    "region's on-demand usage unreadable: the declared commitments are weighed against this run's members alone",
} as const

/**
 * CommitmentsUnreadable and a warning. `all`: nothing was read, the region plans as if it held none.
 * `savings-plans`: the RIs and reservations read stand, members they do not pay for in full are held.
 */
const reportUnreadable = (
  { log, metrics }: Pick<CommitmentReads, 'log' | 'metrics'>,
  region: string,
  error: string,
  what: keyof typeof UNREADABLE,
): void => {
  log.warn(UNREADABLE[what], { region, error })
  metrics.emit({ [DIMENSION_REGION]: region }, [
    { name: Metric.CommitmentsUnreadable, unit: 'Count', value: 1 },
  ])
}

export const commitmentCoverage = async (
  reads: CommitmentReads,
  snapshot: RegionUsageInput,
): Promise<ReadonlyMap<string, MemberCoverage> | undefined> => {
  const setting = reads.config.commitments ?? { mode: 'account' }
  if (setting.mode === 'ignore') return undefined
  const read =
    setting.mode === 'declared'
      ? await declaredCommitments(reads, declaredIn(setting.declared, snapshot.region), snapshot.region)
      : await accountCommitments(reads, snapshot.region, managedTypes(snapshot))
  // Nothing to cover, nothing to use and nothing untold: the region's usage (a line per member) is not worth building.
  if (read === undefined || (holdsNone(read) && read.savingsPlansUnreadable === undefined)) return undefined
  const settled = await settleListing(reads, snapshot, read)
  const seen = await pricedUsage(reads.cloud, snapshot, settled)
  const commitments = priced(read, seen)
  const usage = regionUsage(seen, settled)
  if (read.savingsPlansUnreadable !== undefined)
    reportUnreadable(reads, snapshot.region, read.savingsPlansUnreadable, 'savings-plans')
  else if (publishesUtilization(reads)) reportUtilization(reads.metrics, snapshot.region, usage, commitments)
  return regionCoverage(usage, commitments)
}

/**
 * The cached listing, with the instances it and this run's groups disagree on read by id: one
 * DescribeInstances when they do. Unread (an error), they stay as the listing has them, the safe side of
 * region-usage.ts: a member may be kept until the listing is read again, none is replaced for them.
 */
const settleListing = async (
  { cloud, log }: CommitmentReads,
  snapshot: RegionUsageInput,
  read: Commitments,
): Promise<readonly RunningOnDemand[] | undefined> => {
  const listed = read.regionOnDemand
  if (listed === undefined) return undefined
  const doubts = listingDoubts(snapshot, listed, read.regionRunningIds)
  if (doubts.length === 0) return listed
  try {
    return settledListing(listed, doubts, await cloud.describeInstances(doubts))
  } catch (error) {
    log.warn('instances the commitments listing disagrees on unreadable: the listing stands', {
      region: snapshot.region,
      instances: doubts.length,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    })
    return listed
  }
}

/** CommitmentUtilization: what the region's usage seen uses of its RIs and Savings Plans this hour. */
const reportUtilization = (
  metrics: MetricsSink,
  region: string,
  usage: readonly UsageLine[],
  commitments: Commitments,
): void => {
  const utilization = commitmentUtilization(usage, commitments)
  if (utilization === undefined) return
  metrics.emit({ [DIMENSION_REGION]: region }, [
    { name: Metric.CommitmentUtilization, unit: 'Percent', value: Math.round(utilization * 1000) / 10 },
  ])
}

/**
 * The region's CommitmentUtilization from the run that split it into chunks: no chunk publishes it (each
 * names its groups), so this run weighs the commitments against every managed group's members as the
 * region listing shows them, with no member of its own; its reads are those a chunk makes, cached.
 */
export const reportSplitRegionUtilization = async (
  reads: CommitmentReads,
  deferred: Pick<DeferredRegion, 'region' | 'regionGroups'>,
): Promise<void> => {
  if (!publishesUtilization(reads)) return
  const usage = {
    region: deferred.region,
    groups: [],
    instances: new Map(),
    onDemandPrices: new Map(),
    regionGroups: deferred.regionGroups,
  }
  // The chunks are handed on whatever happens here.
  await commitmentCoverage(reads, usage).catch((error: unknown) =>
    reads.log.warn('commitment utilization of a split region unreadable', {
      region: deferred.region,
      error: describeError(error),
    }),
  )
}
