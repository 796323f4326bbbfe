/**
 * Hand-made scenarios for the benchmark's tests: one us-east-1 group whose candidates are pinned by an
 * allow list and priced by overrides, and traces defined inline, so every expected figure can be worked
 * out on paper.
 */
import type { CapacityTrace } from '../../tools/data/capacity-traces.ts'
import { embeddedTrace } from '../../tools/data/capacity-traces.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'
import { ASG_PRICE_CAPACITY_OPTIMIZED_POLICY, type SimPolicy } from '../../tools/sim/policy.ts'
import { parseScenario } from '../../tools/sim/scenario/parse.ts'
import type { Scenario } from '../../tools/sim/scenario/types.ts'

export const ZONES = ['us-east-1a', 'us-east-1b']
/** On-demand USD/hour of m5.large in the embedded table. */
export const M5_LARGE_ON_DEMAND = 0.096

/** Inline traces: `hourly:1,0` has capacity in its first hour and none in its second, and so on. */
export const inlineTrace = (name: string): CapacityTrace | undefined => {
  const match = /^hourly:([\d,]+)$/.exec(name)
  if (match?.[1] === undefined) return embeddedTrace(name)
  return { gapSeconds: 3600, instanceType: '', zone: '', data: match[1].split(',').map(Number) }
}

export const pinnedGroup = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'web',
  instanceType: 'm5.large',
  min: 0,
  max: 10,
  desired: 4,
  healthCheckGracePeriod: 0,
  tags: { 'spot-enabled': 'true', autospotting_allowed_instance_types: 'm5.large,m5a.large' },
  ...overrides,
})

export const handMade = (
  region: Record<string, unknown>,
  overrides: Record<string, unknown> = {},
): Scenario =>
  parseScenario(
    {
      name: 'hand-made',
      seed: 1,
      start: '2022-05-31T18:00:00Z',
      durationHours: 2,
      scheduleMinutes: 5,
      env: { TAG_FILTERS: 'spot-enabled=true' },
      regions: { 'us-east-1': { zones: ZONES, groups: [pinnedGroup()], ...region } },
      ...overrides,
    },
    { source: 'test', catalog: embeddedCatalog(), resolveTrace: inlineTrace },
  )

/** m5a.large is the cheapest pool in us-east-1a; m5.large costs the same in both zones. */
export const PRICES = {
  'm5.large': { 'us-east-1a': 0.04, 'us-east-1b': 0.04 },
  'm5a.large': { 'us-east-1a': 0.03, 'us-east-1b': 0.05 },
}

/** asg-price-capacity-optimized with capacity rebalancing off: interruptions only, no early replacement. */
export const PCO_WITHOUT_REBALANCING: SimPolicy = {
  ...ASG_PRICE_CAPACITY_OPTIMIZED_POLICY,
  mixedInstances: {
    spotAllocationStrategy: 'price-capacity-optimized',
    spotInstancePools: 2,
    capacityRebalance: false,
  },
}
