/** Turning price rows into the lookups the planner uses. */
import type { SpotPrice, SpotPriceBook } from '../types.ts'
import { poolKey } from '../types.ts'

/** The latest price per type and zone (rows may hold several steps per pool). */
export const latestSpotPrices = (rows: readonly SpotPrice[]): SpotPriceBook => {
  const latest = new Map<string, SpotPrice>()
  for (const row of rows) {
    const key = poolKey(row.instanceType, row.zone)
    const seen = latest.get(key)
    if (!seen || row.timestamp.getTime() > seen.timestamp.getTime()) latest.set(key, row)
  }
  return new Map([...latest].map(([key, row]) => [key, row.priceUsd]))
}

/**
 * One zone's prices by type, built once per price book and zone, so a lookup builds no pool key (selections
 * weigh hundreds of types, a large run's figures 100,000 instances). The same answers as
 * `book.get(poolKey(type, zone))`: a key ends with `/<zone>` exactly when it is `poolKey(type, zone)` for
 * the type before it. Books are read-only once built.
 */
const zoneViews = new WeakMap<SpotPriceBook, Map<string, ReadonlyMap<string, number>>>()

export const spotPricesIn = (book: SpotPriceBook, zone: string): ReadonlyMap<string, number> => {
  let byZone = zoneViews.get(book)
  if (byZone === undefined) {
    byZone = new Map()
    zoneViews.set(book, byZone)
  }
  let view = byZone.get(zone)
  if (view === undefined) {
    const suffix = `/${zone}`
    const prices = new Map<string, number>()
    for (const [key, price] of book)
      if (key.endsWith(suffix)) prices.set(key.slice(0, key.length - suffix.length), price)
    view = prices
    byZone.set(zone, view)
  }
  return view
}
