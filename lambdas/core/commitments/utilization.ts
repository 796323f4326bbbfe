/**
 * How much of a region's Reserved Instances and Savings Plans an hour of its usage uses: the
 * CommitmentUtilization metric, beside the hourly savings on the dashboard. Billed in AWS's order
 * (bill.ts); only the usage spotswap sees counts (its groups' on-demand members), so usage it does not
 * see (other instances, other regions, Fargate, Lambda) makes the real figure higher, never lower.
 */

import type { CommitmentUse } from './apply.ts'
import { billHour } from './bill.ts'
import type { Commitments, UsageLine } from './types.ts'

/** What one commitment is worth an hour, USD: 0 when not known (a declared RI carries no price). */
const hourlyUsd = (use: CommitmentUse, commitments: Commitments): number => {
  if (use.kind === 'savings-plan') return use.capacity
  const ri = commitments.reservedInstances.find((r) => r.id === use.id)
  return ri === undefined ? 0 : ri.count * ri.hourlyRateUsd
}

/**
 * Share of the hour's commitment used, 0..1, weighted by what each commitment costs; each counts alike
 * when some price is not known. Undefined when the region holds no RI or Savings Plan.
 */
export const commitmentUtilization = (
  usage: readonly UsageLine[],
  commitments: Commitments,
): number | undefined => {
  const uses = billHour(usage, commitments).uses.filter((use) => use.capacity > 0)
  if (uses.length === 0) return undefined
  const weights = uses.map((use) => hourlyUsd(use, commitments))
  const priced = weights.every((w) => w > 0)
  let used = 0
  let available = 0
  for (const [index, use] of uses.entries()) {
    const weight = priced ? (weights[index] ?? 0) : 1
    used += (use.used / use.capacity) * weight
    available += weight
  }
  return Math.min(1, used / available)
}
