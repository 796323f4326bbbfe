/**
 * Issue 17's bound, over generated scenarios and the committed ones: an asg-* policy's spot launches per
 * group are at most the owner's increases of desired capacity + interruptions + rebalance
 * recommendations + the on-demand instances the switch replaces (+ the allowances of launch-bound.ts).
 * A model that launches an instance its own scale-in removes at the next pass breaks it within hours.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { scenarioPath } from '../../tools/bench/bench.ts'
import { launchBounds } from '../../tools/bench/launch-bound.ts'
import { SCENARIO_KEYS } from '../../tools/bench/results.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'
import { ASG_LOWEST_PRICE_POLICY, ASG_PRICE_CAPACITY_OPTIMIZED_POLICY } from '../../tools/sim/policy.ts'
import { loadScenarioFile } from '../../tools/sim/scenario/load.ts'
import { parseScenario } from '../../tools/sim/scenario/parse.ts'
import type { Scenario } from '../../tools/sim/scenario/types.ts'
import { simulateRun } from '../../tools/sim/simulate.ts'
import { inlineTrace } from './support.ts'

const POLICIES = [ASG_LOWEST_PRICE_POLICY, ASG_PRICE_CAPACITY_OPTIMIZED_POLICY]
/** The shapes of issue 17: large types, few compatible pools (g4dn), zones without any (us-east-1c). */
const TYPES = ['m5.large', 'c5.xlarge', 'r5.16xlarge', 'g4dn.xlarge']
/** Pools that capacity changes may hit: the cheap compatible types of TYPES. */
const POOL_TYPES = [
  'm5.large',
  'm5a.large',
  'm5d.large',
  'c5.xlarge',
  'c5a.xlarge',
  'r5b.16xlarge',
  'g4dn.2xlarge',
]
const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c', 'us-east-1d', 'us-east-1f']
const HOURS = 3
const START_MS = Date.parse('2022-05-31T18:00:00Z')
const iso = (minutes: number) => new Date(START_MS + minutes * 60_000).toISOString()

const groupArbitrary = (index: number) =>
  fc
    .record({
      instanceType: fc.constantFrom(...TYPES),
      desired: fc.integer({ min: 0, max: 8 }),
      minShare: fc.integer({ min: 0, max: 100 }),
      headroom: fc.integer({ min: 0, max: 8 }),
      // Four in five groups managed.
      managed: fc.integer({ min: 0, max: 4 }).map((n) => n > 0),
      minimum: fc.oneof(
        fc.constant({}),
        fc.integer({ min: 0, max: 3 }).map((n) => ({ autospotting_min_on_demand_number: String(n) })),
        fc.integer({ min: 0, max: 60 }).map((p) => ({ autospotting_min_on_demand_percentage: String(p) })),
      ),
      protectedShare: fc.integer({ min: 0, max: 100 }),
      terminationHook: fc.boolean(),
      launch: fc.constantFrom('template', 'configuration'),
      steps: fc.array(
        fc.tuple(fc.integer({ min: 1, max: HOURS * 60 - 1 }), fc.integer({ min: 0, max: 100 })),
        {
          maxLength: 3,
        },
      ),
    })
    .map((g) => {
      const min = Math.floor((g.desired * g.minShare) / 100)
      const max = g.desired + g.headroom
      return {
        name: `group-${index}`,
        instanceType: g.instanceType,
        min,
        max,
        desired: g.desired,
        tags: { ...(g.managed ? { 'spot-enabled': 'true' } : {}), ...g.minimum },
        protectedFromScaleIn: Math.floor((g.desired * g.protectedShare) / 100),
        terminationHook: g.terminationHook,
        launch: g.launch,
        desiredSchedule: g.steps
          .sort(([a], [b]) => a - b)
          .map(([at, share]) => [iso(at), min + Math.round(((max - min) * share) / 100)]),
      }
    })

const scenarioArbitrary = fc
  .record({
    seed: fc.integer({ min: 0, max: 1000 }),
    zones: fc.subarray(ZONES, { minLength: 1 }),
    groupCount: fc.integer({ min: 1, max: 3 }),
    groups: fc.tuple(groupArbitrary(0), groupArbitrary(1), groupArbitrary(2)),
    outages: fc.array(
      fc.tuple(
        fc.constantFrom(...POOL_TYPES),
        fc.constantFrom(...ZONES),
        fc.constantFrom('hourly:1,0,1', 'hourly:0,1', 'none'),
      ),
      { maxLength: 6 },
    ),
    interruptions: fc.array(
      fc.tuple(
        fc.integer({ min: 1, max: HOURS * 60 - 1 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 1, max: 3 }),
      ),
      { maxLength: 3 },
    ),
  })
  .map((s) => {
    const groups = s.groups.slice(0, s.groupCount)
    return {
      name: 'generated',
      seed: s.seed,
      start: iso(0),
      durationHours: HOURS,
      scheduleMinutes: 5,
      env: { TAG_FILTERS: 'spot-enabled=true' },
      regions: {
        'us-east-1': {
          zones: s.zones,
          capacity: Object.fromEntries(
            s.outages
              .filter(([, zone]) => s.zones.includes(zone))
              .map(([type, zone, trace]) => [
                `${type}/${zone}`,
                trace === 'none' ? { available: false } : { trace },
              ]),
          ),
          groups,
        },
      },
      interruptions: s.interruptions
        .filter(([, group]) => group < groups.length)
        .map(([at, group, count]) => ({ at: iso(at), group: `group-${group}`, count })),
    }
  })

const parse = (raw: unknown): Scenario =>
  parseScenario(raw, { source: 'generated', catalog: embeddedCatalog(), resolveTrace: inlineTrace })

/** Every group's launches and bound under both asg-* policies, the groups over it first. */
const overBound = async (scenario: Scenario) => {
  const over: unknown[] = []
  for (const policy of POLICIES) {
    const run = await simulateRun(scenario, { policy })
    for (const bound of launchBounds(scenario, run))
      if (bound.spotLaunches > bound.bound) over.push({ policy: policy.name, ...bound })
  }
  return over
}

describe('the asg-* spot launch bound', () => {
  it('holds on 200 generated scenarios (five-zone regions, protected minimums, scale-outs, outages)', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary, async (raw) => {
        expect(await overBound(parse(raw))).toEqual([])
      }),
      { numRuns: 200, seed: 17 },
    )
  }, 600_000)

  // The committed scenarios, faults off (the asg-* policies make no API call, so faults change nothing).
  it.each(SCENARIO_KEYS)(
    'holds on the committed scenario %s',
    async (key) => {
      const scenario = loadScenarioFile(scenarioPath(key))
      const quiet = { ...scenario, faults: { ...scenario.faults, apiErrorRate: 0, crashRate: 0 } }
      expect(await overBound(quiet)).toEqual([])
    },
    120_000,
  )
})
