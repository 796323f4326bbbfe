/**
 * The commitments of a listing still in effect at `now`. The account's listing is cached for
 * COMMITMENTS_CACHE_TTL_MS, so an RI or a Capacity Reservation that expires meanwhile is still in it: from
 * its end it covers nothing, and a member it covered is replaced like any other (chaos seed 11023).
 */
import type { Commitments } from './types.ts'

const inEffect = (endsAt: Date | undefined, now: Date): boolean =>
  endsAt === undefined || endsAt.getTime() > now.getTime()

export const inEffectAt = (commitments: Commitments, now: Date): Commitments => ({
  ...commitments,
  reservedInstances: commitments.reservedInstances.filter((ri) => inEffect(ri.endsAt, now)),
  capacityReservations: commitments.capacityReservations.filter((cr) => inEffect(cr.endsAt, now)),
})
