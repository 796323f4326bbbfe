/**
 * What instances cost: per second while running (EC2 bills from running to shutting-down), at the
 * on-demand price or at the pool's spot price in effect at each moment, within the simulated period.
 */
import type { PriceStep, SpotMarket } from './market.ts'
import type { SimInstance } from './state.ts'

const HOUR_MS = 3_600_000

/** Milliseconds [from, to) and [begins, ends) share; 0 when they do not meet. */
export const overlapMs = (from: number, to: number, begins: number, ends: number): number =>
  Math.max(0, Math.min(to, ends) - Math.max(from, begins))

/** ∫ price dt over [from, to) for a step function of price. */
export const integrateSteps = (steps: readonly PriceStep[], from: number, to: number): number => {
  if (to <= from || steps.length === 0) return 0
  let total = 0
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as PriceStep
    // The first price also applies before its step (the embedded data's earliest known price).
    const begins = i === 0 ? Number.NEGATIVE_INFINITY : step.at
    const ends = steps[i + 1]?.at ?? Number.POSITIVE_INFINITY
    total += (overlapMs(from, to, begins, ends) / HOUR_MS) * step.priceUsd
  }
  return total
}

/** USD the instance cost between `from` and `to` (clipped to when it ran). */
export const instanceCost = (
  market: SpotMarket,
  instance: SimInstance,
  runningSinceMs: number,
  from: number,
  to: number,
): number => {
  const start = Math.max(from, runningSinceMs)
  const end = Math.min(to, instance.billedUntilMs ?? to)
  if (end <= start) return 0
  if (instance.lifecycle === 'on-demand')
    return ((end - start) / HOUR_MS) * (market.onDemandPrice(instance.type, instance.platform) ?? 0)
  return integrateSteps(market.steps(instance.type, instance.zone), start, end)
}

/** USD/hour the instance costs at `atMs` (0 when it is not billed then). */
export const hourlyCost = (market: SpotMarket, instance: SimInstance, atMs: number): number => {
  if (
    instance.state !== 'running' ||
    (instance.billedUntilMs !== undefined && instance.billedUntilMs <= atMs)
  )
    return 0
  if (instance.lifecycle === 'on-demand') return market.onDemandPrice(instance.type, instance.platform) ?? 0
  return market.spotPrice(instance.type, instance.zone, atMs) ?? 0
}
