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

const stepAt = (steps: readonly PriceStep[], atMs: number): PriceStep | undefined => {
  let lo = 0
  let hi = steps.length - 1
  let found = steps[0]
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const step = steps[mid] as PriceStep
    if (step.at <= atMs) {
      found = step
      lo = mid + 1
    } else {
      hi = mid - 1
    }
  }
  return found
}

export class SpotMarket {
  private readonly pools = new Map<string, { type: string; zone: string; steps: readonly PriceStep[] }>()

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

  /** Visits the price step in effect at `atMs` in every pool offered for the product description. */
  forEachCurrentStep(
    productDescription: string,
    atMs: number,
    visit: (type: string, zone: string, step: PriceStep) => void,
  ): void {
    // The embedded snapshot holds Linux/UNIX prices only; other platforms are simply not offered.
    if (productDescriptionOf(productDescription) !== LINUX) return
    for (const pool of this.pools.values()) {
      const step = stepAt(pool.steps, atMs)
      if (step !== undefined) visit(pool.type, pool.zone, step)
    }
  }

  /** What DescribeSpotPriceHistory with StartTime = now returns: the price in effect per pool. */
  priceRows(productDescription: string, atMs: number): SpotPrice[] {
    const rows: SpotPrice[] = []
    this.forEachCurrentStep(productDescription, atMs, (instanceType, zone, step) =>
      rows.push({
        instanceType,
        zone,
        productDescription: LINUX,
        priceUsd: step.priceUsd,
        timestamp: new Date(Math.min(step.at, atMs)),
      }),
    )
    return rows
  }

  onDemandPrices(platform: string): ReadonlyMap<string, number> {
    return embeddedOnDemandPrices(this.region, platform).prices
  }

  onDemandPrice(type: string, platform = LINUX): number | undefined {
    return this.onDemandPrices(platform).get(type)
  }
}
