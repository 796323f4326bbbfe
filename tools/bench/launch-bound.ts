/**
 * The bound an asg-* policy's spot launches must keep (issue 17): Auto Scaling launches a spot instance
 * only to reach desired capacity, to replace one EC2 interrupted or recommended rebalancing, or to move an
 * on-demand instance to the new distribution. So, per group, launches ≤ the owner's increases of desired
 * capacity + interruption warnings + rebalance recommendations + the on-demand instances the switch
 * replaces + zone-rebalancing launches (not modelled: 0) + failed health checks (none: see below).
 */

import { endOf, type Scenario } from '../sim/scenario/types.ts'
import type { SimulationRun } from '../sim/simulate.ts'

/**
 * Launches allowed for failed health checks: none, because the asg-* groups use EC2 health checks (Auto
 * Scaling's default) and an instance Auto Scaling launches always boots in the simulator, so no instance
 * is replaced for a failed check. A model that adds such replacements must raise this, per replacement.
 */
export const HEALTH_CHECK_ALLOWANCE = 0

export interface LaunchBound {
  readonly group: string
  readonly spotLaunches: number
  readonly desiredIncreases: number
  readonly interruptions: number
  readonly rebalanceRecommendations: number
  readonly switchReplaces: number
  readonly bound: number
}

/** What the owner's schedule adds to a group's desired capacity within the scenario, increases only. */
export const desiredIncreases = (scenario: Scenario, groupName: string): number => {
  const group = scenario.regions.flatMap((r) => r.groups).find((g) => g.name === groupName)
  if (group === undefined) return 0
  let desired = group.desired
  let increases = 0
  for (const [at, next] of group.desiredSchedule) {
    if (at >= endOf(scenario)) break
    increases += Math.max(0, next - desired)
    desired = next
  }
  return increases
}

/** Every mixed-instances group of the run with its spot launches and their bound. */
export const launchBounds = (scenario: Scenario, run: SimulationRun): LaunchBound[] => {
  const stats = run.autoScaling
  if (stats === undefined) return []
  return [...stats.switchReplaces.keys()].map((group) => {
    const terms = {
      desiredIncreases: desiredIncreases(scenario, group),
      interruptions: run.report.groups[group]?.interruptions ?? 0,
      rebalanceRecommendations: stats.rebalanceRecommendations.get(group) ?? 0,
      switchReplaces: stats.switchReplaces.get(group) ?? 0,
    }
    return {
      group,
      spotLaunches: stats.spotLaunches.get(group) ?? 0,
      ...terms,
      bound:
        terms.desiredIncreases +
        terms.interruptions +
        terms.rebalanceRecommendations +
        terms.switchReplaces +
        HEALTH_CHECK_ALLOWANCE,
    }
  })
}
