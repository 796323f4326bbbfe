/**
 * What `spotswap plan` shows: per group, what the replacer would do now and what that would save, and
 * why a group or an instance is left alone. Pure: region results in, rows and JSON out.
 */

import type { ConfigError } from '../../lambdas/core/config/config.ts'
import { HOURS_PER_MONTH } from '../../lambdas/core/constants.ts'
import type { ScheduledMember } from '../../lambdas/core/maintenance/plan.ts'
import type { GroupFigures, InstanceSkip, OnDemandStatus } from '../../lambdas/core/plan/reasons.ts'
import { summarizeOutcome } from '../../lambdas/replacer/outcome-summary.ts'
import { isHeldBack } from '../../lambdas/replacer/reasons.ts'
import type { RegionResult } from '../../lambdas/replacer/run-region.ts'
import { pct, renderTable, usd } from '../shared/table.ts'
import { emptyMarket, type MarketSeen } from './plan-market.ts'
import {
  anyFlagged,
  FLAG_LEGEND,
  launchLines,
  type PlannedLaunch,
  plannedLaunches,
  wrapLine,
} from './plan-replacements.ts'
import { type PreflightCheck, preflightText } from './preflight-check.ts'

export interface PlannedGroup {
  readonly region: string
  readonly group: string
  readonly managed: boolean
  /** Why the whole group is left alone this run, if it is. */
  readonly skipped: string | undefined
  readonly figures: GroupFigures | undefined
  readonly actions: readonly Record<string, unknown>[]
  readonly instanceSkips: readonly InstanceSkip[]
  /** On-demand members neither being replaced nor kept for the minimum, each with its reason. */
  readonly stillOnDemand: readonly OnDemandStatus[]
  /**
   * Saving per hour now (spot members) plus what replacing every on-demand member that spotswap replaces,
   * now or once what holds it passes, would add at today's prices.
   */
  readonly projectedHourlySavingsUsd: number
  readonly projectedMonthlySavingsUsd: number
  /** Each replacement this run would start: the instance's type and the ranked candidates with prices. */
  readonly launches: readonly PlannedLaunch[]
  /**
   * The group's on-demand prices are the embedded table's (us-east-1), not the Pricing API's, so its
   * savings are estimates; `pricesFrom` says which.
   */
  readonly savingsEstimated: boolean
  readonly pricesFrom?: { readonly platform: string; readonly source: string }
  /** Members with an EC2 scheduled event, and what spotswap does about each. */
  readonly scheduled?: readonly ScheduledMember[]
}

export interface PlanRegion {
  readonly region: string
  readonly error?: string
  readonly groups: readonly PlannedGroup[]
  readonly strays: readonly Record<string, unknown>[]
}

