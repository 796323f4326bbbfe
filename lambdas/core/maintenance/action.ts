/**
 * The writes of a replacement ahead of an on-demand member's scheduled event, each announced in the
 * group's marker first (marker.ts). `raise`: marker, then desired capacity + 1 (Auto Scaling launches the
 * new member from the group's own template). `retire`: marker, then the member leaves with a decrement.
 * `close`: desired capacity back to the owner's when a unit is still held, then the marker goes.
 */
export interface MaintenanceAction {
  readonly kind: 'maintenance'
  readonly group: string
  readonly step: 'raise' | 'retire' | 'close'
  /** The member with the scheduled event. */
  readonly instanceId: string
  /** The marker written before the step (raise, retire). */
  readonly marker?: string
  /** Desired capacity to set (raise; close when a unit is given back). */
  readonly desired?: number
  readonly reason: string
}
