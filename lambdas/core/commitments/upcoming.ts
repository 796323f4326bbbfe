/**
 * Future-dated Capacity Reservations. EC2 lists one as `scheduled` until its start date; from then it is
 * active, billed at the on-demand rate whether used or not, and the matching instances running at that time
 * run in it automatically when it is open
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/cr-concepts.html,
 * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-reservations-create.html). spotswap never
 * launches on-demand instances, so a slot whose member it replaced before the start stays empty and billed,
 * beside the spot instance, for EMPTY_RESERVATION_SLOT_MS: a member an open one will take costs, until the
 * start, only its `keepShare` of its rate (the price filter then replaces it only for a spot type cheaper
 * than that). A targeted one is used only by instances launched into it, never by a running member: none is
 * kept for it.
 */

import { EMPTY_RESERVATION_SLOT_MS } from '../constants.ts'
import { type Cover, fillCapacityReservation, type Working } from './apply.ts'
import type { LineBill } from './bill.ts'
import type { CapacityReservation, Commitments, UpcomingReservation } from './types.ts'

const hasStarted = (cr: CapacityReservation, now: Date): boolean =>
  cr.startsAt === undefined || cr.startsAt.getTime() <= now.getTime()

const hasEnded = (cr: CapacityReservation, now: Date): boolean =>
  cr.endsAt !== undefined && cr.endsAt.getTime() <= now.getTime()

/**
 * Keeping a member T before the start costs (on-demand - spot) x T; replacing it costs spot x U, U how long
 * the slot then stays empty (EMPTY_RESERVATION_SLOT_MS, or the reservation's length when shorter): keeping is
 * cheaper while spot > on-demand x T / (T + U). That share of its on-demand rate is what it costs.
 */
const keepShareOf = (cr: CapacityReservation, now: Date): number => {
  const untilStart = Math.max(0, (cr.startsAt?.getTime() ?? now.getTime()) - now.getTime())
  const length =
    cr.startsAt !== undefined && cr.endsAt !== undefined
      ? cr.endsAt.getTime() - cr.startsAt.getTime()
      : Number.POSITIVE_INFINITY
  const emptyFor = Math.min(EMPTY_RESERVATION_SLOT_MS, length)
  return untilStart + emptyFor > 0 ? untilStart / (untilStart + emptyFor) : 0
}

/**
 * A listing's reservations at `now`: active ones (started, not ended) and the open ones yet to start, with
 * their keep share. Either list may hold either kind (a cached listing read before a start): both are sorted
 * again, so the result does not depend on where an earlier call put them.
 */
export const reservationsAt = (
  commitments: Commitments,
  now: Date,
): Pick<Commitments, 'capacityReservations' | 'upcomingReservations'> => {
  const all = [...commitments.capacityReservations, ...(commitments.upcomingReservations ?? [])].filter(
    (cr) => !hasEnded(cr, now),
  )
  const upcoming = all
    .filter((cr) => cr.open && !hasStarted(cr, now))
    .map((cr): UpcomingReservation => ({ ...cr, keepShare: keepShareOf(cr, now) }))
  return {
    capacityReservations: all.filter((cr) => hasStarted(cr, now)),
    ...(upcoming.length > 0 ? { upcomingReservations: upcoming } : {}),
  }
}

/**
 * Whether an open reservation became active after `sinceMs`, by `now`. The matching instances running when
 * it becomes active run in it (capacity-reservations-create.html), so a listing of the region's instances
 * read before then cannot tell which: one launched between the read and the start may hold its slot, and a
 * member kept for that slot would be kept for nothing (chaos seed 40728).
 */
export const startedSince = (commitments: Commitments, sinceMs: number, now: Date): boolean =>
  reservationsAt(commitments, now).capacityReservations.some(
    (cr) => cr.open && cr.startsAt !== undefined && cr.startsAt.getTime() > sinceMs,
  )

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