export interface PlanReport {
  readonly dryRun: true
  readonly regions: readonly PlanRegion[]
  /** What would stop the replacer once deployed (preflight.ts). */
  readonly preflight?: readonly PreflightCheck[]
  readonly configErrors: readonly ConfigError[]
  readonly apiCalls: Readonly<Record<string, number>>
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6

/**
 * `notManaged` are the region's groups the tag filters leave out, with the reason; `market` what the
 * replacer read of prices (read-only.ts), for the candidates' prices.
 */
export const planRegion = (
  result: RegionResult,
  notManaged: readonly { name: string; reason: string }[],
  market: MarketSeen = emptyMarket(),
): PlanRegion => {
  const managed = result.groups.map(({ plan, outcomes, prices }): PlannedGroup => {
    // Every on-demand member spotswap replaces, now or once what holds it passes, not only this run's.
    const toCome = plan.onDemand.reduce((sum, s) => sum + (s.projectedHourlySavingsUsd ?? 0), 0)
    const hourly = round6(plan.figures.hourlySavingsUsd + toCome)
    return {
      region: result.region,
      group: plan.group,
      managed: true,
      skipped: plan.skipped,
      figures: plan.figures,
      actions: outcomes.map(summarizeOutcome),
      instanceSkips: plan.instanceSkips,
      stillOnDemand: plan.onDemand.filter(isHeldBack),
      projectedHourlySavingsUsd: hourly,
      projectedMonthlySavingsUsd: round6(hourly * HOURS_PER_MONTH),
      launches: plannedLaunches(plan.actions, market, prices?.productDescription),
      ...(plan.scheduled === undefined ? {} : { scheduled: plan.scheduled }),
      savingsEstimated: prices !== undefined && prices.source !== 'pricing-api',
      ...(prices === undefined
        ? {}
        : { pricesFrom: { platform: prices.productDescription, source: prices.source } }),
    }
  })
  const others = notManaged.map(
    ({ name, reason }): PlannedGroup => ({
      region: result.region,
      group: name,
      managed: false,
      skipped: reason,
      figures: undefined,
      actions: [],
      instanceSkips: [],
      stillOnDemand: [],
      projectedHourlySavingsUsd: 0,
      projectedMonthlySavingsUsd: 0,
      launches: [],
      savingsEstimated: false,
    }),
  )
  return {
    region: result.region,
    groups: [...managed, ...others],
    strays: result.strays.map(summarizeOutcome),
  }
}

const describeActions = (group: PlannedGroup): string => {
  if (group.actions.length === 0) return group.skipped ? 'none' : 'nothing to do'
  const counts = new Map<string, number>()
  for (const action of group.actions)
    counts.set(String(action.kind), (counts.get(String(action.kind)) ?? 0) + 1)
  return [...counts].map(([kind, n]) => `${n}× ${kind}`).join(', ')
}

/** Marks savings computed from the embedded on-demand table rather than the Pricing API. */
const ESTIMATED = '*'

const estimatedNote = (groups: readonly PlannedGroup[]): string[] => {
  const platforms = [...new Set(groups.filter((g) => g.savingsEstimated).map((g) => g.pricesFrom?.platform))]
  if (platforms.length === 0) return []
  return [
    `${ESTIMATED} estimated: no Pricing API answer for ${platforms.join(', ')}; on-demand prices are the embedded`,
    '  us-east-1 table (August 2023), used for every region',
  ]
}

const keptLines = (indent: string, s: OnDemandStatus): string[] =>
  wrapLine(
    indent,
    `${s.instanceId} stays on-demand (${s.type}, ${s.zone}): ${s.code}${s.detail === '' ? '' : `: ${s.detail}`}`,
  )

/** Per group with anything to say: each replacement with its candidates, then each instance left alone. */
const perInstance = (groups: readonly PlannedGroup[]): string[] =>
  groups.flatMap((g) => {
    const explained = new Set(g.stillOnDemand.map((s) => s.instanceId))
    const lines = [
      ...g.launches.flatMap((launch) => launchLines('    ', launch)),
      ...g.stillOnDemand.flatMap((s) => keptLines('    ', s)),
      ...(g.scheduled ?? []).flatMap((s) =>
        wrapLine('    ', `${s.instanceId} has a scheduled ${s.code} from ${s.notBefore}: ${s.action}`),
      ),
      ...g.instanceSkips
        .filter((s) => !explained.has(s.instanceId))
        .flatMap((s) => wrapLine('    ', `${s.instanceId}: ${s.reason}`)),
    ]
    return lines.length === 0 ? [] : [`  ${g.region} ${g.group}`, ...lines]
  })

export const planText = (report: PlanReport): string => {
  const groups = report.regions.flatMap((r) => r.groups)
  const rows = groups.map((g) => [
    g.region,
    g.group,
    g.figures ? `${g.figures.onDemand}/${g.figures.spot}` : '-',
    g.figures ? pct(g.figures.inService === 0 ? 0 : (100 * g.figures.spot) / g.figures.inService, 0) : '-',
    describeActions(g),
    usd(g.projectedHourlySavingsUsd),
    `${usd(g.projectedMonthlySavingsUsd)}${g.savingsEstimated ? ESTIMATED : ''}`,
    g.skipped ?? '',
  ])
  const lines = [
    'Dry run: nothing was changed. What the replacer would do now:',
    '',
    renderTable(
      [
        { header: 'Region' },
        { header: 'Group' },
        { header: 'OD/spot' },
        { header: 'Spot', align: 'right' },
        { header: 'Would do' },
        { header: 'Saves/hour', align: 'right' },
        { header: 'Saves/month', align: 'right' },
        { header: 'Skipped because' },
      ],
      rows,
    ),
  ]
  const total = groups.reduce((sum, g) => sum + g.projectedHourlySavingsUsd, 0)
  const estimated = groups.some((g) => g.savingsEstimated) ? ` (${ESTIMATED}includes estimates)` : ''
  lines.push(
    '',
    `Projected savings once done: ${usd(total)}/hour, ${usd(total * HOURS_PER_MONTH)}/month${estimated}`,
    ...estimatedNote(groups),
  )
  const detail = perInstance(groups)
  if (detail.length > 0)
    lines.push(
      '',
      'Per instance: type (on-demand price, zone), then the spot candidates in the order the fleet prefers them, $/hour',
      ...detail,
      ...(anyFlagged(groups.flatMap((g) => g.launches)) ? wrapLine('  ', FLAG_LEGEND) : []),
    )
  lines.push(...preflightText(report.preflight ?? []))
  for (const region of report.regions)
    if (region.error) lines.push('', `${region.region}: could not be planned: ${region.error}`)
  for (const error of report.configErrors)
    lines.push(
      `Configuration: ${error.name}=${JSON.stringify(error.value)} is not ${error.expected}; using ${error.fallback}`,
    )
  return `${lines.join('\n')}\n`
}
