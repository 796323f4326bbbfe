/**
 * The oracle that knows the commitments: every clock hour, the owner's desired capacity and the scenario's
 * unmanaged usage are billed with the commitments in effect, the unmanaged usage, the on-demand minimum and
 * the members an open Capacity Reservation holds taking them first (Order 'unmanaged-first'); then each
 * other managed instance moves to the group's cheapest accepted spot pool of the hour (in any zone, or in
 * its own when held to Auto Scaling's zone balance) when spot costs less than what keeping it adds to the
 * bill (its part the commitments leave at the on-demand price; nothing for the part they pay for). The
 * on-demand minimum is placed two ways, in the group's first slots or first in the members the commitments
 * keep anyway (as spotswap counts covered members toward the floor), and the hour takes the cheaper. What
 * stays on demand is then billed as AWS bills it (Order 'aws'), which gives the hour's bill and the
 * commitment it leaves unused. Its savings are against the same baseline as the simulator's, on demand with
 * the same commitments (commitment-bill.ts).
 */
import { billHour, type LineBill } from '../../lambdas/core/commitments/bill.ts'
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
import {
  cheapestIn,
  desiredAt,
  groupCandidates,
  type OraclePlacement,
  type RegionModel,
  regionModel,
} from './oracle.ts'

const HOUR_MS = 3_600_000

export interface CommitmentOracleFigures {
  readonly billUsd: number
  readonly billSavingsPct: number
  /** Dollars of commitment paid and left unused by what it keeps on demand: none of it worth a member's keep. */
  readonly commitmentWasteUsd: number
}

/** The cheapest accepted spot price for one of the group's instances at `at` in `zone`, or in any zone. */
const spotPriceOf = (
  scenario: Scenario,
  model: RegionModel,
  group: ScenarioGroup,
  config: GlobalConfig,
  catalog: Catalog,
) => {
  const effective = groupConfig(config.defaults, group.name, group.tags).config
  const { onDemandUsd, original, candidatesIn } = groupCandidates(scenario, model, group, effective, catalog)
  return (at: number, zone?: string): number =>
    original === undefined
      ? onDemandUsd
      : Math.min(
          ...model.spec.zones.flatMap((z, i) =>
            zone === undefined || zone === z
              ? [
                  cheapestIn(
                    model,
                    z,
                    candidatesIn[i] ?? [],
                    { original, config: effective, onDemandUsd },
                    at,
                  ).priceUsd,
                ]
              : [],
          ),
        )
}

