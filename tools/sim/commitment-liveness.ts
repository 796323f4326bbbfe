/**
 * Whether a member the engine keeps as `commitment-covered` is one: the region's on-demand instances
 * running now, and the scenario's unmanaged usage in effect, billed for an hour with the commitments in
 * effect, the unmanaged usage and unmanaged groups' instances first, the newest members next (as the engine assumes: it replaces the
 * oldest first); the member must take some of a commitment, or a slot of an open Capacity Reservation that
 * starts within its horizon (lambdas/core/commitments/upcoming.ts).
 */
import { billHour } from '../../lambdas/core/commitments/bill.ts'
import type { UsageLine } from '../../lambdas/core/commitments/types.ts'
import { upcomingCovers } from '../../lambdas/core/commitments/upcoming.ts'
import { commitmentsAt, unmanagedLines } from './commitment-bill.ts'
import type { SimInstance, SimRegion } from './state.ts'

const HOUR_MS = 3_600_000

const lineOf = (region: SimRegion, instance: SimInstance, managed: boolean): UsageLine => ({
  id: instance.id,
  type: instance.type,
  zone: instance.zone,
  region: region.name,
  platform: instance.platform,
  tenancy: 'default',
  managed,
  onDemandRateUsd: region.market.onDemandPrice(instance.type, instance.platform) ?? 0,
  seconds: 3600,
})

/**
 * The region's on-demand instances some commitment pays for at `now` (any part of their hour, or a slot of
 * an open Capacity Reservation), billed as the module comment says.
 */
export const coveredInstances = (
  region: SimRegion,
  now: number,
  /** Whether an instance is a member of a group spotswap manages; the others take commitments first. */
  managed: (instance: SimInstance) => boolean,
): ReadonlySet<string> => {
  if (region.commitments === undefined) return new Set()
  const running = [...region.instances.values()]
    .filter((i) => i.state === 'running' && i.lifecycle === 'on-demand')
    .sort((a, b) => b.launchMs - a.launchMs)
  const rate = (type: string, platform: string) => region.market.onDemandPrice(type, platform) ?? 0
  const lines = [
    ...unmanagedLines({ name: region.name, commitments: region.commitments }, now, now + HOUR_MS, rate),
    ...running.map((i) => lineOf(region, i, managed(i))),
  ]
  const commitments = commitmentsAt(region, now)
  const bill = billHour(lines, commitments, 'unmanaged-first')
  const upcoming = upcomingCovers(bill.lines.slice(0, lines.length), commitments.upcomingReservations ?? [])
  return new Set(
    bill.lines
      .filter((l) => l.covers.length > 0 || l.reservedCapacitySeconds > 0 || upcoming.has(l.line.id))
      .map((l) => l.line.id),
  )
}

export const coveredByCommitment = (
  region: SimRegion,
  instanceId: string,
  now: number,
  managed: (instance: SimInstance) => boolean,
): boolean => coveredInstances(region, now, managed).has(instanceId)
