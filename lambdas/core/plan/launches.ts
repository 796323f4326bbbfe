/**
 * New replacements: which members get a spot replacement this run, with which ranked, diversified
 * candidate types, tags and idempotency token. Pure, like the rest of the planner.
 */

import type { GroupConfig } from '../config/config.ts'
import {
  CAPACITY_BACKOFF_FIRST_MINUTES,
  CAPACITY_BACKOFF_MAX_MINUTES,
  CHEAPER_POOL_MOVES_PER_RUN,
  MAX_POOL_SHARE,
  TAG_NO_SPOT_CAPACITY_UNTIL,
  TAG_REPLACED_TYPE,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
} from '../constants.ts'
import type { FleetOverride } from '../port.ts'
import type { Catalog, Group, GroupMember, Instance, InstanceTypeInfo } from '../types.ts'
import { poolKey } from '../types.ts'
import type { InstanceSkip, InstanceSkipCode, LaunchSpotAction, ReleaseDoomedAction } from './actions.ts'
import { clientToken, nextAttempt } from './attempts.ts'
import { type FleetChoices, fleetChoices } from './fleet-choices.ts'
import { launchTags } from './launch-tags.ts'
import { byLaunchTimeThenId, type PlanInput } from './plan-input.ts'
import { compareCodePoints, type RankedCandidate, type Selection, selectCandidates } from './selection.ts'
import { balancedElsewhere, type Placement, placementFor, subnetZonesSeen } from './subnets.ts'
import type { WorkMeter } from './work-budget.ts'

export interface LaunchBudget {
  /** Launches allowed in total (in-flight limit), replacements of doomed members aside. */
  readonly budget: number
  /**
   * Members EC2 will interrupt within two minutes (TAG_INTERRUPTION_WARNED): replaced first, outside the
   * budget and the capacity back-off; one that cannot be replaced is released (leaves the group) instead.
   */
  readonly doomed: ReadonlySet<string>
  /** Of which replacing on-demand instances (on-demand minimum). */
  readonly onDemandBudget: number
  /**
   * Spot members that may move to a cheaper pool (CHEAPER_POOL_MIN_SAVING_PERCENTAGE): one per run at
   * most, within the budget, only into a pool that much cheaper with room under its share.
   */
  readonly movable: readonly GroupMember[]
  readonly eligible: readonly GroupMember[]
  readonly spotMembers: readonly GroupMember[]
  readonly pendingSpot: readonly Instance[]
  readonly targetSpot: number
  readonly instanceSkips: InstanceSkip[]
  /** The group's on-demand minimum, named when it stops the launches. */
  readonly minOnDemand: number
  /** Replacements already under way (launched, not attached), which take part of the in-flight limit. */
  readonly inFlight: readonly string[]
  /** Counts the group's selection work (core/plan/work-budget.ts); none counts nothing. */
  readonly meter?: WorkMeter
  /** Collects the group subnets whose zone a zone move needed and nobody knew (read, then planned again). */
  readonly unknownSubnets?: Set<string>
}

/**
 * A member waits for the in-flight budget: named with what takes it (`i-1 (replacing i-9), ...`). The
 * reason is built once per number of launches, not once per waiting member: in a large first run most
 * members of every group wait, and all of them on the same launches.
 */
const budgetWaits = (
  budget: LaunchBudget,
  launches: readonly (LaunchSpotAction | ReleaseDoomedAction)[],
): ((instanceId: string) => InstanceSkip) => {
  let known: { readonly launches: number; readonly reason: string } | undefined
  return (instanceId) => {
    if (known === undefined || known.launches !== launches.length) {
      const names = [...budget.inFlight]
      for (const l of launches) if (l.kind === 'launch-spot') names.push(`a launch for ${l.replacing}`)
      const limit = Math.max(0, budget.budget) + budget.inFlight.length
      const takenBy = names.length === 0 ? 'nothing (the limit is 0)' : names.join(', ')
      known = {
        launches: launches.length,
        reason: `in-flight-budget: ${limit} replacement(s) at a time, taken by ${takenBy}`,
      }
    }
    return { instanceId, code: 'in-flight-budget', reason: known.reason }
  }
}

