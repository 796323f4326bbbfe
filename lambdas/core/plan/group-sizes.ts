/** Arithmetic on group sizes: how many instances must stay on-demand, how many may be in flight. */
import type { GroupConfig, InFlightLimit } from '../config/config.ts'
import type { MixedInstancesPolicy } from '../types.ts'

/** Rounds half up, as the issue and AutoSpotting specify (2.5 → 3), without float drift (0.5 → 1). */
const roundHalfUp = (value: number): number => Math.floor(value + 0.5 + 1e-9)

/**
 * The on-demand instances a group must keep. MIN_ON_DEMAND_NUMBER and MIN_ON_DEMAND_PERCENTAGE (of the
 * group's current instances) both apply and the larger wins; a MixedInstancesPolicy's own on-demand base
 * and percentage above base are honoured too. Never more than the group has.
 */
export const minOnDemandCount = (
  config: Pick<GroupConfig, 'minOnDemandNumber' | 'minOnDemandPercentage'>,
  currentInstances: number,
  mixedInstancesPolicy: MixedInstancesPolicy | undefined,
): number => {
  const byNumber = config.minOnDemandNumber
  const byPercentage = roundHalfUp((config.minOnDemandPercentage * currentInstances) / 100)
  let byPolicy = 0
  if (mixedInstancesPolicy) {
    const base = Math.min(mixedInstancesPolicy.onDemandBaseCapacity, currentInstances)
    const aboveBase = currentInstances - base
    // AWS rounds the on-demand share above base up, so do we.
    byPolicy =
      base + Math.ceil((mixedInstancesPolicy.onDemandPercentageAboveBaseCapacity * aboveBase) / 100 - 1e-9)
  }
  return Math.min(currentInstances, Math.max(byNumber, byPercentage, byPolicy))
}

/** Replacements allowed at once: a count, or a percentage of the group (rounded up), at least 1. */
export const inFlightLimit = (limit: InFlightLimit, currentInstances: number): number =>
  limit.kind === 'count' ? limit.value : Math.max(1, Math.ceil((limit.value * currentInstances) / 100 - 1e-9))
