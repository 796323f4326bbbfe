/**
 * What the invariant checks share (invariants.ts, write-invariants.ts): the violations they report, the
 * snapshots of a region they compare before and after a step, and what they remember between steps.
 */
import type { GlobalConfig } from '../../lambdas/core/config/config.ts'
import { doesRegionWork, inLane, type RegionLane } from '../../lambdas/core/region/lanes.ts'
import { brokenMembers } from './broken-members.ts'
import type { Session } from './faults.ts'
import { effectiveConfig, type GroupState, groupState } from './group-state.ts'
import type { SimRegion } from './state.ts'
import { openPairs } from './swap-allowance.ts'

export interface Violation {
  readonly at: string
  readonly group: string
  readonly invariant:
    | 'capacity-below-desired'
    | 'on-demand-below-minimum'
    | 'orphan'
    | 'group-size-not-restored'
    | 'untouchable-touched'
    | 'retired-twice'
    | 'double-replacement'
    | 'retired-before-serving'
    | 'stalled-on-demand'
    | 'launches-beyond-budget'
    | 'never-served'
    | 'forged-marker-acted-on'
    | 'write-past-lease'
  readonly detail: string
}

export interface RegionSnapshot {
  readonly states: ReadonlyMap<string, GroupState>
  /** Per group, when the allowance of each of its open pairs ends (swap-allowance.ts). */
  readonly pairs: ReadonlyMap<string, readonly number[]>
  /** In-service members already warned of their interruption: losing them is EC2's doing. */
  readonly doomed: ReadonlyMap<string, ReadonlySet<string>>
  /**
   * In-service members given a rebalance recommendation in a group configured to leave on one
   * (`detach`): the interruption handler takes them out as if they were interrupted.
   */
  readonly leavingOnRebalance: ReadonlyMap<string, ReadonlySet<string>>
  /**
   * In-service members of a group behind load balancers whose image is broken (they never pass a health
   * check): never serving capacity, so taking one out loses none (never-served-invariant.ts).
   */
  readonly broken: ReadonlyMap<string, ReadonlySet<string>>
}

export const snapshotRegion = (
  config: GlobalConfig,
  region: SimRegion,
  rebalanced: ReadonlySet<string> = new Set(),
): RegionSnapshot => {
  const states = new Map<string, GroupState>()
  const pairs = new Map<string, number[]>()
  const doomed = new Map<string, Set<string>>()
  const leavingOnRebalance = new Map<string, Set<string>>()
  const broken = new Map<string, Set<string>>()
  for (const group of region.groups.values()) {
    broken.set(group.name, brokenMembers(region, group))
    states.set(group.name, groupState(config, region, group))
    pairs.set(group.name, openPairs(config, region, group))
    const warned = new Set<string>()
    const leaving = new Set<string>()
    const leaves = effectiveConfig(config, group).rebalanceAction === 'detach'
    for (const [id, member] of group.members) {
      if (member.lifecycleState !== 'InService') continue
      if (region.instances.get(id)?.interruptAtMs !== undefined) warned.add(id)
      if (leaves && rebalanced.has(id)) leaving.add(id)
    }
    doomed.set(group.name, warned)
    leavingOnRebalance.set(group.name, leaving)
  }
  return { states, pairs, doomed, leavingOnRebalance, broken }
}

/** What invariant 4 remembers between steps. */
export class SizeLedger {
  /** Per group: clean replacer runs that ended with the group's sizes still not as its owner allows. */
  readonly watch = new Map<string, number>()
  /**
   * Per group with open pairs: the highest desired capacity their allowance has permitted since the
   * group last had none. A swap raises MaxSize for all its pairs at its attach and puts it back when its
   * last pair closes, so MaxSize may stay that high while any pair is open.
   */
  readonly ceilings = new Map<string, number>()
}

/** What the checks remember between steps of one simulation. */
export class InvariantLedger {
  readonly sizes = new SizeLedger()
  /** On-demand instance → the request that retired it. */
  readonly retired = new Map<string, string>()
  /** Orphans already reported (once each). */
  readonly orphans = new Set<string>()
  /** Spot instances that got a rebalance recommendation. */
  readonly rebalanced = new Set<string>()
}

/** One invocation of a step: its session, when it started, and the group of a launch-event run. */
export interface StepRun {
  readonly session: Session
  readonly startedMs: number
  /** A replacer run for one group (an Auto Scaling launch event); undefined for a whole-region run. */
  readonly onlyGroup: string | undefined
  /** The lane a replacer run covers (core/region/lanes.ts); undefined for every lane. */
  readonly lane?: RegionLane | undefined
}

/**
 * Whether a run is answerable for a group: its own group, or a group of its lane. Strays (launches for a
 * group gone or unmanaged) are the region's own work, lane 0's.
 */
export const runCovers = (run: StepRun, group: string, stray = false): boolean => {
  if (run.onlyGroup !== undefined) return run.onlyGroup === group
  if (run.lane === undefined) return true
  return stray ? doesRegionWork(run.lane) : inLane(group, run.lane)
}

export interface StepContext {
  readonly config: GlobalConfig
  readonly region: SimRegion
  readonly ledger: InvariantLedger
}
