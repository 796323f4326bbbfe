/**
 * Observe: one region's snapshot in a handful of paginated reads, whatever the number of groups.
 * Per-instance reads (termination protection) and per-stack reads happen later, only for groups
 * the first plan wants to change.
 */
import type { ConfigError, GlobalConfig, GroupConfig } from '../core/config/config.ts'
import { groupConfig } from '../core/config/group-config.ts'
import { groupQuery, isManaged } from '../core/config/managed.ts'
import { TAG_LAUNCHED_FOR_GROUP, TAG_REPLACING_INSTANCE } from '../core/constants.ts'
import type { EcsProvidersObservation } from '../core/ecs/capacity-provider.ts'
import type { InterruptionStatuses } from '../core/interruption/confirmation.ts'
import type { ScheduledEventsObservation } from '../core/maintenance/events.ts'
import type { UntrustedMarker } from '../core/markers.ts'
import { productDescriptionOf } from '../core/platform.ts'
import type { CloudPort } from '../core/port.ts'
import { doesRegionWork, inLane, type RegionLane } from '../core/region/lanes.ts'
import {
  type FailedReads,
  type FailedRegionRead,
  failedReadsOf,
  heldForUnreadPartners,
} from '../core/region/region-reads.ts'
import type { Catalog, Group, Instance, OnDemandPrices, SpotPriceBook } from '../core/types.ts'
import { verifyObserved } from '../verify-markers.ts'
import { readEcsProviders } from './observe-ecs.ts'
import { readInterruptions } from './observe-interruptions.ts'
import { readPartners, readPrices, readSubnetZones } from './observe-region-reads.ts'
import { readScheduledEvents } from './observe-scheduled.ts'
import { scanStrays, straysAmong } from './observe-strays.ts'

export interface ManagedGroup {
  readonly group: Group
  readonly config: GroupConfig
  /** Pending/running spot instances launched for this group and not (yet) its members. */
  readonly launched: readonly Instance[]
  /** The product description (`Linux/UNIX`, `Windows`, ...) its prices are looked up for. */
  readonly productDescription: string
  /** Why it waits this run: a marker of it or of its instances could not be verified. */
  readonly markersUnverifiable?: string | undefined
  /** Region-level reads it needs that failed this run: it starts nothing (core/region/region-reads.ts). */
  readonly failedReads?: readonly FailedRegionRead[] | undefined
}

export interface RegionSnapshot {
  readonly region: string
  readonly groups: readonly ManagedGroup[]
  /**
   * Every managed group of the region, other lanes' too (commitments are shared across lanes); undefined
   * when the run was asked for some groups only and did not list them all.
   */
  readonly regionGroups?: readonly Group[] | undefined
  readonly instances: ReadonlyMap<string, Instance>
  /** Launched-for spot instances whose group is not managed (or gone) and that are members of no managed group. */
  readonly strays: readonly Instance[]
  /** The groups strays were launched for that still exist (unmanaged now): provenance compares templates. */
  readonly strayGroups?: ReadonlyMap<string, Group>
  /** Why this run's strays were left for the next run (a read about them failed); undefined when they were not. */
  readonly straysUnreadable?: string
  /** The error the read of launches' partners ended in: those launches' groups wait (core/region/region-reads.ts). */
  readonly partnersUnreadable?: string
  readonly catalog: Catalog
  readonly spotPrices: ReadonlyMap<string, SpotPriceBook>
  readonly onDemandPrices: ReadonlyMap<string, OnDemandPrices>
  readonly configErrors: readonly ConfigError[]
  /** Zones of group subnets no instance is in, read only for groups with a member outside their subnets. */
  readonly subnetZones: ReadonlyMap<string, string>
  /** The Spot request status of members tagged as warned; undefined when none is (observe-interruptions.ts). */
  readonly interruptions?: InterruptionStatuses | undefined
  /** Markers whose MAC did not verify, or expired: treated as absent, reported. */
  readonly untrustedMarkers?: readonly UntrustedMarker[]
  /** Members' EC2 scheduled events; undefined when there was no managed group to read them for. */
  readonly scheduledEvents?: ScheduledEventsObservation | undefined
  /** The region's ECS capacity providers; undefined when no group carries AmazonECSManaged (observe-ecs.ts). */
  readonly ecsProviders?: EcsProvidersObservation | undefined
}

export interface ObserveScope {
  /** Only these groups (a launch event, or one chunk of a large region); undefined = all managed groups. */
  readonly onlyGroups?: ReadonlySet<string> | undefined
  /**
   * With fan-out: a region with more managed groups than this is not observed further; its groups are
   * returned in chunks of this size, to be enqueued as separate work.
   */
  readonly splitAbove?: number | undefined
  /** Only this lane's groups (core/region/lanes.ts); strays only in the lane that does the region's work. */
  readonly lane?: RegionLane | undefined
}

