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
  groups.flatMap(({ plan }) => {
    const delay = plan.lookAgainSeconds
    // The next scheduled run looks first anyway.
    if (delay === undefined || delay >= scheduleMinutes * 60) return []
    // A swap whose attach failed is looked at as soon as one that attached: its replacements wait beside
    // their partners, and the next run attaches them again. Waiting for the schedule instead costs a period,
    // and a crash in the lane another, which can take them past their orphan deadline (swap-start.ts
    // terminates them there, which bounds these looks).
    return [{ group: plan.group, delaySeconds: delay, why: plan.lookAgainFor ?? 'swap' }]
  })
