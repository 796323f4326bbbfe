/** Turning price rows into the lookups the planner uses. */
import type { SpotPrice, SpotPriceBook } from '../types.ts'
import { poolKey } from '../types.ts'

type ZoneViews = ReadonlyMap<string, ReadonlyMap<string, number>>

/**
 * One zone's prices by type, so a lookup builds no pool key (selections weigh hundreds of types, a large
 * run's figures 100,000 instances). The same answers as `book.get(poolKey(type, zone))`: neither a type
 * nor a zone holds a `/`. Books are read-only once built.
 */
const zoneViews = new WeakMap<SpotPriceBook, ZoneViews>()
const NO_PRICES: ReadonlyMap<string, number> = new Map()

/** `views[zone]`, created empty when the zone is new. */
const viewOf = (views: Map<string, Map<string, number>>, zone: string): Map<string, number> => {
  let view = views.get(zone)
  if (view === undefined) {
    view = new Map()
    views.set(zone, view)
  }
  return view
}

/**
 * The latest price per type and zone (rows may hold several steps per pool; the first of the latest
 * wins). A region lists thousands of rows every run, so the zone views are built in the same pass,
 * from the rows' own fields, rather than by splitting every pool key again later.
 */
export const latestSpotPrices = (rows: readonly SpotPrice[]): SpotPriceBook => {
  const prices = new Map<string, number>()
  const times = new Map<string, number>()
  const views = new Map<string, Map<string, number>>()
  for (const row of rows) {
    const key = poolKey(row.instanceType, row.zone)
    const at = row.timestamp.getTime()
    const seen = times.get(key)
    if (seen === undefined || at > seen) {
      times.set(key, at)
      prices.set(key, row.priceUsd)
      viewOf(views, row.zone).set(row.instanceType, row.priceUsd)
    }
  }
  zoneViews.set(prices, views)
  return prices
}

/** Zone views for a book built elsewhere (tests, the simulator's oracle), in one pass over the book. */
const byZone = (book: SpotPriceBook): ZoneViews => {
  const known = zoneViews.get(book)
  if (known !== undefined) return known
  const views = new Map<string, Map<string, number>>()
  for (const [key, price] of book) {
    const slash = key.lastIndexOf('/')
    viewOf(views, key.slice(slash + 1)).set(key.slice(0, slash), price)
  }
  zoneViews.set(book, views)
  return views
}

export const spotPricesIn = (book: SpotPriceBook, zone: string): ReadonlyMap<string, number> =>
  byZone(book).get(zone) ?? NO_PRICES
