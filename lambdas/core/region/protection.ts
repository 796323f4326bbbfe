/**
 * Termination protection (DisableApiTermination) is one read per instance, so a region run reads it only
 * for the instances its plans would retire or write to, and drops whatever would touch one it did not read.
 * Pure: the reads happen in the replacer (replacer/plan-region.ts); these decide what to read and what
 * the reads allow.
 */
import type { Action, GroupPlan } from '../plan/actions.ts'
import type { Group, Instance } from '../types.ts'

/**
 * Once a group shows one member protected from API termination, the next round reads every on-demand
 * member's protection (one DescribeInstanceAttribute call each, at most this many): one at a time, a
 * group whose oldest members are all protected handed its turn to the next protected one every round,
 * and the run ended before reaching an unprotected one, run after run (chaos seed 7442: four protected
 * members kept five others on-demand for good). Beyond the cap, a later run reads the next ones.
 */
export const PROTECTION_READS_PER_GROUP = 100

/**
 * Instances a plan would retire (or start retiring) or write to: only these need their termination
 * protection read.
 */
export const retiredBy = (plans: readonly GroupPlan[]): Set<string> => {
  const ids = new Set<string>()
  for (const plan of plans)
    for (const action of plan.actions) {
      if (action.kind === 'launch-spot') ids.add(action.replacing)
      // The swap names its replacements (a tag) before it attaches them: written to, so read too.
      if (action.kind === 'swap')
        for (const pair of action.pairs) {
          ids.add(pair.onDemandInstanceId)
          ids.add(pair.spotInstanceId)
        }
      if (action.kind === 'give-back') ids.add(action.instanceId)
      if (action.kind === 'complete-swap') {
        ids.add(action.pair.onDemandInstanceId)
        if (action.retire === 'replacement') ids.add(action.pair.spotInstanceId)
      }
      // Released: its pair tags removed, so written to.
      if (action.kind === 'release-pair') {
        ids.add(action.pair.onDemandInstanceId)
        ids.add(action.pair.spotInstanceId)
      }
      if (action.kind === 'release-doomed') ids.add(action.instanceId)
      if (action.kind === 'settle-members') for (const id of action.instanceIds) ids.add(id)
      // Raised for, then retired: a member with a scheduled event (core/maintenance/plan.ts).
      if (action.kind === 'maintenance' && action.step !== 'close') ids.add(action.instanceId)
      if (action.kind === 'revert' && action.instanceId !== undefined) ids.add(action.instanceId)
      // Drained for a swap: marked, so written to.
      if (action.kind === 'ecs-drain') ids.add(action.instanceId)
    }
  return ids
}

/** The on-demand side of an action: the member it replaces, swaps or retires. */
export const membersOf = (action: Action): string[] => {
  switch (action.kind) {
    case 'launch-spot':
      return [action.replacing]
    case 'swap':
      return action.pairs.map((p) => p.onDemandInstanceId)
    case 'complete-swap':
    case 'release-pair':
      return [action.pair.onDemandInstanceId]
    case 'give-back':
    case 'release-doomed':
      return [action.instanceId]
    default:
      return []
  }
}

/**
 * Drops launches, swaps and releases that would retire or write to an instance not checked for termination
 * protection. A record is not dropped while one of its pairs is left for a later run, nor replaced: the
 * swap that would start after its close waits too (as in the executor, core/region/execution-order.ts).
 * `failed` names the instances whose read failed (with its error): those are treated as protected for
 * this run, and the members that wait on them say so.
 */
