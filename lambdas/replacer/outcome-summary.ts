/** What a log line or the replacer's summary says about one outcome. */
import type { FleetOverride } from '../core/port.ts'
import type { Outcome } from './outcome.ts'

/** Candidate types by override list: launches share their lists (core/plan/fleet-choices.ts), summaries too. */
const candidateTypes = new WeakMap<readonly FleetOverride[], readonly string[]>()

const candidatesOf = (overrides: readonly FleetOverride[]): readonly string[] => {
  let types = candidateTypes.get(overrides)
  if (types === undefined) {
    types = overrides.map((o) => o.instanceType)
    candidateTypes.set(overrides, types)
  }
  return types
}

const isFlagged = (override: FleetOverride): boolean => override.flags !== undefined

/** Candidate type → what it changes for the workload, for the candidates that change something. */
const flaggedOf = (overrides: readonly FleetOverride[]): Record<string, readonly string[]> => {
  const flagged: Record<string, readonly string[]> = {}
  for (const { instanceType, flags } of overrides) if (flags !== undefined) flagged[instanceType] = flags
  return flagged
}

/**
 * The part of an outcome worth a log line or a summary entry. Filled key by key, in the order the
 * summary shows them, rather than spread together: a large run summarizes tens of thousands of outcomes.
 */
export const summarizeOutcome = (outcome: Outcome): Record<string, unknown> => {
  const { action } = outcome
  const summary: Record<string, unknown> = {
    kind: action.kind,
    status: outcome.status,
    reason: action.reason,
  }
  if (outcome.detail) summary.detail = outcome.detail
  switch (action.kind) {
    case 'launch-spot':
      summary.replacing = action.replacing
      summary.candidates = candidatesOf(action.overrides)
      if (action.overrides.some(isFlagged)) summary.flagged = flaggedOf(action.overrides)
      if (outcome.instanceId) {
        summary.instanceId = outcome.instanceId
        summary.instanceType = outcome.instanceType
      }
      break
    case 'swap':
      summary.pairs = action.pairs
      summary.raiseMaxSizeTo = action.raiseMaxSizeTo
      break
    case 'complete-swap':
      summary.pair = action.pair
      summary.retire = action.retire
      break
    case 'release-pair':
      summary.pair = action.pair
      break
    case 'terminate-spot':
    case 'give-back':
      summary.instanceId = action.instanceId
      break
    case 'close-swap':
      summary.maxSize = action.maxSize
      break
    case 'settle-members':
      summary.instanceIds = action.instanceIds
      break
    case 'maintenance':
      summary.step = action.step
      summary.instanceId = action.instanceId
      if (action.desired !== undefined) summary.desired = action.desired
      break
    case 'ecs-drain':
    case 'ecs-undrain':
      summary.instanceId = action.instanceId
      break
    case 'revert':
      summary.step = action.step
      if (action.instanceId !== undefined) summary.instanceId = action.instanceId
      if (action.desired !== undefined) summary.desired = action.desired
      break
  }
  return summary
}
