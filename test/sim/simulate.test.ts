import { describe, expect, it } from 'vitest'
import { silentLog } from '../../lambdas/core/log.ts'
import { Priority } from '../../tools/sim/clock.ts'
import { simCloud } from '../../tools/sim/cloud.ts'
import type { FaultHooks } from '../../tools/sim/faults.ts'
import { ON_DEMAND_POLICY } from '../../tools/sim/policy.ts'
import { round } from '../../tools/sim/report.ts'
import { simulate, simulateRun } from '../../tools/sim/simulate.ts'
import { group, launchSpotFor, parse, REGION, rawScenario, START_MS } from './support.ts'

const web = group('web', { min: 2, max: 4, desired: 4 })

describe('simulate', () => {
  it('gives the same report byte for byte for the same seed, faults included', async () => {
    const scenario = parse(
      rawScenario([web, group('api', { desired: 2 })], { faults: { apiErrorRate: 0.05, crashRate: 0.02 } }),
    )
    const first = JSON.stringify(await simulate(scenario))
    expect(JSON.stringify(await simulate(scenario))).toBe(first)
    const reseeded = JSON.stringify(await simulate({ ...scenario, seed: scenario.seed + 1 }))
    expect(reseeded).not.toBe(first)
  })

  it('replaces a managed group with spot, keeps its capacity and leaves an unmanaged group alone', async () => {
    const report = await simulate(
      parse(rawScenario([web, group('batch', { desired: 2, tags: { team: 'data' } })])),
    )
    expect(report.groups.web?.final).toMatchObject({ desired: 4, inService: 4, spot: 4, onDemand: 0 })
    expect(report.groups.batch?.final).toEqual({
      desired: 2,
      inService: 2,
      spot: 0,
      onDemand: 2,
      types: { 'm5.large': 2 },
    })
    expect(report.groups.web?.savingsPct).toBeGreaterThan(30)
    expect(report.groups.batch?.savingsPct).toBe(0)
    expect(report.groups.batch?.convergenceMinutes).toBeNull()
    expect(report.totals.capacityAvailabilityPct).toBe(100)
    expect(report.violations).toEqual([])
    // One timeline row per group per 5-minute tick over 2 hours.
    expect(report.timeline).toHaveLength(2 * 24)
  })

  it.each([
    [0, '2022-05-31T18:05:00.000Z'],
    // Launched seconds after the 18:00 run, attached by the 18:15 run: grace is not rounded up to an extra period.
    [900, '2022-05-31T18:15:00.000Z'],
  ])(
    'waits out a health check grace period of %i s before a spot instance joins the group (first at %s)',
    async (grace, first) => {
      const report = await simulate(
        parse(rawScenario([group('web', { desired: 2, healthCheckGracePeriod: grace })])),
      )
      expect(report.timeline.find((row) => row.spot > 0)?.at).toBe(first)
    },
  )

  it('changes nothing under the on-demand policy: actual cost is the on-demand-only cost', async () => {
    const report = await simulate(parse(rawScenario([web])), { policy: ON_DEMAND_POLICY })
    expect(report.totals.actualCostUsd).toBe(report.totals.onDemandOnlyCostUsd)
    expect(report.totals.apiCalls).toEqual({})
    expect(report.totals.convergenceMinutes).toBeNull()
  })

  it('hands an interruption warning to the interruption handler, which detaches the instance so the group backfills (TERMINATION_NOTIFICATION_ACTION=detach)', async () => {
    const report = await simulate(
      parse(
        rawScenario([web], {
          durationHours: 3,
          env: { TERMINATION_NOTIFICATION_ACTION: 'detach' },
          interruptions: [{ at: '2022-05-31T20:00:00Z', group: 'web', count: 2 }],
        }),
      ),
    )
    expect(report.totals.interruptions).toBe(2)
    expect(report.totals.apiCalls['autoscaling:DetachInstances']).toBe(2)
    const rowAt = (time: string) => report.timeline.find((row) => row.at === time && row.group === 'web')
    // The warned members leave at once; Auto Scaling's on-demand backfill is in service by the next tick.
    expect(rowAt('2022-05-31T20:00:00.000Z')).toMatchObject({ desired: 4, inService: 2 })
    expect(rowAt('2022-05-31T20:05:00.000Z')).toMatchObject({ desired: 4, inService: 4, onDemand: 2 })
    expect(report.groups.web?.final).toMatchObject({ inService: 4, spot: 4 })
    expect(report.violations).toEqual([])
  })

  it('replaces interrupted members ahead by default: spot replacements swapped in before EC2 takes them, no backfill', async () => {
    const run = await simulateRun(
      parse(
        rawScenario([web], {
          durationHours: 3,
          interruptions: [{ at: '2022-05-31T20:00:00Z', group: 'web', count: 2 }],
        }),
      ),
    )
    expect(run.report.totals.interruptions).toBe(2)
    expect(run.report.totals.apiCalls['autoscaling:DetachInstances']).toBeUndefined()
    // The replacements are attached while the warned members still serve: the group never runs short.
    expect(run.availability.totalPct).toBe(100)
    expect(run.report.groups.web?.final).toMatchObject({ inService: 4, spot: 4, onDemand: 0 })
    const row = run.report.timeline.find((r) => r.at === '2022-05-31T20:05:00.000Z' && r.group === 'web')
    expect(row).toMatchObject({ desired: 4, inService: 4, onDemand: 0 })
    expect(run.report.violations).toEqual([])
  })

  it('lets an interrupted member leave at once when no other pool can replace it, so the group backfills', async () => {
    const pinned = group('web', {
      min: 2,
      max: 4,
      desired: 4,
      tags: { 'spot-enabled': 'true', autospotting_allowed_instance_types: 'current' },
    })
    const run = await simulateRun(
      parse(
        rawScenario([pinned], {
          durationHours: 3,
          interruptions: [{ at: '2022-05-31T20:00:00Z', group: 'web', count: 1 }],
        }),
      ),
    )
    const byZone = run.report.groups.web?.final
    expect(byZone).toMatchObject({ inService: 4 })
    // Through Auto Scaling, without a decrement: its termination hooks and draining run.
    expect(
      run.report.totals.apiCalls['autoscaling:TerminateInstanceInAutoScalingGroup'],
    ).toBeGreaterThanOrEqual(1)
    expect(run.report.totals.apiCalls['autoscaling:DetachInstances']).toBeUndefined()
    expect(run.report.violations).toEqual([])
  })

  it('terminates a launched spot instance that can never be attached by its orphan deadline', async () => {
    const attachFails: FaultHooks = {
      decide: ({ operation }) =>
        operation === 'autoscaling:AttachInstances'
          ? {
              kind: 'error',
              error: Object.assign(new Error('denied'), {
                name: 'AccessDenied',
                $metadata: { httpStatusCode: 403 },
              }),
            }
          : { kind: 'none' },
    }
    const report = await simulate(parse(rawScenario([group('web', { desired: 1, max: 2 })])), {
      faults: attachFails,
    })
    expect(report.totals.replacements).toBe(0)
    // Launched, never attached, terminated in time again and again (paid for, but no orphan).
    expect(report.totals.actualCostUsd).toBeGreaterThan(report.totals.onDemandOnlyCostUsd)
    expect(report.violations).toEqual([])
    expect(report.groups.web?.final).toMatchObject({ inService: 1, onDemand: 1 })
  })
})

