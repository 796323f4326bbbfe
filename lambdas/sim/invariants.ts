/**
 * Invariants checked around every invocation of spotswap's Lambdas (issue 7 lists them all; these are
 * the ones decidable from the groups before and after an invocation):
 * - `capacity-below-desired`: a managed group lost in-service instances beyond the doomed ones;
 * - `on-demand-below-minimum`: a managed group's on-demand count fell below its minimum;
 * - `group-size-not-restored`: a clean invocation (no crash, no failed request) left MinSize, MaxSize or
 *   desired capacity different from what the group's owner set.
 * Orphans (`orphan`) are checked at each launched instance's deadline (accounting.ts).
 */
import type { GlobalConfig } from '../core/config.ts'
import type { Session } from './faults.ts'
import { type GroupState, groupState } from './group-state.ts'
import type { SimRegion } from './state.ts'

export interface Violation {
  readonly t: string
  readonly group: string
  readonly invariant:
    | 'capacity-below-desired'
    | 'on-demand-below-minimum'
    | 'group-size-not-restored'
    | 'orphan'
  readonly detail: string
}

export interface RegionSnapshot {
  readonly states: ReadonlyMap<string, GroupState>
  /** In-service members already warned of their interruption: losing them is EC2's doing. */
  readonly doomed: ReadonlyMap<string, ReadonlySet<string>>
}

export const snapshotRegion = (config: GlobalConfig, region: SimRegion): RegionSnapshot => {
  const states = new Map<string, GroupState>()
  const doomed = new Map<string, Set<string>>()
  for (const group of region.groups.values()) {
    states.set(group.name, groupState(config, region, group))
    const warned = new Set<string>()
    for (const [id, member] of group.members)
      if (member.lifecycleState === 'InService' && region.instances.get(id)?.interruptAtMs !== undefined)
        warned.add(id)
    doomed.set(group.name, warned)
  }
  return { states, doomed }
}

const stillInService = (region: SimRegion, group: string, id: string): boolean =>
  region.groups.get(group)?.members.get(id)?.lifecycleState === 'InService'

/** Clean replacer runs a group may take to undo what a failed run left (complete the swap, then restore MaxSize). */
export const RESTORE_RUNS = 2

/** Per group: clean replacer runs that ended with the group's sizes still not as its owner set them. */
export type SizeWatch = Map<string, number>

const sizesDiffer = (
  state: GroupState,
  owner: { minSize: number; maxSize: number; desiredCapacity: number },
) =>
  state.minSize !== owner.minSize ||
  state.maxSize !== owner.maxSize ||
  state.desired !== owner.desiredCapacity

/**
 * A clean invocation that found the group as its owner left it must leave it so. A group left otherwise
 * by a failed or crashed run must be restored within RESTORE_RUNS clean replacer runs.
 */
const sizeCheck = (
  region: SimRegion,
  name: string,
  was: GroupState,
  now: GroupState,
  session: Session,
  watch: SizeWatch,
): string | undefined => {
  const owner = region.groups.get(name)?.owner
  if (owner === undefined) return undefined
  const clean = !session.crashed && session.failedCalls === 0
  const describe = `min/max/desired ${now.minSize}/${now.maxSize}/${now.desired}, owner set ${owner.minSize}/${owner.maxSize}/${owner.desiredCapacity}`
  if (!sizesDiffer(now, owner)) {
    watch.delete(name)
    return undefined
  }
  if (!clean) return undefined
  if (!sizesDiffer(was, owner)) return `changed by an invocation without failures: ${describe}`
  if (session.actor !== 'replacer') return undefined
  const runs = (watch.get(name) ?? 0) + 1
  if (runs < RESTORE_RUNS) {
    watch.set(name, runs)
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
): Violation[] => {
  const violations: Violation[] = []
  const actor = session.actor === 'replacer' ? 'a replacer run' : 'an interruption handler invocation'
  for (const [name, was] of before.states) {
    const now = after.states.get(name)
    if (now === undefined || !was.managed) continue
    const doomedLost = [...(before.doomed.get(name) ?? [])].filter(
      (id) => !stillInService(region, name, id),
    ).length
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
    const sizes = sizeCheck(region, name, was, now, session, watch)
    if (sizes !== undefined)
      violations.push({ t: at, group: name, invariant: 'group-size-not-restored', detail: sizes })
  }
  return violations
}