/**
 * No spot type priced in the zone passes the filters: name the types nearest in size to the original
 * among those priced there, each with the first filter that refused it, so the owner knows what to
 * change (allow a type, raise the price multiplier, or leave the zone).
 */
const noCandidateDetail = (
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

/** Per-run caches of selections when the caller keeps none (tests, one-off plans). */
const ownCaches = new WeakMap<PlanInput, Map<string, Selection>>()

/**
 * A run's selection cache indexed by settings key, zone and type, kept beside the cache it indexes (and
 * dropped with it). Every instance of a large run asks (launches, liveness savings, moves), and a lookup by
 * `type|zone|settings` builds and hashes a new string of a hundred characters each time; these keys are
 * strings already built and hashed. Each entry is the cache's own entry for the same key.
 */
const cacheIndexes = new WeakMap<Map<string, Selection>, Map<string, Map<string, Map<string, Selection>>>>()

const indexOf = (
  cache: Map<string, Selection>,
  settingsKey: string,
  zone: string,
): Map<string, Selection> => {
  let bySettings = cacheIndexes.get(cache)
  if (bySettings === undefined) {
    bySettings = new Map()
    cacheIndexes.set(cache, bySettings)
  }
  let byZone = bySettings.get(settingsKey)
  if (byZone === undefined) {
    byZone = new Map()
    bySettings.set(settingsKey, byZone)
  }
  let byType = byZone.get(zone)
  if (byType === undefined) {
    byType = new Map()
    byZone.set(zone, byType)
  }
  return byType
}

/** The selection for a type in a zone, shared by the groups of a run that agree on the settings. */
const cachedSelection = (
  input: PlanInput,
  config: GroupConfig,
  baseType: string,
  original: InstanceTypeInfo,
  zone: string,
  onDemandPrice: number,
  meter?: WorkMeter,
): Selection => {
  let cache = input.selectionCache ?? ownCaches.get(input)
  if (cache === undefined) {
    cache = new Map()
    ownCaches.set(input, cache)
  }
  const settingsKey = selectionSettingsKey(config)
  const index = indexOf(cache, settingsKey, zone)
  let selection = index.get(baseType)
  if (selection === undefined) {
    const cacheKey = `${baseType}|${zone}|${settingsKey}`
    selection = cache.get(cacheKey)
    if (selection === undefined) {
      selection = selectCandidates(
        input.catalog,
        { original, zone, config, spotPrices: input.spotPrices, originalOnDemandPrice: onDemandPrice },
        meter,
      )
      cache.set(cacheKey, selection)
    }
    index.set(baseType, selection)
  }
  return selection
}

/**
 * What replacing an on-demand instance of `type` in `zone` would save per hour at today's prices: its
 * on-demand price less the cheapest compatible spot price there; undefined when nothing can replace it.
 */
export const projectedSaving = (
  input: PlanInput,
  config: GroupConfig,
  type: string,
  zone: string,
  meter?: WorkMeter,
): number | undefined => {
  const original = input.catalog.get(type)
  const onDemandPrice = input.onDemandPrices.get(type)
  if (original === undefined || onDemandPrice === undefined) return undefined
  const first = cachedSelection(input, config, type, original, zone, onDemandPrice, meter).ranked[0]
  return first === undefined ? undefined : Math.max(0, onDemandPrice - first.spotPriceUsd)
}

const countRejections = (selection: Selection): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const filter of selection.rejected.values()) counts[filter] = (counts[filter] ?? 0) + 1
  return counts
}

const settingsKeys = new WeakMap<GroupConfig, string>()

/** The settings a selection depends on; groups that agree on them share selections. */
const selectionSettingsKey = (config: GroupConfig): string => {
  let key = settingsKeys.get(config)
  if (key === undefined) {
    key = settingsKeyOf(config)
    settingsKeys.set(config, key)
  }
  return key
}

