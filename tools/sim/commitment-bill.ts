/**
 * The bill with commitments: every clock hour of the run, each region's on-demand usage (the groups'
 * instances as they ran, and the scenario's unmanaged usage) is billed with the commitments in effect in
 * AWS's order (lambdas/core/commitments/bill.ts, Order 'aws'), so a policy's cost includes what it left
 * unused. The baseline, "on demand with the same commitments", bills the owner's desired capacity on demand
 * in the group's type, spread over the zones as Auto Scaling spreads it, with the same commitments.
 *
 * The run's start is taken as a clock hour; a commitment applies to the hours that begin while it is in
 * effect.
 */
import { billHour } from '../../lambdas/core/commitments/bill.ts'
import { type Commitments, NO_COMMITMENTS, type UsageLine } from '../../lambdas/core/commitments/types.ts'
import { reservationsAt } from '../../lambdas/core/commitments/upcoming.ts'
import type { OnDemandMeter } from './commitment-meter.ts'
import { overlapMs } from './costs.ts'
import type { SpotMarket } from './market.ts'
import { type CommitmentFigures, round, type SimulationReport } from './report.ts'
import type { InEffect, Scenario, ScenarioGroup, ScenarioRegion } from './scenario/types.ts'
import { endOf } from './scenario/types.ts'
import type { World } from './world.ts'

const HOUR_MS = 3_600_000

interface HourTotals {
  billUsd: number
  wasteUsd: number
  feesUsd: number
}

const inEffectAt = (at: number) => (item: InEffect) => item.startMs <= at && at < item.endMs

/**
 * The commitments in effect at `at`, and the open Capacity Reservations yet to start (upcomingReservations:
 * not billed, lambdas/core/commitments/upcoming.ts), dated as EC2 lists them.
 */
export const commitmentsAt = (region: Pick<ScenarioRegion, 'commitments'>, at: number): Commitments => {
  const c = region.commitments
  if (c === undefined) return NO_COMMITMENTS
  const active = inEffectAt(at)
  const scheduled = c.capacityReservations
    .filter((cr) => at < cr.startMs)
    .map((cr) => ({
      ...cr,
      startsAt: new Date(cr.startMs),
      endsAt: Number.isFinite(cr.endMs) ? new Date(cr.endMs) : undefined,
    }))
  const { upcomingReservations } = reservationsAt(
    { ...NO_COMMITMENTS, capacityReservations: scheduled },
    new Date(at),
  )
  return {
    reservedInstances: c.reservedInstances.filter(active),
    savingsPlans: c.savingsPlans.filter(active),
    capacityReservations: c.capacityReservations.filter(active),
    ...(upcomingReservations === undefined ? {} : { upcomingReservations }),
  }
}

const overlapSeconds = (from: number, to: number, hourStart: number, hourEnd: number): number =>
  overlapMs(from, to, hourStart, hourEnd) / 1000

export const unmanagedLines = (
  region: Pick<ScenarioRegion, 'name' | 'commitments'>,
  hourStart: number,
  hourEnd: number,
  rate: RateOf,
) =>
  (region.commitments?.unmanagedUsage ?? []).flatMap((usage, u): UsageLine[] => {
    const seconds = overlapSeconds(usage.startMs, usage.endMs, hourStart, hourEnd)
    if (seconds <= 0) return []
    return Array.from({ length: usage.count }, (_, i) => ({
      id: `unmanaged-${u}-${i}`,
      type: usage.type,
      zone: usage.zone,
      region: region.name,
      platform: usage.platform,
      tenancy: usage.tenancy,
      managed: false,
      onDemandRateUsd: rate(usage.type, usage.platform),
      seconds,
    }))
  })

export type RateOf = (type: string, platform: string) => number

/** The desired capacity's instance-seconds in the hour, slot by slot: slot i runs while desired > i. */
export const desiredLines = (
  region: ScenarioRegion,
  group: ScenarioGroup,
  hourStart: number,
  hourEnd: number,
  rate: RateOf,
): UsageLine[] => {
  const steps: (readonly [number, number])[] = [
    [Number.NEGATIVE_INFINITY, group.desired],
    ...group.desiredSchedule,
  ]
  const slots: number[] = []
  steps.forEach(([at, desired], i) => {
    const seconds = overlapSeconds(at, steps[i + 1]?.[0] ?? Number.POSITIVE_INFINITY, hourStart, hourEnd)
    for (let slot = 0; slot < desired; slot++) slots[slot] = (slots[slot] ?? 0) + seconds
  })
  return slots.flatMap((seconds, slot) =>
    seconds > 0
      ? [
          {
            id: `${group.name}:${slot}`,
            type: group.instanceType,
            zone: region.zones[slot % region.zones.length] as string,
            region: region.name,
            platform: 'Linux/UNIX',
            tenancy: 'default' as const,
            managed: true,
            onDemandRateUsd: rate(group.instanceType, 'Linux/UNIX'),
            seconds,
          },
        ]
      : [],
  )
}

/** What the RIs and Savings Plans in effect cost an hour, used or not. */
export const hourFees = (commitments: Commitments): number =>
  commitments.reservedInstances.reduce((sum, ri) => sum + ri.count * ri.hourlyRateUsd, 0) +
  commitments.savingsPlans.reduce((sum, p) => sum + p.hourlyCommitmentUsd, 0)

const addHour = (
  totals: HourTotals,
  lines: readonly UsageLine[],
  commitments: Commitments,
  share: number,
) => {
  const bill = billHour(lines, commitments, 'aws')
  const fees = hourFees(commitments)
  // A last partial hour pays its share of the fees.
  totals.billUsd += bill.totalUsd - fees + share * fees
  totals.wasteUsd += share * bill.wasteUsd
  totals.feesUsd += share * fees
}

