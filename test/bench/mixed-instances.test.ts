/**
 * The rules the asg-* model follows (docs/benchmark.md, "Auto Scaling's mixed-instances groups"), one
 * test each, on hand-made scenarios whose outcome can be worked out on paper.
 */
import { describe, expect, it } from 'vitest'
import { launchBounds } from '../../tools/bench/launch-bound.ts'
import {
  ASG_LOWEST_PRICE_POLICY,
  ASG_PRICE_CAPACITY_OPTIMIZED_POLICY,
  type SimPolicy,
} from '../../tools/sim/policy.ts'
import type { Scenario } from '../../tools/sim/scenario/types.ts'
import { simulateRun } from '../../tools/sim/simulate.ts'
import type { World } from '../../tools/sim/world.ts'
import { handMade, PCO_WITHOUT_REBALANCING, PRICES, pinnedGroup } from './support.ts'

/** Where the group's active members are at the end: `type/zone/lifecycle` → count. */
const membersAtEnd = async (scenario: Scenario, policy: SimPolicy = ASG_PRICE_CAPACITY_OPTIMIZED_POLICY) => {
  let world: World | undefined
  const run = await simulateRun(scenario, { policy, prepare: (w) => (world = w) })
  const region = world?.region('us-east-1')
  const held: Record<string, number> = {}
  for (const [id, member] of region?.groups.get('web')?.members ?? []) {
    const instance = region?.instances.get(id)
    if (instance === undefined || member.lifecycleState !== 'InService') continue
    const key = `${instance.type}/${instance.zone}/${instance.lifecycle}`
    held[key] = (held[key] ?? 0) + 1
  }
  return { run, held, launches: run.autoScalingSpotLaunches.get('web') ?? 0 }
}

/** The hand-made web group with more tags and settings. */
const webGroup = (tags: Record<string, string>, settings: Record<string, unknown> = {}, region = {}) =>
  handMade({
    spotPrices: PRICES,
    groups: [pinnedGroup({ tags: { ...(pinnedGroup().tags as object), ...tags }, ...settings })],
    ...region,
  })

const noCapacity = (pools: readonly string[]) =>
  Object.fromEntries(pools.map((pool) => [pool, { available: false }]))

