/**
 * A region run's time budget. Lambda stops an invocation at its timeout wherever it is, like a crash; a
 * run that knows when that comes (the handler reads it from its context,
 * https://docs.aws.amazon.com/lambda/latest/dg/nodejs-context.html getRemainingTimeInMillis) starts no new
 * write once less than the margin for one write step is left, and ends on its own: its lane's message is
 * deleted at once instead of holding the lane's FIFO message group for the visibility timeout. What it did
 * not start is what a crash at that point leaves, so the next run picks it up as it picks up a crash's.
 */
import { REPLACER_WRITE_MARGIN_SECONDS } from '../constants.ts'

/** The run's lease on its fan-out message (core/region/lease.ts MessageLease). */
export interface RunLease {
  /** Until when (epoch ms, by this clock) no other run can receive the message. */
  heldUntilMs(): number
  /** Renews the lease if it is running short; never throws. */
  keep(): Promise<void>
}

/** When Lambda stops the run, and the clock to compare with (the caller's: Lambda's or the simulator's). */
export interface RunDeadline {
  /** Epoch ms at which Lambda stops the invocation. */
  readonly endsAtMs: number
  readonly nowMs: () => number
  /** A run of a fan-out message writes only while it holds the message, too. */
  readonly lease?: RunLease
}

/** Why a group's remaining actions were not started this run. */
export interface TimeBudgetSkip {
  readonly code: 'time-budget'
  readonly detail: string
}

/** What ends the run's writes first: Lambda stopping it, or its message's lease running out. */
export type BudgetBound = 'lambda' | 'lease'

const BOUND_WORDS: Record<BudgetBound, string> = {
  lambda: 'before Lambda stops the run',
  lease: "of the run's lease on its fan-out message",
}

/** Whether a write may start with `leftMs` before the run's bound; the skip if not. */
export const timeBudgetSkip = (
  leftMs: number,
  marginMs: number = REPLACER_WRITE_MARGIN_SECONDS * 1000,
  bound: BudgetBound = 'lambda',
): TimeBudgetSkip | undefined =>
  leftMs >= marginMs
    ? undefined
    : {
        code: 'time-budget',
        detail: `${Math.max(0, Math.floor(leftMs / 1000))} s left ${BOUND_WORDS[bound]}, under the ${marginMs / 1000} s one write step may take: left to the next run`,
      }

/** Whether a write may start now under `deadline`: the lease renewed first if it runs short. */
export const writeSkip = async (deadline: RunDeadline): Promise<TimeBudgetSkip | undefined> => {
  // No lease is renewed for a write Lambda's own stop already rules out.
  const stopping = timeBudgetSkip(deadline.endsAtMs - deadline.nowMs())
  if (stopping !== undefined) return stopping
  await deadline.lease?.keep()
  const now = deadline.nowMs()
  const leaseLeft =
    deadline.lease === undefined ? Number.POSITIVE_INFINITY : deadline.lease.heldUntilMs() - now
  const lambdaLeft = deadline.endsAtMs - now
  return leaseLeft < lambdaLeft
    ? timeBudgetSkip(leaseLeft, undefined, 'lease')
    : timeBudgetSkip(lambdaLeft, undefined, 'lambda')
}
