/**
 * The region run's write budget (core/region/time-budget.ts): asked before each write step, it remembers
 * which groups it refused so the run can report them. Without a deadline (a local caller, the command
 * line), every write may start.
 */
import type { Log, MetricsSink } from '../core/log.ts'
import { DIMENSION_REGION, Metric } from '../core/metric-names.ts'
import { type CloudPort, PORT_WRITES } from '../core/port.ts'
import { type RunDeadline, type TimeBudgetSkip, writeSkip } from '../core/region/time-budget.ts'

export class WriteBudget {
  private readonly refused = new Map<string, TimeBudgetSkip>()

  constructor(private readonly deadline: RunDeadline | undefined) {}

  /** Why no write step may start now, if none may (the run's lease renewed first if it runs short). */
  private spent(): Promise<TimeBudgetSkip | undefined> {
    return this.deadline ? writeSkip(this.deadline) : Promise.resolve(undefined)
  }

  /** Whether a write step outside any group (a stray's termination) may start now. */
  async hasTime(): Promise<boolean> {
    return (await this.spent()) === undefined
  }

  /** Whether a write step for `group` may start now; once refused, none of the group's later ones may. */
  async mayWrite(group: string): Promise<boolean> {
    if (this.refused.has(group)) return false
    const skip = await this.spent()
    if (skip === undefined) return true
    this.refused.set(group, skip)
    return false
  }

  /**
   * The cloud with each write checked first, not only each action: an action's later requests start
   * only with the margin left too (the lease renewed if it runs short), so none takes effect after the
   * run's message may be another run's. A refused write throws, and its action fails there, as after an
   * API error at that request. Reads go straight through.
   */
  guard(cloud: CloudPort): CloudPort {
    const { deadline } = this
    if (deadline === undefined) return cloud
    const writes: ReadonlySet<PropertyKey> = new Set(PORT_WRITES)
    return new Proxy(cloud, {
      get: (target, property) => {
        const value: unknown = Reflect.get(target, property, target)
        if (typeof value !== 'function') return value
        if (!writes.has(property)) return value.bind(target)
        return async (...args: unknown[]) => {
          const skip = await writeSkip(deadline)
          if (skip !== undefined) throw new WriteBudgetSpent(String(property), skip.detail)
          return value.apply(target, args)
        }
      },
    })
  }

  /** Why the group's remaining actions were not started, if they were not. */
  skipOf(group: string): TimeBudgetSkip | undefined {
    return this.refused.get(group)
  }

  /** Says which groups the run left to the next one: a log line and a metric per region. */
  report(options: { readonly log: Log; readonly metrics: MetricsSink }, region: string): void {
    if (this.refused.size === 0) return
    const [first] = this.refused.values()
    options.log.warn('time budget spent: writes left to the next run', {
      region,
      groups: [...this.refused.keys()],
      reason: first?.detail,
    })
    options.metrics.emit({ [DIMENSION_REGION]: region }, [
      { name: Metric.GroupsPastTimeBudget, unit: 'Count', value: this.refused.size },
    ])
  }
}

/** A write the run's time budget refused to start (WriteBudget.guard). */
export class WriteBudgetSpent extends Error {
  override readonly name = 'WriteBudgetSpent'
  constructor(write: string, detail: string) {
    super(`${write} not started: ${detail}`)
  }
}
