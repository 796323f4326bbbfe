/**
 * The seven invariants (issues 7 and 12), checked after every step in which spotswap acts: one
 * invocation of its Lambdas, or several that overlapped (their effects interleave, so they are judged
 * together).
 * Between steps only AWS and the group's owner change the account, so nothing else can break them.
 * 1. `capacity-below-desired`: a managed group lost in-service instances beyond those EC2 took or
 *    signalled (interruption warnings; rebalance recommendations the group is configured to leave on);
 * 2. `on-demand-below-minimum`: a managed group's on-demand count fell below its minimum;
 * 3. `orphan`: a spot instance launched for a group was neither attached nor terminated within
 *    grace + 3 schedule periods, unless the run that should have done it failed for AWS's reasons
 *    (write-invariants.ts);
 * 4. `group-size-not-restored`: a clean step (no crash, no failed request) changed MinSize, MaxSize or
 *    desired capacity away from what the owner set, or a group left changed by a failed or crashed run
 *    is still not restored after 2 clean replacer runs;
 * 5. `untouchable-touched`: a write named an instance protected from scale-in or from API termination,
 *    an instance of a group spotswap does not manage, or such a group (the port records every write's
 *    targets in touches.ts);
 * 6. `retired-twice` / `double-replacement`: AWS applied a second retirement of an on-demand instance,
 *    or a spot instance was launched to replace an instance that already had a live replacement;
 * 7. `retired-before-serving`: a replacer run took an instance out of its group (detach, or
 *    TerminateInstanceInAutoScalingGroup) while a replacement spotswap attached for it (its
 *    `launched-for-replacing-instance` tag names it) was not InService and healthy in every load
 *    balancer of the group, unless EC2 takes the instance anyway: it was warned of its interruption
 *    (spotswap:interruption-warned) DOOMED_SWAP_DEADLINE_SECONDS or more ago (write-invariants.ts; the
 *    facts are taken in touches.ts).
 */
import type { GlobalConfig } from '../core/config.ts'
import type { Session } from './faults.ts'
import { effectiveConfig, type GroupState, groupState } from './group-state.ts'
import type { SimRegion } from './state.ts'
import { takeWrites } from './touches.ts'
import { checkOrphans, checkWrites, type StepContext } from './write-invariants.ts'

export type { StepContext } from './write-invariants.ts'

export interface Violation {
  readonly t: string
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
  readonly detail: string
}

export interface RegionSnapshot {
  readonly states: ReadonlyMap<string, GroupState>
  /** In-service members already warned of their interruption: losing them is EC2's doing. */
  readonly doomed: ReadonlyMap<string, ReadonlySet<string>>
  /**
   * In-service members given a rebalance recommendation in a group configured to leave on one
   * (`detach`): the interruption handler takes them out as if they were interrupted.
   */
  readonly leavingOnRebalance: ReadonlyMap<string, ReadonlySet<string>>
}

