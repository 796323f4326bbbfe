/**
 * One chaos case: a scenario in the scenario file format plus what the scenario format cannot say
 * (scripted crashes, error storms, replacer runs queued behind one in flight, duplicated and late events,
 * the owner changing protections and opting a group out). Plain JSON, so a failing case can be printed, saved and
 * replayed; everything random in a run is drawn from the case's seed.
 */
import type { CapacityTrace } from '../data/capacity-traces.ts'
import { embeddedTrace } from '../data/capacity-traces.ts'
import { embeddedCatalog } from '../data/catalog.ts'
import { parseScenario } from '../sim/scenario/parse.ts'
import type { Scenario } from '../sim/scenario/types.ts'

/** The process dies at the `occurrence`-th request of `operation` in the run (any invocation). */
export interface CrashPoint {
  readonly operation: string
  readonly occurrence: number
  readonly when: 'before' | 'after'
}

/** From `fromMinute` to `toMinute`, requests to `service` fail with probability `rate` (throttling or 5xx). */
export interface ErrorStorm {
  readonly fromMinute: number
  readonly toMinute: number
  readonly service: 'ec2' | 'autoscaling'
  readonly rate: number
}

export interface ChaosFaults {
  /** Every request fails with this probability, with one of the service's transient errors. */
  readonly errorRate: number
  /** Every request kills its process with this probability (half before AWS applies it, half after). */
  readonly crashRate: number
  readonly crashes: readonly CrashPoint[]
  readonly storms: readonly ErrorStorm[]
  /**
   * The `occurrence`-th request of `operation` about `group` (any invocation) is refused with a
   * ValidationError, which the SDK does not retry: a later AttachInstances chunk of a swap failing after
   * earlier ones succeeded.
   */
  readonly refusals?: readonly {
    readonly operation: string
    readonly group: string
    readonly occurrence: number
  }[]
}

/**
 * A second replacer run of a region asked for while the first is in flight, as a launch event or a run
 * request can arrive during a scheduled run: the first (the whole region) starts at `atMs`, the second
 * (the whole region, or one group) is sent `delayMs` of simulated time later (or when the first ends, if
 * sooner). Its lane's FIFO message group delivers it once that lane's first run is done: runs of a lane
 * never overlap, runs of other lanes go beside it (a crashed run is delivered again after the visibility
 * timeout, see sim/fanout-queue.ts).
 */
export interface QueuedRuns {
  readonly atMs: number
  readonly region: string
  readonly delayMs: number
  readonly secondGroup: string | undefined
}

/** EventBridge delivers at least once, not in order: some events twice, some late. */
export interface EventChaos {
  readonly duplicateRate: number
  readonly delayRate: number
  readonly maxDelaySeconds: number
}

/**
 * `raise-max-size` / `lower-max-size`: the owner sets MaxSize alone (as a scheduled action or the console
 * can) to their own MaxSize plus or minus `by` (never below MinSize); below desired capacity AWS lowers
 * desired to it. `forge-launch`: someone launches an on-demand instance carrying every tag spotswap writes on a launch for
 * the group (naming a member as its partner, EC2's template tag of the group's template included);
 * `detach-member`: the owner detaches a member (a spot one when there is one) without a decrement and
 * keeps it. Neither may ever be attached or terminated by spotswap (invariant 5). `untagged-launches`: from
 * then on, the region's EC2 writes no `aws:ec2launchtemplate:id` on the group's launches (as moto's
 * CreateFleet), so spotswap cannot verify them: they must stay within its in-flight budget.
 */
export type OwnerActionKind =
  | 'protect-from-scale-in'
  | 'protect-from-termination'
  | 'opt-out'
  | 'opt-in'
  | 'forge-launch'
  | 'detach-member'
  // Someone tags the group's spot members spotswap:interruption-warned, two hours ago or just now.
  | 'forge-warned-old'
  | 'forge-warned-fresh'
  | 'untagged-launches'
  // Someone plants a swap record on a group that has none: without a MAC, with another group's MAC,
  // with a MAC of a key not the account's, or spotswap's own record past its life.
  | 'forge-swap-unsigned'
  | 'forge-swap-copied'
  | 'forge-swap-foreign-key'
  | 'replant-expired-swap'
  | 'raise-max-size'
  | 'lower-max-size'

/** The group's owner acts on the group mid-run: `member` picks an in-service member (modulo their number). */
export interface OwnerAction {
  readonly atMs: number
  readonly region: string
  readonly group: string
  readonly kind: OwnerActionKind
  readonly member: number
  /** How far MaxSize moves from the owner's (raise-max-size, lower-max-size). */
  readonly by?: number
}

export interface ChaosCase {
  readonly seed: number
  /** A scenario in the file format (scenarios/scenario.schema.json). */
  readonly scenario: Readonly<Record<string, unknown>>
  /** Capacity traces the scenario names that are not embedded ones. */
  readonly traces: Readonly<Record<string, CapacityTrace>>
  readonly faults: ChaosFaults
  readonly queuedRuns: readonly QueuedRuns[]
  readonly events: EventChaos
  readonly owner: readonly OwnerAction[]
}

/** The case's scenario, validated as a scenario file is; a generator bug surfaces as a ScenarioError. */
export const scenarioOf = (chaos: ChaosCase): Scenario =>
  parseScenario(chaos.scenario, {
    source: `chaos case ${chaos.seed}`,
    catalog: embeddedCatalog(),
    resolveTrace: (name) =>
      embeddedTrace(name) ?? (Object.hasOwn(chaos.traces, name) ? chaos.traces[name] : undefined),
  })