const settingsKeyOf = (config: GroupConfig): string =>
  JSON.stringify([
    config.allowedInstanceTypes,
    config.disallowedInstanceTypes,
    config.onDemandPriceMultiplier,
    config.prioritizedInstanceTypesBias,
  ])

/**
 * When the instance's last capacity back-off ended; never backed off sorts first. Taking the least
 * recently failed first is a rotation: an instance whose pools stay empty cannot take the group's
 * in-flight budget run after run while another, in a zone that has capacity, waits behind it.
 */
const lastBackoffEnd = (instance: Instance): number =>
  Date.parse(instance.tags[TAG_NO_SPOT_CAPACITY_UNTIL] ?? '') || Number.NEGATIVE_INFINITY

/** 5, 10, 20, then 30 minutes: the more attempts an instance needed, the longer until the next. */
export const capacityBackoffMinutes = (attempt: number): number =>
  Math.min(CAPACITY_BACKOFF_MAX_MINUTES, CAPACITY_BACKOFF_FIRST_MINUTES * 2 ** Math.max(0, attempt - 1))

const compareBackoffEnds = (endA: number, endB: number): number => (endA === endB ? 0 : endA < endB ? -1 : 1)

/** Doomed first (their capacity goes in two minutes), then at-risk spot members, then on-demand ones. */
const urgency = (instance: Instance, doomed: ReadonlySet<string>): number =>
  doomed.has(instance.id) ? 0 : instance.lifecycle === 'spot' ? 1 : 2

