/**
 * The writes of a revert (step.ts), each announced in the group's `spotswap:revert` marker first
 * (marker.ts), so a run cut short anywhere is judged by the next one against desired capacity.
 * `raise`: marker, then desired capacity + 1 (Auto Scaling launches on-demand from the group's own
 * template). `give-back`: the raise's marker again, then desired capacity back to the owner's (a raise
 * Auto Scaling launched nothing for). `retire`: marker, then the member leaves with a decrement. `mark`:
 * the marker alone.
 */
export interface RevertAction {
  readonly kind: 'revert'
  readonly group: string
  readonly step: 'raise' | 'give-back' | 'retire' | 'mark'
  /** The marker's payload, written before the step (signed like every marker spotswap acts on). */
  readonly marker: string
  /** Desired capacity to set (raise, give-back). */
  readonly desired?: number
  /** The member that leaves with a decrement (retire). */
  readonly instanceId?: string
  readonly reason: string
}
