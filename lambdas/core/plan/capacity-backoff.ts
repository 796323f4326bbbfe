/**
 * Capacity back-off: an instance none of whose candidate pools had spot capacity is not tried again
 * until TAG_NO_SPOT_CAPACITY_UNTIL, longer the more attempts it needed.
 */

import {
  CAPACITY_BACKOFF_FIRST_MINUTES,
  CAPACITY_BACKOFF_MAX_MINUTES,
  TAG_NO_SPOT_CAPACITY_UNTIL,
} from '../constants.ts'
import type { Instance } from '../types.ts'

/**
 * When the instance's last capacity back-off ended; never backed off sorts first. Taking the least
 * recently failed first is a rotation: an instance whose pools stay empty cannot take the group's
 * in-flight budget run after run while another, in a zone that has capacity, waits behind it.
 */
export const lastBackoffEnd = (instance: Instance): number =>
  Date.parse(instance.tags[TAG_NO_SPOT_CAPACITY_UNTIL] ?? '') || Number.NEGATIVE_INFINITY

/** 5, 10, 20, then 30 minutes: the more attempts an instance needed, the longer until the next. */
export const capacityBackoffMinutes = (attempt: number): number =>
  Math.min(CAPACITY_BACKOFF_MAX_MINUTES, CAPACITY_BACKOFF_FIRST_MINUTES * 2 ** Math.max(0, attempt - 1))

/**
 * The back-off a launch of `attempt` records, from `now` (ISO 8601). Every launch of a run has the same
 * `now` and one of a few attempt numbers, and formatting a date is dear: the answers for the last moment
 * asked are kept, keyed by the time's value (a different moment starts afresh).
 */
let backoffsAt: { readonly time: number; readonly until: Map<number, string> } | undefined
export const capacityBackoffUntil = (now: Date, attempt: number): string => {
  const time = now.getTime()
  if (backoffsAt?.time !== time) backoffsAt = { time, until: new Map() }
  let until = backoffsAt.until.get(attempt)
  if (until === undefined) {
    until = new Date(time + capacityBackoffMinutes(attempt) * 60_000).toISOString()
    backoffsAt.until.set(attempt, until)
  }
  return until
}
