/**
 * Why no spot type can replace an instance: the types nearest in size to it, each with the first filter
 * that refused it, so the owner knows what to change (allow a type, raise the price multiplier, or leave
 * the zone).
 */

import type { Catalog, InstanceTypeInfo } from '../types.ts'
import { compareCodePoints, type Selection } from './selection.ts'

/**
 * No spot type priced in the zone passes the filters: name the types nearest in size to the original
 * among those priced there, each with the first filter that refused it, so the owner knows what to
 * change (allow a type, raise the price multiplier, or leave the zone).
 */
export const noCandidateDetail = (
  catalog: Catalog,
  selection: Selection,
  original: InstanceTypeInfo,
  zone: string,
): string => {
  const distance = (info: InstanceTypeInfo): number =>
    Math.abs(info.vcpus - original.vcpus) / original.vcpus +
    Math.abs(info.memoryMiB - original.memoryMiB) / original.memoryMiB
  const priced: { readonly info: InstanceTypeInfo; readonly filter: string }[] = []
  for (const [type, filter] of selection.rejected) {
    const info = catalog.get(type)
    // A type without a spot price in the zone is no candidate at all.
    if (filter !== 'spot-offered' && info !== undefined) priced.push({ info, filter })
  }
  const own =
    selection.rejected.get(original.name) === 'spot-offered'
      ? `; ${original.name} itself has no spot price in ${zone}`
      : ''
  if (priced.length === 0) return `no instance type has a spot price in ${zone}`
  const nearest = priced
    .sort((a, b) => distance(a.info) - distance(b.info) || compareCodePoints(a.info.name, b.info.name))
    .slice(0, NEAREST_REFUSED_SHOWN)
    .map((c) => `${c.info.name} (${c.filter})`)
  return `none of the ${priced.length} types priced in ${zone} passes the filters; nearest in size: ${nearest.join(', ')}${own}`
}

/** How many refused types a `no-compatible-spot-type` reason names. */
const NEAREST_REFUSED_SHOWN = 3

export const countRejections = (selection: Selection): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const filter of selection.rejected.values()) counts[filter] = (counts[filter] ?? 0) + 1
  return counts
}
