/** The planner's view of scheduled events: which members have one, when the group replaces them ahead. */
import type { PlanInput } from './plan-input.ts'

const NONE: ReadonlySet<string> = new Set()

/** Members with a pending scheduled event, when the group replaces them ahead (REPLACE_SCHEDULED). */
export const scheduledIds = (input: PlanInput): ReadonlySet<string> =>
  input.scheduledEvents === undefined || input.scheduledEvents.size === 0 || !input.config.replaceScheduled
    ? NONE
    : new Set(input.scheduledEvents.keys())
