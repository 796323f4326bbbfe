/** Members that never serve because their image is broken (invariant 1's excuse, never-served-invariant.ts). */
import type { SimGroup, SimRegion } from './state.ts'

/**
 * In-service members whose image is broken, in a group behind load balancers: they never serve, so
 * invariant 1 does not count one taken out as lost capacity (the engine takes them out without a
 * decrement, and the group launches one that may serve).
 */
export const brokenMembers = (region: SimRegion, group: SimGroup): Set<string> => {
  const ids = new Set<string>()
  if (group.loadBalancers.length === 0) return ids
  for (const [id, member] of group.members)
    if (member.lifecycleState === 'InService' && region.instances.get(id)?.neverHealthy === true) ids.add(id)
  return ids
}
