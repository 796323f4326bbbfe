/**
 * The maintenance marker: one tag on the group (TAG_MAINTENANCE) while an on-demand member with a scheduled
 * event is replaced ahead through Auto Scaling. Written before each write it explains, like the swap record
 * (core/swap/record.ts), so the next run can tell its own raise from an owner's change:
 *
 *   v1 member=i-0123456789abcdef0 owner=4 phase=raising started=2026-01-01T00:06:00.000Z
 *
 * `raising`: desired capacity goes (or went) from `owner` to `owner + 1`. `retiring`: the member leaves
 * with a decrement, back to `owner`. The format lives here alone; an unreadable marker is dropped and
 * nothing acts on it.
 */

export type MaintenancePhase = 'raising' | 'retiring'

export interface MaintenanceMarker {
  /** The member with the scheduled event. */
  readonly member: string
  /** Desired capacity as the owner had set it when the replacement began. */
  readonly ownerDesired: number
  readonly phase: MaintenancePhase
  readonly startedAt: Date
}

const INSTANCE_ID = /^i-[0-9a-f]{8,17}$/
const COUNT = /^\d{1,9}$/
const KEYS = ['member', 'owner', 'phase', 'started']

export const formatMaintenanceMarker = (marker: MaintenanceMarker): string =>
  `v1 member=${marker.member} owner=${marker.ownerDesired} phase=${marker.phase} started=${marker.startedAt.toISOString()}`

const fieldsOf = (raw: string): Map<string, string> | undefined => {
  const [version, ...fields] = raw.split(' ')
  if (version !== 'v1') return undefined
  const values = new Map<string, string>()
  for (const field of fields) {
    const at = field.indexOf('=')
    const key = field.slice(0, at)
    if (at <= 0 || values.has(key) || !KEYS.includes(key)) return undefined
    values.set(key, field.slice(at + 1))
  }
  return values
}

/** The marker, or undefined when it is not one spotswap writes. */
export const parseMaintenanceMarker = (raw: string): MaintenanceMarker | undefined => {
  const values = fieldsOf(raw)
  if (values === undefined) return undefined
  const member = values.get('member') ?? ''
  const owner = values.get('owner') ?? ''
  const phase = values.get('phase')
  const startedMs = Date.parse(values.get('started') ?? '')
  if (!INSTANCE_ID.test(member) || !COUNT.test(owner) || Number.isNaN(startedMs)) return undefined
  if (phase !== 'raising' && phase !== 'retiring') return undefined
  return { member, ownerDesired: Number(owner), phase, startedAt: new Date(startedMs) }
}
