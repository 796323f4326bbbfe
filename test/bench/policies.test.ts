import { describe, expect, it } from 'vitest'
import { benchScenario } from '../../tools/bench/bench-scenario.ts'
import { policyFigures } from '../../tools/bench/scenario-run.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'
import {
  ASG_LOWEST_PRICE_POLICY,
  ASG_PRICE_CAPACITY_OPTIMIZED_POLICY,
  AUTOSPOTTING_POLICY,
  ON_DEMAND_POLICY,
  type SimPolicy,
  SPOTSWAP_POLICY,
} from '../../tools/sim/policy.ts'
import { simulateRun } from '../../tools/sim/simulate.ts'
import type { World } from '../../tools/sim/world.ts'
import { handMade, PCO_WITHOUT_REBALANCING, PRICES, pinnedGroup } from './support.ts'

const spotAt = (run: Awaited<ReturnType<typeof simulateRun>>, group = 'web') =>
  run.report.timeline.filter((row) => row.group === group).map((row) => row.spot)

describe('the autospotting policy', () => {
  it('runs every 30 minutes without launch events, one replacement in flight per group, grace ignored', async () => {
    const scenario = handMade({ spotPrices: PRICES, groups: [pinnedGroup({ healthCheckGracePeriod: 600 })] })
    const run = await simulateRun(scenario, { policy: AUTOSPOTTING_POLICY })
    // Four scheduled runs and, after each of the three attaches, the look that retires the partner: it
    // stands for AutoSpotting retiring the on-demand instance in the run that attaches its replacement. No
    // look at the end of a grace period: AutoSpotting swaps a ready replacement in at its next run.
    expect(run.invocations.replacerRuns).toBe(7)
    // Launched at one run, swapped in at the next: one more per 30-minute run.
    expect(spotAt(run)).toEqual([0, 1, 2, 3])
    expect(run.report.totals.convergenceMinutes).toBeNull()
  })

  it('retires each partner at its swap’s look while the next replacement warms up behind it', async () => {
    // steady-web's web group: load balancers, so each swap waits for its replacement to serve, while the
    // next one (launched once the attach frees the in-flight slot) warms up. The plan's look is then the
    // warm-up's, which this policy drops; the swap's own look (swapLookSeconds) stands for AutoSpotting
    // retiring the partner in its attach's run. Without it, every swap waited for the next 30-minute run.
    const scenario = { ...benchScenario('steady-web', embeddedCatalog(), false), durationHours: 1 }
    const run = await simulateRun(scenario, { policy: AUTOSPOTTING_POLICY })
    const swaps = run.report.groups.web?.explanation?.events.swaps ?? []
    expect(swaps.filter((minute) => minute < 45).length).toBeGreaterThanOrEqual(5)
  })

  it('takes the cheapest pool (lowest-price), where spotswap spreads over pools', async () => {
    const scenario = handMade({ spotPrices: PRICES }, { durationHours: 3 })
    const autospotting = await simulateRun(scenario, { policy: AUTOSPOTTING_POLICY })
    expect(autospotting.report.groups.web?.final.types).toMatchObject({ 'm5a.large': 2 })
  })
})

describe('the spotswap and on-demand policies', () => {
  it('spotswap converges a group of four without load balancers in its first scheduled run, all at once', async () => {
    const run = await simulateRun(handMade({ spotPrices: PRICES }), { policy: SPOTSWAP_POLICY })
    // The default budget of a group without load balancers is the whole group: four launches in the first
    // run, each swapped in by the look asked for when its attach wait (grace 0) ends.
    expect(run.report.totals.convergenceMinutes).toBeLessThan(2)
    expect(run.report.groups.web?.final).toMatchObject({ spot: 4, onDemand: 0 })
  })

  it('spotswap converges a group of four one replacement in flight at a time, swap after swap', async () => {
    const scenario = handMade(
      { spotPrices: PRICES },
      { env: { TAG_FILTERS: 'spot-enabled=true', MAX_REPLACEMENTS_IN_FLIGHT: '25%' } },
    )
    const run = await simulateRun(scenario, { policy: SPOTSWAP_POLICY })
    // One launch in flight (25% of the group's own four). Grace 0 and no load balancer: each replacement is
    // swapped in by the look asked for when its attach wait ends, and the run that closes a swap asks to look
    // again for the next launch's wait, so the four swaps follow each other without waiting for the 18:05
    // run (15.5 minutes when the closing run asked for no look).
    expect(run.report.totals.convergenceMinutes).toBeGreaterThan(4)
    expect(run.report.totals.convergenceMinutes).toBeLessThan(5)
    expect(run.report.groups.web?.final).toMatchObject({ spot: 4, onDemand: 0 })
  })

  it('on-demand runs nothing and changes nothing', async () => {
    const run = await simulateRun(handMade({ spotPrices: PRICES }), { policy: ON_DEMAND_POLICY })
    expect(run.invocations).toMatchObject({ replacerRuns: 0, handlerInvocations: 0 })
    expect(run.report.totals.apiCalls).toEqual({})
    expect(run.report.totals.savingsPct).toBe(0)
  })
})

