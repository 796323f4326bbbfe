/**
 * One clock hour of a region's on-demand usage, billed with its commitments in AWS's order: Capacity
 * Reservations take the instances that match them, then Reserved Instances (zonal, then regional exact,
 * then regional size-flexible), then Savings Plans (EC2 Instance plans before Compute plans), and what is
 * left is billed on demand.
 */

import {
  applyReservedInstances,
  applySavingsPlan,
  type CommitmentUse,
  type Cover,
  fillCapacityReservation,
  type Order,
  SECONDS_PER_HOUR,
  type Working,
} from './apply.ts'
import { isSizeFlexible } from './normalization.ts'
import type { Commitments, ReservedInstances, UsageLine } from './types.ts'

export interface LineBill {
  readonly line: UsageLine
  readonly covers: readonly Cover[]
  /** Seconds of its hour in an open Capacity Reservation: leaving would leave the reservation paid and empty. */
  readonly reservedCapacitySeconds: number
  /** Seconds billed at the on-demand list price. */
  readonly onDemandSeconds: number
  /** What the line costs this hour: its on-demand part and its share of the commitments it used. */
  readonly costUsd: number
}

export interface HourBill {
  /** The usage lines as given, then one per Capacity Reservation with unused slots. */
  readonly lines: readonly LineBill[]
  readonly uses: readonly CommitmentUse[]
  /** The hour's bill: on-demand usage, RI fees and Savings Plan commitments, used or not. */
  readonly totalUsd: number
  /** Dollars of commitment paid and unused: RIs and Savings Plans unused, Capacity Reservation slots empty. */
  readonly wasteUsd: number
}

/**
 * The step an RI belongs to. Zonal ones first, the narrowest match; AWS does not document an order
 * between RIs, and this one never leaves unused an RI that another order would have used.
 */
const riStep = (ri: ReservedInstances): number =>
  ri.scope === 'zonal' ? 0 : isSizeFlexible(ri.scope, ri.type, ri.platform, ri.tenancy) ? 2 : 1

const byStep = (a: ReservedInstances, b: ReservedInstances): number => riStep(a) - riStep(b)

const lineCost = (w: Working): number =>
  (w.uncovered / SECONDS_PER_HOUR) * w.line.onDemandRateUsd + w.covers.reduce((sum, c) => sum + c.costUsd, 0)

export const billHour = (
  usage: readonly UsageLine[],
  commitments: Commitments,
  order: Order = 'aws',
): HourBill => {
  const lines: Working[] = usage.map((line) => ({
    line,
    uncovered: line.seconds,
    covers: [],
    reservedCapacitySeconds: 0,
  }))
  const realLines = lines.length
  for (const reservation of commitments.capacityReservations) {
    const unused = fillCapacityReservation(reservation, lines.slice(0, realLines), order)
    if (unused !== undefined)
      lines.push({ line: unused, uncovered: unused.seconds, covers: [], reservedCapacitySeconds: 0 })
  }
  const uses: CommitmentUse[] = []
  for (const ri of [...commitments.reservedInstances].sort(byStep))
    uses.push(applyReservedInstances(ri, lines, order))
  const plans = [...commitments.savingsPlans].sort(
    (a, b) => (a.kind === 'ec2-instance' ? 0 : 1) - (b.kind === 'ec2-instance' ? 0 : 1),
  )
  for (const plan of plans) uses.push(applySavingsPlan(plan, lines, order))

  const billed = lines.map((w) => ({
    line: w.line,
    covers: w.covers,
    reservedCapacitySeconds: w.reservedCapacitySeconds,
    onDemandSeconds: w.uncovered,
    costUsd: lineCost(w),
  }))
  const onDemandUsd = billed.reduce(
    (sum, b) => sum + (b.onDemandSeconds / SECONDS_PER_HOUR) * b.line.onDemandRateUsd,
    0,
  )
  const riFees = commitments.reservedInstances.reduce((sum, ri) => sum + ri.count * ri.hourlyRateUsd, 0)
  const planFees = commitments.savingsPlans.reduce((sum, p) => sum + p.hourlyCommitmentUsd, 0)
  const emptySlotsUsd = billed.slice(realLines).reduce((sum, b) => sum + b.costUsd, 0)
  return {
    lines: billed,
    uses,
    totalUsd: onDemandUsd + riFees + planFees,
    wasteUsd: uses.reduce((sum, u) => sum + u.unusedUsd, 0) + emptySlotsUsd,
  }
}
