/**
 * The invariants of docs/reliability.md, checked after every step in which spotswap acts: one
 * invocation of its Lambdas, or several that overlapped (an interruption handler invocation beside a
 * replacer run: replacer runs of one region never overlap, see invocations.ts), judged together.
 * Between steps only AWS and the group's owner change the account, so nothing else can break them.
 * 1. `capacity-below-desired`: a managed group lost in-service instances beyond those EC2 took or
 *    signalled (interruption warnings; rebalance recommendations the group is configured to leave on)
 *    and those that never serve (a broken image behind load balancers);
 * 2. `on-demand-below-minimum`: a managed group's on-demand count fell below its minimum;
 * 3. `orphan`: a spot instance launched for a group was neither attached nor terminated within
 *    grace + 3 schedule periods, unless the run that should have done it failed for AWS's reasons
 *    (write-invariants.ts);
 * 4. `group-size-not-restored`: MinSize, MaxSize and desired capacity stay as the owner set them, but
 *    that while a swap is open, desired capacity may stand above the owner's figure by at most its open
 *    pairs until their deadline (and MaxSize as far as the swap raised it for them; swap-allowance.ts
 *    derives the pairs and the deadline from the world). Violated when a clean step (no crash, no failed
 *    request) leaves the group outside that allowance having found it inside, when a clean replacer run
 *    finds open pairs past their deadline and does not close them, or when a group left outside it by a
 *    failed or crashed run, AWS or the owner is still not restored after 2 clean replacer runs;
 * 5. `untouchable-touched`: a write named an instance protected from scale-in or from API termination,
 *    an instance of a group spotswap does not manage, or such a group (the port records every write's
 *    targets in touches.ts);
 * 6. `retired-twice` / `double-replacement`: AWS applied a second retirement of an on-demand instance,
 *    or a spot instance was launched to replace an instance that already had a live replacement;
 * 7. `retired-before-serving`: a replacer run took an instance out of its group (detach, or
 *    TerminateInstanceInAutoScalingGroup) while a replacement spotswap attached for it (its
 *    `launched-for-replacing-instance` tag names it) was not InService and healthy in every load
 *    balancer of the group, unless EC2 takes the instance anyway: EC2 warned it of its interruption
 *    DOOMED_SWAP_DEADLINE_SECONDS or more ago (the simulator's own interruption, never the
 *    spotswap:interruption-warned tag, which anyone may write; write-invariants.ts, the facts are taken
 *    in touches.ts).
 * And `launches-beyond-budget` (launch-bound-invariant.ts): launches in flight, verifiable or not, stay within
 * the group's in-flight budget.
 * And `never-served` (never-served-invariant.ts): a member spotswap attached stays in its group without
 * ever serving past its deadline.
 * And `forged-marker-acted-on` (forged-marker-invariant.ts): a marker that fails verification never leads
 * to an action.
 */
import type { Session } from './faults.ts'
import { checkForgedMarkers } from './forged-marker-invariant.ts'
import type { GroupState } from './group-state.ts'
import {
  type RegionSnapshot,
  runCovers,
  type SizeLedger,
  type StepContext,
  type StepRun,
  type Violation,
} from './invariant-ledger.ts'
import { checkLaunchBound } from './launch-bound-invariant.ts'
import { checkLeaseWrites } from './lease-invariant.ts'
import { checkNeverServed } from './never-served-invariant.ts'
import type { GroupSizes, SimRegion } from './state.ts'
import { allowedAt } from './swap-allowance.ts'
import { takeWrites } from './touches.ts'
import { checkOrphans, checkWrites } from './write-invariants.ts'

const stillInService = (region: SimRegion, group: string, id: string): boolean =>
  region.groups.get(group)?.members.get(id)?.lifecycleState === 'InService'

/** Clean replacer runs a group may take to undo what a failed run left (complete the swap, then restore MaxSize). */
export const RESTORE_RUNS = 2

/**
 * Sizes as the owner set them, but for the open pairs of a swap: desired capacity at most `allowed` above
 * the owner's figure (never below it), and MaxSize raised no further than `ceiling` (0 when it may not be
 * raised). MaxSize may also stay raised as far as desired needs.
 */
