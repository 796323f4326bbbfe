/**
 * The simulation report (issue 5): totals, per-group figures with the final state, one timeline row per
 * group per schedule tick, and the invariant violations. Numbers are rounded and keys ordered, so a seed
 * gives the same JSON byte for byte.
 */
import type { GroupTally } from './accounting.ts'
import type { ApiCounter } from './api-gate.ts'
import type { AvailabilityFigures } from './availability.ts'
import { integrateSteps } from './costs.ts'
import type { EcsServiceFigures } from './ecs-serving.ts'
import type { Violation } from './invariant-ledger.ts'
import type { Scenario, ScenarioGroup } from './scenario/types.ts'
import { endOf } from './scenario/types.ts'

export interface Figures {
  readonly onDemandOnlyCostUsd: number
  readonly actualCostUsd: number
  readonly savingsPct: number
  /**
   * Instance-hours of the owner's desired capacity not serving (∫ desired − serving dt): capacity a
   * policy failed to provide, which savingsPct counts as saved.
   */
  readonly unservedCapacityHours: number
  /**
   * Savings with the unserved capacity charged at the group's on-demand price: 1 − (cost + unserved ×
   * on-demand price) / on-demand cost. A policy cannot look cheaper by leaving capacity empty.
   */
  readonly fairSavingsPct: number
  readonly capacityAvailabilityPct: number
  /**
   * ∫ min(members InService and healthy in all their group's load balancers, desired) dt / ∫ desired dt,
   * weighted by time (availability.ts); a group without load balancers counts its InService members.
   */
  readonly servingAvailabilityPct: number
  readonly minOnDemandViolationMinutes: number
  readonly orphanInstanceMinutes: number
  /** Null when a group (any managed group, for the totals) never reached its on-demand minimum. */
  readonly convergenceMinutes: number | null
  readonly interruptions: number
  /**
   * Interruption warnings per instance-day of the owner's desired capacity (∫ desired dt): the price of
   * the pools a policy chose, beside what they saved.
   */
  readonly interruptionsPerInstanceDay: number
  /**
   * On-demand instances the managed groups launched themselves during the run: scale-outs, and
   * replacements of members they lost.
   */
  readonly scaleOutLaunches: number
  /**
   * Their mean on-demand minutes: billed from launch until replaced, scaled in or the end of the run (a
   * member kept as the on-demand minimum runs to the end). Null when there was none.
   */
  readonly scaleOutOnDemandMinutes: number | null
  readonly replacements: number
  readonly failedLaunches: number
  readonly apiCalls: Readonly<Record<string, number>>
}

export interface FinalState {
  readonly desired: number
  readonly inService: number
  readonly spot: number
  readonly onDemand: number
  readonly types: Readonly<Record<string, number>>
}

/** results.json's and the report's `commitments`: only for a scenario that declares some. */
export interface CommitmentFigures {
  /** The policy's bill: spot, on-demand after commitments, commitment fees paid used or not, unmanaged usage. */
  readonly billUsd: number
  /** On demand with the same commitments: the owner's desired capacity on demand, and the unmanaged usage. */
  readonly baselineBillUsd: number
  /** 1 − bill / baseline bill, in percent: savings against the real bill. */
  readonly billSavingsPct: number
  /** RI fees, Savings Plan commitments and Capacity Reservation slots: what the commitments cost in all. */
  readonly commitmentFeesUsd: number
  /** Dollars of commitment paid and unused under the policy. */
  readonly commitmentWasteUsd: number
  /** The same for the baseline: what the unmanaged usage and the owner's capacity leave unused. */
  readonly baselineCommitmentWasteUsd: number
}

/** An on-demand member above its group's minimum at the end, and why it is still on-demand (issue 16). */
export interface StillOnDemand {
  readonly instanceId: string
  readonly type: string
  readonly zone: string
  /** The engine's code (OnDemandCode): progress such as `swap-open`, or a reason such as `no-compatible-spot-type`. */
  readonly reason: string
  readonly detail: string
}

/** When things happened to a group, in minutes from the start (for the page's markers). */
export interface GroupEvents {
  readonly interruptions: readonly number[]
  readonly failedLaunches: readonly number[]
  /** Replacements spotswap attached to the group. */
  readonly swaps: readonly number[]
}

