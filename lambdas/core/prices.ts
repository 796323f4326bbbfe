/** Turning price rows into the lookups the planner uses. */
import type { SpotPrice, SpotPriceBook } from './types.ts'
import { poolKey } from './types.ts'

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
