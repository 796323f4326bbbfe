import { describe, expect, it } from 'vitest'
import { integrateSteps } from '../../tools/sim/costs.ts'
import { onDemandOnlyCost } from '../../tools/sim/report.ts'
import { simulate } from '../../tools/sim/simulate.ts'
import { group, parse, rawScenario } from './support.ts'

const HOUR = 3_600_000

describe('costs', () => {
  it('integrate a step price over time, the first step also applying before it', () => {
    const steps = [
      { at: 2 * HOUR, priceUsd: 1 },
      { at: 3 * HOUR, priceUsd: 3 },
    ]
    expect(integrateSteps(steps, 0, 4 * HOUR)).toBe(1 * 3 + 3 * 1)
    expect(integrateSteps(steps, 2.5 * HOUR, 3.5 * HOUR)).toBe(0.5 + 1.5)
    expect(integrateSteps([], 0, HOUR)).toBe(0)
  })

  it("price the on-demand baseline at the owner's desired capacity over time", () => {
    const scenario = parse(
      rawScenario([group('web', { desired: 2, desiredSchedule: [['2022-05-31T19:00:00Z', 4]] })]),
    )
    const spec = scenario.regions[0]?.groups[0]
    if (spec === undefined) throw new Error('no group')
    // 1 hour at 2 and 1 hour at 4 instances of $0.096.
    expect(onDemandOnlyCost(scenario, spec, 0.096)).toBeCloseTo(0.096 * 6, 10)
  })

  it('charge an untouched group exactly its on-demand baseline', async () => {
    const report = await simulate(parse(rawScenario([group('batch', { desired: 3, tags: {} })])))
    // m5.large on-demand in us-east-1 (embedded table): $0.096/hour, 3 instances, 2 hours.
    expect(report.groups.batch).toMatchObject({
      onDemandOnlyCostUsd: 0.576,
      actualCostUsd: 0.576,
      savingsPct: 0,
    })
  })
})