const unavailable = (pools: readonly string[]) =>
  Object.fromEntries(pools.map((pool) => [pool, { trace: 'hourly:1,0' }]))
const ALL_POOLS = ['m5.large', 'm5a.large'].flatMap((type) =>
  ['us-east-1a', 'us-east-1b'].map((zone) => `${type}/${zone}`),
)

describe('the asg-* policies (Auto Scaling with a MixedInstancesPolicy)', () => {
  it('turn managed groups to spot through Auto Scaling alone and leave unmanaged groups alone', async () => {
    const scenario = handMade({
      spotPrices: PRICES,
      groups: [pinnedGroup(), pinnedGroup({ name: 'batch', tags: { team: 'data' } })],
    })
    const run = await simulateRun(scenario, { policy: ASG_PRICE_CAPACITY_OPTIMIZED_POLICY })
    expect(run.invocations.replacerRuns + run.invocations.handlerInvocations).toBe(0)
    expect(run.report.totals.apiCalls).toEqual({})
    expect(run.report.groups.web?.final).toMatchObject({ inService: 4, spot: 4, onDemand: 0 })
    expect(run.report.groups.batch?.final).toMatchObject({ spot: 0, onDemand: 4 })
    expect(run.autoScalingSpotLaunches.get('web')).toBe(4)
    // Launch before terminate: the rollout never takes capacity away.
    expect(run.availability.byGroupPct.web).toBe(100)
  })

  it.each([
    // Two per zone: lowest-price spreads them over the zone's two cheapest pools.
    [
      'lowest-price',
      ASG_LOWEST_PRICE_POLICY,
      {
        'm5.large/us-east-1a': 1,
        'm5a.large/us-east-1a': 1,
        'm5.large/us-east-1b': 1,
        'm5a.large/us-east-1b': 1,
      },
    ],
    [
      'price-capacity-optimized',
      ASG_PRICE_CAPACITY_OPTIMIZED_POLICY,
      { 'm5a.large/us-east-1a': 2, 'm5.large/us-east-1b': 2 },
    ],
  ])('allocate spot pools as %s does', async (_, policy, pools) => {
    let world: World | undefined
    await simulateRun(handMade({ spotPrices: PRICES }), { policy, prepare: (w) => (world = w) })
    const region = world?.region('us-east-1')
    const held: Record<string, number> = {}
    for (const id of region?.groups.get('web')?.members.keys() ?? []) {
      const instance = region?.instances.get(id)
      if (instance !== undefined)
        held[`${instance.type}/${instance.zone}`] = (held[`${instance.type}/${instance.zone}`] ?? 0) + 1
    }
    expect(held).toEqual(pools)
  })

  it('report the pools each chose per group, which differ where the strategies do', async () => {
    const scenario = handMade({ spotPrices: PRICES })
    const pools = async (policy: SimPolicy) =>
      policyFigures(await simulateRun(scenario, { policy })).spotPoolsByGroup
    expect(await pools(ASG_LOWEST_PRICE_POLICY)).toEqual({
      web: {
        'm5.large/us-east-1a': 1,
        'm5.large/us-east-1b': 1,
        'm5a.large/us-east-1a': 1,
        'm5a.large/us-east-1b': 1,
      },
    })
    expect(await pools(ASG_PRICE_CAPACITY_OPTIMIZED_POLICY)).toEqual({
      web: { 'm5.large/us-east-1b': 2, 'm5a.large/us-east-1a': 2 },
    })
    expect(
      policyFigures(await simulateRun(scenario, { policy: SPOTSWAP_POLICY })).spotPoolsByGroup,
    ).toBeUndefined()
  })

  it('have no on-demand fallback: with no spot capacity anywhere the group runs short', async () => {
    const scenario = handMade({ spotPrices: PRICES, capacity: unavailable(ALL_POOLS) })
    const asg = await simulateRun(scenario, { policy: ASG_PRICE_CAPACITY_OPTIMIZED_POLICY })
    const spotswap = await simulateRun(scenario, { policy: SPOTSWAP_POLICY })
    expect(asg.report.groups.web?.final.inService).toBe(0)
    expect(asg.availability.totalPct).toBeLessThan(60)
    // Each interrupted instance is out of service only while its on-demand backfill boots.
    expect(spotswap.availability.totalPct).toBeGreaterThan(99)
    expect(spotswap.report.groups.web?.final).toMatchObject({ inService: 4, onDemand: 4 })
  })

  it('replace an instance on its rebalance recommendation before EC2 takes it (capacity rebalancing)', async () => {
    const scenario = handMade({ spotPrices: PRICES, capacity: unavailable(['m5a.large/us-east-1a']) })
    const withoutRebalancing = PCO_WITHOUT_REBALANCING
    const rebalanced = await simulateRun(scenario, { policy: ASG_PRICE_CAPACITY_OPTIMIZED_POLICY })
    const interrupted = await simulateRun(scenario, { policy: withoutRebalancing })
    expect(rebalanced.report.totals.interruptions).toBe(2)
    expect(rebalanced.availability.totalPct).toBe(100)
    expect(interrupted.availability.totalPct).toBeLessThan(100)
    expect(rebalanced.report.groups.web?.final).toMatchObject({ inService: 4, spot: 4 })
  })
})