/** The replacer runs that planned a group, and those that skipped it, by the engine's skip code. */
export interface GroupRuns {
  readonly planned: number
  readonly skipped: Readonly<Record<string, number>>
  /** The last skip as the engine words it: `<code> (<detail>)`. */
  readonly lastSkip?: string
}

/** What `simulate` explains a group's figures with: its on-demand minimum, its runs, its events. */
export interface GroupExplanation {
  /** On-demand instances its configuration keeps at its final size. */
  readonly onDemandMinimum: number
  readonly runs: GroupRuns
  readonly events: GroupEvents
}

export interface TimelineRow {
  readonly at: string
  readonly region: string
  readonly group: string
  readonly desired: number
  readonly inService: number
  readonly spot: number
  readonly onDemand: number
  readonly hourlyCostUsd: number
}

export interface SimulationReport {
  readonly scenario: string
  readonly seed: number
  readonly totals: Figures
  readonly groups: Readonly<
    Record<
      string,
      Figures & {
        readonly final: FinalState
        readonly stillOnDemand: readonly StillOnDemand[]
        /** Per service of its ECS cluster (ecs-serving.ts), for a group whose cluster runs services. */
        readonly ecsServices?: Readonly<Record<string, EcsServiceFigures>>
        readonly explanation?: GroupExplanation
      }
    >
  >
  readonly timeline: readonly TimelineRow[]
  readonly violations: readonly Violation[]
  /** The bill with the scenario's commitments (commitment-bill.ts); only when it declares some. */
  readonly commitments?: CommitmentFigures
}

export const round = (value: number, digits: number): number => {
  const factor = 10 ** digits
  const rounded = Math.round(value * factor) / factor
  return Object.is(rounded, -0) ? 0 : rounded
}

