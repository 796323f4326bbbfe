/**
 * Why on-demand members are still on-demand, where a user looks: the log (once per change of reason, per
 * Lambda container: a cold start logs them again; never a tag, so a converted account sees only reads),
 * the run's summary and the metrics (per reason code).
 */

import type { Log } from '../core/log.ts'
import type { GroupPlan } from '../core/plan/actions.ts'
import type { OnDemandCode, OnDemandStatus } from '../core/plan/reasons.ts'

/** Held back: no replacement on its way, and not one of the on-demand instances the group keeps. */
export const isHeldBack = (status: OnDemandStatus): boolean =>
  !status.progress && status.code !== 'on-demand-minimum'

/** How many held-back members a group's summary lists; the rest are counted. */
export const SUMMARY_HELD_BACK_SHOWN = 50

/** The last status code seen for each on-demand member, per group, for as long as the container lives. */
export class ReasonMemory {
  private readonly byGroup = new Map<string, ReadonlyMap<string, OnDemandCode>>()

  /** The statuses whose reason differs from the last one seen (progress is remembered, never returned). */
  changed(region: string, plan: GroupPlan): OnDemandStatus[] {
    const key = `${region}/${plan.group}`
    const before = this.byGroup.get(key)
    // Replaced whole: members that left are forgotten, so the memory stays the size of the fleet.
    this.byGroup.set(key, new Map(plan.onDemand.map((s) => [s.instanceId, s.code])))
    return plan.onDemand.filter((s) => !s.progress && before?.get(s.instanceId) !== s.code)
  }
}

export const logReasonChanges = (log: Log, region: string, plan: GroupPlan, memory: ReasonMemory): void => {
  for (const status of memory.changed(region, plan))
    log.info('still on-demand', { region, group: plan.group, ...status })
}

/** The group summary's part: held-back members (at most SUMMARY_HELD_BACK_SHOWN) and a count per code. */
export const summarizeStillOnDemand = (
  plan: GroupPlan,
): { stillOnDemand?: readonly OnDemandStatus[]; stillOnDemandByReason?: Record<string, number> } => {
  const held = plan.onDemand.filter(isHeldBack)
  if (held.length === 0) return {}
  return {
    stillOnDemand: held.slice(0, SUMMARY_HELD_BACK_SHOWN),
    stillOnDemandByReason: heldBackByReason([plan]),
  }
}

/** Held-back members per reason code over some plans, codes in order. */
export const heldBackByReason = (plans: readonly GroupPlan[]): Record<string, number> => {
  const counts = new Map<string, number>()
  for (const plan of plans)
    for (const status of plan.onDemand)
      if (isHeldBack(status)) counts.set(status.code, (counts.get(status.code) ?? 0) + 1)
  return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : 1)))
}
