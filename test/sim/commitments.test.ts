import { describe, expect, it } from 'vitest'
import { rateKey } from '../../lambdas/core/commitments/types.ts'
import { REGION_LANES } from '../../lambdas/core/constants.ts'
import { laneOf } from '../../lambdas/core/region/lanes.ts'
import { coveredByCommitment } from '../../tools/sim/commitment-liveness.ts'
import { ON_DEMAND_POLICY } from '../../tools/sim/policy.ts'
import { simClients } from '../../tools/sim/sdk/clients.ts'
import { simulate } from '../../tools/sim/simulate.ts'
import type { SimInstance } from '../../tools/sim/state.ts'
import { group, parse, problemsOf, REGION, rawScenario, START_MS, testWorld } from './support.ts'

const HOUR_MS = 3_600_000

const withCommitments = (commitments: Record<string, unknown>, groups = [group('web')]) =>
  rawScenario(groups, {}, { commitments })

describe('scenario commitments', () => {
  it('fills in the defaults: in effect for the whole run, Linux/UNIX, default tenancy, open, 60% of on demand', () => {
    const region = parse(
      withCommitments({
        reservedInstances: [{ type: 'm5.large', count: 2 }],
        savingsPlans: [{ kind: 'compute', hourlyCommitmentUsd: 1 }],
        capacityReservations: [{ type: 'm5.large', zone: 'us-east-1a', count: 1 }],
        unmanagedUsage: [{ type: 'c5.xlarge', zone: 'us-east-1b', count: 3, end: '2022-05-31T19:00:00Z' }],
      }),
    ).regions[0]
    expect(region?.commitments?.reservedInstances[0]).toMatchObject({
      scope: 'regional',
      region: REGION,
      platform: 'Linux/UNIX',
      tenancy: 'default',
      count: 2,
      hourlyRateUsd: 0.096 * 0.6,
      startMs: Number.NEGATIVE_INFINITY,
      endMs: Number.POSITIVE_INFINITY,
    })
    expect(region?.commitments?.savingsPlans[0]).toMatchObject({ kind: 'compute', discount: 0.28 })
    expect(region?.commitments?.capacityReservations[0]).toMatchObject({ open: true, onDemandRateUsd: 0.096 })
    expect(region?.commitments?.unmanagedUsage[0]).toMatchObject({ count: 3, endMs: START_MS + HOUR_MS })
  })

  it('refuses, with every path, what AWS could not sell or the catalogue cannot price', () => {
    const problems = problemsOf(
      withCommitments({
        reservedInstances: [{ type: 'm5.large', count: 1, zone: 'us-west-2a' }],
        savingsPlans: [
          { kind: 'ec2-instance', hourlyCommitmentUsd: 1 },
          { kind: 'compute', family: 'm5', hourlyCommitmentUsd: 1 },
        ],
        capacityReservations: [{ type: 'x9.huge', zone: 'us-east-1a', count: 1 }],
        unmanagedUsage: [
          {
            type: 'm5.large',
            zone: 'us-east-1a',
            count: 1,
            start: '2022-05-31T19:00:00Z',
            end: '2022-05-31T18:30:00Z',
          },
        ],
      }),
    )
    const at = '$.regions["us-east-1"].commitments'
    expect(problems.map((p) => p.path)).toEqual([
      `${at}.reservedInstances[0].zone`,
      `${at}.savingsPlans[0].family`,
      `${at}.savingsPlans[1].family`,
      `${at}.capacityReservations[0].type`,
      `${at}.unmanagedUsage[0].end`,
    ])
  })

  it('refuses a field the schema does not know, as a structured problem', () => {
    const problems = problemsOf(withCommitments({ reservedInstances: [{ type: 'm5.large', count: 0 }] }))
    expect(problems[0]?.path).toBe('$.regions["us-east-1"].commitments.reservedInstances[0].count')
  })
})

