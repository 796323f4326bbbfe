/**
 * EC2's scheduled events in the simulator: a retirement announced ahead is carried out at NotBefore (the
 * member stops, Auto Scaling replaces it). Replaced ahead, the group loses no serving capacity; with
 * REPLACE_SCHEDULED off, it serves short while Auto Scaling's replacement boots.
 */
import { describe, expect, it } from 'vitest'
import { isServing, targetState } from '../../tools/sim/load-balancers.ts'
import { scheduleEvent } from '../../tools/sim/maintenance.ts'
import type { ScenarioScheduledEvent } from '../../tools/sim/scenario/types.ts'
import { simulate } from '../../tools/sim/simulate.ts'
import { group, parse, rawScenario, testWorld } from './support.ts'

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

describe('EC2 carrying out each scheduled event', () => {
  /** One web group of 3 behind a target group (30 s × 3); EC2 schedules `code` on a member, due in a minute. */
  const due = (code: ScenarioScheduledEvent['code'], suspendedProcesses: string[] = []) => {
    const sim = testWorld(rawScenario([group('web', { loadBalancers: [TARGET_GROUP], suspendedProcesses })]))
    const member = sim.members('web', 'InService')[0]
    if (member === undefined) throw new Error('no member')
    scheduleEvent(sim.world, sim.region, member, code, sim.world.clock.now + 60_000)
    return { sim, member, web: sim.group('web') }
  }

  it.each([
    'instance-stop',
    'instance-retirement',
    'instance-reboot',
    'system-reboot',
    'system-maintenance',
  ] as const)('%s: Auto Scaling replaces the member at NotBefore', async (code) => {
    const { sim, member, web } = due(code)
    await sim.advance(59_000)
    expect(web.members.get(member.id)?.lifecycleState).toBe('InService')
    await sim.advance(2_000)
    expect(web.members.get(member.id)?.lifecycleState ?? 'gone').toMatch(/^Terminating|gone/)
    expect(sim.members('web', 'Pending')).toHaveLength(1)
  })

  it.each([
    ['instance-reboot', 60],
    ['system-reboot', 300],
    ['system-maintenance', 300],
  ] as const)(
    '%s with ReplaceUnhealthy suspended: offline %d s, serving again once healthy, the event completed',
    async (code, offlineSeconds) => {
      const { sim, member, web } = due(code, ['ReplaceUnhealthy'])
      await sim.advance(61_000)
      expect(web.members.get(member.id)?.lifecycleState).toBe('InService')
      expect(member.state).toBe('running')
      expect(isServing(web, member.id, sim.world.clock.now)).toBe(false)
      const [balancer] = web.loadBalancers
      if (balancer === undefined) throw new Error('no target group')
      expect(targetState(balancer, member.id, sim.world.clock.now)).toEqual({
        state: 'unhealthy',
        reason: 'Target.FailedHealthChecks',
      })
      expect(member.scheduledEvent).toEqual({ code, notBeforeMs: sim.world.clock.now - 1_000 })
      // Back after the outage, then three checks 30 s apart.
      await sim.advance(offlineSeconds * 1000 + 88_000)
      expect(isServing(web, member.id, sim.world.clock.now)).toBe(false)
      await sim.advance(2_000)
      expect(isServing(web, member.id, sim.world.clock.now)).toBe(true)
      expect(sim.members('web')).toHaveLength(3)
      // Described as [Completed] for a week: no longer an event to act on.
      expect(await sim.cloud().scheduledEvents()).toEqual([])
    },
  )
})
