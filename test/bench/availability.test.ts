import { describe, expect, it } from 'vitest'
import { AvailabilityMeter } from '../../tools/sim/availability.ts'

describe('AvailabilityMeter', () => {
  it('weights each state by how long it lasted, per group and over all groups', () => {
    const meter = new AvailabilityMeter()
    meter.observe('web', 0, { inService: 4, desired: 4 })
    meter.observe('api', 0, { inService: 2, desired: 2 })
    meter.observe('web', 60, { inService: 2, desired: 4 })
    meter.observe('web', 120, { inService: 4, desired: 4 })
    const figures = meter.finish(240)
    // web: 4·60 + 2·60 + 4·120 = 840 of 4·240 = 960; api: always served.
    expect(figures.byGroupPct).toEqual({ api: 100, web: 87.5 })
    // web was 2 short for 60 ms: 120 instance-ms.
    expect(figures.byGroupShortHours).toEqual({ api: 0, web: 120 / 3_600_000 })
    // What the owner asked for: web 4 instances for 240 ms, api 2.
    expect(figures.byGroupDesiredHours).toEqual({ api: 480 / 3_600_000, web: 960 / 3_600_000 })
    expect(figures.totalPct).toBeCloseTo((100 * (840 + 480)) / (960 + 480), 9)
  })

  it('counts capacity above desired as desired, and no desired capacity as fully available', () => {
    const meter = new AvailabilityMeter()
    meter.observe('batch', 0, { inService: 6, desired: 4 })
    meter.observe('idle', 0, { inService: 0, desired: 0 })
    expect(meter.finish(100)).toEqual({
      totalPct: 100,
      byGroupPct: { batch: 100, idle: 100 },
      byGroupShortHours: { batch: 0, idle: 0 },
      byGroupDesiredHours: { batch: (4 * 100) / 3_600_000, idle: 0 },
    })
  })
})
