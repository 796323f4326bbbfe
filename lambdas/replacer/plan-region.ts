/**
 * Plans one region's groups in rounds: first with what is cheap to know, then again for the groups whose
 * plans need per-group or per-instance details, once those are read. Which details and which groups is
 * decided in core/region/; the reads are made here, through the port.
 */
import type { MemberCoverage } from '../core/commitments/coverage.ts'
import type { GlobalConfig } from '../core/config/config.ts'
import { ecsManagementOf } from '../core/ecs/capacity-provider.ts'
import type { RefreshObservation } from '../core/group/instance-refresh.ts'
import type { OwnerChanges } from '../core/group/scaling-activities.ts'
import type { HealthObservation } from '../core/group/serving.ts'
import type { GroupPlan } from '../core/plan/actions.ts'
import { planGroup } from '../core/plan/planner.ts'
import type { Selection } from '../core/plan/selection.ts'
import type { CloudPort, LifecycleHook } from '../core/port.ts'
import {
  awaitsActivities,
  changesCapacity,
  detailsMayChange,
  retiresForSwap,
  stackNameOf,
  startsReplacements,
  type UnreadableDetail,
} from '../core/region/details-needed.ts'
import { retiredBy, widenProtectionReads, withoutUnreadProtection } from '../core/region/protection.ts'
import { regionReadSkip } from '../core/region/region-reads.ts'
import { type ManagedGroup, type RegionSnapshot, withFailedReads } from './observe.ts'
import {
  readHealth,
  readOwnerChanges,
  readProtection,
  readStackStatuses,
  readStartingDetails,
} from './observe-details.ts'
import { readSubnetZones } from './observe-region-reads.ts'

/** What every plan of one region run shares. */
export interface PlanContext {
  readonly snapshot: RegionSnapshot
  readonly config: GlobalConfig
  readonly now: Date
  readonly maxPoolShare: number | undefined
  /** One cache per product description (selections depend on its spot prices), kept across passes. */
  readonly caches: Map<string, Map<string, Selection>>
  /** Told what the groups' scaling activities said, once read. */
  readonly onOwnerChanges?: (changes: ReadonlyMap<string, OwnerChanges>) => void
  /** Told about each group whose instance refreshes could not be read. */
  readonly onRefreshUnreadable?: (group: string, error: string) => void
  /** Told about each read of hooks, a stack's status or an instance's protection that failed. */
  readonly onDetailUnreadable?: (detail: UnreadableDetail) => void
  /** The managed members the region's commitments pay for (replacer/commitments.ts). */
  readonly coverage?: ReadonlyMap<string, MemberCoverage> | undefined
}

interface PlanDetails {
  readonly protectedIds: ReadonlySet<string>
  readonly stackStatuses: ReadonlyMap<string, string>
  readonly ownerChanges: ReadonlyMap<string, OwnerChanges>
  readonly health: ReadonlyMap<string, HealthObservation>
  readonly hooks: ReadonlyMap<string, readonly LifecycleHook[]>
  readonly refreshes: ReadonlyMap<string, RefreshObservation>
  readonly stacksUnreadable?: ReadonlyMap<string, string>
  readonly hooksUnreadable?: ReadonlyMap<string, string>
}

const planAll = (
  context: PlanContext,
  details: PlanDetails,
  groups: readonly ManagedGroup[],
): GroupPlan[] => {
  const { snapshot, config, now, maxPoolShare, caches } = context
  const cacheFor = (productDescription: string): Map<string, Selection> => {
    const cache = caches.get(productDescription) ?? new Map<string, Selection>()
    caches.set(productDescription, cache)
    return cache
  }
  return groups.map((managed) =>
    planGroup({
      group: managed.group,
      instances: snapshot.instances,
      launched: managed.launched,
      catalog: snapshot.catalog,
      spotPrices: snapshot.spotPrices.get(managed.productDescription) ?? new Map(),
      onDemandPrices: snapshot.onDemandPrices.get(managed.productDescription)?.prices ?? new Map(),
      config: managed.config,
      scheduleMinutes: config.scheduleMinutes,
      terminationProtected: details.protectedIds,
      stackStatus: details.stackStatuses.get(stackNameOf(managed.group) ?? ''),
      stackStatusUnreadable: details.stacksUnreadable?.get(stackNameOf(managed.group) ?? ''),
      ownerChanges: details.ownerChanges.get(managed.group.name),
      health: details.health.get(managed.group.name),
      lifecycleHooks: details.hooks.get(managed.group.name),
      lifecycleHooksUnreadable: details.hooksUnreadable?.get(managed.group.name),
      markersUnverifiable: managed.markersUnverifiable,
      regionReadSkip: regionReadSkip(managed.failedReads),
      instanceRefresh: details.refreshes.get(managed.group.name),
      subnetZones: snapshot.subnetZones,
      interruptions: snapshot.interruptions,
      scheduledEvents:
        snapshot.scheduledEvents?.kind === 'read' ? snapshot.scheduledEvents.events : undefined,
      ecs: ecsManagementOf(managed.group, snapshot.ecsProviders),
      now,
      selectionCache: cacheFor(managed.productDescription),
      commitments: context.coverage,
      ...(maxPoolShare === undefined ? {} : { maxPoolShare }),
    }),
  )
}

