/**
 * Future-dated Capacity Reservations. EC2 lists one as `scheduled` until its start date; from then it is
 * active, billed at the on-demand rate whether used or not, and the matching instances running at that time
 * run in it automatically when it is open
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/cr-concepts.html,
 * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-reservations-create.html). spotswap never
 * launches on-demand instances, so a slot whose member it replaced before the start stays empty and billed:
 * the members an open one will take are kept from UPCOMING_RESERVATION_HORIZON_MS before its start. A
 * targeted one is used only by instances launched into it, never by a running member: none is kept for it.
 */

import { UPCOMING_RESERVATION_HORIZON_MS } from '../constants.ts'
import { type Cover, fillCapacityReservation, type Working } from './apply.ts'
import type { LineBill } from './bill.ts'
import type { CapacityReservation, Commitments } from './types.ts'

const hasStarted = (cr: CapacityReservation, now: Date): boolean =>
  cr.startsAt === undefined || cr.startsAt.getTime() <= now.getTime()

const hasEnded = (cr: CapacityReservation, now: Date): boolean =>
  cr.endsAt !== undefined && cr.endsAt.getTime() <= now.getTime()

/** The horizon of one reservation: UPCOMING_RESERVATION_HORIZON_MS, or its length when it is shorter. */
const horizonMs = (cr: CapacityReservation): number =>
  cr.startsAt !== undefined && cr.endsAt !== undefined
    ? Math.min(UPCOMING_RESERVATION_HORIZON_MS, cr.endsAt.getTime() - cr.startsAt.getTime())
    : UPCOMING_RESERVATION_HORIZON_MS

const isUpcoming = (cr: CapacityReservation, now: Date): boolean =>
  cr.open && cr.startsAt !== undefined && cr.startsAt.getTime() - now.getTime() <= horizonMs(cr)

/**
 * A listing's reservations at `now`: active ones (started, not ended) and the open ones starting within
 * their horizon. Either list may hold either kind (a cached listing read before a start): both are sorted
 * again, so the result does not depend on where an earlier call put them.
 */
export const reservationsAt = (
  commitments: Commitments,
  now: Date,
): Pick<Commitments, 'capacityReservations' | 'upcomingReservations'> => {
  const all = [...commitments.capacityReservations, ...(commitments.upcomingReservations ?? [])].filter(
    (cr) => !hasEnded(cr, now),
  )
  const upcoming = all.filter((cr) => !hasStarted(cr, now) && isUpcoming(cr, now))
  return {
    capacityReservations: all.filter((cr) => hasStarted(cr, now)),
    ...(upcoming.length > 0 ? { upcomingReservations: upcoming } : {}),
  }
}

/**
 * The members the upcoming reservations will take, by line id: each one's slots go to what the active
 * reservations left, unmanaged usage first and then the managed members in the lines' order (newest
 * first), as an active one's do (apply.ts), the earliest start first. `lines`: the hour's bill, real
 * usage only.
 */
export const upcomingCovers = (
  lines: readonly LineBill[],
  upcoming: readonly CapacityReservation[],
): ReadonlyMap<string, readonly Cover[]> => {
  const held = new Map<string, Cover[]>()
  if (upcoming.length === 0) return held
  const working: Working[] = lines.map((bill) => ({
    line: bill.line,
    uncovered: bill.onDemandSeconds,
    covers: [],
    reservedCapacitySeconds: bill.reservedCapacitySeconds,
  }))
  const byStart = [...upcoming].sort((a, b) => (a.startsAt?.getTime() ?? 0) - (b.startsAt?.getTime() ?? 0))
  for (const reservation of byStart) fillCapacityReservation(reservation, working, 'unmanaged-first')
  for (const w of working) if (w.covers.length > 0) held.set(w.line.id, w.covers)
  return held
}
