/**
 * The issue's targets, checked against one run's results. They are to beat, not to tune to: a missed
 * target is reported with its numbers, never hidden.
 */
import type { BenchResults, PolicyFigures } from './results.ts'
import type { RunningCostFigures } from './running-cost-probe.ts'
import { ratioLimit, type ScaleBaseline } from './scale-baseline.ts'
import { checkSweepTargets } from './sweep-targets.ts'
import type { TargetCheck } from './target-check.ts'

export type { TargetCheck } from './target-check.ts'

const PREEMPTION = 'preemption-traces'
/**
 * The share of the zone-balanced oracle's savings spotswap must reach on every scenario: that oracle keeps
 * each zone's instances in the zone, as spotswap must, so only the replacement policy separates them.
 */
const ZONE_BALANCED_SHARE = 0.95
/**
 * What swaps may cost serving capacity against on-demand only, in points (an owner's own scale-out
 * costs every policy the same boot and health checks).
 */
const SERVING_MARGIN_POINTS = 0.05
/**
 * Waiting for replacements to serve may slow convergence by the health checks only: the 20 minutes
 * spotswap took before load balancers were modelled (bench at c837800), plus 30 s × 3 checks.
 */
const CONVERGENCE_LIMIT_MINUTES: Readonly<Record<string, number>> = {
  'steady-web': 20 + 1.5,
  'daily-scaling': 20 + 1.5,
}
/** spotswap's own monthly cost may be at most this share of what it saves, on every account size. */
const RUNNING_COST_SHARE_PCT = 1
const fixed = (value: number, digits = 1) => value.toFixed(digits)
// One decimal: whole minutes showed a convergence missed by half a minute as a tie (4 min vs 4 min).
const minutes = (value: number | null) => (value === null ? 'never' : `${fixed(value)} min`)

/** A warm planning pass (what a scheduled container pays) over the bench's 100,000 instances: its CPU. */
const WARM_PLAN_CPU_LIMIT_MS = 1200
/** Peak resident memory of a planning pass, the simulated account included. */
const PLAN_RSS_LIMIT_MB = 512

/**
 * Planning at scale: the warm pass's median CPU and memory; and, where a baseline was recorded at the
 * same size (scale-baseline.ts), the engine-to-reference ratio within twice the baseline's own spread.
 * Results without a warm figure (written before it was measured) are held to the cold pass's figure.
 */
const scaleChecks = (scale: BenchResults['scale'], baseline: ScaleBaseline | undefined): TargetCheck[] => {
  const instances = scale.instances.toLocaleString('en-US')
  const warm = scale.warmPlanCpuMs
  const checks: TargetCheck[] = [
    warm === undefined
      ? {
          target: `planning ${instances} instances: < 2 s CPU, < ${PLAN_RSS_LIMIT_MB} MB`,
          met: scale.planCpuMs < 2000 && scale.peakRssMb < PLAN_RSS_LIMIT_MB,
          detail: `${scale.planCpuMs} ms CPU, ${scale.peakRssMb} MB peak RSS`,
        }
      : {
          target: `planning ${instances} instances, warm (median of five): < ${WARM_PLAN_CPU_LIMIT_MS / 1000} s CPU, < ${PLAN_RSS_LIMIT_MB} MB`,
          met: warm < WARM_PLAN_CPU_LIMIT_MS && (scale.warmPeakRssMb ?? scale.peakRssMb) < PLAN_RSS_LIMIT_MB,
          detail: `${warm} ms CPU, ${scale.warmPeakRssMb ?? scale.peakRssMb} MB peak RSS (cold: ${scale.planCpuMs} ms, ${scale.peakRssMb} MB)`,
        },
  ]
  const ratio = scale.referenceRatio
  if (baseline !== undefined && ratio !== undefined && baseline.instances === scale.instances) {
    const limit = ratioLimit(baseline)
    checks.push({
      target: `planning ${instances} instances: engine-to-reference CPU ratio ≤ the baseline's plus twice its spread`,
      met: ratio <= limit,
      detail: `${ratio} vs ${limit} (baseline ${baseline.ratio} ± ${baseline.spreadPct}% over ${baseline.runs} runs at ${baseline.commit}; this run's spread ${scale.referenceRatioSpreadPct ?? '?'}%)`,
    })
  }
  return checks
}