export const snapshotRegion = (
  config: GlobalConfig,
  region: SimRegion,
  rebalanced: ReadonlySet<string> = new Set(),
): RegionSnapshot => {
  const states = new Map<string, GroupState>()
  const doomed = new Map<string, Set<string>>()
  const leavingOnRebalance = new Map<string, Set<string>>()
  for (const group of region.groups.values()) {
    states.set(group.name, groupState(config, region, group))
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
  return { states, doomed, leavingOnRebalance }
}

const stillInService = (region: SimRegion, group: string, id: string): boolean =>
  region.groups.get(group)?.members.get(id)?.lifecycleState === 'InService'

/** Clean replacer runs a group may take to undo what a failed run left (complete the swap, then restore MaxSize). */
export const RESTORE_RUNS = 2

/** Per group: clean replacer runs that ended with the group's sizes still not as its owner set them. */
export type SizeWatch = Map<string, { readonly runs: number; readonly sinceMs: number }>

/** Sizes other than the owner set them (MaxSize may stay raised only as far as desired needs). */
const sizesDiffer = (
  state: GroupState,
  owner: { minSize: number; maxSize: number; desiredCapacity: number },
) =>
  state.minSize !== owner.minSize ||
  state.desired !== owner.desiredCapacity ||
  (state.maxSize !== owner.maxSize && state.maxSize !== Math.max(owner.maxSize, state.desired))

/**
 * A clean invocation that found the group as its owner left it must leave it so. A group left otherwise
 * by a failed or crashed run must be restored within RESTORE_RUNS clean replacer runs after the last
 * failed one, counting only runs that start once its swap record has settled (half a schedule period:
 * until then a swap may still be running in an overlapping invocation, and the engine leaves it alone)
 * and find the group with its desired capacity in service (retirements wait for that).
 */
const sizeCheck = (
  region: SimRegion,
  name: string,
  was: GroupState,
  now: GroupState,
  session: Session,
  watch: SizeWatch,
  /** A replacer run of the step planned this group (a launch-event run plans one group only). */
  replacerCovered: boolean,
  timing: { readonly startedMs: number; readonly settleMs: number },
): string | undefined => {
  const group = region.groups.get(name)
  const owner = group?.owner
  if (owner === undefined) return undefined
  const clean = !session.crashed && session.failedCalls === 0
  const describe = `min/max/desired ${now.minSize}/${now.maxSize}/${now.desired}, owner set ${owner.minSize}/${owner.maxSize}/${owner.desiredCapacity}`
  if (!sizesDiffer(now, owner)) {
    watch.delete(name)
    return undefined
  }
  if (!clean) {
    // A run that failed again starts the count over: the group has RESTORE_RUNS clean runs after it.
    if (replacerCovered) watch.set(name, { runs: 0, sinceMs: timing.startedMs })
    return undefined
  }
  if (!sizesDiffer(was, owner)) return `changed by an invocation without failures: ${describe}`
  if (!replacerCovered) return undefined
  const watched = watch.get(name) ?? { runs: 0, sinceMs: Number.NEGATIVE_INFINITY }
  if (timing.startedMs < watched.sinceMs + timing.settleMs) return undefined
  // Retiring waits until the group has its desired capacity in service (a backfill booting): such a run
  // may not finish the swap, so it does not count.
  if (was.inService < was.desired) return undefined
  const runs = watched.runs + 1
  if (runs < RESTORE_RUNS) {
    watch.set(name, { runs, sinceMs: watched.sinceMs })
    return undefined
  }
  watch.delete(name)
  return `still not restored after ${RESTORE_RUNS} replacer runs without failures: ${describe}`
}

export const checkInvocation = (
  region: SimRegion,
  session: Session,
  before: RegionSnapshot,
  after: RegionSnapshot,
  at: string,
  watch: SizeWatch,
  options: {
    /** An interruption handler acted: members leaving on a rebalance recommendation may go too. */
    readonly excuseRebalanced?: boolean
    /** Whether a replacer run of the step planned the group; by default, any replacer session does. */
    readonly replacerCovered?: (group: string) => boolean
    /** When the step's first invocation started, and how long a swap record takes to settle. */
    readonly timing?: { readonly startedMs: number; readonly settleMs: number }
  } = {},
): Violation[] => {
  const violations: Violation[] = []
  const actor = session.actor === 'replacer' ? 'a replacer run' : 'an interruption handler invocation'
  for (const [name, was] of before.states) {
    const now = after.states.get(name)
    if (now === undefined || !was.managed) continue
    const excused = new Set(before.doomed.get(name))
    if (options.excuseRebalanced) for (const id of before.leavingOnRebalance.get(name) ?? []) excused.add(id)
    const doomedLost = [...excused].filter((id) => !stillInService(region, name, id)).length
    // Desired as the owner set it: a swap raises the group's desired capacity by one for a while.
    const ownerDesired = region.groups.get(name)?.owner.desiredCapacity ?? was.desired
    const floor = Math.min(ownerDesired, was.inService) - doomedLost
    if (now.inService < floor)
      violations.push({
        t: at,
        group: name,
        invariant: 'capacity-below-desired',
        detail: `${actor} left ${now.inService} in service (desired ${ownerDesired}); it had ${was.inService}`,
      })
    const minimum = Math.min(was.requiredOnDemand, was.onDemand)
    if (now.onDemand < minimum)
      violations.push({
        t: at,
        group: name,
        invariant: 'on-demand-below-minimum',
        detail: `${actor} left ${now.onDemand} on-demand; the group must keep ${was.requiredOnDemand} and had ${was.onDemand}`,
      })
    const covered = options.replacerCovered?.(name) ?? session.actor === 'replacer'
    const timing = options.timing ?? { startedMs: 0, settleMs: 0 }
    const sizes = sizeCheck(region, name, was, now, session, watch, covered, timing)
    if (sizes !== undefined)
      violations.push({ t: at, group: name, invariant: 'group-size-not-restored', detail: sizes })
  }
  return violations
}

/** What the checks remember between steps of one simulation. */
export class InvariantLedger {
  readonly sizeWatch: SizeWatch = new Map()
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
}

/** Overlapping invocations judged as one: clean only if every one was, a replacer step if any was. */
const mergeSessions = (runs: readonly StepRun[]): Session => ({
  id: runs[0]?.session.id ?? 0,
  actor: runs.some((r) => r.session.actor === 'replacer') ? 'replacer' : 'interruption',
  region: runs[0]?.session.region ?? '',
  crashed: runs.some((r) => r.session.crashed),
  failedCalls: runs.reduce((sum, r) => sum + r.session.failedCalls, 0),
})

/** Every invariant after one step: `runs` overlapped between the `before` and `after` snapshots. */
export const checkStep = (
  ctx: StepContext,
  runs: readonly StepRun[],
  before: RegionSnapshot,
  after: RegionSnapshot,
  at: string,
): Violation[] => {
  const handlerActed = runs.some((r) => r.session.actor === 'interruption')
  const writes = runs.map((r) => takeWrites(r.session))
  const merged = mergeSessions(runs)
  const violations = [
    ...checkInvocation(ctx.region, merged, before, after, at, ctx.ledger.sizeWatch, {
      excuseRebalanced: handlerActed,
      replacerCovered: (group) =>
        runs.some((r) => r.session.actor === 'replacer' && (r.onlyGroup ?? group) === group),
      timing: {
        startedMs: Math.min(...runs.map((r) => r.startedMs)),
        settleMs: ctx.config.scheduleMinutes * 30_000,
      },
    }),
    ...checkWrites(ctx, writes.flat(), at),
  ]
  runs.forEach((run, i) => {
    if (run.onlyGroup === undefined && run.session.actor === 'replacer')
      violations.push(...checkOrphans(ctx, before, run, writes[i] ?? [], at))
  })
  // A batch redone id by id records its touches twice; one line per distinct violation is enough.
  const seen = new Set<string>()
  return violations.filter((v) => {
    const key = `${v.invariant}|${v.group}|${v.detail}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
