/**
 * Whether a member the engine keeps as `commitment-covered` is one: the region's on-demand instances
 * running now, and the scenario's unmanaged usage in effect, billed for an hour with the commitments in
 * effect, the unmanaged usage and unmanaged groups' instances first, the newest members next (as the engine assumes: it replaces the
 * oldest first); the member must take some of a commitment.
 */
import { billHour } from '../../lambdas/core/commitments/bill.ts'
import type { UsageLine } from '../../lambdas/core/commitments/types.ts'
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

export const coveredByCommitment = (
  region: SimRegion,
  instanceId: string,
  now: number,
  /** Whether an instance is a member of a group spotswap manages; the others take commitments first. */
  managed: (instance: SimInstance) => boolean,
): boolean => {
  if (region.commitments === undefined) return false
  const running = [...region.instances.values()]
    .filter((i) => i.state === 'running' && i.lifecycle === 'on-demand')
    .sort((a, b) => b.launchMs - a.launchMs)
  const rate = (type: string, platform: string) => region.market.onDemandPrice(type, platform) ?? 0
  const lines = [
    ...unmanagedLines({ name: region.name, commitments: region.commitments }, now, now + HOUR_MS, rate),
    ...running.map((i) => lineOf(region, i, managed(i))),
  ]
  const bill = billHour(lines, commitmentsAt(region, now), 'unmanaged-first')
  const line = bill.lines.find((l) => l.line.id === instanceId)
  return line !== undefined && (line.covers.length > 0 || line.reservedCapacitySeconds > 0)
}
