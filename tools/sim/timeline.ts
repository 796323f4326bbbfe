/** One timeline row per group at a schedule tick: its size, spot share and what it costs per hour now. */
import type { GlobalConfig } from '../../lambdas/core/config/config.ts'
import { hourlyCost } from './costs.ts'
import { groupState } from './group-state.ts'
import { round, type TimelineRow } from './report.ts'
import type { World } from './world.ts'

/** `tickMs` labels the rows (the tick's time); the state and prices are those after the tick's runs. */
export const recordTimeline = (world: World, config: GlobalConfig, tickMs: number): TimelineRow[] => {
  const now = world.clock.now
  const at = new Date(tickMs).toISOString()
  const rows: TimelineRow[] = []
  for (const region of world.regions.values()) {
    const costs = new Map<string, number>()
    for (const instance of region.instances.values()) {
      if (instance.costGroup === undefined || instance.state !== 'running') continue
      costs.set(
        instance.costGroup,
        (costs.get(instance.costGroup) ?? 0) + hourlyCost(region.market, instance, now),
      )
    }
    for (const group of region.groups.values()) {
      const state = groupState(config, region, group)
      rows.push({
        at,
        region: region.name,
        group: group.name,
        desired: state.desired,
        inService: state.inService,
        spot: state.spot,
        onDemand: state.onDemand,
        hourlyCostUsd: round(costs.get(group.name) ?? 0, 4),
      })
    }
  }
  return rows
}
