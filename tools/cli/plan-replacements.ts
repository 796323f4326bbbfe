/**
 * What `plan` shows per instance it would replace: the current type and its on-demand price, and the
 * ranked candidates the launch offers the fleet with their spot prices in the instance's zone. Pure: the
 * launch actions and the market the replacer read in, rows and lines out.
 */
import type { Action, LaunchSpotAction } from '../../lambdas/core/plan/actions.ts'
import type { CandidateFlag } from '../../lambdas/core/types.ts'
import { type MarketSeen, spotPriceOf } from './plan-market.ts'

export interface PlannedCandidate {
  readonly instanceType: string
  readonly zone: string
  /** The latest spot price read for it in its zone; absent when none was read. */
  readonly spotPriceUsd?: number
  /** What changes against the replaced type that a workload may notice (the CPU maker, the generation). */
  readonly flags?: readonly CandidateFlag[]
}

export interface PlannedLaunch {
  readonly instanceId: string
  readonly currentType: string
  readonly zone: string
  readonly onDemandPriceUsd?: number
  /** In the order the fleet is asked to prefer them (the first is the expected launch). */
  readonly candidates: readonly PlannedCandidate[]
}

const isLaunch = (action: Action): action is LaunchSpotAction => action.kind === 'launch-spot'

export const plannedLaunches = (
  actions: readonly Action[],
  market: MarketSeen,
  productDescription: string | undefined,
): PlannedLaunch[] =>
  actions.filter(isLaunch).map((launch) => {
    const onDemand =
      productDescription === undefined
        ? undefined
        : market.onDemandPrices.get(productDescription)?.prices.get(launch.replacingType)
    return {
      instanceId: launch.replacing,
      currentType: launch.replacingType,
      zone: launch.zone,
      ...(onDemand === undefined ? {} : { onDemandPriceUsd: onDemand }),
      candidates: launch.overrides.map((o) => {
        const price =
          productDescription === undefined
            ? undefined
            : spotPriceOf(market, productDescription, o.instanceType, o.zone)
        return {
          instanceType: o.instanceType,
          zone: o.zone,
          ...(price === undefined ? {} : { spotPriceUsd: price }),
          ...(o.flags === undefined || o.flags.length === 0 ? {} : { flags: o.flags }),
        }
      }),
    }
  })

/** Hourly prices need more than a cent's precision: a t3.micro's spot price is about $0.003. */
const hourly = (usd: number | undefined): string => (usd === undefined ? '$?' : `$${usd.toFixed(4)}`)

/** The top candidates named; the rest are counted. */
export const CANDIDATES_SHOWN = 5

/** Lines stay within the 120 columns a terminal report is read in. */
export const LINE_WIDTH = 120

/** Short marks for the flags, explained once under the block (FLAG_LEGEND). */
const FLAG_MARKS: Readonly<Record<CandidateFlag, string>> = {
  'cpu-vendor-change': 'cpu',
  'generation-change': 'gen',
}

export const FLAG_LEGEND =
  '[cpu]: another CPU maker (Intel/AMD) than the replaced type; [gen]: another generation. ALLOW_CPU_VENDOR_CHANGE / ALLOW_GENERATION_CHANGE=false refuse them.'

const candidateText = (c: PlannedCandidate): string => {
  const marks = (c.flags ?? []).map((flag) => FLAG_MARKS[flag])
  return `${c.instanceType} ${hourly(c.spotPriceUsd)}${marks.length === 0 ? '' : ` [${marks.join(',')}]`}`
}

/** Whether any of these launches offers a flagged candidate: the legend is printed then. */
export const anyFlagged = (launches: readonly PlannedLaunch[]): boolean =>
  launches.some((launch) => launch.candidates.some((c) => (c.flags?.length ?? 0) > 0))

/**
 * Two lines: `i-0abc m5.large ($0.0960/h on-demand, us-east-1b)`, then `→ m5d.large $0.0312, ..., +7 more`
 * naming fewer candidates when the line would pass LINE_WIDTH.
 */
export const launchLines = (indent: string, launch: PlannedLaunch): string[] => {
  const head = `${indent}${launch.instanceId} ${launch.currentType} (${hourly(launch.onDemandPriceUsd)}/h on-demand, ${launch.zone})`
  for (let shown = Math.min(CANDIDATES_SHOWN, launch.candidates.length); shown >= 1; shown--) {
    const more = launch.candidates.length - shown
    const names = launch.candidates.slice(0, shown).map(candidateText)
    const line = `${indent}  → ${[...names, ...(more > 0 ? [`+${more} more`] : [])].join(', ')}`
    if (line.length <= LINE_WIDTH || shown === 1) return [head, line]
  }
  return [head, `${indent}  → no candidate`]
}

/** Words wrapped at LINE_WIDTH, continuation lines indented two more than the first. */
export const wrapLine = (indent: string, text: string): string[] => {
  const lines: string[] = []
  let line = indent
  for (const word of text.split(' ')) {
    const prefix = lines.length === 0 ? indent : `${indent}  `
    if (line.length > prefix.length && line.length + 1 + word.length > LINE_WIDTH) {
      lines.push(line)
      line = `${indent}  ${word}`
    } else line = line.length === prefix.length ? `${line}${word}` : `${line} ${word}`
  }
  lines.push(line)
  return lines
}
