/**
 * EC2's word on the spot members tagged as warned of their interruption: their Spot request status, read
 * only when such a member exists (a converged region makes no call). A read that fails is an observation,
 * not an error: no member is doomed this run, and the next run asks again.
 */
import { errorMessage } from '../aws/errors.ts'
import { type InterruptionStatuses, markedSpotMembers } from '../core/interruption/confirmation.ts'
import type { CloudPort } from '../core/port.ts'
import type { Group, Instance } from '../core/types.ts'

export const readInterruptions = async (
  cloud: CloudPort,
  groups: readonly Group[],
  instances: ReadonlyMap<string, Instance>,
): Promise<InterruptionStatuses | undefined> => {
  const marked = markedSpotMembers(groups, instances)
  if (marked.length === 0) return undefined
  try {
    return { kind: 'read', codes: await cloud.spotRequestStatuses(marked) }
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${errorMessage(error)}` : String(error)
    return { kind: 'unreadable', error: message }
  }
}
