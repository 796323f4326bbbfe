/**
 * Applying one kind of commitment to a clock hour's usage lines. Each step takes what the earlier ones left
 * uncovered (`Working.uncovered`, seconds) and records what it covered; bill.ts runs them in AWS's order.
 */

import { familyOf, isSizeFlexible, normalizationFactor } from './normalization.ts'
import type { CapacityReservation, ReservedInstances, SavingsPlan, UsageLine } from './types.ts'
import { rateKey } from './types.ts'

/** An RI covers at most 3,600 instance-seconds per clock-hour (apply_ri). */
export const SECONDS_PER_HOUR = 3600

export type CommitmentKind = 'capacity-reservation' | 'reserved-instances' | 'savings-plan'

/** What one commitment paid for on one line: seconds of the line's hour, and their share of its cost. */
export interface Cover {
  readonly kind: CommitmentKind
  readonly id: string
  readonly seconds: number
  readonly costUsd: number
}

export interface Working {
  readonly line: UsageLine
  uncovered: number
  readonly covers: Cover[]
  /** Seconds of its hour spent in an open Capacity Reservation (billed as usage, not discounted by it). */
  reservedCapacitySeconds: number
}

/** How much of one commitment an hour used: `capacity` and `used` in its own unit. */
export interface CommitmentUse {
  readonly kind: CommitmentKind
  readonly id: string
  readonly capacity: number
  readonly used: number
  /** Dollars paid for what went unused. */
  readonly unusedUsd: number
}

/**
 * Which usage takes a commitment first when AWS's order does not decide. `aws`: as AWS bills (usage is
 * usage, whoever runs it). `unmanaged-first`: spotswap's assumption when it decides, since AWS does not
 * apply discounts to particular instances: what stays whatever spotswap does takes them first, and only
 * what it leaves is worth keeping managed members for.
 */
export type Order = 'aws' | 'unmanaged-first'

const managedRank = (order: Order, w: Working): number => (order === 'aws' || !w.line.managed ? 0 : 1)

/** Sorted copy: unmanaged first when asked, then by `key` ascending; stable, so the caller's order breaks ties. */
const ordered = (lines: readonly Working[], order: Order, key: (w: Working) => number): Working[] =>
  [...lines].sort((a, b) => managedRank(order, a) - managedRank(order, b) || key(a) - key(b))

const NO_KEY = (): number => 0

/**
 * Open Capacity Reservations are used by matching instances automatically and billed at the on-demand
 * rate whether used or not (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-reservations-pricing-billing.html):
 * a slot no instance fills is billed as if one ran, so it comes back as a usage line of its own.
 */
export const fillCapacityReservation = (
  reservation: CapacityReservation,
  lines: readonly Working[],
  order: Order,
): UsageLine | undefined => {
  let free = reservation.open ? reservation.count * SECONDS_PER_HOUR : 0
  for (const w of ordered(lines, order, NO_KEY)) {
    const { line } = w
    if (free <= 0) break
    if (
      line.type !== reservation.type ||
      line.zone !== reservation.zone ||
      line.platform !== reservation.platform ||
      line.tenancy !== reservation.tenancy
    )
      continue
    const seconds = Math.min(free, line.seconds - w.reservedCapacitySeconds)
    if (seconds <= 0) continue
    w.reservedCapacitySeconds += seconds
    w.covers.push({ kind: 'capacity-reservation', id: reservation.id, seconds, costUsd: 0 })
    free -= seconds
  }
  // A targeted reservation is used only by instances that name it, which spotswap never launches: all unused.
  const unused = reservation.open ? free : reservation.count * SECONDS_PER_HOUR
  if (unused <= 0) return undefined
  return {
    id: `${reservation.id}:unused`,
    type: reservation.type,
    zone: reservation.zone,
    region: reservation.region,
    platform: reservation.platform,
    tenancy: reservation.tenancy,
    managed: false,
    onDemandRateUsd: reservation.onDemandRateUsd,
    seconds: unused,
  }
}

