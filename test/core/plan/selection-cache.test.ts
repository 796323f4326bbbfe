import { describe, expect, it } from 'vitest'
import type { Selection } from '../../../lambdas/core/plan/selection.ts'
import { cachedSelection, projectedSaving } from '../../../lambdas/core/plan/selection-cache.ts'
import type { InstanceTypeInfo } from '../../../lambdas/core/types.ts'
import { config, onDemandFleet, planInput } from '../../builders/world.ts'

const input = (selectionCache?: Map<string, Selection>) => planInput(onDemandFleet(1), { selectionCache })
const m5Large = (): InstanceTypeInfo => input().catalog.get('m5.large') as InstanceTypeInfo
const selectionOf = (selectionCache: Map<string, Selection>, allowed: string[] = []) =>
  cachedSelection(
    input(selectionCache),
    config({ allowedInstanceTypes: allowed }),
    'm5.large',
    m5Large(),
    'us-east-1a',
    0.096,
  )

describe('cachedSelection', () => {
  it('shares a selection between groups only when their selection settings agree', () => {
    const selectionCache = new Map<string, Selection>()
    const restricted = selectionOf(selectionCache, ['m5a.*'])
    const open = selectionOf(selectionCache)
    expect(restricted.ranked.every((c) => c.instanceType.startsWith('m5a.'))).toBe(true)
    expect(open.ranked.some((c) => !c.instanceType.startsWith('m5a.'))).toBe(true)
    // A second group with the same settings (another config object, equal values) gets the same one.
    expect(selectionOf(selectionCache)).toBe(open)
    expect(selectionCache.size).toBe(2)
  })

  it('answers each call from its own cache and settings, however the calls alternate', () => {
    const restricted = config({ allowedInstanceTypes: ['m5a.*'] })
    const open = config({})
    const ask = (selectionCache: Map<string, Selection>, settings: typeof open) =>
      cachedSelection(input(selectionCache), settings, 'm5.large', m5Large(), 'us-east-1a', 0.096)
    const run = new Map<string, Selection>()
    const first = ask(run, restricted)
    const second = ask(run, open)
    expect(second).not.toBe(first)
    expect(ask(run, restricted)).toBe(first)
    const nextRun = new Map<string, Selection>()
    const again = ask(nextRun, open)
    expect(again).not.toBe(second)
    expect(ask(run, open)).toBe(second)
    expect(ask(nextRun, restricted).ranked).toEqual(first.ranked)
  })

  it('keeps nothing from one run for the next: a new cache selects afresh', () => {
    const first = selectionOf(new Map())
    const second = selectionOf(new Map())
    expect(second).not.toBe(first)
    expect(second.ranked).toEqual(first.ranked)
  })

  it('answers from the entries the run already holds under the type|zone|settings key', () => {
    const selectionCache = new Map<string, Selection>()
    const made = selectionOf(selectionCache)
    const [key] = [...selectionCache.keys()]
    const planted: Selection = { ranked: [], rejected: new Map() }
    const other = new Map([[key as string, planted]])
    expect(selectionOf(other)).toBe(planted)
    expect(selectionOf(selectionCache)).toBe(made)
  })
})

describe('projectedSaving', () => {
  it('is the on-demand price less the cheapest compatible spot price, undefined for an unknown type', () => {
    const plan = input()
    const saving = projectedSaving(plan, plan.config, 'm5.large', 'us-east-1a')
    const cheapest = cachedSelection(plan, plan.config, 'm5.large', m5Large(), 'us-east-1a', 0.096).ranked[0]
    expect(saving).toBeCloseTo(0.096 - (cheapest?.spotPriceUsd ?? 0), 6)
    expect(projectedSaving(plan, plan.config, 'x9.unknown', 'us-east-1a')).toBeUndefined()
  })
})
