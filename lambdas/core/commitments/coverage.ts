/**
 * Which managed on-demand members a region's commitments pay for, and what each would cost per hour after
 * them: the rate the price filter weighs a spot replacement against. Billed with unmanaged usage first
 * (apply.ts Order), so a member is covered only by what nothing spotswap leaves alone would use.
 */

import { type Cover, SECONDS_PER_HOUR } from './apply.ts'
import { billHour, type LineBill } from './bill.ts'
import { isSizeFlexible } from './normalization.ts'
import type { Commitments, UsageLine } from './types.ts'
import { upcomingCovers } from './upcoming.ts'

export interface CoveredBy {
  readonly kind: Cover['kind']
  readonly id: string
  /** The attributes it matches on, e.g. `m5 size-flexible, us-east-1, Linux/UNIX, default tenancy`. */
  readonly attributes: string
  /** Managed instances it covers in the region, whole hours summed (1.5: one and a half instances). */
  readonly managedCovered: number
  /** A Capacity Reservation that has not started: when it does (upcoming.ts). */
  readonly startsAt?: Date | undefined
}

export interface MemberCoverage {
  readonly instanceId: string
  readonly listRateUsd: number
  /**
   * What keeping it costs per hour beyond what is paid anyway: the on-demand price of the part of its hour
   * no commitment covers; 0 in an open Capacity Reservation, which is billed whether it runs or not.
   */
  readonly effectiveRateUsd: number
  /** Share of its hour the commitments cover, 0..1. */
  readonly coveredShare: number
  readonly by: readonly CoveredBy[]
  /** Set when it is held because the Savings Plans could not be read (unreadable.ts): why not. */
  readonly unreadable?: string | undefined
}

const round6 = (value: number): number => Math.round(value * 1e6) / 1e6

const reservationOf = (commitments: Commitments, id: string) =>
  [...commitments.capacityReservations, ...(commitments.upcomingReservations ?? [])].find((c) => c.id === id)

const attributesOf = (commitments: Commitments, cover: Cover): string => {
  if (cover.kind === 'capacity-reservation') {
    const cr = reservationOf(commitments, cover.id)
    return cr === undefined
      ? ''
      : `${cr.type}, ${cr.zone}, ${cr.platform}, ${cr.tenancy} tenancy, ×${cr.count}`
  }
  if (cover.kind === 'reserved-instances') {
    const ri = commitments.reservedInstances.find((r) => r.id === cover.id)
    if (ri === undefined) return ''
    const where = ri.scope === 'zonal' ? (ri.zone ?? ri.region) : ri.region
    const size = isSizeFlexible(ri.scope, ri.type, ri.platform, ri.tenancy)
      ? `${ri.type} size-flexible`
      : ri.type
    return `${ri.scope} ${size} ×${ri.count}, ${where}, ${ri.platform}, ${ri.tenancy} tenancy`
  }
  const plan = commitments.savingsPlans.find((p) => p.id === cover.id)
  if (plan === undefined) return ''
  const scope = plan.kind === 'compute' ? 'Compute' : `EC2 Instance ${plan.family}, ${plan.region}`
  return `${scope} Savings Plan, $${plan.hourlyCommitmentUsd}/h`
}

const effectiveRate = (bill: LineBill): number =>
  bill.reservedCapacitySeconds >= bill.line.seconds
    ? 0
    : round6((bill.onDemandSeconds / bill.line.seconds) * bill.line.onDemandRateUsd)

type CoversOf = (bill: LineBill) => readonly Cover[]

/** Each commitment's managed instances covered, summed over the lines. */
const managedCoveredBy = (lines: readonly LineBill[], coversOf: CoversOf): ReadonlyMap<string, number> => {
  const covered = new Map<string, number>()
  for (const bill of lines)
    if (bill.line.managed)
      for (const cover of coversOf(bill))
        covered.set(cover.id, (covered.get(cover.id) ?? 0) + cover.seconds / SECONDS_PER_HOUR)
  return covered
}

/**
 * The hour billed with the members an open Capacity Reservation holds (running in an active one, or taken
 * by one yet to start) ranked beside the unmanaged usage: they stay on demand whatever the rest does (the
 * slot is billed either way; upcoming.ts), so the RIs and Savings Plans go to them before other members,
 * as they would to any usage that stays (a regional RI or a Savings Plan applies to usage in a reservation:
 * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-reservations-pricing-billing.html). Billed
 * the other way, another member is kept for an RI the held ones use once it leaves, and both are kept.
 */