export const planLaunches = (
  input: PlanInput,
  config: GroupConfig,
  budget: LaunchBudget,
): (LaunchSpotAction | ReleaseDoomedAction)[] => {
  const { group, catalog } = input
  const launches: (LaunchSpotAction | ReleaseDoomedAction)[] = []
  const release = (instanceId: string, why: string): void => {
    launches.push({
      kind: 'release-doomed',
      group: group.name,
      instanceId,
      reason: `interrupted soon and not replaceable ahead: ${why}`,
    })
  }
  const waitsOnBudget = budgetWaits(budget, launches)
  if (budget.budget <= 0 && budget.doomed.size === 0) {
    // Replacements under way take the whole budget: every member waits on them, and is told so.
    for (const member of budget.eligible) budget.instanceSkips.push(waitsOnBudget(member.instanceId))
    return launches
  }
  if (!group.launchTemplate && !group.launchConfigurationName && !group.mixedInstancesPolicy) {
    for (const member of budget.eligible)
      budget.instanceSkips.push({
        instanceId: member.instanceId,
        code: 'no-launch-template',
        reason: 'no-launch-template: the group has no template or configuration',
      })
    for (const member of budget.eligible)
      if (
        budget.doomed.has(member.instanceId) &&
        !member.protectedFromScaleIn &&
        !input.terminationProtected.has(member.instanceId)
      )
        release(member.instanceId, 'the group has no launch template or configuration')
    return launches
  }
  const selectionFor = (
    baseType: string,
    original: InstanceTypeInfo,
    zone: string,
    onDemandPrice: number,
  ): Selection => cachedSelection(input, config, baseType, original, zone, onDemandPrice, budget.meter)
  // Subnet zones are only looked up when an instance's own subnet left the group's VPCZoneIdentifier.
  let zones: ReadonlyMap<string, string> | undefined
  const subnetZones = (): ReadonlyMap<string, string> => {
    zones ??= subnetZonesSeen(input.instances.values(), input.subnetZones)
    return zones
  }
  const placementOf = (instance: Instance): Placement => placementFor(group, instance, subnetZones)
  // Zone moves under way: a replacement in another zone than its partner's (+1 there, -1 at the partner's).
  const zoneShift = new Map<string, number>()
  const shiftZones = (from: string, to: string): void => {
    if (from === to) return
    zoneShift.set(from, (zoneShift.get(from) ?? 0) - 1)
    zoneShift.set(to, (zoneShift.get(to) ?? 0) + 1)
  }
  for (const pending of budget.pendingSpot) {
    const partner = input.instances.get(pending.tags[TAG_REPLACING_INSTANCE] ?? '')
    if (partner !== undefined) shiftZones(partner.zone, pending.zone)
  }
  const moves = moveCandidates(input, config, budget, selectionFor, placementOf)
  // Nothing to replace (a converged group): no pools to count, no dates to format.
  if (budget.eligible.length === 0 && moves.length === 0) return launches
  const poolCounts = new Map<string, number>()
  const countPool = (key: string): void => {
    poolCounts.set(key, (poolCounts.get(key) ?? 0) + 1)
  }
  for (const member of budget.spotMembers) {
    const instance = input.instances.get(member.instanceId)
    if (instance) countPool(poolKey(instance.type, instance.zone))
  }
  for (const instance of budget.pendingSpot) countPool(poolKey(instance.type, instance.zone))

  const protectedFromTermination = (id: string): boolean => input.terminationProtected.has(id)
  // A loop, not map().filter(): optimized `map` returns arrays of another shape than the interpreter's,
  // and the `filter` after it then throws the optimized code away once per run.
  // Sort keys worked out once per member, not once per comparison (a back-off end is a date to parse).
  const eligible: { member: GroupMember; instance: Instance; urgency: number; backoffEnd: number }[] = []
  for (const member of budget.eligible) {
    const instance = input.instances.get(member.instanceId)
    if (instance !== undefined)
      eligible.push({
        member,
        instance,
        urgency: urgency(instance, budget.doomed),
        backoffEnd: lastBackoffEnd(instance),
      })
  }
  eligible.sort(
    (a, b) =>
      a.urgency - b.urgency ||
      compareBackoffEnds(a.backoffEnd, b.backoffEnd) ||
      byLaunchTimeThenId(a.instance, b.instance),
  )

  // The back-off each attempt number would get; formatting a date is dear enough to do once per group.
  const backoffUntil = new Map<number, string>()
  const capacityBackoffUntilFor = (attempt: number): string => {
    let until = backoffUntil.get(attempt)
    if (until === undefined) {
      until = new Date(input.now.getTime() + capacityBackoffMinutes(attempt) * 60_000).toISOString()
      backoffUntil.set(attempt, until)
    }
    return until
  }
  const launch = (
    instance: Instance,
    baseType: string,
    { first, overrides }: FleetChoices,
    what: { readonly doomed: boolean; readonly expectedHourlySavingsUsd: number; readonly reason: string },
  ): void => {
    const { attempt, since } = nextAttempt(
      instance.tags[TAG_REPLACEMENT_ATTEMPT],
      input.now,
      input.scheduleMinutes * 30_000,
    )
    countPool(first.pool)
    const templates = overrideTemplates(group, instance.type)
    launches.push({
      kind: 'launch-spot',
      group: group.name,
      replacing: instance.id,
      replacingType: instance.type,
      zone: instance.zone,
      launchTemplate: group.launchTemplate ?? group.mixedInstancesPolicy?.launchTemplate,
      launchConfigurationName: group.launchConfigurationName,
      overrides: templates === undefined ? overrides : overrides.map(templates),
      allocationStrategy: config.spotAllocationStrategy,
      tags: launchTags(group, instance, baseType),
      clientToken: clientToken(instance.id, attempt),
      attempt,
      attemptSince: since,
      capacityBackoffUntil: capacityBackoffUntilFor(attempt),
      releaseIfNotLaunched: what.doomed,
      expectedHourlySavingsUsd: what.expectedHourlySavingsUsd,
      reason: what.reason,
    })
  }
  let onDemandLaunches = 0
  let budgeted = 0
  const skip = (
    instance: Instance,
    code: InstanceSkipCode,
    detail: string,
    extra: Pick<InstanceSkip, 'rejectedBy'> = {},
  ): void => {
    const reason = detail === '' ? code : `${code}: ${detail}`
    budget.instanceSkips.push({ instanceId: instance.id, code, reason, ...extra })
    // A doomed member must not wait for EC2: the group backfills now instead.
    if (budget.doomed.has(instance.id)) release(instance.id, reason)
  }
  // Where the loop stopped, and why: the members after it wait, and are told so (core/plan/liveness.ts).
  let stopped: { readonly at: number; readonly code: 'in-flight-budget' | 'on-demand-minimum' } | undefined
  for (const [index, { member, instance }] of eligible.entries()) {
    const doomed = budget.doomed.has(instance.id)
    if (!doomed && budgeted >= budget.budget) {
      stopped = { at: index, code: 'in-flight-budget' }
      break
    }
    const replacingOnDemand = instance.lifecycle === 'on-demand'
    if (replacingOnDemand && onDemandLaunches >= budget.onDemandBudget) {
      stopped = { at: index, code: 'on-demand-minimum' }
      break
    }
    // Protected members are never touched, doomed or not: EC2 takes them and the group backfills.
    if (member.protectedFromScaleIn) {
      budget.instanceSkips.push({
        instanceId: instance.id,
        code: 'protected-from-scale-in',
        reason: 'protected-from-scale-in',
      })
      continue
    }
    if (protectedFromTermination(instance.id)) {
      budget.instanceSkips.push({
        instanceId: instance.id,
        code: 'api-termination-protection',
        reason: 'api-termination-protection',
      })
      continue
    }
    const backoffUntil = Date.parse(instance.tags[TAG_NO_SPOT_CAPACITY_UNTIL] ?? '')
    if (!doomed && backoffUntil > input.now.getTime()) {
      skip(
        instance,
        'spot-capacity-backoff',
        `no candidate pool had capacity; next try at ${new Date(backoffUntil).toISOString()}`,
      )
      continue
    }
    // An at-risk spot member is measured against the on-demand type it once replaced.
    const baseType = replacingOnDemand ? instance.type : (instance.tags[TAG_REPLACED_TYPE] ?? instance.type)
    const original = catalog.get(baseType)
    if (!original) {
      skip(instance, 'unknown-instance-type', `${baseType} is not in the instance type catalogue`)
      continue
    }
    const onDemandPrice = input.onDemandPrices.get(baseType)
    if (onDemandPrice === undefined) {
      skip(instance, 'missing-on-demand-price', `no on-demand price for ${baseType}; not replacing blind`)
      continue
    }
    const placement = placementOf(instance)
    if (!placement.ok) {
      skip(instance, 'no-subnet-in-group', placement.detail)
      continue
    }
    let selection = selectionFor(baseType, original, placement.zone, onDemandPrice)
    let zone: Extract<Placement, { ok: true }> = placement
    let elsewhereNote = ''
    // No compatible pool in its zone: an on-demand member may be replaced in another of the group's zones
    // if the group stays balanced (the zone-balanced oracle of the benchmark does the same).
    if (selection.ranked.length === 0 && replacingOnDemand && !doomed) {
      const elsewhere = balancedElsewhere(group, instance, subnetZones(), zoneShift)
      for (const subnet of elsewhere.unknownSubnets) budget.unknownSubnets?.add(subnet)
      for (const other of elsewhere.placements) {
        const there = selectionFor(baseType, original, other.zone, onDemandPrice)
        if (there.ranked.length === 0) continue
        selection = there
        zone = other
        break
      }
      elsewhereNote =
        elsewhere.unknownSubnets.length > 0
          ? `; the zones of subnets ${elsewhere.unknownSubnets.join(', ')} are not known yet`
          : elsewhere.zones <= 1
            ? ''
            : elsewhere.placements.length === 0
              ? '; no other zone of the group keeps it balanced'
              : '; no other zone that keeps the group balanced has a compatible pool either'
    }
    if (selection.ranked.length === 0) {
      // Every catalogue type through the filters, once per selection.
      budget.meter?.charge(catalog.size)
      skip(
        instance,
        'no-compatible-spot-type',
        `${noCandidateDetail(catalog, selection, original, instance.zone)}${elsewhereNote}`,
        {
          rejectedBy: countRejections(selection),
        },
      )
      continue
    }
    // Never back into the pool AWS just flagged.
    const atRiskPool = replacingOnDemand ? undefined : poolKey(instance.type, instance.zone)
    const ranked =
      atRiskPool === undefined ? selection.ranked : selection.ranked.filter((c) => c.pool !== atRiskPool)
    if (ranked.length === 0) {
      skip(instance, 'no-compatible-spot-type', 'only the at-risk pool itself is compatible')
      continue
    }
    const { first, overrides } = fleetChoices(
      ranked,
      poolCounts,
      budget.targetSpot,
      input.maxPoolShare ?? MAX_POOL_SHARE,
      zone.subnetId,
    )
    shiftZones(instance.zone, zone.zone)
    if (replacingOnDemand) onDemandLaunches++
    if (!doomed) budgeted++
    launch(
      instance,
      baseType,
      { first, overrides },
      {
        doomed,
        expectedHourlySavingsUsd: onDemandPrice - first.spotPriceUsd,
        reason: replacingOnDemand
          ? `on-demand ${instance.type} above the minimum; ${first.instanceType} spot at $${first.spotPriceUsd} vs $${onDemandPrice} on-demand${zone.zone === instance.zone ? '' : ` in ${zone.zone} (${instance.zone} has no compatible spot pool; the group stays balanced)`}`
          : `spot ${instance.type} ${doomed ? 'interrupted in two minutes' : 'at risk (rebalance recommendation)'}; moving to ${first.instanceType} at $${first.spotPriceUsd}`,
      },
    )
  }

  if (stopped !== undefined) {
    for (const { instance } of eligible.slice(stopped.at)) {
      if (budget.doomed.has(instance.id)) continue
      budget.instanceSkips.push(
        stopped.code === 'in-flight-budget'
          ? waitsOnBudget(instance.id)
          : {
              instanceId: instance.id,
              code: 'on-demand-minimum',
              reason: `on-demand-minimum: the group keeps ${budget.minOnDemand} on-demand instance(s)`,
            },
      )
    }
  }

  // Last, with what is left of the budget: spot members a pool with room is markedly cheaper than.
  const cap = Math.max(1, Math.ceil(budget.targetSpot * (input.maxPoolShare ?? MAX_POOL_SHARE)))
  let moved = 0
  for (const move of moves) {
    if (budgeted >= budget.budget || moved >= CHEAPER_POOL_MOVES_PER_RUN) break
    const open = move.cheaper.filter((c) => (poolCounts.get(c.pool) ?? 0) < cap)
    if (open.length === 0) continue
    const choices = fleetChoices(
      open,
      poolCounts,
      budget.targetSpot,
      input.maxPoolShare ?? MAX_POOL_SHARE,
      move.subnetId,
    )
    budgeted++
    moved++
    launch(move.instance, move.baseType, choices, {
      doomed: false,
      expectedHourlySavingsUsd: move.ownPrice - choices.first.spotPriceUsd,
      reason: `spot ${move.instance.type} at $${move.ownPrice}; ${choices.first.instanceType} at $${choices.first.spotPriceUsd} is at least ${config.cheaperPoolMinSavingPercentage}% cheaper`,
    })
  }
  return launches
}

