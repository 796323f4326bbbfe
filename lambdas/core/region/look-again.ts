/**
 * Which groups get a run request before the next scheduled run: those whose plan wants a look sooner (a
 * swap waiting for its replacements to serve, a replacement at the end of its grace period).
 */
import type { Action, GroupPlan } from '../plan/actions.ts'

export interface LookRequest {
  readonly group: string
  readonly delaySeconds: number
  readonly why: 'swap' | 'warm-up'
}

/** What the look needs of a group's run: its plan and how each action went. */
export interface RunOfGroup {
  readonly plan: GroupPlan
  readonly outcomes: readonly { readonly action: Pick<Action, 'kind'>; readonly status: string }[]
}

export const looksToRequest = (groups: readonly RunOfGroup[], scheduleMinutes: number): LookRequest[] =>
  groups.flatMap(({ plan, outcomes }) => {
    const delay = plan.lookAgainSeconds
    // The next scheduled run looks first anyway.
    if (delay === undefined || delay >= scheduleMinutes * 60) return []
    // A swap whose attach failed has nothing to look at before the next run.
    if (outcomes.some((o) => o.action.kind === 'swap' && o.status === 'failed')) return []
    return [{ group: plan.group, delaySeconds: delay, why: plan.lookAgainFor ?? 'swap' }]
  })
