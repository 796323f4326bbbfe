/**
 * The revert marker: one group tag, `spotswap:revert`, asking spotswap to bring the group back to all
 * on-demand one serve-before-retire step at a time, and recording where it stands. Its format lives here
 * and nowhere else.
 *
 *   v1 phase=requested
 *   v1 phase=raising owner=3 since=2026-01-01T00:00:00.000Z until=2026-01-01T00:35:00.000Z
 *   v1 phase=retiring owner=3 step=i-0123456789abcdef0 until=2026-01-01T00:35:00.000Z
 *   v1 phase=stalled failed=3 why=not-launched
 *   v1 phase=done
 *
 * `requested`: written by `spotswap revert` (or a run request); nothing done yet. `raising`: written before
 * desired capacity goes from the owner's `owner` to owner + 1, so a run cut short after the raise knows the
 * extra unit is spotswap's, since when, and until when the raise may wait for its member to serve.
 * `retiring`: written before `step` leaves with a decrement, taking the unit back. `stalled`: `failed`
 * raises in a row did not bring a serving member (`why`: the last one's), so spotswap stopped raising and
 * left the group as it is until the owner asks again. `done`: no spot member is left; spotswap leaves the
 * group alone from then on (the owner's `spot-enabled` tag is not spotswap's to change).
 * `failed=N` (N raises in a row given back) rides on `requested`, `raising` and `retiring` when N > 0.
 *
 * A marker that makes spotswap terminate members must be provably spotswap's own (STYLE.md 14): it needs
 * the same KMS MAC as spotswap's other markers before any run acts on it, and the `until` of a raise bounds
 * how long such a value is believed, so a signed value copied from an earlier raise cannot be replayed
 * later (core/markers.ts).
 */

export const TAG_REVERT = 'spotswap:revert'

export type RevertPhase = 'requested' | 'raising' | 'retiring' | 'stalled' | 'done'

/** Why the last raise of a stalled revert was given back. */
export type RevertStallCause = 'not-launched' | 'not-serving'

export type RevertMarker =
  | { readonly phase: 'requested'; readonly failed?: number }
  | {
      readonly phase: 'raising'
      readonly ownerDesired: number
      readonly since: Date
      readonly until: Date
      readonly failed?: number
    }
  | {
      readonly phase: 'retiring'
      readonly ownerDesired: number
      readonly step: string
      readonly until: Date
      readonly failed?: number
    }
  | { readonly phase: 'stalled'; readonly failed: number; readonly why: RevertStallCause }
  | { readonly phase: 'done' }

const INSTANCE_ID = /^i-[0-9a-f]{8,17}$/
const COUNT = /^\d{1,9}$/
const STALL_CAUSES: readonly string[] = ['not-launched', 'not-serving']

const failedField = (failed: number | undefined): string => (failed ? ` failed=${failed}` : '')

export const formatRevertMarker = (marker: RevertMarker): string => {
  switch (marker.phase) {
    case 'done':
      return 'v1 phase=done'
    case 'requested':
      return `v1 phase=requested${failedField(marker.failed)}`
    case 'raising':
      return `v1 phase=raising owner=${marker.ownerDesired} since=${marker.since.toISOString()} until=${marker.until.toISOString()}${failedField(marker.failed)}`
    case 'retiring':
      return `v1 phase=retiring owner=${marker.ownerDesired} step=${marker.step} until=${marker.until.toISOString()}${failedField(marker.failed)}`
    case 'stalled':
      return `v1 phase=stalled failed=${marker.failed} why=${marker.why}`
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

/** Each phase's fields, and those it may carry. */
const KEYS: Record<
  RevertPhase,
  { readonly required: readonly string[]; readonly optional: readonly string[] }
> = {
  requested: { required: ['phase'], optional: ['failed'] },
  done: { required: ['phase'], optional: [] },
  raising: { required: ['phase', 'owner', 'since', 'until'], optional: ['failed'] },
  retiring: { required: ['phase', 'owner', 'step', 'until'], optional: ['failed'] },
  stalled: { required: ['phase', 'failed', 'why'], optional: [] },
}

const hasKeys = (values: ReadonlyMap<string, string>, phase: RevertPhase): boolean => {
  const { required, optional } = KEYS[phase]
  return (
    required.every((key) => values.has(key)) &&
    [...values.keys()].every((key) => required.includes(key) || optional.includes(key))
  )
}

const timeOf = (raw: string | undefined): Date | undefined => {
  const ms = Date.parse(raw ?? '')
  return Number.isNaN(ms) ? undefined : new Date(ms)
}

/** A count field: 0 when absent, undefined when not a count. */
const countOf = (raw: string | undefined): number | undefined =>
  raw === undefined ? 0 : COUNT.test(raw) ? Number(raw) : undefined

const withFailed = <T extends object>(marker: T, failed: number): T & { failed?: number } =>
  failed > 0 ? { ...marker, failed } : marker

/** The marker, or undefined when it is not one this version writes (then nothing is done on it). */
export const parseRevertMarker = (raw: string): RevertMarker | undefined => {
  const values = fieldsOf(raw)
  const phase = values?.get('phase') as RevertPhase | undefined
  if (values === undefined || phase === undefined || !(phase in KEYS) || !hasKeys(values, phase))
    return undefined
  const failed = countOf(values.get('failed'))
  if (failed === undefined) return undefined
  if (phase === 'done') return { phase }
  if (phase === 'requested') return withFailed({ phase }, failed)
  if (phase === 'stalled') {
    const why = values.get('why') ?? ''
    return failed > 0 && STALL_CAUSES.includes(why)
      ? { phase, failed, why: why as RevertStallCause }
      : undefined
  }
  const owner = values.get('owner') ?? ''
  const until = timeOf(values.get('until'))
  if (!COUNT.test(owner) || until === undefined) return undefined
  const ownerDesired = Number(owner)
  if (phase === 'raising') {
    const since = timeOf(values.get('since'))
    return since === undefined ? undefined : withFailed({ phase, ownerDesired, since, until }, failed)
  }
  const step = values.get('step') ?? ''
  return INSTANCE_ID.test(step) ? withFailed({ phase, ownerDesired, step, until }, failed) : undefined
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

/**
 * The latest a signed payload of this key is believed (core/markers.ts): a raise or retirement until its
 * raise's `until` and `marginSeconds` more; every other phase, or an unreadable value, has no end here
 * (they raise at most a bounded number of times, or do nothing).
 */
export const revertMarkerBelievedUntil = (payload: string, marginSeconds: number): Date | undefined => {
  const marker = parseRevertMarker(payload)
  if (marker?.phase !== 'raising' && marker?.phase !== 'retiring') return undefined
  return new Date(marker.until.getTime() + marginSeconds * 1000)
}
