import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { oracleFigures } from '../../tools/bench/oracle.ts'
import { commitmentOracleFigures } from '../../tools/bench/oracle-commitments.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'
import { group, parse, rawScenario, ZONES } from '../sim/support.ts'

const RI_RATE = 0.05

const figures = (commitments: Record<string, unknown> | undefined) => {
  const scenario = parse(
    rawScenario([group('web', { desired: 3 })], {}, commitments === undefined ? {} : { commitments }),
  )
  const { config } = parseGlobalConfig(scenario.env)
  return {
    plain: oracleFigures(scenario, config, embeddedCatalog()),
    committed: commitmentOracleFigures(scenario, config, embeddedCatalog()),
  }
}

describe('commitmentOracleFigures', () => {
  it('keeps on demand the member an RI pays for and moves the others to spot', () => {
    const { plain, committed } = figures({
      reservedInstances: [{ type: 'm5.large', count: 1, hourlyRateUsd: RI_RATE }],
    })
    // Two hours: the RI's fee, and two of the plain oracle's three spot instances.
    expect(committed?.billUsd).toBeCloseTo(2 * RI_RATE + (plain.costUsd * 2) / 3, 3)
    // The baseline, three m5.large on demand with the RI paying for one.
    expect(committed?.billSavingsPct).toBeCloseTo(
      100 * (1 - (committed?.billUsd ?? 0) / (2 * RI_RATE + 2 * 2 * 0.096)),
      1,
    )
  })

  it('leaves the RI to unmanaged usage that takes it first, and moves every member', () => {
    const { plain, committed } = figures({
      reservedInstances: [{ type: 'm5.large', count: 1, hourlyRateUsd: RI_RATE }],
      unmanagedUsage: [{ type: 'm5.large', zone: 'us-east-1a', count: 1 }],
    })
    expect(committed?.billUsd).toBeCloseTo(2 * RI_RATE + plain.costUsd, 3)
  })

  it('gives the RI to the member an open Capacity Reservation holds, and moves the member it would have kept', () => {
    const web = group('web', { desired: 1 })
    const render = group('render', { instanceType: 'm5.2xlarge', desired: 1 })
    const scenario = parse(
      rawScenario(
        [web, render],
        {},
        {
          commitments: {
            reservedInstances: [{ type: 'm5.large', count: 4, hourlyRateUsd: RI_RATE }],
            capacityReservations: [{ type: 'm5.2xlarge', zone: ZONES[0], count: 1 }],
          },
        },
      ),
    )
    const { config } = parseGlobalConfig(scenario.env)
    const webAlone = oracleFigures(parse(rawScenario([web])), config, embeddedCatalog())
    const committed = commitmentOracleFigures(scenario, config, embeddedCatalog())
    // Two hours: the RI's fee, which pays for the held m5.2xlarge's slot (16 units of 16), and web on spot.
    expect(committed?.billUsd).toBeCloseTo(2 * 4 * RI_RATE + webAlone.costUsd, 3)
  })

  it('leaves unused the Savings Plan slice no member is worth keeping on demand for, and says so', () => {
    // $0.02 an hour pays for 29% of an m5.large's hour at the Compute plan's rate: keeping one for it costs
    // the other 71% at the on-demand price, more than its spot replacement.
    const { plain, committed } = figures({ savingsPlans: [{ kind: 'compute', hourlyCommitmentUsd: 0.02 }] })
    expect(committed?.billUsd).toBeCloseTo(2 * 0.02 + plain.costUsd, 3)
    expect(committed?.commitmentWasteUsd).toBeCloseTo(2 * 0.02, 4)
  })

  it('leaves nothing unused when the RI pays for the member it keeps', () => {
    const { committed } = figures({
      reservedInstances: [{ type: 'm5.large', count: 1, hourlyRateUsd: RI_RATE }],
    })
    expect(committed?.commitmentWasteUsd).toBe(0)
  })

  it('keeps the on-demand minimum on the member a zonal RI pays for, not in the first slot', () => {
    const scenario = parse(
      rawScenario(
        [
          group('web', {
            desired: 3,
            tags: { 'spot-enabled': 'true', autospotting_min_on_demand_number: '1' },
          }),
        ],
        {},
        {
          commitments: {
            reservedInstances: [{ type: 'm5.large', count: 1, zone: ZONES[1], hourlyRateUsd: RI_RATE }],
          },
        },
      ),
    )
    const { config } = parseGlobalConfig(scenario.env)
    const plain = oracleFigures(parse(rawScenario([group('web', { desired: 3 })])), config, embeddedCatalog())
    const committed = commitmentOracleFigures(scenario, config, embeddedCatalog())
    // Two hours: the RI's fee for the member in the RI's zone, which is also the minimum, and two on spot.
    expect(committed?.billUsd).toBeCloseTo(2 * RI_RATE + (plain.costUsd * 2) / 3, 3)
    expect(committed?.commitmentWasteUsd).toBe(0)
  })

  it("held to zone balance, moves each member to its own zone's cheapest pool", () => {
    const scenario = parse(
      rawScenario(
        [group('web', { desired: 3 })],
        {},
        {
          commitments: {
            reservedInstances: [{ type: 'm5.large', count: 1, hourlyRateUsd: RI_RATE }],
            unmanagedUsage: [{ type: 'm5.large', zone: ZONES[0], count: 1 }],
          },
        },
      ),
    )
    const { config } = parseGlobalConfig(scenario.env)
    const balanced = oracleFigures(scenario, config, embeddedCatalog(), 'zone-balanced')
    const anywhere = commitmentOracleFigures(scenario, config, embeddedCatalog())
    const committed = commitmentOracleFigures(scenario, config, embeddedCatalog(), 'zone-balanced')
    expect(committed?.billUsd).toBeCloseTo(2 * RI_RATE + balanced.costUsd, 3)
    expect(committed?.billUsd).toBeGreaterThan(anywhere?.billUsd ?? Number.POSITIVE_INFINITY)
  })

  it('has nothing to say on a scenario without commitments', () => {
    expect(figures(undefined).committed).toBeUndefined()
  })
})
