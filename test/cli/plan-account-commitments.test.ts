import { describe, expect, it } from 'vitest'
import { createPlanCommand } from '../../tools/cli/plan-command.ts'
import type { PlanReport } from '../../tools/cli/plan-report.ts'
import { group, rawScenario, testWorld } from '../sim/support.ts'
import { simPlanDeps } from './plan-sim.ts'
import { recordingIo } from './support.ts'

/** `spotswap plan --json` over a simulated account holding these commitments (COMMITMENTS=account). */
const coveredIn = async (
  commitments: Record<string, unknown>,
  others: readonly ReturnType<typeof group>[] = [],
  env: Record<string, string> = {},
) => {
  const sim = testWorld(
    rawScenario(
      [group('web', { desired: 4, instanceType: 'm5.large' }), ...others],
      { env },
      { commitments },
    ),
  )
  const { io, output } = recordingIo(env)
  const code = await createPlanCommand(simPlanDeps(sim)).run(['--region', 'us-east-1', '--json'], io)
  expect(code).toBe(0)
  const report = JSON.parse(output().out) as PlanReport
  return report.regions.flatMap((r) =>
    r.groups.flatMap((g) => g.stillOnDemand.filter((s) => s.code === 'commitment-covered')),
  )
}

describe("spotswap plan with the account's own commitments, read through the simulated EC2", () => {
  it('lists the members a Reserved Instance of the account pays for, with the RI named', async () => {
    const kept = await coveredIn({ reservedInstances: [{ type: 'm5.large', count: 2 }] })
    expect(kept).toHaveLength(2)
    expect(kept[0]?.detail).toContain(
      'reserved-instances ri-sim-us-east-1-1 (regional m5.large size-flexible ×2',
    )
  })

  it('lists the member an open Capacity Reservation holds', async () => {
    const kept = await coveredIn({
      capacityReservations: [{ type: 'm5.large', zone: 'us-east-1a', count: 1 }],
    })
    expect(kept.map((k) => k.detail)).toEqual([expect.stringContaining('capacity-reservation cr-')])
  })

  // A budget that reaches every member: one it stops before is weighed on a later run.
  const everyMember = { MAX_REPLACEMENTS_IN_FLIGHT: '10' }

  it('lists the member a Capacity Reservation starting in half an hour will take, with its start', async () => {
    const kept = await coveredIn(
      {
        capacityReservations: [
          { type: 'm5.large', zone: 'us-east-1a', count: 1, start: '2022-05-31T18:30:00Z' },
        ],
      },
      [],
      everyMember,
    )
    expect(kept.map((k) => k.detail)).toEqual([
      expect.stringMatching(/^starts 2022-05-31T18:30:00.000Z: capacity-reservation cr-/),
    ])
  })

  it.each([
    ['starts in five days: a spot type costs less than keeping it', { start: '2022-06-05T18:00:00Z' }],
    ['is targeted', { start: '2022-05-31T18:30:00Z', matchCriteria: 'targeted' }],
  ])('keeps no member for a scheduled Capacity Reservation that %s', async (_, fields) => {
    const kept = await coveredIn(
      { capacityReservations: [{ type: 'm5.large', zone: 'us-east-1a', count: 1, ...fields }] },
      [],
      everyMember,
    )
    expect(kept).toEqual([])
  })

  it('covers nothing with an RI that has already expired', async () => {
    expect(
      await coveredIn({
        reservedInstances: [
          { type: 'm5.large', count: 2, start: '2022-05-30T18:00:00Z', end: '2022-05-31T17:00:00Z' },
        ],
      }),
    ).toEqual([])
  })

  it('keeps only what the unmanaged usage leaves of an RI: standalone instances take it first', async () => {
    const kept = await coveredIn({
      reservedInstances: [{ type: 'm5.large', count: 2 }],
      unmanagedUsage: [{ type: 'm5.large', zone: 'us-east-1a', count: 1 }],
    })
    expect(kept).toHaveLength(1)
  })

  it("keeps none for an RI an unmanaged group's on-demand instances use up", async () => {
    const batch = group('batch', { desired: 2, instanceType: 'm5.large', tags: {} })
    expect(await coveredIn({ reservedInstances: [{ type: 'm5.large', count: 2 }] }, [batch])).toEqual([])
  })
})