describe('the asg-* model of a MixedInstancesPolicy group', () => {
  it('launches the on-demand share first, then spot: a scale-out of a 50% group adds one of each per two', async () => {
    const scenario = webGroup(
      { autospotting_min_on_demand_percentage: '50' },
      { desired: 2, desiredSchedule: [['2022-05-31T19:00:00Z', 4]] },
    )
    const { held, launches } = await membersAtEnd(scenario)
    // At 2: one on-demand kept, one replaced by spot. At 4: one more on-demand, then one spot.
    expect(held).toEqual({
      'm5.large/us-east-1a/on-demand': 1,
      'm5.large/us-east-1b/on-demand': 1,
      'm5a.large/us-east-1a/spot': 1,
      'm5.large/us-east-1b/spot': 1,
    })
    expect(launches).toBe(2)
  })

  it('replaces each on-demand instance beyond the base in its own zone, so the zones stay balanced', async () => {
    const { held, launches, run } = await membersAtEnd(handMade({ spotPrices: PRICES }))
    expect(held).toEqual({ 'm5a.large/us-east-1a/spot': 2, 'm5.large/us-east-1b/spot': 2 })
    expect(launches).toBe(4)
    expect(run.availability.totalPct).toBe(100)
  })

  it('replaces an on-demand instance of a zone with no qualifying pool from the zone with the fewest, once', async () => {
    const scenario = webGroup(
      {},
      {},
      { capacity: noCapacity(['m5.large/us-east-1b', 'm5a.large/us-east-1b']) },
    )
    const { held, launches } = await membersAtEnd(scenario)
    expect(held).toEqual({ 'm5a.large/us-east-1a/spot': 4 })
    expect(launches).toBe(4)
  })

  it('never replaces a protected on-demand instance, and counts it toward the base (no launch undone by scale-in)', async () => {
    // The first instance (us-east-1a) is protected and is the one on-demand instance the group keeps.
    // Before scale-in picked the purchase option first, a spot instance launched next to it was taken
    // by the next scale-in, and the next pass launched again: one launch a minute for the whole run.
    const scenario = webGroup({ autospotting_min_on_demand_number: '1' }, { protectedFromScaleIn: 1 })
    const { held, launches } = await membersAtEnd(scenario)
    expect(held).toEqual({
      'm5.large/us-east-1a/on-demand': 1,
      'm5a.large/us-east-1a/spot': 1,
      'm5.large/us-east-1b/spot': 2,
    })
    expect(launches).toBe(3)
  })

  it('keeps more on-demand instances than the base when they are protected, without launching for them', async () => {
    const scenario = webGroup({ autospotting_min_on_demand_number: '1' }, { protectedFromScaleIn: 3 })
    const { held, launches } = await membersAtEnd(scenario)
    expect(held).toMatchObject({ 'm5.large/us-east-1b/spot': 1 })
    expect(launches).toBe(1)
  })

  it.each([
    ['lowest-price', ASG_LOWEST_PRICE_POLICY],
    ['price-capacity-optimized', ASG_PRICE_CAPACITY_OPTIMIZED_POLICY],
  ])('scales in (%s) by purchase option, then the fullest zone, then the dearest pool', async (_, policy) => {
    const scenario = webGroup(
      { autospotting_min_on_demand_number: '1' },
      { desired: 6, desiredSchedule: [['2022-05-31T19:00:00Z', 3]] },
    )
    const { held } = await membersAtEnd(scenario, policy)
    const zones = Object.entries(held).reduce<Record<string, number>>((byZone, [key, n]) => {
      const zone = key.split('/')[1] as string
      byZone[zone] = (byZone[zone] ?? 0) + n
      return byZone
    }, {})
    // Three left: the base's on-demand instance stays, zones 2 and 1, and us-east-1a's dearer pool
    // (m5.large at 0.04 against m5a.large at 0.03) is the one that went there.
    expect(Object.values(held).reduce((a, b) => a + b, 0)).toBe(3)
    expect(Object.values(zones).sort()).toEqual([1, 2])
    expect(Object.keys(held).filter((k) => k.endsWith('on-demand'))).toHaveLength(1)
    expect(held['m5.large/us-east-1a/spot']).toBeUndefined()
  })

  it('scales in (price-capacity-optimized) from the shallowest pool first, even when it is the cheapest', async () => {
    // us-east-1b has no spot capacity, so all four go to m5a.large in us-east-1a (0.03, as deep as
    // m5.large at 0.04). It loses half its capacity at 19:00: two of its instances are interrupted and
    // backfilled into m5.large, now the deeper pool; at 19:30 the group goes to 2 and the shallow pool goes.
    const scenario = webGroup(
      {},
      { desiredSchedule: [['2022-05-31T19:30:00Z', 2]] },
      {
        capacity: {
          ...noCapacity(['m5.large/us-east-1b', 'm5a.large/us-east-1b']),
          'm5a.large/us-east-1a': { trace: 'hourly:2,1' },
        },
      },
    )
    const withoutRebalancing = PCO_WITHOUT_REBALANCING
    const { held } = await membersAtEnd(scenario, withoutRebalancing)
    expect(held).toEqual({ 'm5.large/us-east-1a/spot': 2 })
  })

  it('replaces an interrupted spot instance once, and keeps every group within its launch bound', async () => {
    const scenario = handMade(
      { spotPrices: PRICES },
      { interruptions: [{ at: '2022-05-31T19:00:00Z', group: 'web', count: 2 }] },
    )
    const run = await simulateRun(scenario, { policy: ASG_PRICE_CAPACITY_OPTIMIZED_POLICY })
    expect(launchBounds(scenario, run)).toEqual([
      {
        group: 'web',
        spotLaunches: 6,
        desiredIncreases: 0,
        interruptions: 2,
        rebalanceRecommendations: 0,
        switchReplaces: 4,
        bound: 6,
      },
    ])
  })
})