/** Managed groups of a region too large for one invocation, in chunks, and the region's strays. */
export interface DeferredRegion {
  readonly region: string
  readonly chunks: readonly (readonly string[])[]
  /** Chunk workers only see their own groups, so strays are found here, against all managed groups. */
  readonly strays: readonly Instance[]
  readonly strayGroups?: ReadonlyMap<string, Group>
  readonly straysUnreadable?: string
  /** Every managed group of the region, all lanes': what the splitting run weighs the commitments against. */
  readonly regionGroups: readonly Group[]
}

const memberIdsOf = (groups: readonly Group[]): Set<string> => {
  const ids = new Set<string>()
  for (const group of groups) for (const member of group.members) ids.add(member.instanceId)
  return ids
}

/** The platform of the group's first member whose details say one. */
const firstPlatform = (group: Group, instances: ReadonlyMap<string, Instance>): string | undefined => {
  for (const member of group.members) {
    const platform = instances.get(member.instanceId)?.platform
    if (platform !== undefined) return platform
  }
  return undefined
}

/**
 * Subnets whose zone a plan may need and no observed instance tells, by group: those of groups with a
 * member outside the group's current subnets (the owner moved the group), so a converged account reads none.
 */
const subnetsToRead = (
  groups: readonly Group[],
  instances: ReadonlyMap<string, Instance>,
): Map<string, string[]> => {
  const moved = groups.filter(
    (group) =>
      group.subnetIds.length > 0 &&
      group.members.some((m) => {
        const subnet = instances.get(m.instanceId)?.subnetId
        return subnet !== undefined && !group.subnetIds.includes(subnet)
      }),
  )
  const unread = new Map<string, string[]>()
  // A converged account has no such group: the scan of every instance below is skipped.
  if (moved.length === 0) return unread
  const seen = new Set<string>()
  for (const instance of instances.values()) if (instance.subnetId !== undefined) seen.add(instance.subnetId)
  for (const group of moved) {
    const subnets = group.subnetIds.filter((s) => !seen.has(s))
    if (subnets.length > 0) unread.set(group.name, subnets)
  }
  return unread
}

/** A run judges the launches of its own groups, and with the stray scan those of groups not managed. */
const judgesLaunchesFor = (
  runGroups: readonly Group[],
  managed: readonly Group[],
  strayScan: boolean,
): ((name: string) => boolean) => {
  const own = new Set(runGroups.map((g) => g.name))
  const managedNames = new Set(managed.map((g) => g.name))
  return (name) => own.has(name) || (strayScan && !managedNames.has(name))
}

const chunksOf = (names: readonly string[], size: number): string[][] =>
  Array.from({ length: Math.ceil(names.length / size) }, (_, i) => names.slice(i * size, (i + 1) * size))

const emptySnapshot = (region: string): RegionSnapshot => ({
  region,
  groups: [],
  instances: new Map(),
  strays: [],
  catalog: new Map(),
  spotPrices: new Map(),
  onDemandPrices: new Map(),
  configErrors: [],
  subnetZones: new Map(),
})

