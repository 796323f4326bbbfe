/**
 * One scenario under every policy: the five simulated ones run the real engine (or Auto Scaling's
 * model) in the simulator; the oracle is computed from the same prices and capacity.
 */
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import type { Catalog } from '../../lambdas/core/types.ts'
import type { MixedInstancesStats } from '../sim/mixed-instances-group.ts'
import { round } from '../sim/report.ts'
import type { Scenario } from '../sim/scenario/types.ts'
import { type SimulationRun, simulateRun } from '../sim/simulate.ts'
import { commitmentOracle, commitmentPolicyFigures } from './commitment-figures.ts'
import { oracleFigures } from './oracle.ts'
import { SIMULATED_POLICIES } from './policies.ts'
import type { PolicyFigures, PolicyKey } from './results.ts'

export interface ScenarioOutcome {
  readonly figures: Readonly<Record<PolicyKey, PolicyFigures>>
  /** Simulated policies' invariant violations (spotswap's safety checks), by policy. */
  readonly violations: Readonly<Partial<Record<PolicyKey, number>>>
}

const sum = (values: Iterable<number>): number => [...values].reduce((total, n) => total + n, 0)

export const policyFigures = (run: SimulationRun): PolicyFigures => {
  const { totals } = run.report
  const invocations = run.invocations.replacerRuns + run.invocations.handlerInvocations
  return {
    savingsPct: totals.savingsPct,
    fairSavingsPct: totals.fairSavingsPct,
    unservedCapacityHours: totals.unservedCapacityHours,
    capacityAvailabilityPct: round(run.availability.totalPct, 3),
    servingAvailabilityPct: round(run.serving.totalPct, 3),
    convergenceMinutes: totals.convergenceMinutes,
    interruptions: totals.interruptions,
    interruptionsPerInstanceDay: totals.interruptionsPerInstanceDay,
    scaleOutLaunches: totals.scaleOutLaunches,
    scaleOutOnDemandMinutes: totals.scaleOutOnDemandMinutes,
    replacements: totals.replacements + sum(run.autoScalingSpotLaunches.values()),
    apiCallsPerRun: invocations === 0 ? null : round(sum(Object.values(totals.apiCalls)) / invocations, 1),
    ...(run.autoScaling === undefined ? {} : { spotPoolsByGroup: spotPoolsByGroup(run.autoScaling) }),
    ...commitmentPolicyFigures(run.report),
  }
}

/** The pools Auto Scaling launched into, per group, sorted so two policies' choices compare as text. */
export const spotPoolsByGroup = (stats: MixedInstancesStats): Record<string, Record<string, number>> =>
  Object.fromEntries(
    [...stats.spotPools]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([group, pools]) => [
        group,
        Object.fromEntries([...pools].sort(([a], [b]) => a.localeCompare(b))),
      ]),
  )

export const runScenario = async (
  scenario: Scenario,
  catalog: Catalog,
  onPolicy?: (policy: PolicyKey) => void,
): Promise<ScenarioOutcome> => {
  const figures: Partial<Record<PolicyKey, PolicyFigures>> = {}
  const violations: Partial<Record<PolicyKey, number>> = {}
  let policyChanges: SimulationRun['policyDesiredChanges'] = new Map()
  for (const [key, policy] of Object.entries(SIMULATED_POLICIES) as [
    Exclude<PolicyKey, 'oracle'>,
    typeof SIMULATED_POLICIES.spotswap,
  ][]) {
    onPolicy?.(key)
    const run = await simulateRun(scenario, { policy, catalog })
    figures[key] = policyFigures(run)
    // The oracle is held to spotswap's: where managed scaling sets desired capacity, the capacity it set then.
    if (key === 'spotswap') policyChanges = run.policyDesiredChanges
    violations[key] = run.report.violations.length
  }
  onPolicy?.('oracle')
  const { config } = parseGlobalConfig(scenario.env)
  const oracle = oracleFigures(scenario, config, catalog, 'anywhere', policyChanges)
  figures.oracle = {
    savingsPct: oracle.savingsPct,
    // The oracle serves every desired instance at every moment.
    fairSavingsPct: oracle.savingsPct,
    unservedCapacityHours: 0,
    capacityAvailabilityPct: 100,
    servingAvailabilityPct: 100,
    convergenceMinutes: 0,
    interruptions: 0,
    interruptionsPerInstanceDay: 0,
    replacements: oracle.launches,
    apiCallsPerRun: null,
    zoneBalancedOracleSavingsPct: oracleFigures(scenario, config, catalog, 'zone-balanced', policyChanges)
      .savingsPct,
    ...commitmentOracle(scenario, config, catalog),
  }
  return { figures: figures as Record<PolicyKey, PolicyFigures>, violations }
}