interface MoveCandidate {
  readonly instance: Instance
  readonly subnetId: string | undefined
  readonly baseType: string
  readonly ownPrice: number
  /** Candidates at least the configured saving cheaper, before the pool share is applied. */
  readonly cheaper: readonly RankedCandidate[]
}

/**
 * Movable members with some markedly cheaper candidate, in member order. Members of one pool ask the
 * same question, so each pool is looked at once per group (a converged fleet: one look per pool, no more).
 */
const moveCandidates = (
  input: PlanInput,
  config: GroupConfig,
  budget: LaunchBudget,
  selectionFor: (baseType: string, original: InstanceTypeInfo, zone: string, onDemand: number) => Selection,
  placementOf: (instance: Instance) => Placement,
): MoveCandidate[] => {
  const minSaving = config.cheaperPoolMinSavingPercentage / 100
  if (minSaving <= 0 || budget.movable.length === 0) return []
  const byPool = new Map<string, { ownPrice: number; cheaper: readonly RankedCandidate[] } | null>()
  const found: MoveCandidate[] = []
  for (const member of budget.movable) {
    const instance = input.instances.get(member.instanceId)
    if (instance === undefined) continue
    const baseType = instance.tags[TAG_REPLACED_TYPE] ?? instance.type
    const own = poolKey(instance.type, instance.zone)
    const key = baseType === instance.type ? own : `${baseType}|${own}`
    let answer = byPool.get(key)
    if (answer === undefined) {
      const ownPrice = input.spotPrices.get(own)
      const original = input.catalog.get(baseType)
      const onDemandPrice = input.onDemandPrices.get(baseType)
      if (ownPrice === undefined || original === undefined || onDemandPrice === undefined) answer = null
      else {
        const selection = selectionFor(baseType, original, instance.zone, onDemandPrice)
        const cheaper = cheaperThan(selection, own, ownPrice * (1 - minSaving))
        answer = cheaper.length === 0 ? null : { ownPrice, cheaper }
      }
      byPool.set(key, answer)
    }
    if (answer === null) continue
    if (member.protectedFromScaleIn || input.terminationProtected.has(instance.id)) continue
    if (Date.parse(instance.tags[TAG_NO_SPOT_CAPACITY_UNTIL] ?? '') > input.now.getTime()) continue
    // A move stays in its zone (the cheaper pools were found there): only where the group still has a subnet.
    const placement = placementOf(instance)
    if (!placement.ok || placement.zone !== instance.zone) continue
    found.push({ instance, subnetId: placement.subnetId, baseType, ...answer })
  }
  return found
}

