/**
 * The on-demand members a group keeps for good: protected ones (scale-in or API termination protection)
 * and those a commitment pays for, as the simulator bills the region now (commitment-liveness.ts). The
 * engine keeps both (`commitment-covered`), so both count toward the floor a group converges to.
 */
import type { GlobalConfig } from '../../lambdas/core/config/config.ts'
import { coveredInstances } from './commitment-liveness.ts'
import { groupState } from './group-state.ts'
import type { SimGroup, SimRegion } from './state.ts'

export const heldOnDemand = (
  config: GlobalConfig,
  region: SimRegion,
  group: SimGroup,
  now: number,
): number => {
  const managed = (id: string): boolean => {
    const owner = region.groupOf(id)
    return owner !== undefined && groupState(config, region, owner).managed
  }
  const covered = coveredInstances(region, now, (i) => managed(i.id))
  let held = 0
  for (const [id, member] of group.members) {
    if (member.lifecycleState !== 'InService') continue
    const instance = region.instances.get(id)
    if (instance === undefined || instance.lifecycle === 'spot') continue
    if (member.protectedFromScaleIn || instance.terminationProtected || covered.has(id)) held++
  }
  return held
}
