/**
 * A region run's time budget. Lambda stops an invocation at its timeout wherever it is, like a crash; a
 * run that knows when that comes (the handler reads it from its context,
 * https://docs.aws.amazon.com/lambda/latest/dg/nodejs-context.html getRemainingTimeInMillis) starts no new
 * write once less than the margin for one write step is left, and ends on its own: its lane's message is
 * deleted at once instead of holding the lane's FIFO message group for the visibility timeout. What it did
 * not start is what a crash at that point leaves, so the next run picks it up as it picks up a crash's.
 */
import { REPLACER_WRITE_MARGIN_SECONDS } from '../constants.ts'

/** When Lambda stops the run, and the clock to compare with (the caller's: Lambda's or the simulator's). */
export interface RunDeadline {
  /** Epoch ms at which Lambda stops the invocation. */
  readonly endsAtMs: number
  readonly nowMs: () => number
}

/** Why a group's remaining actions were not started this run. */
export interface TimeBudgetSkip {
  readonly code: 'time-budget'
  readonly detail: string
}

/** Whether a write may start with `leftMs` before Lambda stops the run; the skip if not. */
export const timeBudgetSkip = (
  leftMs: number,
  marginMs: number = REPLACER_WRITE_MARGIN_SECONDS * 1000,
): TimeBudgetSkip | undefined =>
  leftMs >= marginMs
    ? undefined
    : {
        code: 'time-budget',
        detail: `${Math.max(0, Math.floor(leftMs / 1000))} s left before Lambda stops the run, under the ${marginMs / 1000} s one write step may take: left to the next run`,
      }
