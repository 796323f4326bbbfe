import { poolKey } from '../../lambdas/core/types.ts'
import { readFixture } from './fixtures.ts'

/** The spot price of a pool from `at` until the next step. */
export interface SpotPriceStep {
  readonly at: Date
  readonly priceUsd: number
}

interface SpotPriceTable {
  readonly window: { readonly start: string; readonly end: string }
  /** region -> zone name -> instance type -> [[ISO time, USD/hour], ...], Linux/UNIX only. */
  readonly regions: Readonly<
    Record<string, Readonly<Record<string, Readonly<Record<string, readonly (readonly [string, number])[]>>>>>
  >
}

const prices = readFixture('spot-prices.json') as SpotPriceTable

const stepsByRegion = new Map<string, ReadonlyMap<string, readonly SpotPriceStep[]>>()

const decodeRegion = (region: string): ReadonlyMap<string, readonly SpotPriceStep[]> => {
  const pools = new Map<string, readonly SpotPriceStep[]>()
  for (const [zone, byType] of Object.entries(prices.regions[region] ?? {})) {
    for (const [instanceType, steps] of Object.entries(byType)) {
      const decoded = steps.map(([at, priceUsd]) => ({ at: new Date(at), priceUsd }))
      pools.set(
        poolKey(instanceType, zone),
        decoded.sort((a, b) => a.at.getTime() - b.at.getTime()),
      )
    }
  }
  return pools
}

/**
 * Real Linux/UNIX spot price changes of 2022-05-31 18:00Z–24:00Z, per pool (`type/zone`), oldest first.
 * The first step of every pool starts at the window start: it is the earliest price known for that pool.
 * Pools whose price did not change inside the window have no entry. Unknown regions yield an empty map.
 */
export const embeddedSpotPriceSteps = (region: string): ReadonlyMap<string, readonly SpotPriceStep[]> => {
  let pools = stepsByRegion.get(region)
  if (!pools) {
    pools = decodeRegion(region)
    stepsByRegion.set(region, pools)
  }
  return pools
}

/** The period the embedded prices cover; after `end` the last step of each pool simply continues. */
export const embeddedSpotWindow = (): { readonly start: Date; readonly end: Date } => ({
  start: new Date(prices.window.start),
  end: new Date(prices.window.end),
})

/** Zone names with embedded prices in a region, sorted (`us-east-1a` ... `us-east-1f`). */
export const embeddedZones = (region: string): string[] => Object.keys(prices.regions[region] ?? {}).sort()

export const embeddedRegions = (): string[] => Object.keys(prices.regions).sort()
