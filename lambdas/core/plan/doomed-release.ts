/**
 * Doomed members that can no longer be swapped out (too late, or the group is not acted on now: cron
 * window, suspended processes, a stack update) leave at once, as the interruption handler would have
 * made them, rather than wait for EC2.
 */

import { isBeingDeleted } from '../config/managed.ts'
import { DOOMED_SWAP_DEADLINE_SECONDS } from '../constants.ts'
import type { Group, GroupMember } from '../types.ts'
import type { Action } from './actions.ts'
import type { GroupSkipCode } from './reasons.ts'

/**
 * Skips that a read failing this run causes: the interruption handler's next requested run (45 s later)
 * reads again and may still replace the member ahead, and its deadline reminder releases it otherwise.
 * Releasing now would cost the same backfill as at the deadline, and lose the chance of the swap.
 */
const READ_AGAIN_SOON: ReadonlySet<GroupSkipCode> = new Set([
  'launch-hooks-unreadable',
  'cloudformation-stack-unreadable',
  'traffic-source-health-unreadable',
  'instance-refresh-unknown',
  'markers-unverifiable',
  'ecs-capacity-providers-unreadable',
  'spot-prices-unreadable',
  'subnets-unreadable',
])

export interface DoomedReleaseInput {
  readonly group: Group
  /** Spot members EC2 interrupts within two minutes. */
  readonly doomed: readonly GroupMember[]
  /** Why the group is not acted on now, if it is not. */
  readonly skipped: string | undefined
  /** The skip's code: a read that failed this run releases only members too late to swap. */
  readonly skipCode?: GroupSkipCode | undefined
  /** Too close to the interruption for a swap to be over before EC2 takes the member. */
  readonly tooLate: (id: string) => boolean
  readonly isProtected: (id: string) => boolean
  /** Members that leave another way: given back, or partners of an attached replacement (the swap's). */
  readonly kept: readonly ReadonlySet<string>[]
  /** The plan's actions, the releases added to them. */
  readonly actions: Action[]
}

/** Releases the doomed members that must go now (protected ones are left to EC2); returns them all. */
export const releaseDoomed = (input: DoomedReleaseInput): readonly GroupMember[] => {
  const { group, doomed, skipped, skipCode, tooLate, isProtected, kept, actions } = input
  const waits = skipped === undefined || (skipCode !== undefined && READ_AGAIN_SOON.has(skipCode))
  // A doomed partner of an attached replacement leaves through the swap (with the attach's unit).
  const released = (waits ? doomed.filter((m) => tooLate(m.instanceId)) : doomed).filter(
    (m) => !kept.some((ids) => ids.has(m.instanceId)),
  )
  if (!isBeingDeleted(group))
    for (const member of released)
      if (!isProtected(member.instanceId))
        actions.push({
          kind: 'release-doomed',
          group: group.name,
          instanceId: member.instanceId,
          reason: `interrupted soon and not replaced ahead: ${(waits ? undefined : skipped) ?? `more than ${DOOMED_SWAP_DEADLINE_SECONDS}s since the warning`}`,
        })
  return released
}
