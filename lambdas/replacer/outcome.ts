/** What became of one action: the executor's answer, logged, summarized and counted by the report. */
import type { Action } from '../core/plan/actions.ts'

export type OutcomeStatus = 'done' | 'failed' | 'planned'

export interface Outcome {
  readonly action: Action
  readonly status: OutcomeStatus
  readonly detail?: string
  /** For launches: the spot instance and type actually started. */
  readonly instanceId?: string
  readonly instanceType?: string
  /** A launch EC2 refused for a reason it will refuse again (a permission, a parameter, the template). */
  readonly refused?: boolean
  /** A launch the account's Spot vCPU quota refused: the group's later launches this run are not made. */
  readonly overQuota?: boolean
}

/** The detail of an action that failed with this error. */
export const describeError = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error)