/** The plans with the ones planned again in place of their first ones. */
const replacing = (plans: readonly GroupPlan[], again: readonly GroupPlan[]): GroupPlan[] => {
  const byGroup = new Map(again.map((p) => [p.group, p]))
  return plans.map((p) => byGroup.get(p.group) ?? p)
}

/** A plan that skips a protected instance may pick another one; a few rounds settle it. */
const MAX_PROTECTION_ROUNDS = 3

const NO_DETAILS: PlanDetails = {
  protectedIds: new Set<string>(),
  stackStatuses: new Map<string, string>(),
  ownerChanges: new Map<string, OwnerChanges>(),
  health: new Map<string, HealthObservation>(),
  hooks: new Map<string, readonly LifecycleHook[]>(),
  refreshes: new Map<string, RefreshObservation>(),
}

/** The first plans, and what they were planned with: details cheap to read and needed by few groups. */
interface FirstPlans {
  readonly context: PlanContext
  readonly plans: GroupPlan[]
  readonly health: ReadonlyMap<string, HealthObservation>
  readonly earlyChanges: ReadonlyMap<string, OwnerChanges>
}

/**
 * Plans with what the snapshot tells, then again for the groups whose plans wait on a health read, on the
 * scaling activities or on the zone of a subnet no instance told.
 */
const planFirst = async (given: PlanContext, cloud: CloudPort): Promise<FirstPlans> => {
  let context = given
  const { snapshot } = context
  let plans = planAll(context, NO_DETAILS, snapshot.groups)
  // Swaps waiting for their replacements to serve: with the health read, they may retire partners now.
  const health = await readHealth(cloud, snapshot.groups, plans)
  if (health.size > 0) {
    const waiting = snapshot.groups.filter((g) => health.has(g.group.name))
    plans = replacing(plans, planAll(context, { ...NO_DETAILS, health }, waiting))
  }
  // Swaps whose attach only the scaling activities can confirm: with them read, they close or finish now.
  const unsure = snapshot.groups.filter((_, i) => awaitsActivities(plans[i] as GroupPlan))
  const earlyChanges = await readOwnerChanges(cloud, unsure)
  if (unsure.length > 0) {
    context.onOwnerChanges?.(earlyChanges)
    plans = replacing(plans, planAll(context, { ...NO_DETAILS, health, ownerChanges: earlyChanges }, unsure))
  }
  // A member whose zone has no compatible pool may be replaced in another zone once every zone of its
  // group is known: the subnets no instance told are read (one DescribeSubnets) and the groups planned again.
  // When that read fails, those groups start nothing this run (core/region/region-reads.ts).
  const unknownSubnets = [...new Set(plans.flatMap((p) => p.unknownSubnets ?? []))]
  if (unknownSubnets.length > 0) {
    const read = await readSubnetZones(cloud, unknownSubnets)
    const needing = new Map(plans.flatMap((p) => (p.unknownSubnets ? [[p.group, p.unknownSubnets]] : [])))
    const groups = snapshot.groups.map((g) => {
      const held = withFailedReads(
        g,
        { prices: new Map(), subnets: read.error },
        needing.get(g.group.name) ?? [],
      )
      for (const failed of held.failedReads?.slice(g.failedReads?.length ?? 0) ?? [])
        context.onDetailUnreadable?.(failed)
      return held
    })
    const subnetZones = new Map([...snapshot.subnetZones, ...read.zones])
    context = { ...context, snapshot: { ...snapshot, groups, subnetZones } }
    const again = context.snapshot.groups.filter((g) => needing.has(g.group.name))
    plans = replacing(plans, planAll(context, { ...NO_DETAILS, health, ownerChanges: earlyChanges }, again))
  }
  return { context, plans, health, earlyChanges }
}

type ChangingDetails = Omit<PlanDetails, 'protectedIds' | 'health'> & {
  readonly stacksUnreadable: ReadonlyMap<string, string>
  readonly hooksUnreadable: ReadonlyMap<string, string>
}