/**
 * The candidates of a selection priced at or below `limit`, outside `own`. Every member in the same pool
 * of groups sharing a selection asks the same question each run (usually answered "none"), so the answer
 * is kept with the selection.
 */
const cheaperCache = new WeakMap<Selection, Map<string, readonly RankedCandidate[]>>()
const cheaperThan = (selection: Selection, own: string, limit: number): readonly RankedCandidate[] => {
  let byPool = cheaperCache.get(selection)
  if (byPool === undefined) {
    byPool = new Map()
    cheaperCache.set(selection, byPool)
  }
  const key = `${own}|${limit}`
  let cheaper = byPool.get(key)
  if (cheaper === undefined) {
    cheaper = selection.ranked.filter((c) => c.pool !== own && c.spotPriceUsd <= limit)
    byPool.set(key, cheaper)
  }
  return cheaper
}

/**
 * For a MixedInstancesPolicy that gives some type its own launch template: each fleet override with the
 * template Auto Scaling would launch its type from. A type the policy names goes with its override's
 * template (or the policy's); any other (an allow list wider than the overrides) with the template of the
 * type it replaces, the image that instance runs. Undefined when every type uses the policy's template.
 */
const overrideTemplates = (
  group: Group,
  replacedType: string,
): ((override: FleetOverride) => FleetOverride) | undefined => {
  const policy = group.mixedInstancesPolicy
  if (policy === undefined || !policy.overrides.some((o) => o.launchTemplate !== undefined)) return undefined
  const byType = new Map(
    policy.overrides.map((o) => [o.instanceType, o.launchTemplate ?? policy.launchTemplate]),
  )
  const fallback = byType.get(replacedType) ?? policy.launchTemplate
  return (override) => {
    const launchTemplate = byType.get(override.instanceType) ?? fallback
    return launchTemplate === policy.launchTemplate ? override : { ...override, launchTemplate }
  }
}