/**
 * The savings figures a scenario's targets compare. On a scenario with commitments, issue 28 defines
 * savings against the real bill (the baseline is on demand with the same commitments) for every policy and
 * oracle that has one, and the list-price figures are shown beside them; elsewhere, against the list price.
 */
interface SavingsBasis {
  /** How a target names the figure, and its fair form. */
  readonly name: string
  readonly fairName: string
  readonly savings: (figures: PolicyFigures) => number
  readonly fair: (figures: PolicyFigures) => number
  readonly zoneBalanced: (oracle: PolicyFigures) => number | undefined
  /** The list-price figures beside the compared ones: '' on the list price. */
  readonly beside: (ours: number, theirs: number | undefined) => string
}

const LIST_PRICE: SavingsBasis = {
  name: 'savings',
  fairName: 'fair savings',
  savings: (f) => f.savingsPct,
  fair: (f) => f.fairSavingsPct,
  zoneBalanced: (oracle) => oracle.zoneBalancedOracleSavingsPct,
  beside: () => '',
}

const REAL_BILL: SavingsBasis = {
  name: 'savings against the real bill',
  fairName: 'fair savings against the real bill',
  savings: (f) => f.billSavingsPct ?? f.savingsPct,
  // Results written before the fair figure was measured: the bill's savings.
  fair: (f) => f.fairBillSavingsPct ?? f.billSavingsPct ?? f.fairSavingsPct,
  zoneBalanced: (oracle) => oracle.zoneBalancedOracleBillSavingsPct,
  beside: (ours, theirs) =>
    ` (list price: ${fixed(ours, 2)}%${theirs === undefined ? '' : ` vs ${fixed(theirs, 2)}%`})`,
}

/** The real bill where every figure compared has one, the list price otherwise. */
const basisOf = (...compared: readonly (PolicyFigures | undefined)[]): SavingsBasis =>
  compared.every((f) => f?.billSavingsPct !== undefined) ? REAL_BILL : LIST_PRICE

/** One p3 pool per zone: no policy that keeps Auto Scaling's zone balance can match AWS's policy there. */
const GPU = 'gpu-fleet'
/** Two members with no zone that keeps the group balanced: spotswap never converts them. */
const FIVE_ZONES = 'five-zones-48h'
const ASG_PCO = 'asg-price-capacity-optimized'
/** Where AWS's policy beats the zone-balanced oracle (it may unbalance zones), the share of that oracle to reach. */
const ZONE_BALANCED_ORACLE_SHARE = 0.99

/**
 * Against AWS's own mixed-instances policy, on fair savings (unserved capacity charged at the on-demand
 * price): save at least as much, or 99% of the zone-balanced oracle where AWS's policy saves more than
 * that oracle; converge no later (five-zones-48h excepted). gpu-fleet is held to its own figures.
 */
const mixedPolicyChecks = (
  name: string,
  byPolicy: Readonly<Record<string, PolicyFigures>>,
): TargetCheck[] => {
  const spotswap = byPolicy.spotswap
  const aws = byPolicy[ASG_PCO]
  if (name === GPU || spotswap === undefined || aws === undefined) return []
  const basis = basisOf(spotswap, aws)
  const balanced = byPolicy.oracle === undefined ? undefined : basis.zoneBalanced(byPolicy.oracle)
  const ours = basis.fair(spotswap)
  const theirs = basis.fair(aws)
  const beyondBalanced = balanced !== undefined && theirs > balanced
  const beside = basis.beside(spotswap.fairSavingsPct, aws.fairSavingsPct)
  const checks: TargetCheck[] = [
    beyondBalanced
      ? {
          target: `${name}: ${basis.fairName} ≥ ${100 * ZONE_BALANCED_ORACLE_SHARE}% of the zone-balanced oracle's (${ASG_PCO} saves more than it)`,
          met: ours >= ZONE_BALANCED_ORACLE_SHARE * balanced,
          detail: `${fixed(ours, 2)}% vs ${fixed(balanced, 2)}% (${ASG_PCO} ${fixed(theirs, 2)}%)${beside}`,
        }
      : {
          target: `${name}: ${basis.fairName} ≥ ${ASG_PCO}'s`,
          met: ours >= theirs,
          detail: `${fixed(ours, 2)}% vs ${fixed(theirs, 2)}%${beside}`,
        },
  ]
  if (name !== FIVE_ZONES)
    checks.push({
      target: `${name}: converges no later than ${ASG_PCO}`,
      met:
        spotswap.convergenceMinutes !== null &&
        (aws.convergenceMinutes === null || spotswap.convergenceMinutes <= aws.convergenceMinutes),
      detail: `${minutes(spotswap.convergenceMinutes)} vs ${minutes(aws.convergenceMinutes)}`,
    })
  return checks
}

