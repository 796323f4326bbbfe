/**
 * `forged-marker-acted-on`: a marker that fails verification never leads to an action. Chaos plants swap
 * records on groups that have none (tools/chaos/script.ts): without a MAC (the format before MACs), with
 * the MAC of another group's record, with a MAC from a key that is not the account's, or spotswap's own
 * record re-planted past its life. Each says pairs are open, so believing it would make members leave
 * with a decrement. Judged from the simulator's records: a retirement with a decrement that AWS applied
 * while the member's group carried a record of a planted swap (its id; spotswap, believing one, rewrites
 * it with each step it announces, id kept) is a violation.
 */
import { TAG_SWAP } from '../../lambdas/core/constants.ts'
import type { StepContext, Violation } from './invariant-ledger.ts'
import type { SimRegion } from './state.ts'
import type { WriteRecord } from './touches.ts'

/** Per region: group → the ids of swaps whose records were planted on it, never spotswap's for it. */
const plantedBy = new WeakMap<SimRegion, Map<string, Set<string>>>()

const swapIdOf = (value: string | undefined): string | undefined => / id=(\S+)/.exec(` ${value ?? ''}`)?.[1]

/** Remembers a swap record planted on `group` (it fails verification, or is expired), by its swap id. */
export const rememberPlanted = (region: SimRegion, group: string, value: string): void => {
  const id = swapIdOf(value)
  if (id === undefined) return
  let byGroup = plantedBy.get(region)
  if (byGroup === undefined) {
    byGroup = new Map()
    plantedBy.set(region, byGroup)
  }
  const values = byGroup.get(group) ?? new Set()
  values.add(id)
  byGroup.set(group, values)
}

/** Whether `value`, a swap record on `group`, carries the id of a swap planted there. */
export const isPlanted = (region: SimRegion, group: string, value: string | undefined): boolean => {
  const id = swapIdOf(value)
  return id !== undefined && plantedBy.get(region)?.get(group)?.has(id) === true
}

export const checkForgedMarkers = (
  { region }: StepContext,
  writes: readonly WriteRecord[],
  at: string,
): Violation[] => {
  const violations: Violation[] = []
  for (const write of writes) {
    if (write.kind !== 'decrement' || !isPlanted(region, write.group, write.tags[TAG_SWAP])) continue
    violations.push({
      at,
      group: write.group,
      invariant: 'forged-marker-acted-on',
      detail: `${write.operation} took ${write.instanceId} out with a decrement while the group's swap record carried a planted swap: ${write.tags[TAG_SWAP]}`,
    })
  }
  return violations
}
