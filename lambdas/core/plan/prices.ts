/** Turning price rows into the lookups the planner uses. */
import type { SpotPrice, SpotPriceBook } from '../types.ts'
import { poolKey } from '../types.ts'

/** The latest price per type and zone (rows may hold several steps per pool; the first of the latest wins). */
export const latestSpotPrices = (rows: readonly SpotPrice[]): SpotPriceBook => {
  const prices = new Map<string, number>()
  const times = new Map<string, number>()
  for (const row of rows) {
    const key = poolKey(row.instanceType, row.zone)
    const at = row.timestamp.getTime()
    const seen = times.get(key)
    if (seen === undefined || at > seen) {
      times.set(key, at)
      prices.set(key, row.priceUsd)
    }
  }
  return prices
}

/**
 * One zone's prices by type, built for every zone in one pass over the book the first time any is asked
 * for, so a lookup builds no pool key (selections weigh hundreds of types, a large run's figures 100,000
 * instances). The same answers as `book.get(poolKey(type, zone))`: neither a type nor a zone holds a `/`.
 * Books are read-only once built.
 */
const zoneViews = new WeakMap<SpotPriceBook, ReadonlyMap<string, ReadonlyMap<string, number>>>()
const NO_PRICES: ReadonlyMap<string, number> = new Map()

const byZone = (book: SpotPriceBook): ReadonlyMap<string, ReadonlyMap<string, number>> => {
  const known = zoneViews.get(book)
  if (known !== undefined) return known
  const views = new Map<string, Map<string, number>>()
  for (const [key, price] of book) {
    const slash = key.lastIndexOf('/')
    const zone = key.slice(slash + 1)
    let view = views.get(zone)
    if (view === undefined) {
      view = new Map()
      views.set(zone, view)
    }
    view.set(key.slice(0, slash), price)
  }
  zoneViews.set(book, views)
  return views
}

export const spotPricesIn = (book: SpotPriceBook, zone: string): ReadonlyMap<string, number> =>
  byZone(book).get(zone) ?? NO_PRICES