describe('the serving figure', () => {
  const TARGET_GROUP = { type: 'target-group', healthCheckIntervalSeconds: 30, healthyThreshold: 3 }
  const HOUR = 3600
  /** 2 instances behind a target group, 4 from the second hour. */
  const webScalingOut = () =>
    group('web', {
      min: 2,
      max: 4,
      desired: 2,
      loadBalancers: [TARGET_GROUP],
      desiredSchedule: [['2022-05-31T19:00:00Z', 4]],
    })

  it('counts new capacity once it has booted and passed the health checks; a group without load balancers once in service', async () => {
    const scenario = parse(
      rawScenario([
        webScalingOut(),
        group('batch', { desired: 1, max: 2, desiredSchedule: [['2022-05-31T19:00:00Z', 2]] }),
      ]),
    )
    const run = await simulateRun(scenario, { policy: ON_DEMAND_POLICY })
    // web: two instances out for 40 s of boot and 30 s × 3 of checks, of 2 + 4 instance-hours desired.
    expect(run.serving.byGroupPct.web).toBeCloseTo(100 * (1 - (2 * 130) / (6 * HOUR)), 9)
    expect(run.availability.byGroupPct.web).toBeCloseTo(100 * (1 - (2 * 40) / (6 * HOUR)), 9)
    expect(run.serving.byGroupPct.batch).toBeCloseTo(100 * (1 - 40 / (3 * HOUR)), 9)
    expect(run.report.groups.web?.servingAvailabilityPct).toBe(round(run.serving.byGroupPct.web ?? 0, 3))
    expect(run.report.totals.servingAvailabilityPct).toBe(round(run.serving.totalPct, 3))
    expect(run.report.totals.servingAvailabilityPct).toBeCloseTo(100 * (1 - (2 * 130 + 40) / (9 * HOUR)), 3)
  })

  it('charges the capacity a policy left unserved at the on-demand price in the fair savings', async () => {
    const scenario = parse(rawScenario([webScalingOut()]))
    const { report } = await simulateRun(scenario, { policy: ON_DEMAND_POLICY })
    const web = report.groups.web
    if (web === undefined) throw new Error('no web group')
    // Two instances short for 130 s each; on-demand only pays for nothing it does not run.
    expect(web.unservedCapacityHours).toBeCloseTo((2 * 130) / HOUR, 3)
    expect(web.savingsPct).toBeGreaterThanOrEqual(0)
    // The slot left empty is charged at the price of the instance that would have filled it.
    const charged = web.actualCostUsd + web.onDemandOnlyCostUsd * ((2 * 130) / (6 * HOUR))
    expect(web.fairSavingsPct).toBeCloseTo(100 * (1 - charged / web.onDemandOnlyCostUsd), 1)
    expect(web.fairSavingsPct).toBeLessThan(web.savingsPct)
    expect(report.totals.unservedCapacityHours).toBeCloseTo(web.unservedCapacityHours, 3)
  })

  it("is measured against the owner's desired capacity: a swap's own +1 while its replacement gets healthy is no demand", async () => {
    const scenario = parse(rawScenario([group('web', { desired: 2, max: 4, loadBalancers: [TARGET_GROUP] })]))
    let attachedAt = 0
    const run = await simulateRun(scenario, {
      policy: ON_DEMAND_POLICY,
      prepare: (world) => {
        const session = { id: 1, actor: 'replacer' as const, region: REGION, crashed: false, failedCalls: 0 }
        const cloud = simCloud(world, REGION, session, silentLog)
        let spot = ''
        world.clock.schedule(START_MS + 600_000, Priority.external, 'a launch', async () => {
          const launched = await launchSpotFor(cloud, 'web', 'm5.large', 'us-east-1b')
          spot = launched.ok ? launched.instanceId : ''
        })
        world.clock.schedule(START_MS + 700_000, Priority.external, 'its attach', async () => {
          attachedAt = world.clock.now
          await cloud.attachInstances('web', [spot])
        })
      },
    })
    expect(attachedAt).toBeGreaterThan(START_MS)
    expect(run.report.groups.web?.final.desired).toBe(3)
    expect(run.serving.byGroupPct.web).toBe(100)
  })
})
