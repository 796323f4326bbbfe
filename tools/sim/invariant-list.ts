/**
 * The invariants the simulator checks, in docs/reliability.md's order: one entry per numbered invariant
 * (one may report under two names). The chaos command's help and the docs take their count from here;
 * a test holds README.md's list and docs/reliability.md's table to it, and the type below fails to
 * compile when a violation name is added without an entry.
 */
import type { Violation } from './invariant-ledger.ts'

type InvariantName = Violation['invariant']

export interface InvariantEntry {
  readonly names: readonly InvariantName[]
  /** Where it is checked, under tools/sim/. */
  readonly checkedIn: string
}

export const INVARIANTS = [
  { names: ['capacity-below-desired'], checkedIn: 'invariants.ts' },
  { names: ['on-demand-below-minimum'], checkedIn: 'invariants.ts' },
  { names: ['orphan'], checkedIn: 'write-invariants.ts' },
  { names: ['group-size-not-restored'], checkedIn: 'invariants.ts' },
  { names: ['untouchable-touched'], checkedIn: 'write-invariants.ts' },
  { names: ['retired-twice', 'double-replacement'], checkedIn: 'write-invariants.ts' },
  { names: ['retired-before-serving'], checkedIn: 'write-invariants.ts' },
  { names: ['stalled-on-demand'], checkedIn: 'liveness.ts' },
  { names: ['launches-beyond-budget'], checkedIn: 'launch-bound-invariant.ts' },
  { names: ['never-served'], checkedIn: 'never-served-invariant.ts' },
  { names: ['forged-marker-acted-on'], checkedIn: 'forged-marker-invariant.ts' },
  { names: ['write-past-lease'], checkedIn: 'lease-invariant.ts' },
] as const satisfies readonly InvariantEntry[]

type Listed = (typeof INVARIANTS)[number]['names'][number]
/** Compiles only while every violation name has an entry above. */
const everyNameListed: Record<Exclude<InvariantName, Listed>, never> = {}
void everyNameListed
