/**
 * Spot capacity per pool over time. A pool without a trace always has capacity; `{ available: false }`
 * never has any; a trace gives the pool's share of its best capacity at each tick (count / the trace's
 * maximum), replayed from `startIndex` at the scenario start and wrapping around at its end. A share of 0
 * means launches fail with InsufficientInstanceCapacity and every running instance is interrupted; a
 * drop from one share to a lower one interrupts that proportion of the pool's running instances.
 */
import { poolKey } from '../../lambdas/core/types.ts'
import type { CapacityTrace } from '../data/capacity-traces.ts'

export type PoolCapacity =
  | { readonly kind: 'trace'; readonly trace: CapacityTrace; readonly startIndex: number }
  | { readonly kind: 'unavailable' }

export interface CapacityChange {
  readonly at: number
  readonly share: number
}

interface TracedPool {
  readonly data: readonly number[]
  readonly gapMs: number
  readonly startIndex: number
  readonly peak: number
}

export class CapacityModel {
  private readonly traced = new Map<string, TracedPool>()
  private readonly unavailable = new Set<string>()

  constructor(
    private readonly startMs: number,
    pools: ReadonlyMap<string, PoolCapacity>,
  ) {
    for (const [key, spec] of pools) {
      if (spec.kind === 'unavailable' || spec.trace.data.length === 0) {
        this.unavailable.add(key)
        continue
      }
      const peak = Math.max(...spec.trace.data)
      if (peak <= 0) this.unavailable.add(key)
      else
        this.traced.set(key, {
          data: spec.trace.data,
          gapMs: spec.trace.gapSeconds * 1000,
          startIndex: spec.startIndex,
          peak,
        })
    }
  }

  /** Pool keys with a trace, sorted: the pools whose capacity changes over time. */
  tracedPools(): string[] {
    return [...this.traced.keys()].sort()
  }

  /** The pool's capacity share in [0, 1] at `atMs`. */
  share(type: string, zone: string, atMs: number): number {
    return this.shareOf(poolKey(type, zone), atMs)
  }

  shareOf(key: string, atMs: number): number {
    if (this.unavailable.has(key)) return 0
    const pool = this.traced.get(key)
    if (pool === undefined) return 1
    return (pool.data[this.indexAt(pool, atMs)] as number) / pool.peak
  }

  /** The next instant after `afterMs` at which the pool's share changes, within one full replay of its trace. */
  nextChange(key: string, afterMs: number): CapacityChange | undefined {
    const pool = this.traced.get(key)
    if (pool === undefined) return undefined
    const tick = Math.floor((afterMs - this.startMs) / pool.gapMs)
    const index = this.indexAt(pool, afterMs)
    const current = pool.data[index] as number
    for (let step = 1; step <= pool.data.length; step++) {
      const value = pool.data[(index + step) % pool.data.length] as number
      if (value !== current)
        return { at: this.startMs + (tick + step) * pool.gapMs, share: value / pool.peak }
    }
    return undefined
  }

  private indexAt(pool: TracedPool, atMs: number): number {
    const tick = Math.floor((atMs - this.startMs) / pool.gapMs)
    const length = pool.data.length
    return (((pool.startIndex + tick) % length) + length) % length
  }
}