/** The details of the groups about to change: their stacks, hooks, refreshes and, before a retirement, activities. */
const readChangingDetails = async (
  first: FirstPlans,
  changing: readonly ManagedGroup[],
  cloud: CloudPort,
): Promise<ChangingDetails> => {
  const { context, plans, earlyChanges } = first
  const { snapshot } = context
  const stackNames = [...new Set(changing.map((g) => stackNameOf(g.group)).filter((n) => n !== undefined))]
  const stacks = await readStackStatuses(cloud, stackNames)
  for (const { group } of changing) {
    const stack = stackNameOf(group) ?? ''
    const error = stacks.unreadable.get(stack)
    if (error !== undefined)
      context.onDetailUnreadable?.({ read: 'stack-status', group: group.name, subject: stack, error })
  }
  const starting = snapshot.groups.filter((_, i) => startsReplacements(plans[i] as GroupPlan))
  const { hooks, hooksUnreadable, refreshes } = await readStartingDetails(cloud, starting)
  for (const [name, refresh] of refreshes)
    if (refresh.kind === 'unreadable') context.onRefreshUnreadable?.(name, refresh.error)
  for (const [name, error] of hooksUnreadable)
    context.onDetailUnreadable?.({ read: 'lifecycle-hooks', group: name, subject: name, error })
  // Read before any retirement of a swap is kept; later details only ever take retirements away.
  const retiring = snapshot.groups.filter(
    (g, i) => retiresForSwap(plans[i] as GroupPlan) && !earlyChanges.has(g.group.name),
  )
  const laterChanges = await readOwnerChanges(cloud, retiring)
  if (retiring.length > 0) context.onOwnerChanges?.(laterChanges)
  return {
    stackStatuses: stacks.statuses,
    stacksUnreadable: stacks.unreadable,
    ownerChanges: new Map([...earlyChanges, ...laterChanges]),
    hooks,
    hooksUnreadable,
    refreshes,
  }
}

/** The group a member or launch belongs to, for a report ('' when none of the snapshot's). */
const groupHolding = (snapshot: RegionSnapshot, id: string): string =>
  snapshot.groups.find(
    (g) => g.group.members.some((m) => m.instanceId === id) || g.launched.some((i) => i.id === id),
  )?.group.name ?? ''

/** What the protection reads of a run found so far. */
interface ProtectionReads {
  readonly checked: Set<string>
  readonly protectedIds: Set<string>
  /** Instances whose protection read failed: not read again this run, and nothing retires them. */
  readonly unreadable: Map<string, string>
}

/** Reads the protection of `ids` into `reads`, reporting each read that failed. */
const readProtectionInto = async (
  context: PlanContext,
  cloud: CloudPort,
  ids: readonly string[],
  reads: ProtectionReads,
): Promise<void> => {
  const read = await readProtection(cloud, ids)
  for (const id of read.protectedIds) reads.protectedIds.add(id)
  for (const id of ids) if (!read.unreadable.has(id)) reads.checked.add(id)
  for (const [id, error] of read.unreadable) {
    reads.unreadable.set(id, error)
    const group = groupHolding(context.snapshot, id)
    context.onDetailUnreadable?.({ read: 'termination-protection', group, subject: id, error })
  }
}

/**
 * Reads the termination protection of what the plans would retire and plans again the groups where
 * details or a protected member change something (a skipped instance may hand its turn to one not yet
 * read, hence the rounds); whatever would touch an instance not read is dropped.
 */
const planAroundProtection = async (
  first: FirstPlans,
  changing: readonly ManagedGroup[],
  details: ChangingDetails,
  cloud: CloudPort,
): Promise<readonly GroupPlan[]> => {
  const { context, health } = first
  let plans = first.plans
  const reads: ProtectionReads = { checked: new Set(), protectedIds: new Set(), unreadable: new Map() }
  // Members to read beside what the plans retire: those of groups where a protected one turned up.
  const alsoRead = new Set<string>()
  let replan = changing.filter((g) => detailsMayChange(g.group, details))
  for (let round = 0; round < MAX_PROTECTION_ROUNDS; round++) {
    const unchecked = [...new Set([...retiredBy(plans), ...alsoRead])].filter(
      (id) => !reads.checked.has(id) && !reads.unreadable.has(id),
    )
    if (unchecked.length > 0) await readProtectionInto(context, cloud, unchecked, reads)
    const widened = widenProtectionReads(
      changing.map((g) => g.group),
      reads.protectedIds,
      context.snapshot.instances,
      reads.checked,
    )
    for (const id of widened.alsoRead) alsoRead.add(id)
    const hit = new Set([...replan.map((g) => g.group.name), ...widened.withProtected])
    if (hit.size === 0 || (unchecked.length === 0 && round > 0)) break
    const again = changing.filter((g) => hit.has(g.group.name))
    plans = replacing(
      plans,
      planAll(context, { ...details, protectedIds: reads.protectedIds, health }, again),
    )
    replan = []
  }
  return withoutUnreadProtection(plans, reads.checked, reads.unreadable)
}

/**
 * Plans with what is cheap to know, then reads per-instance and per-stack details only for what the plan
 * would touch: stack statuses of groups about to change, termination protection of instances about to be
 * retired. Groups whose details change something are planned again. A converged account makes none of
 * these reads.
 */
export const planRegion = async (given: PlanContext, cloud: CloudPort): Promise<readonly GroupPlan[]> => {
  const first = await planFirst(given, cloud)
  // The first plans' groups: a read failed there holds its group in every later round.
  const changing = first.context.snapshot.groups.filter((_, i) =>
    changesCapacity(first.plans[i] as GroupPlan),
  )
  if (changing.length === 0) return first.plans
  const details = await readChangingDetails(first, changing, cloud)
  return planAroundProtection(first, changing, details, cloud)
}