const withinAllowance = (state: GroupState, owner: GroupSizes, allowed: number, ceiling: number): boolean =>
  state.minSize === owner.minSize &&
  state.desired >= owner.desiredCapacity &&
  state.desired <= owner.desiredCapacity + allowed &&
  (state.maxSize === owner.maxSize ||
    state.maxSize === Math.max(owner.maxSize, state.desired) ||
    (state.maxSize > owner.maxSize && state.maxSize <= ceiling))

/** The step being judged: when its first invocation started, and whether a replacer run of it planned the group. */
interface SizeStep {
  readonly startedMs: number
  /** A replacer run of the step planned this group (a launch-event run plans one group only). */
  readonly replacerCovered: boolean
}

/**
 * A clean invocation that found the group within its allowance must leave it so, judged by the
 * allowance at the step's start (a pair whose allowance ends during the step is no fault of the step).
 * A clean replacer run that finds the allowance of every pair keeping the group above its owner's figure
 * over must close them. A group left otherwise by a failed or crashed run, or by AWS or the owner, must be
 * restored within RESTORE_RUNS clean replacer runs after the last failed one, counting only runs that
 * find the group with its desired capacity in service (retirements wait for that).
 */
const sizeCheck = (
  region: SimRegion,
  name: string,
  was: { readonly state: GroupState; readonly pairs: readonly number[] },
  now: { readonly state: GroupState; readonly pairs: readonly number[] },
  session: Session,
  ledger: SizeLedger,
  step: SizeStep,
): string | undefined => {
  const owner = region.groups.get(name)?.owner
  if (owner === undefined) return undefined
  const allowedBefore = allowedAt(was.pairs, step.startedMs)
  const allowedAfter = allowedAt(now.pairs, step.startedMs)
  const clean = !session.crashed && session.failedCalls === 0
  const prior = ledger.ceilings.get(name)
  // A step that failed after raising MaxSize for more pairs than it attached (a later attach chunk of 20
  // refused) leaves the raise until the swap closes: putting it back below desired would cost members.
  // Such a step may also have closed the swap before (chaos seed 2468): its pairs' allowance hides the
  // new swap's, so a raise is known by MaxSize itself.
  const raisedByFailure = !clean && (allowedAfter > allowedBefore || now.state.maxSize > was.state.maxSize)
  const ceiling = Math.max(
    prior ?? owner.maxSize,
    owner.desiredCapacity + Math.max(allowedBefore, allowedAfter),
    raisedByFailure ? now.state.maxSize : 0,
  )
  // MaxSize stays raised while pairs are open, and once the last one closed (the interruption handler
  // may close it) until a clean replacer run of the group has closed the swap.
  const raisedBefore = allowedBefore > 0 || prior !== undefined
  const raisedAfter = allowedAfter > 0 || (raisedBefore && !(clean && step.replacerCovered))
  if (raisedAfter) ledger.ceilings.set(name, ceiling)
  else ledger.ceilings.delete(name)
  const { minSize, maxSize, desired } = now.state
  const pairs = allowedAfter === 0 ? '' : ` and ${allowedAfter} open pair(s)`
  const describe = `min/max/desired ${minSize}/${maxSize}/${desired}, owner set ${owner.minSize}/${owner.maxSize}/${owner.desiredCapacity}${pairs}`
  const wasWithin = (allowed: number) =>
    withinAllowance(was.state, owner, allowed, raisedBefore ? ceiling : 0)
  if (withinAllowance(now.state, owner, allowedAfter, raisedAfter ? ceiling : 0)) {
    ledger.watch.delete(name)
    return undefined
  }
  if (!clean) {
    // A run that failed again starts the count over: the group has RESTORE_RUNS clean runs after it.
    if (step.replacerCovered) ledger.watch.set(name, 0)
    return undefined
  }
  if (wasWithin(allowedBefore)) {
    // Unchanged sizes leave the allowance when the step closed pairs without their unit, or when MaxSize
    // was due back (a clean replacer run once no pair is open).
    const same = (['minSize', 'maxSize', 'desired'] as const).every((k) => was.state[k] === now.state[k])
    if (!same) return `changed by an invocation without failures: ${describe}`
    const closed = allowedBefore - allowedAfter
    return closed > 0
      ? `an invocation without failures closed ${closed} open pair(s) without giving back their unit: ${describe}`
      : `a replacer run without failures left MaxSize raised once no pair was open: ${describe}`
  }
  if (!step.replacerCovered) return undefined
  // Retiring waits until the group has its desired capacity in service (a backfill booting): such a run
  // may not finish the swap, so it does not count.
  if (was.state.inService < was.state.desired) return undefined
  const watched = ledger.watch.get(name)
  // Within the allowance of every open pair but for its end: the engine had a run after each deadline.
  if (watched === undefined && wasWithin(was.pairs.length))
    return `still above the owner's figure after the deadline of its open pairs (${was.pairs.length}): ${describe}`
  const runs = (watched ?? 0) + 1
  if (runs < RESTORE_RUNS) {
    ledger.watch.set(name, runs)
    return undefined
  }
  ledger.watch.delete(name)
  return `still not restored after ${RESTORE_RUNS} replacer runs without failures: ${describe}`
}

