/**
 * Which groups get a run request before the next scheduled run: those whose plan wants a look sooner (a
 * swap waiting for its replacements to serve, a replacement at the end of its grace period).
 */
import { FAILED_RUN_RETRY_SECONDS } from '../constants.ts'
import type { Action, GroupPlan } from '../plan/actions.ts'

export interface LookRequest {
  readonly group: string
  readonly delaySeconds: number
  readonly why: 'swap' | 'warm-up'
  /** With a `warm-up` look, the later one the group's open swap asks for (GroupPlan.swapLookSeconds). */
  readonly swapDelaySeconds?: number
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
    const swapDelay = plan.swapLookSeconds
    return [
      {
        group: plan.group,
        delaySeconds: delay,
        why: plan.lookAgainFor ?? 'swap',
        ...(swapDelay === undefined ? {} : { swapDelaySeconds: swapDelay }),
      },
    ]
  })

/**
 * Whether a region run that failed before it acted (a region-level read failed after the SDK's retries)
 * asks for another run of its scope, and after how long. Only a run that is not itself such a retry asks:
 * each scheduled run, launch event or run request leads to one more run at most, whatever fails, so a
 * read that keeps failing costs one extra run per period, never a loop. Never on a dry run.
 */
export const retryAfterFailure = (run: {
  readonly retry: boolean
  readonly dryRun: boolean
}): { readonly delaySeconds: number } | undefined =>
  run.retry || run.dryRun ? undefined : { delaySeconds: FAILED_RUN_RETRY_SECONDS }