export const withoutUnread = (
  plan: GroupPlan,
  unread: ReadonlySet<string>,
  failed: ReadonlyMap<string, string> = new Map(),
): GroupPlan => {
  const unreadPair = (a: Action): boolean =>
    (a.kind === 'give-back' && unread.has(a.instanceId)) ||
    (a.kind === 'complete-swap' &&
      (unread.has(a.pair.onDemandInstanceId) ||
        (a.retire === 'replacement' && unread.has(a.pair.spotInstanceId)))) ||
    (a.kind === 'release-pair' && unread.has(a.pair.spotInstanceId))
  // Each retirement's record counts the ones before it: one left for later takes all after it along.
  const completesUnread = plan.actions.some(unreadPair)
  const actions = plan.actions.filter((a) => {
    if (completesUnread && a.kind === 'close-swap') return false
    if (a.kind === 'launch-spot') return !unread.has(a.replacing)
    // A swap in a plan that retires is one the plan starts once the open swap closes (core/plan/swap-start.ts):
    // with its steps and close left for later, that swap stays open and a new record would take its place,
    // its pairs then judged another swap's and its own launches attached (chaos seed 205).
    if (a.kind === 'swap')
      return (
        !completesUnread &&
        a.pairs.every((pair) => !unread.has(pair.onDemandInstanceId) && !unread.has(pair.spotInstanceId))
      )
    if (a.kind === 'complete-swap') return !completesUnread
    if (a.kind === 'release-pair') return !unreadPair(a)
    if (a.kind === 'give-back') return !completesUnread
    if (a.kind === 'release-doomed') return !unread.has(a.instanceId)
    if (a.kind === 'settle-members') return a.instanceIds.every((id) => !unread.has(id))
    if (a.kind === 'maintenance' && a.step !== 'close') return !unread.has(a.instanceId)
    if (a.kind === 'revert' && a.instanceId !== undefined) return !unread.has(a.instanceId)
    if (a.kind === 'ecs-drain') return !unread.has(a.instanceId)
    return true
  })
  // The members whose launch, swap or retirement was dropped wait for the next run, and say so.
  const kept = new Set(actions)
  const dropped = plan.actions.filter((a) => !kept.has(a))
  const waiting = new Set(dropped.flatMap(membersOf))
  // Those whose dropped action needs an instance whose read failed say which, and why.
  const failedFor = new Map<string, string[]>()
  for (const action of failed.size === 0 ? [] : dropped) {
    const ids = [...retiredBy([{ ...plan, actions: [action] }])].filter((id) => failed.has(id))
    if (ids.length > 0) for (const member of membersOf(action)) failedFor.set(member, ids)
  }
  const onDemand = plan.onDemand.map((status) => {
    if (!waiting.has(status.instanceId)) return status
    const failures = failedFor.get(status.instanceId)
    if (failures !== undefined)
      return {
        ...status,
        code: 'protection-unreadable' as const,
        detail: `the termination protection of ${failures.map((id) => `${id} (${failed.get(id)})`).join(', ')} could not be read: treated as protected this run; the next run reads again`,
        progress: false,
      }
    return {
      ...status,
      code: 'protection-unread' as const,
      detail:
        'the termination protection of an instance it needs was not read in this run: the next run looks',
      progress: false,
    }
  })
  return { ...plan, actions, onDemand }
}

/**
 * Whatever the last round planned must not retire an instance whose protection was never read, or whose
 * read failed (`failed`, with its error).
 */
export const withoutUnreadProtection = (
  plans: readonly GroupPlan[],
  checked: ReadonlySet<string>,
  failed: ReadonlyMap<string, string> = new Map(),
): readonly GroupPlan[] => {
  const unread = [...retiredBy(plans)].filter((id) => !checked.has(id))
  if (unread.length === 0) return plans
  const unreadIds = new Set(unread)
  return plans.map((p) => withoutUnread(p, unreadIds, failed))
}

/**
 * The groups among `changing` where a member turned out protected, and the on-demand members of those
 * groups to read next round (not read yet; at most PROTECTION_READS_PER_GROUP a group).
 */
export const widenProtectionReads = (
  changing: readonly Group[],
  protectedIds: ReadonlySet<string>,
  instances: ReadonlyMap<string, Instance>,
  checked: ReadonlySet<string>,
): { readonly withProtected: readonly string[]; readonly alsoRead: readonly string[] } => {
  const withProtected = changing.filter((g) => g.members.some((m) => protectedIds.has(m.instanceId)))
  const alsoRead = withProtected.flatMap((group) =>
    group.members
      .map((m) => m.instanceId)
      .filter((id) => instances.get(id)?.lifecycle === 'on-demand' && !checked.has(id))
      .slice(0, PROTECTION_READS_PER_GROUP),
  )
  return { withProtected: withProtected.map((g) => g.name), alsoRead }
}