describe('the simulated commitment reads', () => {
  const scenario = withCommitments({
    reservedInstances: [
      { type: 'm5.large', count: 2, end: '2022-05-31T19:00:00Z' },
      { type: 'c5.xlarge', count: 1, zone: 'us-east-1b', start: '2022-05-31T19:00:00Z' },
    ],
    capacityReservations: [
      {
        type: 'm5.large',
        zone: 'us-east-1a',
        count: 1,
        start: '2022-05-31T18:30:00Z',
        end: '2022-05-31T19:30:00Z',
      },
    ],
  })

  const read = async (t: ReturnType<typeof testWorld>) => {
    const ec2 = simClients(t.world, REGION, t.cloud().session).ec2
    const active = [{ Name: 'state', Values: ['active'] }]
    const ris = await ec2.describeReservedInstances?.({ Filters: active })
    const crs = await ec2.describeCapacityReservations?.({ Filters: active })
    return {
      ris: (ris?.ReservedInstances ?? []).map((ri) => `${ri.InstanceType} ${ri.Scope} ×${ri.InstanceCount}`),
      crs: (crs?.CapacityReservations ?? []).map((cr) => `${cr.InstanceType} ${cr.AvailabilityZone}`),
    }
  }

  it('lists each commitment as active only while it is in effect, so one starting or ending mid-run comes and goes', async () => {
    const t = testWorld(scenario)
    expect(await read(t)).toEqual({ ris: ['m5.large Region ×2'], crs: [] })
    await t.advance(45 * 60_000)
    expect(await read(t)).toEqual({ ris: ['m5.large Region ×2'], crs: ['m5.large us-east-1a'] })
    await t.advance(30 * 60_000)
    expect(await read(t)).toEqual({ ris: ['c5.xlarge Availability Zone ×1'], crs: ['m5.large us-east-1a'] })
    await t.advance(30 * 60_000)
    expect(await read(t)).toEqual({ ris: ['c5.xlarge Availability Zone ×1'], crs: [] })
  })

  it('gives the states AWS gives outside the active window: queued and retired RIs, scheduled and expired reservations', async () => {
    const t = testWorld(scenario)
    await t.advance(100 * 60_000)
    const ec2 = simClients(t.world, REGION, t.cloud().session).ec2
    const ris = await ec2.describeReservedInstances?.({})
    const crs = await ec2.describeCapacityReservations?.({})
    expect(ris?.ReservedInstances?.map((ri) => ri.State)).toEqual(['retired', 'active'])
    expect(crs?.CapacityReservations?.map((cr) => cr.State)).toEqual(['expired'])
  })

  it('hands the engine the RIs through the real adapter, priced from their recurring charges', async () => {
    const t = testWorld(scenario)
    const commitments = await t.cloud().readCommitments?.()
    expect(commitments?.reservedInstances).toEqual([
      expect.objectContaining({ type: 'm5.large', scope: 'regional', count: 2, hourlyRateUsd: 0.096 * 0.6 }),
    ])
  })
})

describe('the Savings Plans API of the simulated account', () => {
  const plans = withCommitments({
    savingsPlans: [
      { kind: 'compute', hourlyCommitmentUsd: 1 },
      { kind: 'ec2-instance', family: 'm5', hourlyCommitmentUsd: 0.5, rates: { 'm5.large': 0.05 } },
      { kind: 'compute', hourlyCommitmentUsd: 2, start: '2022-05-31T19:00:00Z' },
    ],
  })

  it('lists the plans in effect as active, a future one as queued', async () => {
    const t = testWorld(plans)
    const api = simClients(t.world, REGION, t.cloud().session).savingsPlans
    const listed = await api?.describeSavingsPlans({})
    expect(listed?.savingsPlans?.map((p) => [p.savingsPlanType, p.commitment, p.state])).toEqual([
      ['Compute', '1', 'active'],
      ['EC2Instance', '0.5', 'active'],
      ['Compute', '2', 'queued'],
    ])
  })

  it('hands the engine the active plans and their rates through the real adapter', async () => {
    const t = testWorld(plans)
    const read = await t.cloud().readCommitments?.(['m5.large', 'c5.large'])
    const m5 = rateKey('m5.large', REGION, 'Linux/UNIX', 'default')
    const c5 = rateKey('c5.large', REGION, 'Linux/UNIX', 'default')
    expect(
      read?.savingsPlans.map((p) => [p.kind, p.hourlyCommitmentUsd, p.rates.get(m5), p.rates.get(c5)]),
    ).toEqual([
      ['compute', 1, expect.closeTo(0.096 * 0.72, 9), expect.any(Number)],
      ['ec2-instance', 0.5, 0.05, undefined],
    ])
  })
})

