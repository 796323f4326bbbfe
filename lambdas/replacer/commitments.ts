/**
 * The region's commitment coverage for this run, as COMMITMENTS says: none (`ignore`), the commitments
 * declared for this region, or this account's own (`account`: its active Reserved Instances and Capacity
 * Reservations, read through the port and cached).
 *
 * An unreadable read is a warning and a metric, and the run plans as if the account held no commitments:
 * spotswap then replaces what it replaced before it knew of commitments. Keeping every on-demand member
 * instead would be safe for a bill with commitments, but would stop every account without any (most of
 * them, and any account whose role lacks the read) from saving anything until the read is fixed.
 */

import type { MemberCoverage } from '../core/commitments/coverage.ts'
import { listingDoubts, settledListing } from '../core/commitments/listing-doubts.ts'
import { managedUsage, regionCoverage, regionUsage } from '../core/commitments/region-usage.ts'
import { declaredIn } from '../core/commitments/setting.ts'
import type { Commitments, RunningOnDemand, UsageLine } from '../core/commitments/types.ts'
import { commitmentUtilization } from '../core/commitments/utilization.ts'
import type { GlobalConfig } from '../core/config/config.ts'
import type { Log, MetricsSink } from '../core/log.ts'
import { DIMENSION_REGION, Metric } from '../core/metric-names.ts'
import type { CloudPort } from '../core/port.ts'
import type { RegionSnapshot } from './observe.ts'

interface CommitmentReads {
  readonly cloud: CloudPort
  readonly config: GlobalConfig
  readonly log: Log
  readonly metrics: MetricsSink
}

/** Capacity Reservation slots priced at the region's on-demand prices, which the adapter does not know. */
const priced = (commitments: Commitments, snapshot: RegionSnapshot): Commitments => ({
  ...commitments,
  capacityReservations: commitments.capacityReservations.map((cr) => ({
    ...cr,
    onDemandRateUsd: snapshot.onDemandPrices.get(cr.platform)?.prices.get(cr.type) ?? cr.onDemandRateUsd,
  })),
})

const accountCommitments = async (
  { cloud, log, metrics }: CommitmentReads,
  region: string,
  usage: readonly UsageLine[],
): Promise<Commitments | undefined> => {
  if (cloud.readCommitments === undefined) return undefined
  try {
    return await cloud.readCommitments(usage.map((line) => line.type))
  } catch (error) {
    log.warn('commitments unreadable: planned as if the account held none', {
      region,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    })
    metrics.emit({ [DIMENSION_REGION]: region }, [
      { name: Metric.CommitmentsUnreadable, unit: 'Count', value: 1 },
    ])
    return undefined
  }
}

export const commitmentCoverage = async (
  reads: CommitmentReads,
  snapshot: RegionSnapshot,
): Promise<ReadonlyMap<string, MemberCoverage> | undefined> => {
  const setting = reads.config.commitments ?? { mode: 'account' }
  if (setting.mode === 'ignore') return undefined
  const read =
    setting.mode === 'declared'
      ? declaredIn(setting.declared, snapshot.region)
      : await accountCommitments(reads, snapshot.region, managedUsage(snapshot))
  if (read === undefined) return undefined
  const commitments = priced(read, snapshot)
  const usage = regionUsage(snapshot, await settleListing(reads, snapshot, read))
  reportUtilization(reads.metrics, snapshot.region, usage, commitments)
  return regionCoverage(usage, commitments)
}

/**
 * The cached listing, with the instances it and this run's groups disagree on read by id: one
 * DescribeInstances when they do. Unread (an error), they stay as the listing has them, the safe side of
 * region-usage.ts: a member may be kept until the listing is read again, none is replaced for them.
 */
const settleListing = async (
  { cloud, log }: CommitmentReads,
  snapshot: RegionSnapshot,
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