const byKey = (counts: ReadonlyMap<string, number> | undefined): Record<string, number> =>
  Object.fromEntries([...(counts ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))

/**
 * What the owner's desired capacity would have cost on-demand in the group's own type: the scenario's
 * schedule, and `changes` made during the run by a scaling policy standing for the owner (ECS managed
 * scaling, ecs-managed-scaling.ts).
 */
export const onDemandOnlyCost = (
  scenario: Scenario,
  group: ScenarioGroup,
  priceUsd: number,
  changes: readonly (readonly [number, number])[] = [],
): number => {
  const steps = [{ at: Number.NEGATIVE_INFINITY, priceUsd: group.desired * priceUsd }]
  for (const [at, desired] of [...group.desiredSchedule, ...changes].sort((a, b) => a[0] - b[0]))
    steps.push({ at, priceUsd: desired * priceUsd })
  return integrateSteps(steps, scenario.start, endOf(scenario))
}

const availability = (rows: readonly TimelineRow[]): number => {
  let served = 0
  let desired = 0
  for (const row of rows) {
    served += Math.min(row.inService, row.desired)
    desired += row.desired
  }
  return desired === 0 ? 100 : (100 * served) / desired
}

export interface GroupInput {
  readonly name: string
  readonly managed: boolean
  readonly onDemandOnlyCostUsd: number
  readonly tally: GroupTally
  readonly final: FinalState
  readonly stillOnDemand: readonly StillOnDemand[]
  readonly ecsServices?: Readonly<Record<string, EcsServiceFigures>> | undefined
  readonly explanation?: GroupExplanation
}

const figures = (
  start: number,
  input: {
    onDemandOnly: number
    actual: number
    rows: readonly TimelineRow[]
    tallies: readonly GroupTally[]
    servingPct: number
    unservedHours: number
    unservedCostUsd: number
    desiredHours: number
    /** The managed groups' tallies: an unmanaged group's scale-outs are never replaced. */
    managedTallies: readonly GroupTally[]
  },
  convergedAt: number | null,
  apiCalls: Record<string, number>,
): Figures => {
  const sum = (pick: (t: GroupTally) => number) => input.tallies.reduce((total, t) => total + pick(t), 0)
  const managedSum = (pick: (t: GroupTally) => number) =>
    input.managedTallies.reduce((total, t) => total + pick(t), 0)
  const scaleOutLaunches = managedSum((t) => t.groupOnDemandLaunches)
  return {
    onDemandOnlyCostUsd: round(input.onDemandOnly, 4),
    actualCostUsd: round(input.actual, 4),
    savingsPct: input.onDemandOnly > 0 ? round(100 * (1 - input.actual / input.onDemandOnly), 2) : 0,
    unservedCapacityHours: round(input.unservedHours, 3),
    fairSavingsPct:
      input.onDemandOnly > 0
        ? round(100 * (1 - (input.actual + input.unservedCostUsd) / input.onDemandOnly), 2)
        : 0,
    capacityAvailabilityPct: round(availability(input.rows), 3),
    servingAvailabilityPct: round(input.servingPct, 3),
    minOnDemandViolationMinutes: round(sum((t) => t.minOnDemandViolationMs) / 60_000, 2),
    orphanInstanceMinutes: round(sum((t) => t.orphanMs) / 60_000, 2),
    convergenceMinutes: convergedAt === null ? null : round((convergedAt - start) / 60_000, 2),
    interruptions: sum((t) => t.interruptions),
    interruptionsPerInstanceDay:
      input.desiredHours > 0 ? round((24 * sum((t) => t.interruptions)) / input.desiredHours, 4) : 0,
    scaleOutLaunches,
    scaleOutOnDemandMinutes:
      scaleOutLaunches === 0
        ? null
        : round(managedSum((t) => t.groupOnDemandMs) / 60_000 / scaleOutLaunches, 2),
    replacements: sum((t) => t.replacements),
    failedLaunches: sum((t) => t.failedLaunches),
    apiCalls,
  }
}

export const buildReport = (
  scenario: Scenario,
  groups: readonly GroupInput[],
  timeline: readonly TimelineRow[],
  violations: readonly Violation[],
  counter: ApiCounter,
  serving: AvailabilityFigures,
): SimulationReport => {
  const byGroup: Record<string, SimulationReport['groups'][string]> = {}
  const rowsOf = new Map<string, TimelineRow[]>()
  for (const row of timeline) {
    const rows = rowsOf.get(row.group)
    if (rows === undefined) rowsOf.set(row.group, [row])
    else rows.push(row)
  }
  // Unserved capacity at the group's on-demand price: its baseline's share that went unserved.
  const unservedCost = (group: GroupInput): number =>
    group.onDemandOnlyCostUsd * (1 - (serving.byGroupPct[group.name] ?? 100) / 100)
  const unservedHours = (group: GroupInput): number => serving.byGroupShortHours[group.name] ?? 0
  const desiredHours = (group: GroupInput): number => serving.byGroupDesiredHours[group.name] ?? 0
  for (const group of groups) {
    const rows = rowsOf.get(group.name) ?? []
    const converged = group.managed ? (group.tally.convergedAtMs ?? null) : null
    byGroup[group.name] = {
      ...figures(
        scenario.start,
        {
          onDemandOnly: group.onDemandOnlyCostUsd,
          actual: group.tally.actualCostUsd,
          rows,
          tallies: [group.tally],
          servingPct: serving.byGroupPct[group.name] ?? 100,
          unservedHours: unservedHours(group),
          unservedCostUsd: unservedCost(group),
          desiredHours: desiredHours(group),
          managedTallies: group.managed ? [group.tally] : [],
        },
        converged,
        byKey(counter.byGroup.get(group.name)),
      ),
      final: group.final,
      stillOnDemand: group.stillOnDemand,
      ...(group.ecsServices === undefined ? {} : { ecsServices: group.ecsServices }),
      ...(group.explanation === undefined ? {} : { explanation: group.explanation }),
    }
  }
  const managed = groups.filter((g) => g.managed)
  const convergedAll = managed.every((g) => g.tally.convergedAtMs !== undefined)
    ? Math.max(scenario.start, ...managed.map((g) => g.tally.convergedAtMs as number))
    : null
  const totals = figures(
    scenario.start,
    {
      onDemandOnly: groups.reduce((total, g) => total + g.onDemandOnlyCostUsd, 0),
      actual: groups.reduce((total, g) => total + g.tally.actualCostUsd, 0),
      rows: timeline,
      tallies: groups.map((g) => g.tally),
      servingPct: serving.totalPct,
      unservedHours: groups.reduce((total, g) => total + unservedHours(g), 0),
      unservedCostUsd: groups.reduce((total, g) => total + unservedCost(g), 0),
      desiredHours: groups.reduce((total, g) => total + desiredHours(g), 0),
      managedTallies: managed.map((g) => g.tally),
    },
    convergedAll,
    byKey(counter.total),
  )
  return { scenario: scenario.name, seed: scenario.seed, totals, groups: byGroup, timeline, violations }
}