describe('unmanaged usage as EC2 shows it', () => {
  const runningIds = async (t: ReturnType<typeof testWorld>) => {
    const ec2 = simClients(t.world, REGION, t.cloud().session).ec2
    const page = await ec2.describeInstances({
      Filters: [{ Name: 'instance-state-name', Values: ['running'] }],
    })
    return (page.Reservations ?? []).flatMap((r) =>
      (r.Instances ?? []).map((i) => [i.InstanceId, i.InstanceType, i.InstanceLifecycle, i.Tags?.length]),
    )
  }

  it('lists it as standalone on-demand instances while it is in effect, and not after', async () => {
    const t = testWorld(
      rawScenario(
        [group('web', { desired: 0 })],
        {},
        {
          commitments: {
            unmanagedUsage: [
              { type: 'c5.xlarge', zone: 'us-east-1b', count: 2, end: '2022-05-31T19:00:00Z' },
            ],
          },
        },
      ),
    )
    expect(await runningIds(t)).toEqual([
      ['i-unmanaged-0-0', 'c5.xlarge', undefined, 0],
      ['i-unmanaged-0-1', 'c5.xlarge', undefined, 0],
    ])
    await t.advance(HOUR_MS)
    expect(await runningIds(t)).toEqual([])
  })
})

describe('billing with commitments', () => {
  const unmanagedOnly = (commitments: Record<string, unknown>) =>
    parse(withCommitments(commitments, [group('web', { tags: {}, desired: 2 })]))

  it('bills an RI no usage matches as waste, whatever the policy, and the baseline with it', async () => {
    const report = await simulate(
      unmanagedOnly({ reservedInstances: [{ type: 'c5.xlarge', count: 1, hourlyRateUsd: 0.1 }] }),
      { policy: ON_DEMAND_POLICY },
    )
    expect(report.commitments).toMatchObject({
      commitmentWasteUsd: 0.2,
      baselineCommitmentWasteUsd: 0.2,
      commitmentFeesUsd: 0.2,
      billSavingsPct: 0,
    })
    // Two m5.large on demand for two hours, and the RI's two hours.
    expect(report.commitments?.billUsd).toBeCloseTo(4 * 0.096 + 0.2, 6)
  })

  it('lets an RI pay for the usage it matches, the unmanaged usage included', async () => {
    const report = await simulate(
      unmanagedOnly({
        reservedInstances: [{ type: 'm5.large', count: 3, hourlyRateUsd: 0.05 }],
        unmanagedUsage: [{ type: 'm5.large', zone: 'us-east-1a', count: 1 }],
      }),
      { policy: ON_DEMAND_POLICY },
    )
    expect(report.commitments?.commitmentWasteUsd).toBe(0)
    expect(report.commitments?.billUsd).toBeCloseTo(2 * 3 * 0.05, 6)
    expect(report.commitments?.baselineBillUsd).toBeCloseTo(2 * 3 * 0.05, 6)
  })

  it('bills an open Capacity Reservation no instance runs in at the on-demand rate, from its start, as waste', async () => {
    const report = await simulate(
      unmanagedOnly({
        capacityReservations: [
          { type: 'c5.xlarge', zone: 'us-east-1a', count: 2 },
          { type: 'c5.xlarge', zone: 'us-east-1b', count: 1, start: '2022-05-31T19:00:00Z' },
        ],
      }),
      { policy: ON_DEMAND_POLICY },
    )
    // Two slots for two hours and one for the hour after its start, used or not (capacity-reservations-pricing-billing).
    const emptySlotsUsd = (2 * 2 + 1) * 0.17
    expect(report.commitments?.commitmentWasteUsd).toBeCloseTo(emptySlotsUsd, 6)
    expect(report.commitments?.billUsd).toBeCloseTo(4 * 0.096 + emptySlotsUsd, 6)
    expect(report.commitments?.baselineCommitmentWasteUsd).toBeCloseTo(emptySlotsUsd, 6)
  })

  it('stops applying an RI once it ends', async () => {
    const report = await simulate(
      unmanagedOnly({
        reservedInstances: [{ type: 'm5.large', count: 2, hourlyRateUsd: 0.05, end: '2022-05-31T19:00:00Z' }],
      }),
      { policy: ON_DEMAND_POLICY },
    )
    expect(report.commitments?.billUsd).toBeCloseTo(2 * 0.05 + 2 * 0.096, 6)
  })

  it('leaves the report as it was for a scenario without commitments', async () => {
    const report = await simulate(parse(rawScenario([group('web', { tags: {}, desired: 1 })])), {
      policy: ON_DEMAND_POLICY,
    })
    expect(report).not.toHaveProperty('commitments')
  })
})

