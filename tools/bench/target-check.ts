/** One target of the bench, checked against a run's results: met or missed, with its numbers. */
export interface TargetCheck {
  readonly target: string
  readonly met: boolean
  readonly detail: string
}
