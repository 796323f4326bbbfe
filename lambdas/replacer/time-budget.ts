/**
 * The region run's write budget (core/region/time-budget.ts): asked before each write step, it remembers
 * which groups it refused so the run can report them. Without a deadline (a local caller, the command
 * line), every write may start.
 */
import type { Log, MetricsSink } from '../core/log.ts'
import { DIMENSION_REGION, Metric } from '../core/metric-names.ts'
import { type RunDeadline, type TimeBudgetSkip, timeBudgetSkip } from '../core/region/time-budget.ts'

export class WriteBudget {
  private readonly refused = new Map<string, TimeBudgetSkip>()

  constructor(private readonly deadline: RunDeadline | undefined) {}

  /** Why no write step may start now, if none may. */
  private spent(): TimeBudgetSkip | undefined {
    return this.deadline && timeBudgetSkip(this.deadline.endsAtMs - this.deadline.nowMs())
  }

  /** Whether a write step outside any group (a stray's termination) may start now. */
  hasTime(): boolean {
    return this.spent() === undefined
  }

  /** Whether a write step for `group` may start now; once refused, none of the group's later ones may. */
  mayWrite(group: string): boolean {
    if (this.refused.has(group)) return false
    const skip = this.spent()
    if (skip === undefined) return true
    this.refused.set(group, skip)
    return false
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
