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

/** Flagged candidates by override list, shared as the candidate types are; undefined when none is flagged. */
const flaggedTypes = new WeakMap<
  readonly FleetOverride[],
  Readonly<Record<string, readonly string[]>> | null
>()

/** Candidate type → what it changes for the workload, for the candidates that change something. */
const flaggedOf = (
  overrides: readonly FleetOverride[],
): Readonly<Record<string, readonly string[]>> | undefined => {
  let flagged = flaggedTypes.get(overrides)
  if (flagged === undefined) {
    const found: Record<string, readonly string[]> = {}
    let any = false
    for (const { instanceType, flags } of overrides)
      if (flags !== undefined) {
        found[instanceType] = flags
        any = true
      }
    flagged = any ? found : null
    flaggedTypes.set(overrides, flagged)
  }
  return flagged ?? undefined
}

/** Summaries by outcome: the group's log lines and the run's summary ask for the same one. */
const summaries = new WeakMap<Outcome, Readonly<Record<string, unknown>>>()

/**
 * The part of an outcome worth a log line or a summary entry, made once per outcome (read-only: the log
 * line spreads it, the run's summary lists it).
 */
export const summarizeOutcome = (outcome: Outcome): Readonly<Record<string, unknown>> => {
  let summary = summaries.get(outcome)
  if (summary === undefined) {
    summary = summaryOf(outcome)
    summaries.set(outcome, summary)
  }
  return summary
}

/**
 * Filled key by key, in the order the summary shows them, rather than spread together: a large run
 * summarizes tens of thousands of outcomes.
 */
const summaryOf = (outcome: Outcome): Record<string, unknown> => {
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
      {
        const flagged = flaggedOf(action.overrides)
        if (flagged !== undefined) summary.flagged = flagged
      }
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
