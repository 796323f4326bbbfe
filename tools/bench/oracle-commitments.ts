/**
 * The oracle that knows the commitments: every clock hour, the owner's desired capacity and the scenario's
 * unmanaged usage are billed with the commitments in effect, the unmanaged usage, the on-demand minimum and
 * the members an open Capacity Reservation holds taking them first (Order 'unmanaged-first'); then each other managed instance moves to the group's
 * cheapest accepted spot pool of the hour when spot costs less than what keeping it adds to the bill (its
 * part the commitments leave at the on-demand price; nothing for the part they pay for). Its savings are
 * against the same baseline as the simulator's, on demand with the same commitments (commitment-bill.ts).
 */
import { billHour } from '../../lambdas/core/commitments/bill.ts'
import type { Commitments, UsageLine } from '../../lambdas/core/commitments/types.ts'
import type { GlobalConfig } from '../../lambdas/core/config/config.ts'
import { groupConfig } from '../../lambdas/core/config/group-config.ts'
import { isManaged } from '../../lambdas/core/config/managed.ts'
import { minOnDemandCount } from '../../lambdas/core/plan/group-sizes.ts'
import type { Catalog } from '../../lambdas/core/types.ts'
import {
  baselineBillUsd,
  commitmentsAt,
  desiredLines,
  hourFees,
  type RateOf,
  unmanagedLines,
} from '../sim/commitment-bill.ts'
import { round } from '../sim/report.ts'
import { endOf, type Scenario, type ScenarioGroup } from '../sim/scenario/types.ts'
import { cheapestIn, desiredAt, groupCandidates, type RegionModel, regionModel } from './oracle.ts'

const HOUR_MS = 3_600_000

export interface CommitmentOracleFigures {
  readonly billUsd: number
  readonly billSavingsPct: number
}

/** The cheapest accepted spot price for one of the group's instances at `at`, in any zone (on demand if none). */
const spotPriceOf = (
  scenario: Scenario,
  model: RegionModel,
  group: ScenarioGroup,
  config: GlobalConfig,
  catalog: Catalog,
) => {
  const effective = groupConfig(config.defaults, group.name, group.tags).config
  const { onDemandUsd, original, candidatesIn } = groupCandidates(scenario, model, group, effective, catalog)
  return (at: number): number =>
    original === undefined
      ? onDemandUsd
      : Math.min(
          ...model.spec.zones.map(
            (zone, z) =>
              cheapestIn(model, zone, candidatesIn[z] ?? [], { original, config: effective, onDemandUsd }, at)
                .priceUsd,
          ),
        )
}

/** The group's desired slots in the hour, those it may not move marked unmanaged (they take commitments first). */
const groupLines = (
  model: RegionModel,
  group: ScenarioGroup,
  config: GlobalConfig,
  hourStart: number,
  hourEnd: number,
  rate: RateOf,
): UsageLine[] => {
  const lines = desiredLines(model.spec, group, hourStart, hourEnd, rate)
  if (!isManaged(group.tags, config)) return lines.map((line) => ({ ...line, managed: false }))
  const effective = groupConfig(config.defaults, group.name, group.tags).config
  const desired = desiredAt(group, hourStart)
  const fixed = Math.max(
    minOnDemandCount(effective, desired, undefined),
    group.protectedFromScaleIn,
    group.terminationProtected,
  )
  return lines.map((line, slot) => (slot < fixed ? { ...line, managed: false } : line))
}

/**
 * The lines with those an open Capacity Reservation holds the whole hour marked as staying: moving them
 * saves nothing (the slot is billed either way), so they take the RIs and Savings Plans before the members
 * that may move, as spotswap's coverage ranks them (lambdas/core/commitments/coverage.ts). Ranked with the
 * others, an RI would keep a member on demand that the held one could have used instead.
 */
const heldFirst = (lines: readonly UsageLine[], commitments: Commitments): UsageLine[] => {
  const held = new Set(
    billHour(lines, commitments, 'unmanaged-first')
      .lines.filter((b) => b.line.managed && b.reservedCapacitySeconds >= b.line.seconds)
      .map((b) => b.line.id),
  )
  return lines.map((line) => (held.has(line.id) ? { ...line, managed: false } : line))
}

export const commitmentOracleFigures = (
  scenario: Scenario,
  config: GlobalConfig,
  catalog: Catalog,
): CommitmentOracleFigures | undefined => {
  if (scenario.regions.every((r) => r.commitments === undefined)) return undefined
  const end = endOf(scenario)
  let billUsd = 0
  for (const spec of scenario.regions) {
    const model = regionModel(scenario, spec)
    const rate: RateOf = (type, platform) => model.market.onDemandPrice(type, platform) ?? 0
    const spotOf = new Map(
      spec.groups
        .filter((g) => isManaged(g.tags, config))
        .map((g) => [g.name, spotPriceOf(scenario, model, g, config, catalog)] as const),
    )
    for (let hourStart = scenario.start; hourStart < end; hourStart += HOUR_MS) {
      const hourEnd = Math.min(end, hourStart + HOUR_MS)
      const commitments = commitmentsAt(spec, hourStart)
      const lines = [
        ...unmanagedLines(spec, hourStart, hourEnd, rate),
        ...spec.groups.flatMap((g) => groupLines(model, g, config, hourStart, hourEnd, rate)),
      ]
      const bill = billHour(heldFirst(lines, commitments), commitments, 'unmanaged-first')
      const fees = hourFees(commitments)
      let hourUsd = bill.totalUsd - fees + ((hourEnd - hourStart) / HOUR_MS) * fees
      for (const { line, onDemandSeconds, reservedCapacitySeconds } of bill.lines) {
        if (!line.managed) continue
        const group = line.id.slice(0, line.id.lastIndexOf(':'))
        const spotUsd = ((spotOf.get(group)?.(hourStart) ?? line.onDemandRateUsd) * line.seconds) / 3600
        // Seconds in a Capacity Reservation are paid whether the instance stays or not.
        const keepUsd = (Math.max(0, onDemandSeconds - reservedCapacitySeconds) * line.onDemandRateUsd) / 3600
        hourUsd -= Math.max(0, keepUsd - spotUsd)
      }
      billUsd += hourUsd
    }
  }
  const baseline = baselineBillUsd(scenario, (region) => regionModel(scenario, region).market)
  return {
    billUsd: round(billUsd, 4),
    billSavingsPct: baseline > 0 ? round(100 * (1 - billUsd / baseline), 2) : 0,
  }
}