export const checkInvocation = (
  region: SimRegion,
  session: Session,
  before: RegionSnapshot,
  after: RegionSnapshot,
  at: string,
  sizes: SizeLedger,
  options: {
    /** When the step's first invocation started: open pairs are allowed as of then. */
    readonly startedMs: number
    /** An interruption handler acted: members leaving on a rebalance recommendation may go too. */
    readonly excuseRebalanced?: boolean
    /** Whether a replacer run of the step planned the group; by default, any replacer session does. */
    readonly replacerCovered?: (group: string) => boolean
  },
): Violation[] => {
  const violations: Violation[] = []
  const actor = session.actor === 'replacer' ? 'a replacer run' : 'an interruption handler invocation'
  for (const [name, was] of before.states) {
    const now = after.states.get(name)
    if (now === undefined || !was.managed) continue
    const excused = new Set(before.doomed.get(name))
    if (options.excuseRebalanced) for (const id of before.leavingOnRebalance.get(name) ?? []) excused.add(id)
    for (const id of before.broken.get(name) ?? []) excused.add(id)
    const doomedLost = [...excused].filter((id) => !stillInService(region, name, id)).length
    // Desired as the owner set it: a swap raises the group's desired capacity by one for a while.
    const ownerDesired = region.groups.get(name)?.owner.desiredCapacity ?? was.desired
    const floor = Math.min(ownerDesired, was.inService) - doomedLost
    if (now.inService < floor)
      violations.push({
        at: at,
        group: name,
        invariant: 'capacity-below-desired',
        detail: `${actor} left ${now.inService} in service (desired ${ownerDesired}); it had ${was.inService}`,
      })
    const minimum = Math.min(was.requiredOnDemand, was.onDemand)
    if (now.onDemand < minimum)
      violations.push({
        at: at,
        group: name,
        invariant: 'on-demand-below-minimum',
        detail: `${actor} left ${now.onDemand} on-demand; the group must keep ${was.requiredOnDemand} and had ${was.onDemand}`,
      })
    const replacerCovered = options.replacerCovered?.(name) ?? session.actor === 'replacer'
    const sizesWrong = sizeCheck(
      region,
      name,
      { state: was, pairs: before.pairs.get(name) ?? [] },
      { state: now, pairs: after.pairs.get(name) ?? [] },
      session,
      sizes,
      { startedMs: options.startedMs, replacerCovered },
    )
    if (sizesWrong !== undefined)
      violations.push({ at, group: name, invariant: 'group-size-not-restored', detail: sizesWrong })
  }
  return violations
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
    ...checkInvocation(ctx.region, merged, before, after, at, ctx.ledger.sizes, {
      startedMs: Math.min(...runs.map((r) => r.startedMs)),
      excuseRebalanced: handlerActed,
      replacerCovered: (group) => runs.some((r) => r.session.actor === 'replacer' && runCovers(r, group)),
    }),
    ...checkWrites(ctx, writes.flat(), at),
    ...checkLaunchBound(ctx, at, before),
    ...checkNeverServed(ctx, runs, Date.parse(at), at),
    ...checkForgedMarkers(ctx, writes.flat(), at),
    ...checkLeaseWrites(runs, at),
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