const emptyTotals = (): HourTotals => ({ billUsd: 0, wasteUsd: 0, feesUsd: 0 })

/** The meter's intervals as usage lines, by region and hour index. */
const meteredLines = (scenario: Scenario, meter: OnDemandMeter, rate: (region: string) => RateOf) => {
  const byRegion = new Map<string, UsageLine[][]>()
  const end = endOf(scenario)
  for (const { instance, fromMs, toMs } of meter.intervals) {
    const from = Math.max(fromMs, scenario.start)
    const to = Math.min(toMs, end)
    if (to <= from || instance.costGroup === undefined) continue
    const hours = byRegion.get(instance.region) ?? []
    byRegion.set(instance.region, hours)
    for (let h = Math.floor((from - scenario.start) / HOUR_MS); scenario.start + h * HOUR_MS < to; h++) {
      const hourStart = scenario.start + h * HOUR_MS
      const line: UsageLine = {
        id: instance.id,
        type: instance.type,
        zone: instance.zone,
        region: instance.region,
        platform: instance.platform,
        tenancy: 'default',
        managed: true,
        onDemandRateUsd: rate(instance.region)(instance.type, instance.platform),
        seconds: overlapSeconds(from, to, hourStart, hourStart + HOUR_MS),
      }
      const lines = hours[h] ?? []
      hours[h] = lines
      lines.push(line)
    }
  }
  return byRegion
}

/**
 * The figures, given the run's total spend at list prices (spot and on-demand, every group's tally);
 * undefined when no region of the scenario declares commitments.
 */
export const commitmentFigures = (
  scenario: Scenario,
  world: World,
  meter: OnDemandMeter,
  spendUsd: number,
): CommitmentFigures | undefined => {
  if (scenario.regions.every((r) => r.commitments === undefined)) return undefined
  const rate = (region: string): RateOf => rateIn(world.region(region).market)
  const metered = meteredLines(scenario, meter, rate)
  const policy = emptyTotals()
  eachHour(scenario, (region, hourStart, hourEnd, h) => {
    const unmanaged = unmanagedLines(region, hourStart, hourEnd, rate(region.name))
    const hours = metered.get(region.name) ?? []
    const share = (hourEnd - hourStart) / HOUR_MS
    addHour(policy, [...unmanaged, ...(hours[h] ?? [])], commitmentsAt(region, hourStart), share)
  })
  const baseline = baselineTotals(scenario, (region) => world.region(region.name).market)
  // The tallies charged the metered usage at list price: replace that with its share of the bill.
  const meteredListUsd = [...metered.values()]
    .flat(2)
    .reduce((sum, l) => sum + (l.seconds / 3600) * l.onDemandRateUsd, 0)
  const billUsd = spendUsd - meteredListUsd + policy.billUsd
  return {
    billUsd: round(billUsd, 4),
    baselineBillUsd: round(baseline.billUsd, 4),
    billSavingsPct: baseline.billUsd > 0 ? round(100 * (1 - billUsd / baseline.billUsd), 2) : 0,
    commitmentFeesUsd: round(policy.feesUsd, 4),
    commitmentWasteUsd: round(policy.wasteUsd, 4),
    baselineCommitmentWasteUsd: round(baseline.wasteUsd, 4),
  }
}

const rateIn =
  (market: SpotMarket): RateOf =>
  (type, platform) =>
    market.onDemandPrice(type, platform) ?? 0

/** Every clock hour of the run in every region: [hourStart, hourEnd), hourEnd clipped to the run's end. */
const eachHour = (
  scenario: Scenario,
  visit: (region: ScenarioRegion, hourStart: number, hourEnd: number, hour: number) => void,
): void => {
  const end = endOf(scenario)
  for (const region of scenario.regions)
    for (let hourStart = scenario.start, h = 0; hourStart < end; hourStart += HOUR_MS, h++)
      visit(region, hourStart, Math.min(end, hourStart + HOUR_MS), h)
}

const baselineTotals = (scenario: Scenario, marketOf: (region: ScenarioRegion) => SpotMarket): HourTotals => {
  const baseline = emptyTotals()
  eachHour(scenario, (region, hourStart, hourEnd) => {
    const rate = rateIn(marketOf(region))
    const lines = [
      ...unmanagedLines(region, hourStart, hourEnd, rate),
      ...region.groups.flatMap((g) => desiredLines(region, g, hourStart, hourEnd, rate)),
    ]
    addHour(baseline, lines, commitmentsAt(region, hourStart), (hourEnd - hourStart) / HOUR_MS)
  })
  return baseline
}

/** The baseline's bill: the owner's desired capacity and the unmanaged usage on demand, with the commitments. */
export const baselineBillUsd = (
  scenario: Scenario,
  marketOf: (region: ScenarioRegion) => SpotMarket,
): number => baselineTotals(scenario, marketOf).billUsd

/** The run's spend at list prices: every group's tally. */
export const spendOf = (groups: readonly { readonly tally: { readonly actualCostUsd: number } }[]): number =>
  groups.reduce((sum, g) => sum + g.tally.actualCostUsd, 0)

/** The report, with `commitments` when the scenario has some (and byte for byte as before when not). */
export const withCommitments = (
  report: SimulationReport,
  figures: CommitmentFigures | undefined,
): SimulationReport => (figures === undefined ? report : { ...report, commitments: figures })
