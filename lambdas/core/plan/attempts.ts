/**
 * Replacement attempts: TAG_REPLACEMENT_ATTEMPT on the replaced instance numbers each launch made for it
 * and records what EC2 answered, and the attempt number makes the launch's idempotency token.
 */
export interface Attempt {
  readonly attempt: number
  /** When attempt `attempt` was first made (ISO 8601); kept while it is made again. */
  readonly since: string
}

/**
 * `now` as ISO 8601, formatted once per moment: every launch of a run asks with the same `now`, and
 * formatting a date costs more than the rest of the attempt. Keyed by the time's value, not the Date
 * object, so a different moment (or a Date changed since) is formatted afresh.
 */
let lastIso: { readonly time: number; readonly iso: string } | undefined
const isoAt = (now: Date): string => {
  const time = now.getTime()
  if (lastIso?.time !== time) lastIso = { time, iso: now.toISOString() }
  return lastIso.iso
}

/**
 * The attempt a launch for an instance makes, from its TAG_REPLACEMENT_ATTEMPT: `<n>@<since>` is written
 * before launch n and `<n>:<outcome>@<since>` (the instance launched, or `no-instance`) once EC2 answered.
 * An attempt without an outcome may still be in flight in an overlapping run, or died before EC2 answered:
 * it is made again with the same token, so EC2 returns that launch's answer, or launches once if it never
 * got the request. So is one that launched an instance less than `reuseMs` ago: an overlapping run may
 * have read the outcome but not yet seen the instance (EC2 then returns the same one). Otherwise the
 * attempt is over (its replacement went away, or there was none) and the next one gets a new token.
 */
export const nextAttempt = (raw: string | undefined, now: Date, reuseMs: number): Attempt => {
  const match = /^(\d{1,9})(?::([^@]+))?(?:@(.+))?$/.exec(raw ?? '')
  if (!match) return { attempt: 1, since: isoAt(now) }
  const previous = Math.max(Number(match[1]), 1)
  const [, , outcome, since] = match
  const sinceMs = Date.parse(since ?? '')
  const age = now.getTime() - sinceMs
  // Kept: the same attempt made again (no outcome yet, or a launch too recent to be seen).
  const keep = outcome === undefined || (outcome !== 'no-instance' && age >= 0 && age < reuseMs)
  if (!keep) return { attempt: previous + 1, since: isoAt(now) }
  return { attempt: previous, since: Number.isNaN(sinceMs) ? isoAt(now) : (since as string) }
}

/** The attempt number TAG_REPLACEMENT_ATTEMPT records, 0 when it records none. */
export const attemptNumber = (raw: string | undefined): number => {
  const match = /^(\d{1,9})/.exec(raw ?? '')
  return match ? Number(match[1]) : 0
}

/** TAG_REPLACEMENT_ATTEMPT before launch `attempt`, and once EC2 answered it (`instanceId` or none). */
export const attemptTag = (
  attempt: Attempt,
  answered?: { readonly instanceId: string | undefined; readonly launchTemplateId?: string | undefined },
): string =>
  answered === undefined
    ? `${attempt.attempt}@${attempt.since}`
    : `${attempt.attempt}:${answered.instanceId ?? 'no-instance'}${answered.instanceId !== undefined && answered.launchTemplateId !== undefined ? `/${answered.launchTemplateId}` : ''}@${attempt.since}`

/** What an attempt tag records EC2 launched: the instance, and the temporary template it came from. */
export interface RecordedOutcome {
  readonly instanceId: string
  /** Set for a launch-configuration group: the temporary launch template, deleted since. */
  readonly launchTemplateId: string | undefined
}

/** The outcome TAG_REPLACEMENT_ATTEMPT records (`<n>:<instance>[/<template>]@<since>`), if it records one. */
export const recordedOutcome = (raw: string | undefined): RecordedOutcome | undefined => {
  const match = /^\d{1,9}:(i-[0-9a-f]{8,17})(?:\/(lt-[0-9a-z]{1,32}))?@/.exec(raw ?? '')
  return match ? { instanceId: match[1] as string, launchTemplateId: match[2] } : undefined
}

/**
 * Same replaced instance and attempt → same token, so two overlapping runs that saw the same state cannot
 * both launch; a later attempt (the previous one failed or its replacement is gone) gets a new token.
 */
export const clientToken = (instanceId: string, attempt: number): string =>
  `spotswap-${instanceId}-a${attempt}`