/** spotswap's share of the commitment-aware oracle's savings against the real bill, on scenarios with commitments. */
const COMMITMENT_ORACLE_SHARE = 0.95
/** Rounding of the dollar figures (4 digits) summed over a run: below a cent is no waste. */
const WASTE_TOLERANCE_USD = 0.01

/**
 * On a scenario with commitments: no commitment left unused beyond what the bill allows, and savings
 * against the real bill ≥ 95% of the oracle's that knows the commitments. What the bill allows is the
 * larger of what on demand leaves unused (the unmanaged usage's, which no policy changes) and what that
 * oracle leaves: it minimises the bill, so what it leaves unused is a slice that only a member kept on
 * demand could use, at a cost above the member's spot replacement (docs/benchmark.md). Results without
 * the oracle's figure are held to on demand's.
 */
const commitmentChecks = (name: string, byPolicy: Readonly<Record<string, PolicyFigures>>): TargetCheck[] => {
  const spotswap = byPolicy.spotswap
  const oracle = byPolicy.oracle?.billSavingsPct
  if (spotswap?.billSavingsPct === undefined || oracle === undefined) return []
  const waste = spotswap.commitmentWasteUsd ?? 0
  const unavoidable = spotswap.unavoidableCommitmentWasteUsd ?? 0
  const oracleWaste = byPolicy.oracle?.commitmentWasteUsd
  const allowed = Math.max(unavoidable, oracleWaste ?? 0)
  const share = oracle > 0 ? spotswap.billSavingsPct / oracle : 1
  return [
    {
      target: `${name}: commitment unused ≤ what the commitment-aware oracle or on demand leaves unused`,
      met: waste <= allowed + WASTE_TOLERANCE_USD,
      detail: `$${fixed(waste, 2)} vs $${fixed(allowed, 2)} (oracle ${oracleWaste === undefined ? 'not measured' : `$${fixed(oracleWaste, 2)}`}, on demand $${fixed(unavoidable, 2)})`,
    },
    {
      target: `${name}: savings against the real bill ≥ ${100 * COMMITMENT_ORACLE_SHARE}% of the commitment-aware oracle's`,
      met: share >= COMMITMENT_ORACLE_SHARE,
      detail: `${fixed(spotswap.billSavingsPct, 2)}% vs ${fixed(oracle, 2)}% = ${fixed(100 * share)}%`,
    },
  ]
}

