/** Arithmetic on group sizes: how many instances must stay on-demand, how many may be in flight. */
import type { GroupConfig, InFlightLimit } from '../config/config.ts'
import { IN_FLIGHT_AUTO_CHECKED_PERCENT } from '../constants.ts'
import { TAG_ECS_MANAGED } from '../ecs/capacity-provider.ts'
import { hasTrafficSources } from '../group/serving.ts'
import type { MixedInstancesPolicy, TrafficSources } from '../types.ts'

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

/**
 * Whether more than `InService` judges a group's replacements, batch by batch: the health checks of its load
 * balancers (any it has, read or not), or ECS, which moves a drained partner's tasks to them (a group ECS
 * manages carries ECS's tag). A group without either learns nothing from one batch that the next could use.
 */
export const judgedBeyondInService = (
  trafficSources: TrafficSources,
  tags: Readonly<Record<string, string>>,
): boolean =>
  hasTrafficSources(trafficSources) ||
  trafficSources.unreadable.length > 0 ||
  tags[TAG_ECS_MANAGED] !== undefined

/**
 * Replacements allowed at once: a count, or a percentage of the group (rounded up), at least 1. `auto`:
 * IN_FLIGHT_AUTO_CHECKED_PERCENT of a group whose replacements are judged beyond `InService`
 * (judgedBeyondInService), so each batch is judged before the next partner retires; the whole group
 * otherwise, where batches would only slow a broken replacement's spread, never stop it. Partners retire
 * only once their replacements are in service either way, as an instance maintenance policy of 100% to
 * 200% healthy replaces a whole group at once, launching before terminating
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_InstanceMaintenancePolicy.html).
 */
export const inFlightLimit = (limit: InFlightLimit, currentInstances: number, judged: boolean): number => {
  if (limit.kind === 'count') return limit.value
  const percent = limit.kind === 'percent' ? limit.value : judged ? IN_FLIGHT_AUTO_CHECKED_PERCENT : 100
  return Math.max(1, Math.ceil((percent * currentInstances) / 100 - 1e-9))
}
