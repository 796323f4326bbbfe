/**
 * The reads a region run makes after its first plan, only for the groups whose plans need them
 * (core/region/details-needed.ts): load-balancer health, the owner's changes of desired capacity, launch
 * hooks, instance refreshes, stack statuses and termination protection. A read that fails (after the SDK's
 * retries) becomes an observation the planner judges, not an error: it holds back only what depends on it.
 */

import { mapWithConcurrency } from '../aws/concurrency.ts'
import { errorMessage, isThrottle } from '../aws/errors.ts'
import { GROUP_CONCURRENCY } from '../core/constants.ts'
import type { RefreshObservation } from '../core/group/instance-refresh.ts'
import { type OwnerChanges, readActivities } from '../core/group/scaling-activities.ts'
import type { HealthObservation } from '../core/group/serving.ts'
import type { GroupPlan } from '../core/plan/actions.ts'
import type { CloudPort, LifecycleHook } from '../core/port.ts'
import { readSwapRecord } from '../core/swap/record.ts'
import type { ManagedGroup } from './observe.ts'

/** An error as the log and a skip's detail show it: its code (throttling, a 5xx, a denial...) and message. */
const describeError = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${errorMessage(error)}` : String(error)

/**
 * The owner's changes of desired capacity since each group's open swap started (its record's
 * `spotswap:swap-started`; without one, as far back as Auto Scaling keeps them). A group whose
 * activities cannot be read waits: its plan is made again with the error.
 */
export const readOwnerChanges = async (
  cloud: CloudPort,
  groups: readonly ManagedGroup[],
): Promise<Map<string, OwnerChanges>> => {
  const read = await mapWithConcurrency(groups, GROUP_CONCURRENCY, async ({ group }) => {
    const onGroup = readSwapRecord(group.tags)
    const since = (onGroup.kind === 'read' ? onGroup.record.startedAt : undefined) ?? new Date(0)
    try {
      const activities = await cloud.scalingActivities(group.name, since)
      return [group.name, { kind: 'read', ...readActivities(activities, since) }] as const
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      return [group.name, { kind: 'unreadable', error: message }] as const
    }
  })
  return new Map<string, OwnerChanges>(read)
}

/**
 * Load-balancer health of the replacements each plan waits for, one read per group; a group whose health
 * cannot be read waits (its plan is made again with the error, and retires nothing on it).
 */
export const readHealth = async (
  cloud: CloudPort,
  groups: readonly ManagedGroup[],
  plans: readonly GroupPlan[],
): Promise<Map<string, HealthObservation>> => {
  const waiting = groups.flatMap((managed, i) => {
    const ids = plans[i]?.awaitingHealth ?? []
    return ids.length > 0 ? [{ managed, ids }] : []
  })
  const read = await mapWithConcurrency(waiting, GROUP_CONCURRENCY, async ({ managed, ids }) => {
    try {
      const health = await cloud.trafficHealth(managed.group.trafficSources, ids)
      return [managed.group.name, { kind: 'read', health, asked: new Set(ids) }] as const
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      return [managed.group.name, { kind: 'unreadable', error: message }] as const
    }
  })
  return new Map<string, HealthObservation>(read)
}

/**
 * A group's instance refreshes. Throttling leaves the state unknown for this run (the group waits); any
 * other error leaves it unreadable, and the group goes on as if none ran (core/group/instance-refresh.ts).
 */
const readRefresh = async (cloud: CloudPort, groupName: string): Promise<RefreshObservation> => {
  try {
    return { kind: 'read', refreshes: await cloud.instanceRefreshes(groupName) }
  } catch (error) {
    const message = describeError(error)
    return isThrottle(error) ? { kind: 'throttled', error: message } : { kind: 'unreadable', error: message }
  }
}

/** A group's lifecycle hooks, or the error reading them ended in. */
const readHooks = async (
  cloud: CloudPort,
  groupName: string,
): Promise<{ readonly hooks: readonly LifecycleHook[] } | { readonly error: string }> => {
  try {
    return { hooks: await cloud.lifecycleHooks(groupName) }
  } catch (error) {
    return { error: describeError(error) }
  }
}

/**
 * Launch hooks and instance refreshes, which only matter to a group about to get a new replacement or swap.
 * A group whose hooks cannot be read is named in `hooksUnreadable`, with the error.
 */
export const readStartingDetails = async (
  cloud: CloudPort,
  starting: readonly ManagedGroup[],
): Promise<{
  readonly hooks: Map<string, readonly LifecycleHook[]>
  readonly hooksUnreadable: Map<string, string>
  readonly refreshes: Map<string, RefreshObservation>
}> => {
  const details = await mapWithConcurrency(starting, GROUP_CONCURRENCY, async ({ group }) => {
    const [groupHooks, refresh] = await Promise.all([
      readHooks(cloud, group.name),
      readRefresh(cloud, group.name),
    ])
    return { name: group.name, groupHooks, refresh }
  })
  const hooks = new Map<string, readonly LifecycleHook[]>()
  const hooksUnreadable = new Map<string, string>()
  for (const { name, groupHooks } of details)
    if ('error' in groupHooks) hooksUnreadable.set(name, groupHooks.error)
    else hooks.set(name, groupHooks.hooks)
  return { hooks, hooksUnreadable, refreshes: new Map(details.map((d) => [d.name, d.refresh] as const)) }
}

/**
 * Reads all keys in one call; if that fails, each key alone, so a key whose read keeps failing is told
 * apart from the others (the adapters make one AWS call per key either way). Returns the answers and
 * the keys that failed, with their errors.
 */
const readApart = async <R>(
  keys: readonly string[],
  read: (some: readonly string[]) => Promise<R>,
): Promise<{ readonly answers: readonly R[]; readonly failed: Map<string, string> }> => {
  try {
    return { answers: [await read(keys)], failed: new Map() }
  } catch (error) {
    if (keys.length === 1)
      return { answers: [], failed: new Map([[keys[0] as string, describeError(error)]]) }
  }
  const each = await mapWithConcurrency(keys, GROUP_CONCURRENCY, async (key) => {
    try {
      return { key, answer: await read([key]) }
    } catch (error) {
      return { key, error: describeError(error) }
    }
  })
  const answers: R[] = []
  const failed = new Map<string, string>()
  for (const one of each)
    if ('answer' in one) answers.push(one.answer as R)
    else failed.set(one.key, one.error)
  return { answers, failed }
}

/** The statuses of these stacks; a stack whose status cannot be read is in `unreadable`, with the error. */
export const readStackStatuses = async (
  cloud: CloudPort,
  stackNames: readonly string[],
): Promise<{ readonly statuses: Map<string, string>; readonly unreadable: Map<string, string> }> => {
  if (stackNames.length === 0) return { statuses: new Map(), unreadable: new Map() }
  const { answers, failed } = await readApart(stackNames, (names) => cloud.stackStatuses(names))
  return { statuses: new Map(answers.flatMap((m) => [...m])), unreadable: failed }
}

/**
 * Which of these instances are protected from API termination; an instance whose protection cannot be
 * read is in `unreadable`, with the error (treated as protected: core/region/protection.ts).
 */
export const readProtection = async (
  cloud: CloudPort,
  ids: readonly string[],
): Promise<{ readonly protectedIds: Set<string>; readonly unreadable: Map<string, string> }> => {
  const { answers, failed } = await readApart(ids, (some) => cloud.terminationProtected(some))
  return { protectedIds: new Set(answers.flatMap((set) => [...set])), unreadable: failed }
}
