/**
 * EC2's scheduled events in the simulator: a retirement announced ahead is carried out at NotBefore (the
 * member stops, Auto Scaling replaces it). Replaced ahead, the group loses no serving capacity; with
 * REPLACE_SCHEDULED off, it serves short while Auto Scaling's replacement boots.
 */
import { describe, expect, it } from 'vitest'
import { simulate } from '../../tools/sim/simulate.ts'
import { group, parse, rawScenario } from './support.ts'

const TARGET_GROUP = {
  type: 'target-group',
  healthCheckIntervalSeconds: 30,
  healthyThreshold: 3,
  deregistrationDelaySeconds: 300,
}
const kept = (name: string, tags: Record<string, string> = {}) =>
  group(name, {
    min: 2,
    max: 8,
    desired: 4,
    loadBalancers: [TARGET_GROUP],
    tags: { 'spot-enabled': 'true', autospotting_min_on_demand_number: '2', ...tags },
  })
const retire = (name: string, lifecycle: string, at: string) => ({
  at,
  group: name,
  count: lifecycle === 'spot' ? 1 : 2,
  code: 'instance-retirement',
  leadMinutes: 45,
  lifecycle,
})

describe('scheduled retirements', () => {
  it('cost a group that replaces ahead no serving capacity, and one that does not a dip', async () => {
    const report = await simulate(
      parse(
        rawScenario([kept('ahead'), kept('after', { autospotting_replace_scheduled: 'false' })], {
          durationHours: 4,
          scheduledEvents: [
            retire('ahead', 'on-demand', '2022-05-31T19:00:00Z'),
            retire('after', 'on-demand', '2022-05-31T19:00:00Z'),
            retire('ahead', 'spot', '2022-05-31T20:30:00Z'),
            retire('after', 'spot', '2022-05-31T20:30:00Z'),
          ],
        }),
      ),
    )
    expect(report.violations).toEqual([])
    expect(report.groups.ahead?.servingAvailabilityPct).toBe(100)
    expect(report.groups.ahead?.minOnDemandViolationMinutes).toBe(0)
    expect(report.groups.after?.servingAvailabilityPct).toBeLessThan(100)
    expect(report.groups.after?.minOnDemandViolationMinutes).toBeGreaterThan(0)
    expect(report.groups.ahead?.final).toMatchObject({ desired: 4, inService: 4, onDemand: 2, spot: 2 })
    expect(report.totals.apiCalls['autoscaling:SetDesiredCapacity']).toBe(2)
  })
})
