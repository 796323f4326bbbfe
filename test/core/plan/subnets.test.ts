import { describe, expect, it } from 'vitest'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import { spotPriceBook } from '../../../lambdas/core/types.ts'
import { launches } from '../../builders/actions.ts'
import { anInstance, config, memberOf, minutesAgo, planInput, realSpotPools } from '../../builders/world.ts'

const original = (zone: string, subnetId: string) =>
  anInstance({ type: 'm5.large', zone, subnetId, launchTime: minutesAgo(600) })

/** The subnets and zones the first launch's fleet overrides name. */
const launchedInto = (plan: ReturnType<typeof planGroup>) => {
  const [launch] = launches(plan.actions)
  return {
    subnets: [...new Set(launch?.overrides.map((o) => o.subnetId))],
    zones: [...new Set(launch?.overrides.map((o) => o.zone))],
  }
}

describe('where a replacement goes (the group’s current VPCZoneIdentifier)', () => {
  it('stays in the original’s subnet while the group still has it', () => {
    const plan = planGroup(planInput([original('us-east-1a', 'subnet-a')]))
    expect(launchedInto(plan)).toEqual({ subnets: ['subnet-a'], zones: ['us-east-1a'] })
  })

  it('goes into another subnet of the group in the original’s zone when the original’s subnet left it', () => {
    const plan = planGroup(
      planInput([original('us-east-1a', 'subnet-old')], {
        groupOverrides: { subnetIds: ['subnet-d', 'subnet-c'] },
        subnetZones: new Map([
          ['subnet-c', 'us-east-1a'],
          ['subnet-d', 'us-east-1b'],
        ]),
      }),
    )
    expect(launchedInto(plan)).toEqual({ subnets: ['subnet-c'], zones: ['us-east-1a'] })
  })

  it('goes into the group’s zone with the fewest members when the group has no subnet in the original’s zone', () => {
    const replaced = original('us-east-1a', 'subnet-old')
    // 1b holds a member already, 1d none.
    const inB = anInstance({ lifecycle: 'spot', zone: 'us-east-1b', subnetId: 'subnet-b1' })
    const input = planInput([replaced, inB], {
      groupOverrides: { subnetIds: ['subnet-b1', 'subnet-d1'] },
      subnetZones: new Map([['subnet-d1', 'us-east-1d']]),
    })
    expect(input.group.members).toEqual([memberOf(replaced), memberOf(inB)])
    expect(launchedInto(planGroup(input))).toEqual({ subnets: ['subnet-d1'], zones: ['us-east-1d'] })
  })

  it('reads a subnet’s zone off the instances in it when no subnet read names it', () => {
    const replaced = original('us-east-1a', 'subnet-old')
    const neighbour = anInstance({ lifecycle: 'spot', zone: 'us-east-1a', subnetId: 'subnet-new' })
    const plan = planGroup(
      planInput([replaced, neighbour], { groupOverrides: { subnetIds: ['subnet-new'] } }),
    )
    expect(launchedInto(plan)).toEqual({ subnets: ['subnet-new'], zones: ['us-east-1a'] })
  })

  it('launches nothing, with the reason, when no subnet of the group has a known zone', () => {
    const replaced = original('us-east-1a', 'subnet-old')
    const plan = planGroup(planInput([replaced], { groupOverrides: { subnetIds: ['subnet-x'] } }))
    expect(launches(plan.actions)).toEqual([])
    expect(plan.instanceSkips).toContainEqual(
      expect.objectContaining({
        instanceId: replaced.id,
        reason: expect.stringMatching(/^no-subnet-in-group/),
      }),
    )
  })

  it('keeps the instance’s own subnet for a group with no VPCZoneIdentifier (Availability Zones only)', () => {
    const plan = planGroup(
      planInput([original('us-east-1a', 'subnet-default-a')], { groupOverrides: { subnetIds: [] } }),
    )
    expect(launchedInto(plan)).toEqual({ subnets: ['subnet-default-a'], zones: ['us-east-1a'] })
  })
})

describe('a replacement in another zone when its partner’s zone has no compatible spot pool', () => {
  // Every real price, except none in us-east-1c (as in five-zones-48h, whose us-east-1c offers only old types).
  const withoutZoneC = spotPriceBook([...realSpotPools()].filter(([pool]) => !pool.endsWith('/us-east-1c')))
  const subnets = new Map([
    ['subnet-a', 'us-east-1a'],
    ['subnet-b', 'us-east-1b'],
    ['subnet-c', 'us-east-1c'],
    ['subnet-d', 'us-east-1d'],
  ])
  const member = (zone: string, lifecycle: 'spot' | 'on-demand' = 'spot') =>
    anInstance({
      type: 'm5.large',
      lifecycle,
      zone,
      subnetId: `subnet-${zone.at(-1)}`,
      launchTime: minutesAgo(600),
    })
  const plan = (instances: readonly ReturnType<typeof member>[]) =>
    planGroup(
      planInput(instances, {
        spotPrices: withoutZoneC,
        subnetZones: subnets,
        groupOverrides: { subnetIds: [...subnets.keys()] },
        config: config({ minOnDemandNumber: 0 }),
      }),
    )

  it('goes to the emptiest zone when the group stays balanced (1,1,1,0 → 1,1,0,1)', () => {
    const stuck = member('us-east-1c', 'on-demand')
    const result = plan([member('us-east-1a'), member('us-east-1b'), stuck])
    expect(launchedInto(result)).toEqual({ subnets: ['subnet-d'], zones: ['us-east-1d'] })
    expect(launches(result.actions)[0]?.reason).toContain(
      'in us-east-1d (us-east-1c has no compatible spot pool; the group stays balanced)',
    )
  })

  it('stays on-demand, saying why, when every other zone would unbalance the group (1,1,1,1)', () => {
    const stuck = member('us-east-1c', 'on-demand')
    const result = plan([member('us-east-1a'), member('us-east-1b'), stuck, member('us-east-1d')])
    expect(launches(result.actions)).toEqual([])
    expect(result.onDemand.find((s) => s.instanceId === stuck.id)).toMatchObject({
      code: 'no-compatible-spot-type',
      detail: expect.stringContaining('no other zone of the group keeps it balanced'),
    })
  })

  it('asks for the zones of subnets it cannot place, rather than guess the balance', () => {
    const stuck = member('us-east-1c', 'on-demand')
    const result = planGroup(
      planInput([member('us-east-1a'), stuck], {
        spotPrices: withoutZoneC,
        subnetZones: new Map([['subnet-a', 'us-east-1a']]),
        groupOverrides: { subnetIds: ['subnet-a', 'subnet-c', 'subnet-x'] },
        config: config({ minOnDemandNumber: 0 }),
      }),
    )
    expect(launches(result.actions)).toEqual([])
    expect(result.unknownSubnets).toEqual(['subnet-x'])
  })
})
