/**
 * The bound an asg-* policy's spot launches must keep (issue 17): Auto Scaling launches a spot instance
 * only to reach desired capacity, to replace one EC2 interrupted or recommended rebalancing, or to move an
 * on-demand instance to the new distribution. So, per group, launches ≤ the owner's (or ECS managed
 * scaling's) increases of desired capacity + interruption warnings + rebalance recommendations + the on-demand instances the switch
 * replaces + members EC2 stops for a scheduled event (Auto Scaling replaces each) + zone-rebalancing
 * launches (not modelled: 0) + failed health checks (none: see below).
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
  /** Members the scenario's scheduled events may take from the group before its end. */
  readonly scheduledEvents?: number
  readonly bound: number
}

/** Members EC2 may stop for a scheduled event within the scenario: each is replaced by Auto Scaling. */
export const scheduledStops = (scenario: Scenario, groupName: string): number =>
  (scenario.scheduledEvents ?? [])
    .filter((e) => e.group === groupName && e.at + e.leadMs < endOf(scenario))
    .reduce((sum, e) => sum + e.count, 0)

/**
 * What the owner's schedule, and a scaling policy standing for the owner (ECS managed scaling's `changes`),
 * add to a group's desired capacity within the scenario, increases only.
 */
export const desiredIncreases = (
  scenario: Scenario,
  groupName: string,
  changes: readonly (readonly [number, number])[] = [],
): number => {
  const group = scenario.regions.flatMap((r) => r.groups).find((g) => g.name === groupName)
  if (group === undefined) return 0
  let desired = group.desired
  let increases = 0
  for (const [at, next] of [...group.desiredSchedule, ...changes].sort((a, b) => a[0] - b[0])) {
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
      desiredIncreases: desiredIncreases(scenario, group, run.policyDesiredChanges.get(group)),
      interruptions: run.report.groups[group]?.interruptions ?? 0,
      rebalanceRecommendations: stats.rebalanceRecommendations.get(group) ?? 0,
      switchReplaces: stats.switchReplaces.get(group) ?? 0,
    }
    const stops = scheduledStops(scenario, group)
    return {
      group,
      spotLaunches: stats.spotLaunches.get(group) ?? 0,
      ...terms,
      ...(stops > 0 ? { scheduledEvents: stops } : {}),
      bound:
        terms.desiredIncreases +
        terms.interruptions +
        terms.rebalanceRecommendations +
        terms.switchReplaces +
        stops +
        HEALTH_CHECK_ALLOWANCE,
    }
  })
}
