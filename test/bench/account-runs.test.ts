import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { FANOUT_GROUPS_PER_REGION_MESSAGE } from '../../lambdas/core/constants.ts'
import type { RegionResult } from '../../lambdas/replacer/run-region.ts'
import { runRegionsByInvocation } from '../../tools/bench/account-runs.ts'
import { syntheticAccount } from '../../tools/bench/synthetic-account.ts'
import { embeddedTrace } from '../../tools/data/capacity-traces.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'
import { buildWorld } from '../../tools/sim/build.ts'
import { parseScenario } from '../../tools/sim/scenario/parse.ts'

describe('runRegionsByInvocation', () => {
  it('runs each region as deployed: one invocation, then one per chunk of groups it hands on', async () => {
    const catalog = embeddedCatalog()
    const groupsPerRegion = FANOUT_GROUPS_PER_REGION_MESSAGE + 50
    const raw = syntheticAccount({
      name: 'chunks',
      description: 'two regions, each over one invocation of groups',
      regions: 2,
      groupsPerRegion,
      instancesPerGroup: 1,
      durationHours: 1,
      throttle: false,
    })
    const scenario = parseScenario(raw, { source: 'test', catalog, resolveTrace: embeddedTrace })
    const world = buildWorld(scenario, { catalog })
    const { config } = parseGlobalConfig({ ...scenario.env, DRY_RUN: 'true' })
    const results: RegionResult[] = []
    const count = await runRegionsByInvocation(world, config, async (run) => {
      const result = await run()
      results.push(result)
      return result
    })
    // Per region: the invocation that hands the groups on in two chunks, then one per chunk.
    expect(count).toBe(6)
    expect(results.map((r) => [r.deferred?.map((c) => c.length), r.groups.length])).toEqual([
      [[FANOUT_GROUPS_PER_REGION_MESSAGE, 50], 0],
      [undefined, FANOUT_GROUPS_PER_REGION_MESSAGE],
      [undefined, 50],
      [[FANOUT_GROUPS_PER_REGION_MESSAGE, 50], 0],
      [undefined, FANOUT_GROUPS_PER_REGION_MESSAGE],
      [undefined, 50],
    ])
    // Every group of the account is planned once, in the region it belongs to.
    const planned = results.flatMap((r) => r.groups.map((g) => `${r.region}/${g.plan.group}`))
    expect(new Set(planned).size).toBe(2 * groupsPerRegion)
    expect(planned).toHaveLength(2 * groupsPerRegion)
  })
})
