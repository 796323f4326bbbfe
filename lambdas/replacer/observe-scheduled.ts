/**
 * The region's scheduled events, read once per run at most (the adapter caches them across runs). A read
 * that fails is an observation: no member is replaced on it, and the plans go on without events.
 */

import { eventsByInstance, type ScheduledEventsObservation } from '../core/maintenance/events.ts'
import type { CloudPort } from '../core/port.ts'
import type { Group } from '../core/types.ts'
import { describeError } from './outcome.ts'

export const readScheduledEvents = async (
  cloud: CloudPort,
  managed: readonly Group[],
): Promise<ScheduledEventsObservation | undefined> => {
  if (managed.length === 0) return undefined
  try {
    return { kind: 'read', events: eventsByInstance(await cloud.scheduledEvents()) }
  } catch (error) {
    return { kind: 'unreadable', error: describeError(error) }
  }
}