describe('coveredByCommitment (the liveness check of a commitment-covered member)', () => {
  const covered = (
    commitments: Record<string, unknown>,
    managed: (i: SimInstance) => boolean = () => true,
  ) => {
    const t = testWorld(withCommitments(commitments, [group('web', { desired: 3 })]))
    const newestFirst = t.members('web').sort((a, b) => b.launchMs - a.launchMs || b.id.localeCompare(a.id))
    return newestFirst.map((i) => coveredByCommitment(t.region, i.id, t.world.clock.now, managed))
  }

  it("lets an unmanaged group's instances take the commitment before the managed members", () => {
    const oldest = (i: SimInstance) => i.id !== 'i-00000000000001001'
    expect(covered({ reservedInstances: [{ type: 'm5.large', count: 1 }] }, oldest)).toEqual([
      false,
      false,
      true,
    ])
  })

  it('confirms as many members as an RI pays for, the newest first', () => {
    expect(covered({ reservedInstances: [{ type: 'm5.large', count: 1 }] })).toEqual([true, false, false])
  })

  it('leaves to the unmanaged usage what it takes first', () => {
    expect(
      covered({
        reservedInstances: [{ type: 'm5.large', count: 2 }],
        unmanagedUsage: [{ type: 'm5.large', zone: 'us-east-1a', count: 1 }],
      }),
    ).toEqual([true, false, false])
  })

  it('confirms the member an open Capacity Reservation yet to start will take, none for a targeted one', () => {
    const reservation = (matchCriteria: string) => ({
      capacityReservations: [
        { type: 'm5.large', zone: 'us-east-1a', count: 1, start: '2022-05-31T18:30:00Z', matchCriteria },
      ],
    })
    expect(covered(reservation('open')).filter(Boolean)).toHaveLength(1)
    expect(covered(reservation('targeted'))).toEqual([false, false, false])
  })

  it('confirms none once the commitment has ended', () => {
    expect(
      covered({
        reservedInstances: [
          { type: 'm5.large', count: 3, end: '2022-05-31T17:00:00Z', start: '2022-05-30T17:00:00Z' },
        ],
      }),
    ).toEqual([false, false, false])
  })
})

describe('the engine over lanes sharing a commitment', () => {
  it('keeps one member in all for one RI shared by two groups in different lanes', async () => {
    expect(laneOf('web', REGION_LANES)).not.toBe(laneOf('api', REGION_LANES))
    const report = await simulate(
      parse(
        withCommitments({ reservedInstances: [{ type: 'm5.large', count: 1 }] }, [
          group('web', { desired: 2 }),
          group('api', { desired: 2 }),
        ]),
      ),
    )
    const final = ['web', 'api'].map((name) => report.groups[name]?.final.onDemand)
    expect(final.reduce((sum, n) => (sum ?? 0) + (n ?? 0), 0)).toBe(1)
  })
})

