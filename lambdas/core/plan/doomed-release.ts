/**
 * Doomed members that can no longer be swapped out (too late, or the group is not acted on now: cron
 * window, suspended processes, a stack update) leave at once, as the interruption handler would have
 * made them, rather than wait for EC2.
 */

import { isBeingDeleted } from '../config/managed.ts'
import { DOOMED_SWAP_DEADLINE_SECONDS } from '../constants.ts'
import type { Group, GroupMember } from '../types.ts'
import type { Action } from './actions.ts'

export interface DoomedReleaseInput {
  readonly group: Group
  /** Spot members EC2 interrupts within two minutes. */
  readonly doomed: readonly GroupMember[]
  /** Why the group is not acted on now, if it is not. */
  readonly skipped: string | undefined
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
  const { group, doomed, skipped, tooLate, isProtected, kept, actions } = input
  // A doomed partner of an attached replacement leaves through the swap (with the attach's unit).
  const released = (skipped === undefined ? doomed.filter((m) => tooLate(m.instanceId)) : doomed).filter(
    (m) => !kept.some((ids) => ids.has(m.instanceId)),
  )
  if (!isBeingDeleted(group))
    for (const member of released)
      if (!isProtected(member.instanceId))
        actions.push({
          kind: 'release-doomed',
          group: group.name,
          instanceId: member.instanceId,
          reason: `interrupted soon and not replaced ahead: ${skipped ?? `more than ${DOOMED_SWAP_DEADLINE_SECONDS}s since the warning`}`,
        })
  return released
}
