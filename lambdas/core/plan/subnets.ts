/**
 * Where a replacement goes: a subnet of the group's current VPCZoneIdentifier, in the replaced instance's
 * zone when the group still has a subnet there, else in the group's zone with the fewest members (what
 * Auto Scaling itself balances towards). AttachInstances takes only an instance in one of the group's
 * Availability Zones (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-detach-attach-instances.html),
 * and the owner's current subnets are where the group launches: a replacement in the original's old
 * subnet would be in a network the owner moved the group out of.
 */

import { isLeavingGroup } from '../config/managed.ts'
import type { Group, Instance } from '../types.ts'
import { compareCodePoints } from './selection.ts'

export type Placement =
  | { readonly ok: true; readonly zone: string; readonly subnetId: string | undefined }
  | { readonly ok: false; readonly detail: string }

/**
 * Each subnet's zone, as far as the instances seen (members and launched spot instances) and the
 * region's subnet reads (`known`) tell it. A subnet's zone never changes.
 */
export const subnetZonesSeen = (
  instances: Iterable<Instance>,
  known: ReadonlyMap<string, string> | undefined,
): Map<string, string> => {
  const zones = new Map(known ?? [])
  for (const instance of instances)
    if (instance.subnetId !== undefined && !zones.has(instance.subnetId))
      zones.set(instance.subnetId, instance.zone)
  return zones
}

const firstByName = (ids: readonly string[]): string | undefined => [...ids].sort(compareCodePoints)[0]

/** `subnetZones` is asked only when the instance's own subnet left the group (it scans every instance). */
export const placementFor = (
  group: Group,
  instance: Instance,
  subnetZones: () => ReadonlyMap<string, string>,
): Placement => {
  const subnets = group.subnetIds
  // No VPCZoneIdentifier (a group by Availability Zones in the default VPC): where the instance is.
  if (subnets.length === 0) return { ok: true, zone: instance.zone, subnetId: instance.subnetId }
  if (instance.subnetId !== undefined && subnets.includes(instance.subnetId))
    return { ok: true, zone: instance.zone, subnetId: instance.subnetId }
  const zoneOf = subnetZones()
  const byZone = new Map<string, string[]>()
  for (const subnet of subnets) {
    const zone = zoneOf.get(subnet)
    if (zone === undefined) continue
    byZone.set(zone, [...(byZone.get(zone) ?? []), subnet])
  }
  const sameZone = byZone.get(instance.zone)
  if (sameZone !== undefined) return { ok: true, zone: instance.zone, subnetId: firstByName(sameZone) }
  if (byZone.size === 0)
    return {
      ok: false,
      detail: `the zones of the group's subnets (${subnets.join(', ')}) are unknown`,
    }
  const members = new Map<string, number>()
  for (const member of group.members)
    if (!isLeavingGroup(member.lifecycleState)) members.set(member.zone, (members.get(member.zone) ?? 0) + 1)
  const [zone] = [...byZone.keys()].sort(
    (a, b) => (members.get(a) ?? 0) - (members.get(b) ?? 0) || compareCodePoints(a, b),
  ) as [string]
  return { ok: true, zone, subnetId: firstByName(byZone.get(zone) ?? []) }
}

/**
 * Where else a replacement may go when its partner's zone has no compatible spot pool: the group's other
 * zones (by its subnets) into which moving one instance out of the partner's zone keeps the group
 * balanced (within one instance of each other), fewest members first. Auto Scaling "maintains an equal
 * number of instances across enabled Availability Zones"
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-availability-zone-balanced.html)
 * and rebalances a group that is not: a move that leaves it balanced starts no rebalancing. `shift` holds the moves already under way
 * (+1 where a replacement goes, -1 where its partner leaves). Nothing when a subnet's zone is unknown:
 * balance cannot be judged without every zone (`unknownSubnets` says which to read).
 */
export const balancedElsewhere = (
  group: Group,
  instance: Instance,
  zoneOf: ReadonlyMap<string, string>,
  shift: ReadonlyMap<string, number>,
): {
  readonly placements: readonly Extract<Placement, { ok: true }>[]
  readonly unknownSubnets: string[]
  /** How many zones the group spans, as far as known. */
  readonly zones: number
} => {
  if (group.subnetIds.length === 0) return { placements: [], unknownSubnets: [], zones: 1 }
  const unknownSubnets = group.subnetIds.filter((s) => !zoneOf.has(s))
  if (unknownSubnets.length > 0) return { placements: [], unknownSubnets, zones: 0 }
  const byZone = new Map<string, string[]>()
  for (const subnet of group.subnetIds) {
    const zone = zoneOf.get(subnet) as string
    byZone.set(zone, [...(byZone.get(zone) ?? []), subnet])
  }
  if (!byZone.has(instance.zone)) return { placements: [], unknownSubnets: [], zones: byZone.size }
  const counts = new Map([...byZone.keys()].map((zone) => [zone, shift.get(zone) ?? 0]))
  for (const member of group.members)
    if (!isLeavingGroup(member.lifecycleState) && counts.has(member.zone))
      counts.set(member.zone, (counts.get(member.zone) ?? 0) + 1)
  const balancedAfter = (to: string): boolean => {
    const after = new Map(counts)
    after.set(instance.zone, (after.get(instance.zone) ?? 0) - 1)
    after.set(to, (after.get(to) ?? 0) + 1)
    const values = [...after.values()]
    return Math.max(...values) - Math.min(...values) <= 1
  }
  const placements = [...byZone.keys()]
    .filter((zone) => zone !== instance.zone && balancedAfter(zone))
    .sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0) || compareCodePoints(a, b))
    .map((zone) => ({ ok: true as const, zone, subnetId: firstByName(byZone.get(zone) ?? []) }))
  return { placements, unknownSubnets: [], zones: byZone.size }
}
