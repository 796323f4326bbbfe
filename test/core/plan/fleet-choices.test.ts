import { describe, expect, it } from 'vitest'
import { MAX_FLEET_OVERRIDES } from '../../../lambdas/core/constants.ts'
import { fleetChoices } from '../../../lambdas/core/plan/fleet-choices.ts'
import type { RankedCandidate } from '../../../lambdas/core/plan/selection.ts'
import type { InstanceTypeInfo } from '../../../lambdas/core/types.ts'
import { poolKey } from '../../../lambdas/core/types.ts'
import { embeddedCatalog } from '../../../tools/data/catalog.ts'

const ZONE = 'us-east-1a'
const SUBNET = 'subnet-a'
const catalog = embeddedCatalog()

/** `count` candidates in price order: m5.large first, then the catalogue's next types. */
const rankedOf = (count: number): RankedCandidate[] =>
  [...catalog.values()].slice(0, count).map((info: InstanceTypeInfo, i) => ({
    instanceType: info.name,
    zone: ZONE,
    pool: poolKey(info.name, ZONE),
    spotPriceUsd: 0.01 * (i + 1),
    info,
    flags: [],
  }))

const types = (choices: ReturnType<typeof fleetChoices>): string[] =>
  choices.overrides.map((o) => o.instanceType)

describe('fleetChoices', () => {
  it('offers the best candidates in rank order, one priority each, for the instance subnet', () => {
    const ranked = rankedOf(3)
    const choices = fleetChoices(ranked, new Map(), 9, 1 / 3, SUBNET)
    expect(choices.first).toBe(ranked[0])
    expect(choices.overrides).toEqual(
      ranked.map((c, priority) => ({ instanceType: c.instanceType, subnetId: SUBNET, zone: ZONE, priority })),
    )
  })

  it("carries a candidate's flags on its override, and none on an unflagged one", () => {
    const [plain, flagged] = rankedOf(2)
    if (plain === undefined || flagged === undefined) throw new Error('two candidates expected')
    const ranked = [plain, { ...flagged, flags: ['cpu-vendor-change', 'generation-change'] as const }]
    const [first, second] = fleetChoices(ranked, new Map(), 9, 1 / 3, SUBNET).overrides
    expect(first).not.toHaveProperty('flags')
    expect(second?.flags).toEqual(['cpu-vendor-change', 'generation-change'])
  })

  it(`offers at most ${MAX_FLEET_OVERRIDES} candidates`, () => {
    expect(fleetChoices(rankedOf(50), new Map(), 9, 1 / 3, SUBNET).overrides).toHaveLength(
      MAX_FLEET_OVERRIDES,
    )
  })

  it('passes over a pool that already holds its share of the spot instances', () => {
    const ranked = rankedOf(4)
    const full = new Map([[ranked[0]?.pool ?? '', 3]])
    const choices = fleetChoices(ranked, full, 9, 1 / 3, SUBNET)
    expect(choices.first).toBe(ranked[1])
    expect(types(choices)).toEqual(ranked.slice(1).map((c) => c.instanceType))
    expect(choices.overrides.map((o) => o.priority)).toEqual([0, 1, 2])
  })

  it('keeps every candidate when every pool is full', () => {
    const ranked = rankedOf(2)
    const full = new Map(ranked.map((c) => [c.pool, 5] as const))
    expect(types(fleetChoices(ranked, full, 9, 1 / 3, SUBNET))).toEqual(ranked.map((c) => c.instanceType))
  })

  it('gives launches with the same candidates and subnet equal overrides, and other subnets their own', () => {
    const ranked = rankedOf(5)
    const a = fleetChoices(ranked, new Map(), 9, 1 / 3, SUBNET)
    const b = fleetChoices(ranked, new Map([[ranked[4]?.pool ?? '', 1]]), 9, 1 / 3, SUBNET)
    expect(b.overrides).toEqual(a.overrides)
    expect(fleetChoices(ranked, new Map(), 9, 1 / 3, 'subnet-b').overrides.map((o) => o.subnetId)).toEqual(
      ranked.map(() => 'subnet-b'),
    )
  })

  it('gives launches that pass over the same full pools one shared list, and other full pools their own', () => {
    const ranked = rankedOf(6)
    const firstFull = new Map([[ranked[0]?.pool ?? '', 3]])
    const a = fleetChoices(ranked, firstFull, 9, 1 / 3, SUBNET)
    // Another count in the same full pool, another open pool filling: the same candidates passed over.
    const b = fleetChoices(ranked, new Map([...firstFull, [ranked[2]?.pool ?? '', 2]]), 9, 1 / 3, SUBNET)
    expect(b.overrides).toBe(a.overrides)
    const secondFull = fleetChoices(ranked, new Map([[ranked[1]?.pool ?? '', 3]]), 9, 1 / 3, SUBNET)
    expect(types(secondFull)).toEqual([0, 2, 3, 4, 5].map((i) => ranked[i]?.instanceType))
    expect(secondFull.first).toBe(ranked[0])
    const both = fleetChoices(
      ranked,
      new Map([
        [ranked[0]?.pool ?? '', 3],
        [ranked[1]?.pool ?? '', 3],
      ]),
      9,
      1 / 3,
      SUBNET,
    )
    expect(types(both)).toEqual(ranked.slice(2).map((c) => c.instanceType))
    expect(both.first).toBe(ranked[2])
    expect(fleetChoices(ranked, firstFull, 9, 1 / 3, 'subnet-b').overrides.map((o) => o.subnetId)).toEqual(
      ranked.slice(1).map(() => 'subnet-b'),
    )
  })
})
