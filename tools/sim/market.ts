/**
 * Prices in one simulated region: spot prices per pool (type/zone) as step functions of time, from the
 * embedded real snapshot with the scenario's overrides on top, and on-demand prices from the embedded
 * table. A pool with no spot price is not offered as spot there.
 */
import { LINUX, productDescriptionOf } from '../../lambdas/core/platform.ts'
import { poolKey, type SpotPrice } from '../../lambdas/core/types.ts'
import { embeddedOnDemandPrices } from '../../lambdas/data/on-demand-prices.ts'
import { embeddedSpotPriceSteps } from '../data/spot-prices.ts'

export interface PriceStep {
  /** Epoch ms from which the price applies. */
  readonly at: number
  readonly priceUsd: number
}

/** Overrides per pool key; each list sorted by time. A pool's first price also applies before its first step. */
export type SpotPriceOverrides = ReadonlyMap<string, readonly PriceStep[]>

/** The index of the step in effect at `atMs`: the last one begun, else the first; -1 when there is none. */
const stepIndexAt = (steps: readonly PriceStep[], atMs: number): number => {
  let lo = 0
  let hi = steps.length - 1
  let found = steps.length === 0 ? -1 : 0
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if ((steps[mid] as PriceStep).at <= atMs) {
      found = mid
      lo = mid + 1
    } else {
      hi = mid - 1
    }
  }
  return found
}

const stepAt = (steps: readonly PriceStep[], atMs: number): PriceStep | undefined =>
  steps[stepIndexAt(steps, atMs)]

/** The price step in effect in one pool. */
export interface PoolStep {
  readonly type: string
  readonly zone: string
  readonly step: PriceStep
}

/** currentSteps' answer and the span of time it holds for: from when it was asked until `untilMs`. */
interface CurrentSteps {
  readonly fromMs: number
  readonly untilMs: number
  readonly steps: readonly PoolStep[]
}

export class SpotMarket {
  private readonly pools = new Map<string, { type: string; zone: string; steps: readonly PriceStep[] }>()
  private current: CurrentSteps | undefined

  constructor(
    readonly region: string,
    zones: readonly string[],
    overrides: SpotPriceOverrides,
  ) {
    const inRegion = new Set(zones)
    for (const [key, steps] of embeddedSpotPriceSteps(region)) {
      const [type, zone] = key.split('/') as [string, string]
      if (!inRegion.has(zone)) continue
      this.pools.set(key, {
        type,
        zone,
        steps: steps.map((s) => ({ at: s.at.getTime(), priceUsd: s.priceUsd })),
      })
    }
    for (const [key, steps] of overrides) {
      const [type, zone] = key.split('/') as [string, string]
      if (steps.length > 0) this.pools.set(key, { type, zone, steps })
    }
  }

  /** USD/hour of a Linux spot instance in the pool at `atMs`; undefined when the pool is not offered. */
  spotPrice(type: string, zone: string, atMs: number): number | undefined {
    const pool = this.pools.get(poolKey(type, zone))
    return pool === undefined ? undefined : stepAt(pool.steps, atMs)?.priceUsd
  }

  /** A pool's price steps, oldest first, for exact cost integration. */
  steps(type: string, zone: string): readonly PriceStep[] {
    return this.pools.get(poolKey(type, zone))?.steps ?? []
  }

  /**
   * The price step in effect at `atMs` in every pool offered, in pool order. Prices change a few dozen
   * times a day while every replacer run of a region asks for all of its 1,000 or more pools, so the
   * answer is the same array, and the same objects, until the next moment a pool's step changes or a
   * pool's first step begins (before it, the first price applies too: see priceRows).
   */
  currentSteps(atMs: number): readonly PoolStep[] {
    const current = this.current
    if (current !== undefined && atMs >= current.fromMs && atMs < current.untilMs) return current.steps
    const steps: PoolStep[] = []
    let untilMs = Number.POSITIVE_INFINITY
    for (const pool of this.pools.values()) {
      const index = stepIndexAt(pool.steps, atMs)
      const step = pool.steps[index]
      if (step === undefined) continue
      steps.push({ type: pool.type, zone: pool.zone, step })
      const next = step.at > atMs ? step : pool.steps[index + 1]
      if (next !== undefined && next.at < untilMs) untilMs = next.at
    }
    this.current = { fromMs: atMs, untilMs, steps }
    return steps
  }

  /** currentSteps for a product description: none but Linux/UNIX, which the embedded snapshot holds. */
  currentStepsFor(productDescription: string, atMs: number): readonly PoolStep[] {
    return productDescriptionOf(productDescription) === LINUX ? this.currentSteps(atMs) : []
  }

  /** What DescribeSpotPriceHistory with StartTime = now returns: the price in effect per pool. */
  priceRows(productDescription: string, atMs: number): SpotPrice[] {
    return this.currentStepsFor(productDescription, atMs).map(({ type, zone, step }) => ({
      instanceType: type,
      zone,
      productDescription: LINUX,
      priceUsd: step.priceUsd,
      timestamp: new Date(Math.min(step.at, atMs)),
    }))
  }

  onDemandPrices(platform: string): ReadonlyMap<string, number> {
    return embeddedOnDemandPrices(this.region, platform).prices
  }

  onDemandPrice(type: string, platform = LINUX): number | undefined {
    return this.onDemandPrices(platform).get(type)
  }
}
