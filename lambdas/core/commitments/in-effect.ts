/**
 * The commitments of a listing in effect at `now`. The account's listing is cached for
 * COMMITMENTS_CACHE_TTL_MS, so an RI or a Capacity Reservation that expires meanwhile is still in it: from
 * its end it covers nothing, and a member it covered is replaced like any other (chaos seed 11023). A
 * future-dated Capacity Reservation read before its start counts as active from its start (upcoming.ts).
 */
import type { Commitments } from './types.ts'
import { reservationsAt } from './upcoming.ts'

const inEffect = (endsAt: Date | undefined, now: Date): boolean =>
  endsAt === undefined || endsAt.getTime() > now.getTime()

export const inEffectAt = (commitments: Commitments, now: Date): Commitments => {
  const { upcomingReservations: _listed, ...rest } = commitments
  return {
    ...rest,
    reservedInstances: commitments.reservedInstances.filter((ri) => inEffect(ri.endsAt, now)),
    ...reservationsAt(commitments, now),
  }
}