const billHeldFirst = (usage: readonly UsageLine[], commitments: Commitments) => {
  const reservations = commitments.upcomingReservations ?? []
  const first = billHour(usage, commitments, 'unmanaged-first')
  const taken = upcomingCovers(first.lines.slice(0, usage.length), reservations)
  const inReservation = new Set(
    first.lines.slice(0, usage.length).flatMap((b) => (b.reservedCapacitySeconds > 0 ? [b.line.id] : [])),
  )
  const held = (line: UsageLine) => line.managed && (taken.has(line.id) || inReservation.has(line.id))
  if (!usage.some(held)) return { bill: first, upcoming: taken }
  const heldFirst = billHour(
    usage.map((line) => (held(line) ? { ...line, managed: false } : line)),
    commitments,
    'unmanaged-first',
  )
  const lines = heldFirst.lines.map((bill, i) => {
    const line = usage[i]
    return line !== undefined && held(line) ? { ...bill, line } : bill
  })
  const bill = { ...heldFirst, lines }
  return { bill, upcoming: upcomingCovers(lines.slice(0, usage.length), reservations) }
}

/**
 * The managed members some commitment covers, by instance id; members no commitment touches are absent
 * (they cost their list price).
 */
export const memberCoverage = (
  usage: readonly UsageLine[],
  commitments: Commitments,
): ReadonlyMap<string, MemberCoverage> => {
  const { bill, upcoming } = billHeldFirst(usage, commitments)
  const coversOf: CoversOf = (line) => [...line.covers, ...(upcoming.get(line.line.id) ?? [])]
  const covered = managedCoveredBy(bill.lines, coversOf)
  const members = new Map<string, MemberCoverage>()
  for (const line of bill.lines) {
    const covers = coversOf(line)
    if (!line.line.managed || covers.length === 0) continue
    const paid = Math.max(line.reservedCapacitySeconds, line.line.seconds - line.onDemandSeconds)
    members.set(line.line.id, {
      instanceId: line.line.id,
      listRateUsd: line.line.onDemandRateUsd,
      effectiveRateUsd: round6(effectiveRate(line) * keepShareOf(commitments, upcoming.get(line.line.id))),
      coveredShare: round6(Math.min(1, paid / line.line.seconds)),
      by: covers.map((cover) => {
        const startsAt = startOf(commitments, cover.id)
        return {
          kind: cover.kind,
          id: cover.id,
          attributes: attributesOf(commitments, cover),
          managedCovered: round6(covered.get(cover.id) ?? 0),
          ...(startsAt === undefined ? {} : { startsAt }),
        }
      }),
    })
  }
  return members
}

/**
 * What keeping a member an upcoming reservation will take costs, as a share of what it costs now: the least
 * keep share of those that take it (upcoming.ts); 1 when none does.
 */
const keepShareOf = (commitments: Commitments, covers: readonly Cover[] | undefined): number =>
  Math.min(
    1,
    ...(covers ?? []).map(
      (cover) => commitments.upcomingReservations?.find((cr) => cr.id === cover.id)?.keepShare ?? 1,
    ),
  )

const startOf = (commitments: Commitments, id: string): Date | undefined =>
  commitments.upcomingReservations?.find((cr) => cr.id === id)?.startsAt

const coverText = (b: CoveredBy): string =>
  `${b.kind} ${b.id} (${b.attributes}; covers ${b.managedCovered} managed instance(s))`

/**
 * `commitment-covered` detail: what covers it, how much, and what it costs after that; for a Capacity
 * Reservation that has not started, when it starts.
 */
export const coverageDetail = (coverage: MemberCoverage): string => {
  const now = coverage.by.filter((b) => b.startsAt === undefined)
  const later = coverage.by.filter((b) => b.startsAt !== undefined)
  const parts: string[] = []
  if (now.length > 0)
    parts.push(
      `${Math.round(coverage.coveredShare * 100)}% of its hour paid by ${now.map(coverText).join(', ')}`,
    )
  for (const b of later)
    parts.push(
      `starts ${b.startsAt?.toISOString()}: ${coverText(b)} will take it, and spotswap launches no on-demand instance to fill it later`,
    )
  return `${parts.join('; ')}; $${coverage.effectiveRateUsd}/h after commitments vs $${coverage.listRateUsd}/h list`
}