describe('convergence with commitments', () => {
  it('counts the members a commitment pays for toward the floor: a group that keeps them has converged', async () => {
    const report = await simulate(
      parse(
        withCommitments({ reservedInstances: [{ type: 'm5.large', count: 1 }] }, [
          group('web', { desired: 3 }),
        ]),
      ),
    )
    const web = report.groups.web
    expect(web?.final.onDemand).toBe(1)
    expect(web?.convergenceMinutes).not.toBeNull()
    expect(web?.convergenceMinutes ?? Number.POSITIVE_INFINITY).toBeLessThan(60)
  })
})

describe('members an open Capacity Reservation holds', () => {
  it('take the RI first: the member it would otherwise keep goes to spot, and nothing is left unused', async () => {
    const report = await simulate(
      parse(
        withCommitments(
          {
            reservedInstances: [{ type: 'm5.large', count: 4 }],
            capacityReservations: [{ type: 'm5.2xlarge', zone: 'us-east-1a', count: 1 }],
          },
          [group('web', { desired: 1 }), group('render', { instanceType: 'm5.2xlarge', desired: 1 })],
        ),
      ),
    )
    // The m5.2xlarge runs in the reservation and takes the RI's 16 units; keeping the m5.large too pays twice.
    expect(report.groups.render?.final.onDemand).toBe(1)
    expect(report.groups.web?.final.onDemand).toBe(0)
    expect(report.commitments?.commitmentWasteUsd).toBe(0)
  })
})

describe('CommitmentUtilization over lanes', () => {
  it("publishes one region-wide point a schedule period, from the region's work lane, whatever runs where", async () => {
    expect(laneOf('web', REGION_LANES)).not.toBe(0)
    expect(laneOf('api', REGION_LANES)).not.toBe(0)
    let clock = () => 0
    const points: { readonly at: number; readonly value: number }[] = []
    const metrics = {
      emit: (_dimensions: Record<string, string>, values: readonly { name: string; value: number }[]) => {
        for (const v of values)
          if (v.name === 'CommitmentUtilization') points.push({ at: clock(), value: v.value })
      },
    }
    await simulate(
      parse(
        withCommitments({ reservedInstances: [{ type: 'm5.large', count: 1 }] }, [
          group('web', { desired: 2 }),
          group('api', { desired: 2 }),
        ]),
      ),
      { metrics, prepare: (world) => (clock = () => world.clock.now) },
    )
    const ticks = new Map<number, number>()
    for (const { at } of points) ticks.set(at, (ticks.get(at) ?? 0) + 1)
    expect(points.length).toBeGreaterThan(0)
    expect([...ticks.values()].every((n) => n === 1)).toBe(true)
    // The RI pays for the member kept: used in full, whichever lane publishes.
    expect(points.every((p) => p.value === 100)).toBe(true)
  })
})

describe('CommitmentUtilization of a Savings Plan', () => {
  it('prices the usage of groups of other lanes, so the work lane sees the plan used', async () => {
    const values: number[] = []
    const metrics = {
      emit: (_dimensions: Record<string, string>, points: readonly { name: string; value: number }[]) => {
        for (const v of points) if (v.name === 'CommitmentUtilization') values.push(v.value)
      },
    }
    await simulate(
      parse(
        withCommitments({ savingsPlans: [{ kind: 'compute', hourlyCommitmentUsd: 0.05 }] }, [
          group('web', { desired: 2 }),
        ]),
      ),
      { metrics },
    )
    expect(values.length).toBeGreaterThan(0)
    expect(values.every((v) => v === 100)).toBe(true)
  })
})

describe('declared commitments over lanes', () => {
  it('keeps one member in all for one declared RI shared by two groups in different lanes', async () => {
    expect(laneOf('web', REGION_LANES)).not.toBe(laneOf('api', REGION_LANES))
    const report = await simulate(
      parse(
        rawScenario([group('web', { desired: 2 }), group('api', { desired: 2 })], {
          env: { COMMITMENTS: 'ri us-east-1 1 m5.large' },
        }),
      ),
    )
    const final = ['web', 'api'].map((name) => report.groups[name]?.final.onDemand ?? 0)
    expect(final.reduce((sum, n) => sum + n, 0)).toBe(1)
  })
})
