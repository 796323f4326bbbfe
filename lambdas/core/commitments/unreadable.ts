/**
 * When the Savings Plans could not be read, what was read still stands (the RIs and Capacity Reservations
 * pay for what they pay for), and a managed member they do not pay for in full may be a plan's: which
 * cannot be told this run. Such a member is held (`commitment-unreadable`), not replaced: replacing what a
 * plan pays for leaves its commitment unused, which no later run undoes; holding it costs one run's saving,
 * and the next run that reads the plans decides.
 */
import type { MemberCoverage } from './coverage.ts'
import type { UsageLine } from './types.ts'

export const holdUntold = (
  coverage: ReadonlyMap<string, MemberCoverage> | undefined,
  usage: readonly UsageLine[],
  unreadable: string,
): ReadonlyMap<string, MemberCoverage> => {
  const held = new Map(coverage ?? [])
  for (const line of usage) {
    if (!line.managed) continue
    const known = held.get(line.id)
    if (known !== undefined && known.effectiveRateUsd <= 0) continue
    held.set(line.id, {
      instanceId: line.id,
      listRateUsd: line.onDemandRateUsd,
      effectiveRateUsd: 0,
      coveredShare: known?.coveredShare ?? 0,
      by: known?.by ?? [],
      unreadable,
    })
  }
  return held
}
