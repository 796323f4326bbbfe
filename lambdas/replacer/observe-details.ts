/**
 * The reads a region run makes after its first plan, only for the groups whose plans need them
 * (core/region/details-needed.ts): load-balancer health, the owner's changes of desired capacity, launch
 * hooks and instance refreshes. A read that fails becomes an observation the planner judges, not an error.
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
      return [managed.group.name, { kind: 'read', health }] as const
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
    const message = error instanceof Error ? `${error.name}: ${errorMessage(error)}` : String(error)
    return isThrottle(error) ? { kind: 'throttled', error: message } : { kind: 'unreadable', error: message }
  }
}

/** Launch hooks and instance refreshes, which only matter to a group about to get a new replacement or swap. */
export const readStartingDetails = async (
  cloud: CloudPort,
  starting: readonly ManagedGroup[],
): Promise<{
  readonly hooks: Map<string, readonly LifecycleHook[]>
  readonly refreshes: Map<string, RefreshObservation>
}> => {
  const details = await mapWithConcurrency(starting, GROUP_CONCURRENCY, async ({ group }) => {
    const [groupHooks, refresh] = await Promise.all([
      cloud.lifecycleHooks(group.name),
      readRefresh(cloud, group.name),
    ])
    return { name: group.name, groupHooks, refresh }
  })
  return {
    hooks: new Map(details.map((d) => [d.name, d.groupHooks] as const)),
    refreshes: new Map(details.map((d) => [d.name, d.refresh] as const)),
  }
}
