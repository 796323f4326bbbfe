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
import { managedUsage, regionCoverage, regionUsage } from '../core/commitments/region-usage.ts'
import { declaredIn } from '../core/commitments/setting.ts'
import type { Commitments, UsageLine } from '../core/commitments/types.ts'
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
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    reportUnreadable({ log, metrics }, region, why, 'all')
    return undefined
  }
}

/**
 * CommitmentsUnreadable and a warning. `all`: nothing was read, the region plans as if it held none.
 * `savings-plans`: the RIs and reservations read stand, members they do not pay for in full are held.
 */
const reportUnreadable = (
  { log, metrics }: Pick<CommitmentReads, 'log' | 'metrics'>,
  region: string,
  error: string,
  what: 'all' | 'savings-plans',
): void => {
  log.warn(
    what === 'all'
      ? 'commitments unreadable: planned as if the account held none'
      : 'Savings Plans unreadable: the RIs and reservations read stand; members they do not pay for in full are held this run',
    { region, error },
  )
  metrics.emit({ [DIMENSION_REGION]: region }, [
    { name: Metric.CommitmentsUnreadable, unit: 'Count', value: 1 },
  ])
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
  const usage = regionUsage(snapshot, read.regionOnDemand)
  if (read.savingsPlansUnreadable === undefined)
    reportUtilization(reads.metrics, snapshot.region, usage, commitments)
  else reportUnreadable(reads, snapshot.region, read.savingsPlansUnreadable, 'savings-plans')
  return regionCoverage(usage, commitments)
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
