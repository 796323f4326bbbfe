/** The JSON summary a replacer invocation returns: per region, per group, what was planned and done. */
import type { ConfigError } from '../core/config/config.ts'
import type { OnDemandPrices } from '../core/types.ts'
import { summarizeOutcome } from './outcome-summary.ts'
import { summarizeStillOnDemand } from './reasons.ts'
import type { RegionResult } from './run-region.ts'

export interface RegionSummary {
  readonly region: string
  /** A large region handed to this many queued invocations instead of being processed here. */
  readonly deferredChunks?: number
  readonly error?: string
  readonly groups?: readonly Record<string, unknown>[]
  readonly strays?: readonly Record<string, unknown>[]
}

export interface ReplacerSummary {
  readonly ok: boolean
  readonly dryRun: boolean
  readonly configErrors: readonly ConfigError[]
  readonly enqueued?: readonly string[]
  readonly ignored?: readonly { readonly messageId: string | undefined; readonly reason: string }[]
  readonly regions: readonly RegionSummary[]
}

/**
 * Where a group's on-demand prices came from. When the Pricing API gave nothing for its platform they are
 * the embedded table's (us-east-1, August 2023), so its savings are estimates and the summary says so.
 */
const describePrices = (productDescription: string, source: OnDemandPrices['source']) =>
  source === 'pricing-api'
    ? { platform: productDescription, source, savingsEstimated: false }
    : {
        platform: productDescription,
        source,
        savingsEstimated: true,
        note: `no Pricing API answer for ${productDescription}: on-demand prices are the embedded ${productDescription} table's (us-east-1, August 2023${source === 'embedded-us-east-1' ? ', used for a region it does not list' : ''}); savings are estimated`,
      }

export const summarizeRegion = (result: RegionResult): RegionSummary => ({
  region: result.region,
  groups: result.groups.map(({ plan, outcomes, prices, timeBudget }) => ({
    group: plan.group,
    ...(plan.skipped ? { skipped: plan.skipped } : {}),
    ...(plan.skip ? { skipCode: plan.skip.code } : {}),
    // Some of its actions were left to the next run (core/region/time-budget.ts).
    ...(timeBudget ? { timeBudget } : {}),
    figures: plan.figures,
    ...(prices === undefined ? {} : { prices: describePrices(prices.productDescription, prices.source) }),
    actions: outcomes.map(summarizeOutcome),
    instanceSkips: plan.instanceSkips,
    ...(plan.scheduled === undefined ? {} : { scheduled: plan.scheduled }),
    ...(plan.unverified === undefined
      ? {}
      : { unverifiedLaunches: plan.unverified.map((u) => u.instanceId) }),
    ...summarizeStillOnDemand(plan),
  })),
  strays: result.strays.map(summarizeOutcome),
})
