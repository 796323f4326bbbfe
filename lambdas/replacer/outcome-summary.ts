/** What a log line or the replacer's summary says about one outcome. */
import type { FleetOverride } from '../core/port.ts'
import type { Outcome } from './execute.ts'

/** Candidate types by override list: launches share their lists (core/fleet-choices.ts), summaries too. */
const candidateTypes = new WeakMap<readonly FleetOverride[], readonly string[]>()

const candidatesOf = (overrides: readonly FleetOverride[]): readonly string[] => {
  let types = candidateTypes.get(overrides)
  if (types === undefined) {
    types = overrides.map((o) => o.instanceType)
    candidateTypes.set(overrides, types)
  }
  return types
}

/** The part of an outcome worth a log line or a summary entry. */
export const summarizeOutcome = (outcome: Outcome): Record<string, unknown> => {
  const { action } = outcome
  const base: Record<string, unknown> = { kind: action.kind, status: outcome.status, reason: action.reason }
  if (outcome.detail) base.detail = outcome.detail
  switch (action.kind) {
    case 'launch-spot':
      return {
        ...base,
        replacing: action.replacing,
        candidates: candidatesOf(action.overrides),
        ...(outcome.instanceId ? { instanceId: outcome.instanceId, instanceType: outcome.instanceType } : {}),
      }
    case 'swap':
      return { ...base, pairs: action.pairs, raiseMaxSizeTo: action.raiseMaxSizeTo }
    case 'complete-swap':
      return { ...base, pair: action.pair, retire: action.retire }
    case 'terminate-spot':
      return { ...base, instanceId: action.instanceId }
    case 'restore-max-size':
      return { ...base, maxSize: action.maxSize }
  }
}