/** How one RI matches a line, and how many of its units a second of the line takes; undefined: no match. */
const riUnitsPerSecond = (ri: ReservedInstances, line: UsageLine): number | undefined => {
  if (line.region !== ri.region || line.platform !== ri.platform || line.tenancy !== ri.tenancy)
    return undefined
  if (ri.scope === 'zonal') return line.type === ri.type && line.zone === ri.zone ? 1 : undefined
  if (!isSizeFlexible(ri.scope, ri.type, ri.platform, ri.tenancy))
    return line.type === ri.type ? 1 : undefined
  if (familyOf(line.type) !== familyOf(ri.type)) return undefined
  return normalizationFactor(line.type)
}

/**
 * One RI line (`count` RIs alike) over the lines, in units of the RI's own size: instance-seconds, or
 * normalization-factor-seconds when size-flexible, applied from the smallest size up (apply_ri).
 */
export const applyReservedInstances = (
  ri: ReservedInstances,
  lines: readonly Working[],
  order: Order,
): CommitmentUse => {
  const flexible = ri.scope === 'regional' && isSizeFlexible(ri.scope, ri.type, ri.platform, ri.tenancy)
  const riFactor = flexible ? (normalizationFactor(ri.type) ?? 1) : 1
  const capacity = ri.count * SECONDS_PER_HOUR * riFactor
  // The fee of one unit-second of the RI's capacity: what a covered second costs the line.
  const feePerUnit = ri.hourlyRateUsd / (SECONDS_PER_HOUR * riFactor)
  let left = capacity
  for (const w of ordered(lines, order, (x) => normalizationFactor(x.line.type) ?? 0)) {
    if (left <= 0) break
    if (w.uncovered <= 0) continue
    const units = riUnitsPerSecond(ri, w.line)
    if (units === undefined) continue
    const seconds = Math.min(w.uncovered, left / units)
    w.uncovered -= seconds
    left -= seconds * units
    w.covers.push({ kind: 'reserved-instances', id: ri.id, seconds, costUsd: seconds * units * feePerUnit })
  }
  return {
    kind: 'reserved-instances',
    id: ri.id,
    capacity,
    used: capacity - left,
    unusedUsd: left * feePerUnit,
  }
}

/** The plan's rate for a line, USD per hour; undefined when the plan does not apply to it. */
const planRate = (plan: SavingsPlan, line: UsageLine): number | undefined => {
  if (plan.kind === 'ec2-instance' && (familyOf(line.type) !== plan.family || line.region !== plan.region))
    return undefined
  const rate = plan.rates.get(rateKey(line.type, line.region, line.platform, line.tenancy))
  if (rate !== undefined) return rate
  return plan.discount === undefined ? undefined : line.onDemandRateUsd * (1 - plan.discount)
}

/**
 * One Savings Plan's hourly commitment over what the RIs left, the usage with the highest savings
 * percentage first, each second at the plan's rate until the commitment is spent
 * (https://docs.aws.amazon.com/savingsplans/latest/userguide/sp-applying.html).
 */
export const applySavingsPlan = (
  plan: SavingsPlan,
  lines: readonly Working[],
  order: Order,
): CommitmentUse => {
  const rated: { readonly w: Working; readonly rate: number }[] = []
  for (const w of lines) {
    const rate = w.uncovered > 0 ? planRate(plan, w.line) : undefined
    if (rate !== undefined && rate < w.line.onDemandRateUsd) rated.push({ w, rate })
  }
  const savings = (x: { readonly w: Working; readonly rate: number }): number =>
    -(1 - x.rate / x.w.line.onDemandRateUsd)
  rated.sort((a, b) => managedRank(order, a.w) - managedRank(order, b.w) || savings(a) - savings(b))
  let left = plan.hourlyCommitmentUsd
  for (const { w, rate } of rated) {
    if (left <= 0) break
    const seconds = Math.min(w.uncovered, (left / rate) * SECONDS_PER_HOUR)
    const costUsd = (seconds / SECONDS_PER_HOUR) * rate
    w.uncovered -= seconds
    left -= costUsd
    w.covers.push({ kind: 'savings-plan', id: plan.id, seconds, costUsd })
  }
  const capacity = plan.hourlyCommitmentUsd
  return { kind: 'savings-plan', id: plan.id, capacity, used: capacity - left, unusedUsd: Math.max(0, left) }
}
