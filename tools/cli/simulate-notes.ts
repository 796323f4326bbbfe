/**
 * Why a group shows little or no spot in `simulate`'s output: its region is not covered, it is not
 * tagged, it opted out, nothing is replaced in a dry run, or the engine skipped it (by the engine's own
 * skip codes). Also whether its savings rest on estimated on-demand prices.
 */
import type { GlobalConfig } from '../../lambdas/core/config/config.ts'
import { isManaged, isRegionCovered } from '../../lambdas/core/config/managed.ts'
import { embeddedOnDemandPrices } from '../../lambdas/data/on-demand-prices.ts'
import type { GroupRuns } from '../sim/report.ts'

export type GroupNoteCode = 'region-not-covered' | 'opted-out' | 'untagged' | 'dry-run' | 'skipped'

export interface GroupNote {
  readonly code: GroupNoteCode
  /** The whole reason, in words. */
  readonly detail: string
}

type NoteConfig = Pick<GlobalConfig, 'regions' | 'tagFilters' | 'tagFilteringMode' | 'dryRun'>

const skippedDetail = (runs: GroupRuns): string => {
  const total = Object.values(runs.skipped).reduce((sum, n) => sum + n, 0)
  const codes = Object.entries(runs.skipped)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([code, n]) => `${code} ×${n}`)
    .join(', ')
  return `skipped in ${total} of ${runs.planned} replacer runs: ${codes}; last: ${runs.lastSkip ?? 'none'}`
}

/** The first reason that explains the group's figures; undefined when nothing held it back. */
export const groupNote = (
  region: string,
  tags: Readonly<Record<string, string>>,
  config: NoteConfig,
  runs: GroupRuns | undefined,
): GroupNote | undefined => {
  if (!isRegionCovered(region, config))
    return {
      code: 'region-not-covered',
      detail: `REGIONS (${config.regions.join(', ')}) leaves out ${region}`,
    }
  if (!isManaged(tags, config)) {
    const off = config.tagFilters.filter((f) => tags[f.key]?.trim().toLowerCase() === 'false')
    if (off.length > 0)
      return {
        code: 'opted-out',
        detail: `opted out: ${off.map((f) => `${f.key}=${tags[f.key]}`).join(', ')}`,
      }
    const wanted = config.tagFilters.map((f) => `${f.key}=${f.value}`).join(' and ')
    return { code: 'untagged', detail: `not tagged ${wanted} (TAG_FILTERS, opt-in)` }
  }
  if (config.dryRun) return { code: 'dry-run', detail: 'DRY_RUN: the replacer plans but replaces nothing' }
  if (runs !== undefined && Object.keys(runs.skipped).length > 0)
    return { code: 'skipped', detail: skippedDetail(runs) }
  return undefined
}

/**
 * The simulator prices on-demand from the embedded table, which lists us-east-1 only: another region's
 * figures use us-east-1's prices (lambdas/data/on-demand-prices.ts), so its savings are estimates.
 */
export const savingsEstimated = (region: string): boolean =>
  embeddedOnDemandPrices(region, 'Linux/UNIX').source === 'embedded-us-east-1'

export const ESTIMATED_NOTE =
  'on-demand prices are the embedded us-east-1 table (August 2023), used for a region it does not list: savings estimated'
