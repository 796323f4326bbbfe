import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { groupConfig } from '../../lambdas/core/config/group-config.ts'
import { latestSpotPrices } from '../../lambdas/core/plan/prices.ts'
import { selectCandidates } from '../../lambdas/core/plan/selection.ts'
import { LINUX } from '../../lambdas/core/platform.ts'
import { SCENARIO_DIRECTORY, scenarioPath } from '../../tools/bench/bench.ts'
import { SCENARIO_KEYS } from '../../tools/bench/results.ts'
import { LARGE_ACCOUNT, syntheticAccount } from '../../tools/bench/synthetic-account.ts'
import { embeddedTrace } from '../../tools/data/capacity-traces.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'
import { SpotMarket } from '../../tools/sim/market.ts'
import { loadScenarioFile } from '../../tools/sim/scenario/load.ts'
import { parseScenario } from '../../tools/sim/scenario/parse.ts'

describe('the benchmark scenarios', () => {
  it.each(SCENARIO_KEYS)('%s is a valid scenario file of bench/scenarios', (key) => {
    const scenario = loadScenarioFile(scenarioPath(key))
    expect(scenario.name).toBe(key)
    expect(scenarioPath(key).startsWith(SCENARIO_DIRECTORY)).toBe(true)
  })

  it('puts the web groups behind target groups (30 s × 3, 300 s draining), and slow-health has slow and broken replacements', () => {
    const balancersOf = (key: string) =>
      Object.fromEntries(
        loadScenarioFile(scenarioPath(key)).regions.flatMap((r) =>
          r.groups.map((g) => [g.name, g.loadBalancers.map((b) => Object.values(b).join(' '))]),
        ),
      )
    const web = ['target-group 30 3 300']
    expect(balancersOf('steady-web')).toEqual({ web, api: web, render: web })
    expect(balancersOf('daily-scaling')).toEqual({ frontend: web, workers: [] })
    expect(balancersOf('slow-health')).toEqual({
      storefront: ['target-group 30 10 300'],
      'legacy-api': ['target-group 30 3 120', 'classic 30 10 300'],
    })
    const groups = loadScenarioFile(scenarioPath('slow-health')).regions.flatMap((r) => r.groups)
    expect(groups.map((g) => g.unhealthyReplacementFraction)).toEqual([0.1, 0])
  })

  it('five-zones-48h has the shapes of issues 16 and 17, and us-east-1c has no price for its groups', () => {
    const scenario = loadScenarioFile(scenarioPath('five-zones-48h'))
    const region = scenario.regions[0]
    expect(scenario.durationHours).toBe(48)
    expect(scenario.faults).toMatchObject({ apiErrorRate: 0.01, crashRate: 0.002, throttle: true })
    expect(region?.zones).toHaveLength(5)
    const shapes = Object.fromEntries(
      (region?.groups ?? []).map((g) => [
        g.name,
        [
          g.instanceType,
          g.desired,
          g.terminationHook,
          g.protectedFromScaleIn,
          g.launch,
          g.desiredSchedule.length,
        ],
      ]),
    )
    expect(shapes).toEqual({
      analytics: ['r5.16xlarge', 4, true, 0, 'template', 0],
      web: ['m5.large', 6, false, 1, 'template', 3],
      inference: ['g4dn.xlarge', 2, false, 0, 'configuration', 0],
      ledger: ['c5.xlarge', 3, false, 0, 'template', 0],
    })
    const catalog = embeddedCatalog()
    const market = new SpotMarket(region?.name ?? '', region?.zones ?? [], region?.spotPrices ?? new Map())
    const spotPrices = latestSpotPrices(market.priceRows(LINUX, scenario.start))
    for (const group of region?.groups ?? []) {
      const config = groupConfig(
        parseGlobalConfig(scenario.env).config.defaults,
        group.name,
        group.tags,
      ).config
      const inC = selectCandidates(catalog, {
        original: catalog.get(group.instanceType) as NonNullable<ReturnType<typeof catalog.get>>,
        zone: 'us-east-1c',
        config,
        spotPrices,
        originalOnDemandPrice: market.onDemandPrice(group.instanceType),
      }).ranked
      expect(inC).toEqual([])
    }
  })

  it('large-account is exactly syntheticAccount(LARGE_ACCOUNT)', () => {
    const committed = JSON.parse(readFileSync(scenarioPath('large-account'), 'utf8')) as Record<
      string,
      unknown
    >
    const { $schema: _, ...account } = committed
    expect(account).toEqual(syntheticAccount(LARGE_ACCOUNT))
  })

  it('preemption-traces puts the real traces on the three cheapest compatible pools of each zone, as it says', () => {
    const scenario = loadScenarioFile(scenarioPath('preemption-traces'))
    const region = scenario.regions[0]
    const group = region?.groups[0]
    if (region === undefined || group === undefined) throw new Error('no group')
    const catalog = embeddedCatalog()
    const market = new SpotMarket(region.name, region.zones, region.spotPrices)
    const spotPrices = latestSpotPrices(market.priceRows(LINUX, scenario.start))
    const config = groupConfig(parseGlobalConfig(scenario.env).config.defaults, group.name, group.tags).config
    const cheapest = region.zones.flatMap((zone) =>
      selectCandidates(catalog, {
        original: catalog.get(group.instanceType) as NonNullable<ReturnType<typeof catalog.get>>,
        zone,
        config,
        spotPrices,
        originalOnDemandPrice: market.onDemandPrice(group.instanceType),
      })
        .ranked.slice(0, 3)
        .map((c) => `${c.instanceType}/${zone}`),
    )
    expect([...region.capacity.keys()].sort()).toEqual(cheapest.sort())
  })
})

describe('syntheticAccount', () => {
  it('builds the scale account: 20 regions, those beyond the snapshot borrowing real prices', () => {
    const raw = syntheticAccount({
      name: 'scale',
      description: 'scale',
      regions: 20,
      groupsPerRegion: 2,
      instancesPerGroup: 10,
      durationHours: 1,
      throttle: false,
    })
    const scenario = parseScenario(raw, {
      source: 'scale',
      catalog: embeddedCatalog(),
      resolveTrace: embeddedTrace,
    })
    expect(scenario.regions).toHaveLength(20)
    expect(scenario.faults.throttle).toBe(false)
    expect(scenario.regions.flatMap((r) => r.groups).reduce((n, g) => n + g.desired, 0)).toBe(400)
    const borrowing = scenario.regions.find((r) => r.name === 'af-south-1')
    expect(borrowing?.zones).toEqual(['af-south-1a', 'af-south-1b', 'af-south-1c'])
    expect(borrowing?.spotPrices.size).toBeGreaterThan(500)
  })

  it('refuses more regions than it knows', () => {
    expect(() =>
      syntheticAccount({
        name: 'x',
        description: 'x',
        regions: 21,
        groupsPerRegion: 1,
        instancesPerGroup: 1,
        durationHours: 1,
      }),
    ).toThrow(/at most 20 regions/)
  })
})
