/**
 * Invariant 12 (`write-past-lease`): a replacer run's writes take effect only while its fan-out message
 * is hidden from every other receiver. Past that, SQS may hand the message (and with it the lane) to
 * another run, and two runs of a lane could act on the same groups at once (docs/reliability.md). A run
 * holds its message for the queue's visibility timeout after its receipt, or for the lease it renews
 * (lambdas/core/region/lease.ts); sdk/request.ts notes each write that takes effect after that.
 */
import type { StepRun, Violation } from './invariant-ledger.ts'

export const checkLeaseWrites = (runs: readonly StepRun[], at: string): Violation[] =>
  runs.flatMap((run) =>
    (run.session.writesPastLease ?? []).map(
      ({ operation, group }): Violation => ({
        at,
        group: group ?? '',
        invariant: 'write-past-lease',
        detail: `${operation} of replacer run ${run.session.id} took effect after its fan-out message could be handed out again: another run of its lane could act at the same time`,
      }),
    ),
  )