/** The on-demand members a group keeps whatever its instances cost: its minimum and its protected ones. */
const fixedCount = (group: ScenarioGroup, config: GlobalConfig, hourStart: number): number => {
  const effective = groupConfig(config.defaults, group.name, group.tags).config
  return Math.max(
    minOnDemandCount(effective, desiredAt(group, hourStart), undefined),
    group.protectedFromScaleIn,
    group.terminationProtected,
  )
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

const groupOf = (line: UsageLine): string => line.id.slice(0, line.id.lastIndexOf(':'))

/** What one hour's managed line costs on spot, and what keeping it on demand adds to the bill. */
interface Choice {
  readonly line: UsageLine
  readonly spotUsd: number
  readonly keepUsd: number
}

const choices = (
  lines: readonly UsageLine[],
  commitments: Commitments,
  spotUsd: (line: UsageLine) => number,
) =>
  billHour(heldFirst(lines, commitments), commitments, 'unmanaged-first').lines.flatMap(
    ({ line, onDemandSeconds, reservedCapacitySeconds }: LineBill): Choice[] =>
      line.managed
        ? [
            {
              line,
              spotUsd: spotUsd(line),
              // Seconds in a Capacity Reservation are paid whether the instance stays or not.
              keepUsd: (Math.max(0, onDemandSeconds - reservedCapacitySeconds) * line.onDemandRateUsd) / 3600,
            },
          ]
        : [],
  )

const moves = (choice: Choice): boolean => choice.keepUsd > choice.spotUsd

/** One way to place the on-demand minimum (`fixed`, members per group): the lines it moves to spot. */
type Placement = (
  lines: readonly UsageLine[],
  fixed: ReadonlyMap<string, number>,
  commitments: Commitments,
  spotUsd: (line: UsageLine) => number,
) => Choice[]

/** The on-demand minimum in each group's first slots. */
const movedAfterFirstSlots: Placement = (lines, fixed, commitments, spotUsd) => {
  const pinned = lines.map((line) =>
    line.managed && Number(line.id.slice(line.id.lastIndexOf(':') + 1)) < (fixed.get(groupOf(line)) ?? 0)
      ? { ...line, managed: false }
      : line,
  )
  return choices(pinned, commitments, spotUsd).filter(moves)
}

/**
 * The on-demand minimum first in the members the commitments keep anyway, then in the moved ones whose
 * keeping costs least beyond spot.
 */
const movedAfterKeptFirst: Placement = (lines, fixed, commitments, spotUsd) => {
  const all = choices(lines, commitments, spotUsd)
  const moved: Choice[] = []
  for (const [group, count] of fixed) {
    const mine = all.filter((c) => groupOf(c.line) === group)
    const kept = mine.filter((c) => !moves(c)).length
    const byPremium = mine.filter(moves).sort((a, b) => a.keepUsd - a.spotUsd - (b.keepUsd - b.spotUsd))
    moved.push(...byPremium.slice(Math.max(0, count - kept)))
  }
  return moved
}

/** The hour with `moved` on spot and the rest on demand, billed as AWS bills it. */
const hourBill = (
  lines: readonly UsageLine[],
  moved: readonly Choice[],
  commitments: Commitments,
  share: number,
) => {
  const gone = new Set(moved.map((c) => c.line.id))
  const bill = billHour(
    lines.filter((line) => !gone.has(line.id)),
    commitments,
    'aws',
  )
  const fees = hourFees(commitments)
  return {
    // A last partial hour pays its share of the fees.
    usd: bill.totalUsd - fees + share * fees + moved.reduce((sum, c) => sum + c.spotUsd, 0),
    wasteUsd: share * bill.wasteUsd,
  }
}

export const commitmentOracleFigures = (
  scenario: Scenario,
  config: GlobalConfig,
  catalog: Catalog,
  placement: OraclePlacement = 'anywhere',
): CommitmentOracleFigures | undefined => {
  if (scenario.regions.every((r) => r.commitments === undefined)) return undefined
  const end = endOf(scenario)
  let billUsd = 0
  let wasteUsd = 0
  for (const spec of scenario.regions) {
    const model = regionModel(scenario, spec)
    const rate: RateOf = (type, platform) => model.market.onDemandPrice(type, platform) ?? 0
    const managed = spec.groups.filter((g) => isManaged(g.tags, config))
    const spotOf = new Map(
      managed.map((g) => [g.name, spotPriceOf(scenario, model, g, config, catalog)] as const),
    )
    for (let hourStart = scenario.start; hourStart < end; hourStart += HOUR_MS) {
      const hourEnd = Math.min(end, hourStart + HOUR_MS)
      const commitments = commitmentsAt(spec, hourStart)
      const lines = [
        ...unmanagedLines(spec, hourStart, hourEnd, rate),
        ...spec.groups.flatMap((g) =>
          desiredLines(spec, g, hourStart, hourEnd, rate).map((line) =>
            isManaged(g.tags, config) ? line : { ...line, managed: false },
          ),
        ),
      ]
      const fixed = new Map(managed.map((g) => [g.name, fixedCount(g, config, hourStart)] as const))
      const spotUsd = (line: UsageLine) =>
        ((spotOf.get(groupOf(line))?.(hourStart, placement === 'zone-balanced' ? line.zone : undefined) ??
          line.onDemandRateUsd) *
          line.seconds) /
        3600
      const share = (hourEnd - hourStart) / HOUR_MS
      const [cheaper] = [
        hourBill(lines, movedAfterFirstSlots(lines, fixed, commitments, spotUsd), commitments, share),
        hourBill(lines, movedAfterKeptFirst(lines, fixed, commitments, spotUsd), commitments, share),
      ].sort((a, b) => a.usd - b.usd)
      billUsd += cheaper?.usd ?? 0
      wasteUsd += cheaper?.wasteUsd ?? 0
    }
  }
  const baseline = baselineBillUsd(scenario, (region) => regionModel(scenario, region).market)
  return {
    billUsd: round(billUsd, 4),
    billSavingsPct: baseline > 0 ? round(100 * (1 - billUsd / baseline), 2) : 0,
    commitmentWasteUsd: round(wasteUsd, 4),
  }
}