export const checkTargets = (results: BenchResults, baseline?: ScaleBaseline): TargetCheck[] => {
  const checks: TargetCheck[] = []
  const scenarios = Object.entries(results.scenarios)
  const of = (byPolicy: Readonly<Record<string, PolicyFigures>>, policy: string) =>
    byPolicy[policy] as PolicyFigures
  for (const [name, byPolicy] of scenarios) {
    const spotswap = of(byPolicy, 'spotswap')
    const oracle = of(byPolicy, 'oracle')
    const basis = basisOf(spotswap, oracle)
    const saved = basis.savings(spotswap)
    const oracleSaved = basis.savings(oracle)
    const share = oracleSaved > 0 ? saved / oracleSaved : 1
    checks.push({
      target: `${name}: ${basis.name} ≥ 90% of the oracle's`,
      met: share >= 0.9,
      detail: `${fixed(saved, 2)}% vs ${fixed(oracleSaved, 2)}% = ${fixed(100 * share)}%${basis.beside(spotswap.savingsPct, oracle.savingsPct)}`,
    })
    // Results written before the zone-balanced oracle's bill was measured: its list-price savings.
    const zoneBasis = basis.zoneBalanced(oracle) === undefined ? LIST_PRICE : basis
    const balanced = zoneBasis.zoneBalanced(oracle)
    if (balanced !== undefined) {
      const ourSaved = zoneBasis.savings(spotswap)
      const balancedShare = balanced > 0 ? ourSaved / balanced : 1
      checks.push({
        target: `${name}: ${zoneBasis.name} ≥ ${100 * ZONE_BALANCED_SHARE}% of the zone-balanced oracle's`,
        met: balancedShare >= ZONE_BALANCED_SHARE,
        detail: `${fixed(ourSaved, 2)}% vs ${fixed(balanced, 2)}% = ${fixed(100 * balancedShare)}%${zoneBasis.beside(spotswap.savingsPct, oracle.zoneBalancedOracleSavingsPct)}`,
      })
    }
    checks.push({
      target: `${name}: availability ≥ 99.9%`,
      met: spotswap.capacityAvailabilityPct >= 99.9,
      detail: `${fixed(spotswap.capacityAvailabilityPct, 3)}%`,
    })
    const onDemand = of(byPolicy, 'on-demand')
    checks.push({
      target: `${name}: serving ≥ on-demand's − ${SERVING_MARGIN_POINTS} points, ≥ 99.9% where on-demand's is`,
      met:
        spotswap.servingAvailabilityPct >= onDemand.servingAvailabilityPct - SERVING_MARGIN_POINTS &&
        (onDemand.servingAvailabilityPct < 99.9 || spotswap.servingAvailabilityPct >= 99.9),
      detail: `${fixed(spotswap.servingAvailabilityPct, 3)}% vs ${fixed(onDemand.servingAvailabilityPct, 3)}%`,
    })
    const ours = spotswap.convergenceMinutes
    const limit = CONVERGENCE_LIMIT_MINUTES[name]
    if (limit !== undefined)
      checks.push({
        target: `${name}: converges within ${limit} min (20 min + the health checks)`,
        met: ours !== null && ours <= limit,
        detail: minutes(ours),
      })
    checks.push(...mixedPolicyChecks(name, byPolicy))
    checks.push(...commitmentChecks(name, byPolicy))
    const theirs = of(byPolicy, 'autospotting').convergenceMinutes
    checks.push({
      target: `${name}: converges ≥ 4× faster than autospotting`,
      met: ours !== null && (theirs === null || theirs >= 4 * ours),
      detail: `${minutes(ours)} vs ${minutes(theirs)}${ours !== null && theirs !== null && ours > 0 ? ` = ${fixed(theirs / ours)}×` : ''}`,
    })
  }
  const preemption = results.scenarios[PREEMPTION]
  if (preemption !== undefined) {
    const spotswap = of(preemption, 'spotswap')
    const autospotting = of(preemption, 'autospotting')
    checks.push({
      target: `${PREEMPTION}: savings ≥ autospotting's, availability above it`,
      met:
        spotswap.savingsPct >= autospotting.savingsPct &&
        spotswap.capacityAvailabilityPct > autospotting.capacityAvailabilityPct,
      detail: `savings ${fixed(spotswap.savingsPct, 2)}% vs ${fixed(autospotting.savingsPct, 2)}%, availability ${fixed(spotswap.capacityAvailabilityPct, 3)}% vs ${fixed(autospotting.capacityAvailabilityPct, 3)}%`,
    })
  }
  checks.push(...checkSweepTargets(results.faultSweep))
  checks.push(...scaleChecks(results.scale, baseline))
  checks.push(...checkRunningCost(results.runningCost ?? []))
  return checks
}

/** spotswap's own cost on each account size against what it saves there. */
export const checkRunningCost = (figures: readonly RunningCostFigures[]): TargetCheck[] =>
  figures.map(({ shape, cost }) => ({
    target: `running cost, ${shape.name}: < ${RUNNING_COST_SHARE_PCT}% of the savings`,
    met: cost.costPctOfSavings < RUNNING_COST_SHARE_PCT,
    detail: `$${fixed(cost.totalUsd, 2)} vs $${fixed(cost.monthlySavingsUsd, 0)} a month = ${fixed(cost.costPctOfSavings, 2)}%`,
  }))
