/** The order in which a group's eligible members get replacements. */

import type { GroupMember, Instance } from '../types.ts'
import { lastBackoffEnd } from './capacity-backoff.ts'
import { byLaunchTimeThenId } from './plan-input.ts'

export interface EligibleMember {
  readonly member: GroupMember
  readonly instance: Instance
}

interface Keyed extends EligibleMember {
  readonly urgency: number
  readonly backoffEnd: number
  /** Tasks its container instance runs, in a group ECS manages (core/ecs/drain-order.ts); else 0. */
  readonly tasks: number
}

/** Doomed first (their capacity goes in two minutes), then at-risk spot members, then on-demand ones. */
const urgency = (instance: Instance, doomed: ReadonlySet<string>): number =>
  doomed.has(instance.id) ? 0 : instance.lifecycle === 'spot' ? 1 : 2

const compareBackoffEnds = (endA: number, endB: number): number => (endA === endB ? 0 : endA < endB ? -1 : 1)

/**
 * The members with their details, most urgent first, then the least recently backed off, then (in a
 * group ECS manages, `runningTasks`) those running the fewest tasks, then the oldest. Members whose
 * details were not seen are left out.
 */
export const launchOrder = (
  members: readonly GroupMember[],
  instances: ReadonlyMap<string, Instance>,
  doomed: ReadonlySet<string>,
  runningTasks?: (instanceId: string) => number,
): EligibleMember[] => {
  // Sort keys worked out once per member, not once per comparison (a back-off end is a date to parse).
  // A loop, not map().filter(): optimized `map` returns arrays of another shape than the interpreter's,
  // and the `filter` after it then throws the optimized code away once per run.
  const keyed: Keyed[] = []
  for (const member of members) {
    const instance = instances.get(member.instanceId)
    if (instance !== undefined)
      keyed.push({
        member,
        instance,
        urgency: urgency(instance, doomed),
        backoffEnd: lastBackoffEnd(instance),
        tasks: runningTasks?.(instance.id) ?? 0,
      })
  }
  return inOrder(keyed) ? keyed : keyed.sort(compareKeyed)
}

const compareKeyed = (a: Keyed, b: Keyed): number =>
  a.urgency - b.urgency ||
  compareBackoffEnds(a.backoffEnd, b.backoffEnd) ||
  a.tasks - b.tasks ||
  byLaunchTimeThenId(a.instance, b.instance)

/**
 * Already in launch order, as a group's members mostly are (all on-demand, listed oldest first): the
 * stable sort would give them back as they are, and it copies the list into a work area to find that out,
 * once per group of a run.
 */
const inOrder = (keyed: readonly Keyed[]): boolean => {
  for (let index = 1; index < keyed.length; index++)
    if (compareKeyed(keyed[index - 1] as Keyed, keyed[index] as Keyed) > 0) return false
  return true
}
