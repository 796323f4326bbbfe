/**
 * Capacity availability weighted by time: ∫ min(in service, desired) dt / ∫ desired dt, from every group
 * state the simulation observes (states are piecewise constant between steps, so this is exact). Unlike
 * the report's per-tick sample, it does not depend on the schedule: a 40 s dip counts 40 s whether the
 * replacer runs every 5 or every 30 minutes, which is what lets policies with different schedules be
 * compared.
 */

interface Open {
  readonly atMs: number
  readonly served: number
  readonly desired: number
}

export interface AvailabilityFigures {
  /** Percent over all groups together; 100 when no capacity was desired. */
  readonly totalPct: number
  readonly byGroupPct: Readonly<Record<string, number>>
  /** ∫ (desired − min(in service, desired)) dt per group, in instance-hours: the capacity not provided. */
  readonly byGroupShortHours: Readonly<Record<string, number>>
  /** ∫ desired dt per group, in instance-hours: the capacity the owner asked for. */
  readonly byGroupDesiredHours: Readonly<Record<string, number>>
}

const HOUR_MS = 3_600_000

export class AvailabilityMeter {
  private readonly open = new Map<string, Open>()
  private readonly servedMs = new Map<string, number>()
  private readonly desiredMs = new Map<string, number>()

  /** The group's capacity from `atMs` on. */
  observe(
    group: string,
    atMs: number,
    state: { readonly inService: number; readonly desired: number },
  ): void {
    this.close(group, atMs)
    this.open.set(group, { atMs, served: Math.min(state.inService, state.desired), desired: state.desired })
  }

  /** Closes every group's last interval at `endMs` and returns the figures. */
  finish(endMs: number): AvailabilityFigures {
    for (const group of this.open.keys()) this.close(group, endMs)
    this.open.clear()
    const pct = (served: number, desired: number) => (desired === 0 ? 100 : (100 * served) / desired)
    const byGroupPct: Record<string, number> = {}
    const byGroupShortHours: Record<string, number> = {}
    const byGroupDesiredHours: Record<string, number> = {}
    let served = 0
    let desired = 0
    for (const [group, groupDesired] of [...this.desiredMs].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const groupServed = this.servedMs.get(group) ?? 0
      byGroupPct[group] = pct(groupServed, groupDesired)
      byGroupShortHours[group] = Math.max(0, groupDesired - groupServed) / HOUR_MS
      byGroupDesiredHours[group] = groupDesired / HOUR_MS
      served += groupServed
      desired += groupDesired
    }
    return { totalPct: pct(served, desired), byGroupPct, byGroupShortHours, byGroupDesiredHours }
  }

  private close(group: string, atMs: number): void {
    const last = this.open.get(group)
    if (last === undefined) return
    const span = Math.max(0, atMs - last.atMs)
    this.servedMs.set(group, (this.servedMs.get(group) ?? 0) + span * last.served)
    this.desiredMs.set(group, (this.desiredMs.get(group) ?? 0) + span * last.desired)
  }
}
