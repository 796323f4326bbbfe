/** What the summary table and the HTML page show, derived from a report and its scenario. */
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { isManaged } from '../../lambdas/core/config/managed.ts'
import { embeddedOnDemandPrices } from '../../lambdas/data/on-demand-prices.ts'
import type { SimulationReport } from '../sim/report.ts'
import type { Scenario } from '../sim/scenario/types.ts'
import { type GroupNote, groupNote, savingsEstimated } from './simulate-notes.ts'

export interface GroupSummary {
  readonly group: string
  readonly region: string
  readonly before: string
  readonly after: string
  /** The group's own type before spotswap. */
  readonly instanceType: string
  readonly desiredAtStart: number
  readonly desiredAtEnd: number
  /** On-demand instances its configuration keeps at its final size; undefined in an older report. */
  readonly onDemandMinimum: number | undefined
  readonly failedLaunches: number
  /** Why it shows little or no spot (not covered, untagged, opted out, dry run, skipped). */
  readonly note: GroupNote | undefined
  /** Its on-demand prices are another region's: savings are an estimate. */
  readonly savingsEstimated: boolean
  readonly actualCostUsd: number
  readonly onDemandOnlyCostUsd: number
  /** Its own type's on-demand price per hour, as the report prices it. */
  readonly onDemandHourlyUsd: number
  readonly spotSharePct: number
  readonly savingsPct: number
  readonly availabilityPct: number
  /** Time-weighted: members InService and healthy in the group's load balancers, against desired. */
  readonly servingPct: number
  readonly interruptions: number
  readonly convergenceMinutes: number | null
  /** Whether spotswap's tag filters select the group (as the scenario's environment configures them). */
  readonly managed: boolean
}

export interface TickTotals {
  readonly at: number
  readonly actualHourlyUsd: number
  readonly onDemandHourlyUsd: number
  readonly spot: number
  readonly inService: number
  readonly desired: number
}

/** `m5.large×4 r5b.large×2`, most numerous first. */
export const describeTypes = (types: Readonly<Record<string, number>>): string =>
  Object.entries(types)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([type, count]) => `${type}×${count}`)
    .join(' ')

export const summarizeGroups = (scenario: Scenario, report: SimulationReport): GroupSummary[] => {
  const { config } = parseGlobalConfig(scenario.env)
  return scenario.regions.flatMap((region) =>
    region.groups.flatMap((spec) => {
      const figures = report.groups[spec.name]
      if (figures === undefined) return []
      const { final } = figures
      return [
        {
          group: spec.name,
          region: region.name,
          before: describeTypes({ [spec.instanceType]: spec.desired }),
          after: describeTypes(final.types),
          instanceType: spec.instanceType,
          desiredAtStart: spec.desired,
          desiredAtEnd: final.desired,
          onDemandMinimum: figures.explanation?.onDemandMinimum,
          failedLaunches: figures.failedLaunches,
          note: groupNote(region.name, spec.tags, config, figures.explanation?.runs),
          savingsEstimated: savingsEstimated(region.name),
          actualCostUsd: figures.actualCostUsd,
          onDemandOnlyCostUsd: figures.onDemandOnlyCostUsd,
          onDemandHourlyUsd:
            embeddedOnDemandPrices(region.name, 'Linux/UNIX').prices.get(spec.instanceType) ?? 0,
          spotSharePct: final.inService === 0 ? 0 : (100 * final.spot) / final.inService,
          savingsPct: figures.savingsPct,
          availabilityPct: figures.capacityAvailabilityPct,
          servingPct: figures.servingAvailabilityPct,
          interruptions: figures.interruptions,
          convergenceMinutes: figures.convergenceMinutes,
          managed: isManaged(spec.tags, config),
        },
      ]
    }),
  )
}

/** The whole account per tick: what it costs per hour, against what on-demand alone would cost. */
export const totalsPerTick = (scenario: Scenario, report: SimulationReport): TickTotals[] => {
  const priceOf = new Map<string, number>()
  for (const region of scenario.regions) {
    const prices = embeddedOnDemandPrices(region.name, 'Linux/UNIX').prices
    for (const group of region.groups) priceOf.set(group.name, prices.get(group.instanceType) ?? 0)
  }
  const ticks = new Map<
    string,
    { actual: number; onDemand: number; spot: number; inService: number; desired: number }
  >()
  for (const row of report.timeline) {
    const tick = ticks.get(row.at) ?? { actual: 0, onDemand: 0, spot: 0, inService: 0, desired: 0 }
    tick.actual += row.hourlyCostUsd
    tick.onDemand += row.desired * (priceOf.get(row.group) ?? 0)
    tick.spot += row.spot
    tick.inService += row.inService
    tick.desired += row.desired
    ticks.set(row.at, tick)
  }
  return [...ticks].map(([at, tick]) => ({
    at: Date.parse(at),
    actualHourlyUsd: tick.actual,
    onDemandHourlyUsd: tick.onDemand,
    spot: tick.spot,
    inService: tick.inService,
    desired: tick.desired,
  }))
}
