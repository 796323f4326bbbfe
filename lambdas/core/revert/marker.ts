/**
 * The revert marker: one group tag, `spotswap:revert`, asking spotswap to bring the group back to all
 * on-demand one serve-before-retire step at a time, and recording where it stands. Its format lives here
 * and nowhere else.
 *
 *   v1 phase=requested
 *   v1 phase=raising owner=3 since=2026-01-01T00:00:00.000Z
 *   v1 phase=retiring owner=3 step=i-0123456789abcdef0
 *   v1 phase=done
 *
 * `requested`: written by `spotswap revert` (or a run request); nothing done yet. `raising`: written before
 * desired capacity goes from the owner's `owner` to owner + 1, so a run cut short after the raise knows the
 * extra unit is spotswap's, and since when (the raise is undone past its deadline). `retiring`: written
 * before `step` leaves with a decrement, taking the unit back. `done`: no spot member is left; spotswap
 * leaves the group alone from then on (the owner's `spot-enabled` tag is not spotswap's to change).
 *
 * A marker that makes spotswap terminate members must be provably spotswap's own (STYLE.md 14): it needs
 * the same KMS MAC as spotswap's other markers before any run acts on it.
 */

export const TAG_REVERT = 'spotswap:revert'

export type RevertPhase = 'requested' | 'raising' | 'retiring' | 'done'

export type RevertMarker =
  | { readonly phase: 'requested' }
  | { readonly phase: 'raising'; readonly ownerDesired: number; readonly since: Date }
  | { readonly phase: 'retiring'; readonly ownerDesired: number; readonly step: string }
  | { readonly phase: 'done' }

const INSTANCE_ID = /^i-[0-9a-f]{8,17}$/
const COUNT = /^\d{1,9}$/

export const formatRevertMarker = (marker: RevertMarker): string => {
  switch (marker.phase) {
    case 'requested':
    case 'done':
      return `v1 phase=${marker.phase}`
    case 'raising':
      return `v1 phase=raising owner=${marker.ownerDesired} since=${marker.since.toISOString()}`
    case 'retiring':
      return `v1 phase=retiring owner=${marker.ownerDesired} step=${marker.step}`
  }
}

/** `key=value` fields after the version, each once; undefined for anything else. */
const fieldsOf = (raw: string): Map<string, string> | undefined => {
  const [version, ...fields] = raw.trim().split(/\s+/)
  if (version !== 'v1') return undefined
  const values = new Map<string, string>()
  for (const field of fields) {
    const at = field.indexOf('=')
    if (at <= 0 || values.has(field.slice(0, at))) return undefined
    values.set(field.slice(0, at), field.slice(at + 1))
  }
  return values
}

const KEYS: Record<RevertPhase, readonly string[]> = {
  requested: ['phase'],
  done: ['phase'],
  raising: ['phase', 'owner', 'since'],
  retiring: ['phase', 'owner', 'step'],
}

/** The marker, or undefined when it is not one this version writes (then nothing is done on it). */
export const parseRevertMarker = (raw: string): RevertMarker | undefined => {
  const values = fieldsOf(raw)
  const phase = values?.get('phase') as RevertPhase | undefined
  if (values === undefined || phase === undefined || !(phase in KEYS)) return undefined
  const keys = KEYS[phase]
  if (values.size !== keys.length || keys.some((key) => !values.has(key))) return undefined
  if (phase === 'requested' || phase === 'done') return { phase }
  const owner = values.get('owner') ?? ''
  if (!COUNT.test(owner)) return undefined
  if (phase === 'raising') {
    const since = Date.parse(values.get('since') ?? '')
    return Number.isNaN(since) ? undefined : { phase, ownerDesired: Number(owner), since: new Date(since) }
  }
  const step = values.get('step') ?? ''
  return INSTANCE_ID.test(step) ? { phase, ownerDesired: Number(owner), step } : undefined
}

/** What the group's tags say about a revert. */
export type RevertOnGroup =
  | { readonly kind: 'none' }
  | { readonly kind: 'read'; readonly marker: RevertMarker }
  | { readonly kind: 'unreadable'; readonly raw: string }

export const readRevertMarker = (tags: Readonly<Record<string, string>>): RevertOnGroup => {
  const raw = tags[TAG_REVERT]
  if (raw === undefined) return { kind: 'none' }
  const marker = parseRevertMarker(raw)
  return marker === undefined ? { kind: 'unreadable', raw } : { kind: 'read', marker }
}