export const observeRegion = async (
  cloud: CloudPort,
  config: GlobalConfig,
  now: Date,
  scope: ObserveScope = {},
): Promise<RegionSnapshot | DeferredRegion> => {
  const { onlyGroups, splitAbove, lane } = scope
  const query = groupQuery(config)
  // Some groups asked for (a chunk of a large region, a run request): those are read by name, not the
  // whole region listed again.
  const allGroups = await cloud.describeGroups(
    onlyGroups === undefined ? query : { ...query, names: [...onlyGroups].sort() },
  )
  const listed = allGroups.filter(
    (g) => isManaged(g.tags, config) && (onlyGroups === undefined || onlyGroups.has(g.name)),
  )
  // Lanes of a region may run at once: this run reads and writes only its lane's groups.
  const laneGroups = lane === undefined ? listed : listed.filter((g) => inLane(g.name, lane))
  // Strays are judged against every managed group: another lane's launches are not strays.
  const strayScan = onlyGroups === undefined && doesRegionWork(lane)
  if (onlyGroups === undefined && splitAbove !== undefined && laneGroups.length > splitAbove) {
    const names = laneGroups.map((g) => g.name).sort()
    const launched = await cloud.describeLaunchedSpotInstances()
    const candidates = strayScan ? straysAmong(launched, listed, memberIdsOf(listed)) : []
    const verified = await verifyObserved(cloud, [], candidates, now)
    const strays = candidates
      .filter((i) => !verified.heldInstances.has(i.id))
      .map((i) => verified.instances.get(i.id) ?? i)
    return {
      region: cloud.region,
      chunks: chunksOf(names, splitAbove),
      ...(await scanStrays(cloud, query, strays, allGroups)),
      regionGroups: listed,
    }
  }
  // A lane with none of the region's managed groups and no region work has nothing to read further.
  if (laneGroups.length === 0 && !strayScan) return emptySnapshot(cloud.region)
  const [launchedAll, catalog] = await Promise.all([
    cloud.describeLaunchedSpotInstances(),
    cloud.describeInstanceTypes(),
  ])
  const memberIds = memberIdsOf(listed)
  const judges = judgesLaunchesFor(laneGroups, listed, strayScan)
  const read = new Map<string, Instance>()
  for (const instance of launchedAll) read.set(instance.id, instance)
  // Details of this run's members only: another lane's are that lane's business (strays need only their ids).
  const missing: string[] = []
  for (const id of laneGroups === listed ? memberIds : memberIdsOf(laneGroups))
    if (!read.has(id)) missing.push(id)
  const memberDetails = missing.length > 0 ? await cloud.describeInstances(missing) : []
  for (const instance of memberDetails) read.set(instance.id, instance)
  // Provenance reads what a launch's partner recorded, also once it left its group (core/group/provenance.ts).
  const partners = new Set<string>()
  for (const instance of launchedAll) {
    const partner = instance.tags[TAG_REPLACING_INSTANCE]
    if (partner === undefined || memberIds.has(instance.id) || read.has(partner)) continue
    if (judges(instance.tags[TAG_LAUNCHED_FOR_GROUP] ?? '')) partners.add(partner)
  }
  const partnerRead = await readPartners(cloud, [...partners])
  for (const instance of partnerRead.answer) read.set(instance.id, instance)
  const unreadPartners =
    partnerRead.error === undefined
      ? new Map<string, string>()
      : heldForUnreadPartners(launchedAll, partners, partnerRead.error)
  const verified = await verifyObserved(cloud, laneGroups, [...read.values()], now, {
    groups: laneGroups,
    judgesLaunchesFor: judges,
  })
  const managed = verified.groups
  // Every instance read, by id in the order read, each with only its believed markers: what the snapshot
  // holds (not copied back over the map read: 100,000 entries a pass).
  const instances = verified.instances
  const launched = launchedAll.map((i) => instances.get(i.id) ?? i)

  const unattachedByGroup = new Map<string, Instance[]>()
  for (const instance of launched) {
    const owner = instance.tags[TAG_LAUNCHED_FOR_GROUP]
    if (owner === undefined || memberIds.has(instance.id)) continue
    const list = unattachedByGroup.get(owner) ?? []
    list.push(instance)
    unattachedByGroup.set(owner, list)
  }
  const configErrors: ConfigError[] = []
  const groups = managed.map((group): ManagedGroup => {
    const { config: effective, errors } = groupConfig(config.defaults, group.name, group.tags)
    configErrors.push(...errors)
    return {
      group,
      config: effective,
      launched: unattachedByGroup.get(group.name) ?? [],
      productDescription: productDescriptionOf(firstPlatform(group, instances)),
      markersUnverifiable: verified.heldGroups.get(group.name) ?? unreadPartners.get(group.name),
    }
  })
  // When some groups were asked for, strays of other groups are the next full run's business.
  const strays = strayScan
    ? straysAmong(launched, listed, memberIds).filter((i) => !verified.heldInstances.has(i.id))
    : []
  const strayScanned = await scanStrays(cloud, query, strays, allGroups)

  const descriptions = [...new Set(groups.map((g) => g.productDescription))].sort()
  const unreadSubnets = subnetsToRead(managed, instances)
  const [prices, subnets, interruptions, scheduledEvents, ecsProviders] = await Promise.all([
    readPrices(cloud, descriptions, now),
    readSubnetZones(cloud, [...new Set([...unreadSubnets.values()].flat())].sort()),
    readInterruptions(cloud, managed, instances),
    readScheduledEvents(cloud, managed),
    readEcsProviders(cloud, managed),
  ])
  const failed = { prices: prices.unreadable, subnets: subnets.error }
  return {
    region: cloud.region,
    groups: groups.map((g) => withFailedReads(g, failed, unreadSubnets.get(g.group.name) ?? [])),
    regionGroups: onlyGroups === undefined ? listed : undefined,
    instances,
    ...strayScanned,
    ...(partnerRead.error === undefined ? {} : { partnersUnreadable: partnerRead.error }),
    catalog,
    spotPrices: prices.spotPrices,
    onDemandPrices: prices.onDemandPrices,
    configErrors,
    subnetZones: subnets.zones,
    interruptions,
    untrustedMarkers: verified.untrusted,
    scheduledEvents,
    ecsProviders,
  }
}

/** The group with the failed reads it needs (core/region/region-reads.ts); as it was when none. */
export const withFailedReads = (
  managed: ManagedGroup,
  failed: FailedReads,
  subnets: readonly string[],
): ManagedGroup => {
  const reads = failedReadsOf(managed.group.name, managed.productDescription, subnets, failed)
  if (reads.length === 0) return managed
  return { ...managed, failedReads: [...(managed.failedReads ?? []), ...reads] }
}
