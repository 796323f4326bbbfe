/** Turning price rows into the lookups the planner uses. */
import type { SpotPrice, SpotPriceBook } from '../types.ts'

const NO_PRICES: ReadonlyMap<string, number> = new Map()

/**
 * The latest price per zone and type (rows may hold several steps per pool; the first of the latest
 * wins). A region lists thousands of rows every run: the rows are kept by zone and type as they come,
 * with no `type/zone` key built per row.
 */
export const latestSpotPrices = (rows: readonly SpotPrice[]): SpotPriceBook => {
  const latest = new Map<string, Map<string, SpotPrice>>()
  for (const row of rows) {
    let zone = latest.get(row.zone)
    if (zone === undefined) {
      zone = new Map()
      latest.set(row.zone, zone)
    }
    const seen = zone.get(row.instanceType)
    if (seen === undefined || row.timestamp.getTime() > seen.timestamp.getTime())
      zone.set(row.instanceType, row)
  }
  const book = new Map<string, Map<string, number>>()
  for (const [zone, rowsByType] of latest) {
    const prices = new Map<string, number>()
    for (const [type, row] of rowsByType) prices.set(type, row.priceUsd)
    book.set(zone, prices)
  }
  return book
}

/** One zone's prices by type; empty when the book prices nothing there. */
export const spotPricesIn = (book: SpotPriceBook, zone: string): ReadonlyMap<string, number> =>
  book.get(zone) ?? NO_PRICES

/** The price of one pool; undefined when it has none. */
export const spotPriceOf = (book: SpotPriceBook, type: string, zone: string): number | undefined =>
  book.get(zone)?.get(type)
