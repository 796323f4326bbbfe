/**
 * What a `spotswap verify` run cost, estimated: each instance's time between the looks that saw it,
 * times the price spotswap knows for it (on-demand from the Pricing API or its embedded table, spot from
 * the region's current price history). Load balancer hours are not priced by spotswap and not counted.
 */
import type { Observation } from './verify-checks.ts'

export type PriceOf = (type: string, lifecycle: 'spot' | 'on-demand', zone: string) => number | undefined

export interface CostEstimate {
  readonly usd: number
  readonly instanceHours: number
  /** Instance types seen without a known price: their hours are in instanceHours, not in usd. */
  readonly unpriced: readonly string[]
}

export const estimateCost = (observations: readonly Observation[], priceOf: PriceOf): CostEstimate => {
  let usd = 0
  let instanceHours = 0
  const unpriced = new Set<string>()
  for (let i = 1; i < observations.length; i++) {
    const before = observations[i - 1] as Observation
    const after = observations[i] as Observation
    const hours = (after.at.getTime() - before.at.getTime()) / 3_600_000
    const seen = new Map([...before.members, ...before.launched].map((m) => [m.id, m]))
    for (const instance of seen.values()) {
      instanceHours += hours
      const price = priceOf(instance.type, instance.lifecycle, instance.zone)
      if (price === undefined) unpriced.add(`${instance.type} ${instance.lifecycle}`)
      else usd += price * hours
    }
  }
  return { usd, instanceHours, unpriced: [...unpriced].sort() }
}
