import { describe, expect, it } from 'vitest'
import { ON_DEMAND_POLICY } from '../../tools/sim/policy.ts'
import { simulateRun } from '../../tools/sim/simulate.ts'
import { group, parse, rawScenario } from './support.ts'

const TARGET_GROUP = { type: 'target-group', healthCheckIntervalSeconds: 30, healthyThreshold: 3 }
/** 2 instances behind a target group from 18:00, 4 from 19:00; the scenario ends at 20:00. */
const webScalingOut = group('web', {
  min: 2,
  max: 4,
  desired: 2,
  loadBalancers: [TARGET_GROUP],
  desiredSchedule: [['2022-05-31T19:00:00Z', 4]],
})
/** A group spotswap does not manage, scaling out at the same time: its launches stay on-demand. */
const batchScalingOut = group('batch', {
  desired: 1,
  max: 2,
  tags: { team: 'data' },
  desiredSchedule: [['2022-05-31T19:00:00Z', 2]],
})

describe('the scale-out figures', () => {
  it('count the on-demand minutes of each instance a managed group launched, until it was replaced', async () => {
    const scenario = parse(rawScenario([webScalingOut, batchScalingOut]))
    const onDemand = (await simulateRun(scenario, { policy: ON_DEMAND_POLICY })).report
    const spotswap = (await simulateRun(scenario)).report
    // Left on-demand, each of web's two launches runs from 19:00 (plus the launch's seconds) to 20:00.
    expect(onDemand.groups.web).toMatchObject({ scaleOutLaunches: 2 })
    expect(onDemand.groups.web?.scaleOutOnDemandMinutes).toBeGreaterThan(55)
    expect(onDemand.groups.web?.scaleOutOnDemandMinutes).toBeLessThanOrEqual(60)
    // spotswap replaces them within minutes: the launch event starts a run, the swap retires them.
    expect(spotswap.groups.web).toMatchObject({ scaleOutLaunches: 2 })
    expect(spotswap.groups.web?.scaleOutOnDemandMinutes).toBeGreaterThan(0)
    expect(spotswap.groups.web?.scaleOutOnDemandMinutes).toBeLessThan(15)
    // The unmanaged group's launch is its own figure, outside the totals of the managed groups.
    expect(spotswap.groups.batch).toMatchObject({ scaleOutLaunches: 0, scaleOutOnDemandMinutes: null })
    expect(spotswap.totals.scaleOutLaunches).toBe(2)
    expect(spotswap.totals.scaleOutOnDemandMinutes).toBe(spotswap.groups.web?.scaleOutOnDemandMinutes)
  })

  it('are none for a group that never scaled out', async () => {
    const { report } = await simulateRun(parse(rawScenario([group('web', { min: 2, max: 4, desired: 2 })])))
    expect(report.totals).toMatchObject({ scaleOutLaunches: 0, scaleOutOnDemandMinutes: null })
  })
})

describe('interruptions per instance-day', () => {
  it('are the interruption warnings over the days of one instance of desired capacity', async () => {
    const web = group('web', { min: 2, max: 4, desired: 4 })
    const scenario = parse(
      rawScenario([web], {
        durationHours: 3,
        interruptions: [{ at: '2022-05-31T20:00:00Z', group: 'web', count: 2 }],
      }),
    )
    const { report } = await simulateRun(scenario)
    expect(report.totals.interruptions).toBe(2)
    // 4 instances × 3 hours = half an instance-day.
    expect(report.totals.interruptionsPerInstanceDay).toBe(4)
    expect(report.groups.web?.interruptionsPerInstanceDay).toBe(4)
    const onDemand = (await simulateRun(scenario, { policy: ON_DEMAND_POLICY })).report
    expect(onDemand.totals.interruptionsPerInstanceDay).toBe(0)
  })
})
