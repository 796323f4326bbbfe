/**
 * planGroup: the replacer's decision for one group, a pure function of what was observed and `now`.
 * Order of concerns: undo what a crashed run left half-done, tidy spot instances launched earlier,
 * swap the ones that are ready, then start new replacements within the on-demand minimum and the
 * in-flight budget.
 */
import type { Action, GroupPlan, InstanceSkip, LaunchSpotAction, SwapPair } from './actions.ts'
import { inFlightLimit, minOnDemandCount } from './capacity.ts'
import type { GroupConfig } from './config.ts'
import {
  CAPACITY_BACKOFF_MINUTES,
  GRACE_SLACK_SECONDS,
  MAX_FLEET_OVERRIDES,
  MAX_POOL_SHARE,
  ORPHAN_SCHEDULE_PERIODS,
  TAG_LAUNCHED_BY,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_NO_SPOT_CAPACITY_UNTIL,
  TAG_ORIGINAL_MAX_SIZE,
  TAG_REBALANCE_AT_RISK,
  TAG_REPLACED_TYPE,
  TAG_REPLACING_INSTANCE,
} from './constants.ts'
import { cronAllowsAction } from './cron.ts'
import { groupFigures } from './figures.ts'
import { compareCodePoints, type RankedCandidate, type Selection, selectCandidates } from './selection.ts'
import type { Catalog, Group, GroupMember, Instance, SpotPriceBook } from './types.ts'
import { poolKey } from './types.ts'

export interface PlanInput {
  readonly group: Group
  /** Details of the group's members and of the spot instances launched for it, by id. */
  readonly instances: ReadonlyMap<string, Instance>
  /** Pending or running instances tagged `launched-for-asg=<group>` that are not members of it. */
  readonly launched: readonly Instance[]
  readonly catalog: Catalog
  readonly spotPrices: SpotPriceBook
  readonly onDemandPrices: ReadonlyMap<string, number>
  readonly config: GroupConfig
  readonly scheduleMinutes: number
  /** Instances known to have API termination protection. */
  readonly terminationProtected: ReadonlySet<string>
  /** Status of the CloudFormation stack that owns the group, when it has one. */
  readonly stackStatus: string | undefined
  readonly now: Date
  /**
   * Shared across the groups of one run that see the same spot prices (one product description):
   * a selection depends only on type, zone and the selection settings, not on the group.
   */
  readonly selectionCache?: Map<string, Selection>
}

const SUSPENSIONS_THAT_BLOCK = ['Launch', 'Terminate'] as const

/** Why the group must not be acted on now (launches and swaps); undefined when it may. */
export const groupSkipReason = (input: PlanInput): string | undefined => {
  const { group, config, now } = input
  if (group.status?.toLowerCase().includes('delete')) return 'group-being-deleted'
  if (group.desiredCapacity === 0) return 'desired-capacity-zero'
  if (input.stackStatus?.endsWith('_IN_PROGRESS'))
    return `cloudformation-stack-in-progress (${input.stackStatus})`
  const suspended = SUSPENSIONS_THAT_BLOCK.filter((p) => group.suspendedProcesses.includes(p))
  if (suspended.length > 0) return `processes-suspended (${suspended.join(', ')})`
  if (!cronAllowsAction(config.cronSchedule, config.cronTimezone, config.cronScheduleState, now)) {
    return `outside-cron-window (${config.cronSchedule.raw} ${config.cronTimezone}, state ${config.cronScheduleState})`
  }
  return undefined
}

const byLaunchTimeThenId = (a: Instance, b: Instance): number =>
  a.launchTime.getTime() - b.launchTime.getTime() || compareCodePoints(a.id, b.id)

const gracePeriodSeconds = (group: Group, config: GroupConfig): number =>
  config.gracePeriodSeconds ?? group.healthCheckGracePeriodSeconds

/** MixedInstancesPolicy override types act as the allow list when the user set none. */
const effectiveConfig = (group: Group, config: GroupConfig): GroupConfig => {
  const overrides = group.mixedInstancesPolicy?.overrideTypes ?? []
  return config.allowedInstanceTypes.length === 0 && overrides.length > 0
    ? { ...config, allowedInstanceTypes: overrides }
    : config
}

export const planGroup = (input: PlanInput): GroupPlan => {
  const { group, now } = input
  const config = effectiveConfig(group, input.config)
  const actions: Action[] = []
  const instanceSkips: InstanceSkip[] = []
  const detail = (id: string): Instance | undefined => input.instances.get(id)
  const inService = group.members.filter((m) => m.lifecycleState === 'InService')
  const onDemand = inService.filter((m) => detail(m.instanceId)?.lifecycle === 'on-demand')
  const onDemandIds = new Set(onDemand.map((m) => m.instanceId))
  const spot = inService.filter((m) => detail(m.instanceId)?.lifecycle === 'spot')
  // Spot members the interruption handler flagged after a rebalance recommendation: replaced like
  // on-demand ones (into another pool), without counting against the on-demand minimum.
  const atRisk = spot.filter((m) => detail(m.instanceId)?.tags[TAG_REBALANCE_AT_RISK] !== undefined)
  const atRiskIds = new Set(atRisk.map((m) => m.instanceId))
  const isPartner = (id: string): boolean => onDemandIds.has(id) || atRiskIds.has(id)
  const minOnDemand = minOnDemandCount(config, inService.length, group.mixedInstancesPolicy)
  const skipped = groupSkipReason(input)
  const figures = groupFigures(input, inService, minOnDemand)

  // 1. A MaxSize raised by an earlier run is restored once the group is back at or below it.
  // MaxSize as it will be once this run's restore (if any) is done: swaps are sized against it.
  let maxSize = group.maxSize
  const recordedMax = group.tags[TAG_ORIGINAL_MAX_SIZE]
  if (recordedMax !== undefined) {
    const originalMax = /^\d+$/.test(recordedMax) ? Number(recordedMax) : undefined
    if (originalMax === undefined || group.desiredCapacity <= originalMax) {
      maxSize = originalMax ?? group.maxSize
      actions.push({
        kind: 'restore-max-size',
        group: group.name,
        maxSize: originalMax ?? group.maxSize,
        reason:
          originalMax === undefined ? `unreadable ${TAG_ORIGINAL_MAX_SIZE}=${recordedMax}` : 'swap finished',
      })
    }
  }

  // 2. Swaps a crashed run left half-done: the spot side is attached, its partner still in.
  const halfDone = spot.flatMap((m) => {
    const partner = detail(m.instanceId)?.tags[TAG_REPLACING_INSTANCE]
    return partner !== undefined && isPartner(partner)
      ? [{ spotInstanceId: m.instanceId, onDemandInstanceId: partner }]
      : []
  })
  if (skipped === undefined) {
    let onDemandLeft = onDemand.length
    for (const pair of halfDone) {
      const partnerIsOnDemand = onDemandIds.has(pair.onDemandInstanceId)
      const keepsMinimum = !partnerIsOnDemand || onDemandLeft - 1 >= minOnDemand
      if (keepsMinimum && partnerIsOnDemand) onDemandLeft--
      actions.push({
        kind: 'complete-swap',
        group: group.name,
        pair,
        retire: keepsMinimum ? 'partner' : 'replacement',
        reason: keepsMinimum
          ? 'spot replacement attached by an earlier run; retiring its partner'
          : 'retiring the partner would break the on-demand minimum; retiring the extra spot instead',
      })
    }
  }

  // 3. Spot instances launched earlier and not attached: keep one per partner, drop what is not needed.
  const terminate = (instance: Instance, reason: string): void => {
    actions.push({ kind: 'terminate-spot', group: group.name, instanceId: instance.id, reason })
  }
  const pendingByPartner = new Map<string, Instance>()
  for (const instance of [...input.launched].sort(byLaunchTimeThenId)) {
    const partner = instance.tags[TAG_REPLACING_INSTANCE]
    if (partner === undefined || !isPartner(partner)) {
      terminate(instance, 'partner-gone: the instance it was launched to replace is no longer in service')
    } else if (pendingByPartner.has(partner)) {
      terminate(
        instance,
        `duplicate-replacement: ${pendingByPartner.get(partner)?.id} already replaces ${partner}`,
      )
    } else {
      pendingByPartner.set(partner, instance)
    }
  }
  const replaceable = Math.max(0, onDemand.length - minOnDemand)
  // The oldest partners keep their replacements; the newest on-demand instances are the ones kept.
  // Replacements of at-risk spot members are always wanted: they do not change the on-demand count.
  const pending = [...pendingByPartner.entries()].sort(([a], [b]) => {
    const ia = detail(a)
    const ib = detail(b)
    return ia && ib ? byLaunchTimeThenId(ia, ib) : compareCodePoints(a, b)
  })
  const pendingForAtRisk = pending.filter(([partner]) => atRiskIds.has(partner))
  const pendingForOnDemand = pending.filter(([partner]) => onDemandIds.has(partner))
  for (const [, instance] of pendingForOnDemand.slice(replaceable)) {
    terminate(instance, `not-needed: the group must keep ${minOnDemand} on-demand instance(s)`)
  }
  const wantedForOnDemand = pendingForOnDemand.slice(0, replaceable)
  const wanted = [...pendingForAtRisk, ...wantedForOnDemand]

  const grace = gracePeriodSeconds(group, config)
  const scheduleSeconds = input.scheduleMinutes * 60
  // Terminated by the last run before the orphan deadline, not the first one after it.
  const orphanAfterSeconds = grace + (ORPHAN_SCHEDULE_PERIODS - 1) * scheduleSeconds
  const ready: SwapPair[] = []
  for (const [partner, instance] of wanted) {
    const ageSeconds = (now.getTime() - instance.launchTime.getTime()) / 1000
    if (
      skipped === undefined &&
      halfDone.length === 0 &&
      instance.state === 'running' &&
      ageSeconds + GRACE_SLACK_SECONDS >= grace
    ) {
      ready.push({ spotInstanceId: instance.id, onDemandInstanceId: partner })
    } else if (ageSeconds > orphanAfterSeconds) {
      terminate(instance, `not-attachable-in-time: not swapped within ${orphanAfterSeconds}s of launch`)
    } else {
      const graceUntil = new Date(instance.launchTime.getTime() + grace * 1000).toISOString()
      instanceSkips.push({
        instanceId: instance.id,
        reason: `warming-up: replaces ${partner}; grace until ${graceUntil}`,
      })
    }
  }
  if (ready.length > 0) {
    const needed = group.desiredCapacity + ready.length
    actions.push({
      kind: 'swap',
      group: group.name,
      pairs: ready,
      originalMaxSize: maxSize,
      raiseMaxSizeTo: needed > maxSize ? needed : undefined,
      reason: `spot replacement(s) ran for the ${grace}s grace period`,
    })
  }

  // 4. New replacements: at-risk spot members first, then the oldest on-demand ones, within the
  // on-demand minimum and the in-flight budget.
  if (skipped === undefined) {
    const stillPending = wanted.length - ready.length
    const launches = planLaunches(input, config, {
      budget: inFlightLimit(config.maxReplacementsInFlight, inService.length) - stillPending,
      onDemandBudget: replaceable - wantedForOnDemand.length,
      eligible: [...atRisk, ...onDemand].filter((m) => !pendingByPartner.has(m.instanceId)),
      spotMembers: spot,
      pendingSpot: wanted.map(([, instance]) => instance),
      targetSpot: inService.length - minOnDemand,
      instanceSkips,
    })
    actions.push(...launches)
  }

  return { group: group.name, region: group.region, skipped, actions, instanceSkips, figures }
}

interface LaunchBudget {
  /** Launches allowed in total (in-flight limit). */
  readonly budget: number
  /** Of which replacing on-demand instances (on-demand minimum). */
  readonly onDemandBudget: number
  readonly eligible: readonly GroupMember[]
  readonly spotMembers: readonly GroupMember[]
  readonly pendingSpot: readonly Instance[]
  readonly targetSpot: number
  readonly instanceSkips: InstanceSkip[]
}

const countRejections = (selection: Selection): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const filter of selection.rejected.values()) counts[filter] = (counts[filter] ?? 0) + 1
  return counts
}

/** The settings a selection depends on; groups that agree on them share selections. */
const selectionSettingsKey = (config: GroupConfig): string =>
  JSON.stringify([
    config.allowedInstanceTypes,
    config.disallowedInstanceTypes,
    config.onDemandPriceMultiplier,
    config.prioritizedInstanceTypesBias,
  ])

/** No pool holds more than about a third of the group's spot instances while other pools exist. */
const diversify = (
  ranked: readonly RankedCandidate[],
  poolCounts: ReadonlyMap<string, number>,
  targetSpot: number,
): readonly RankedCandidate[] => {
  const cap = Math.max(1, Math.ceil(targetSpot * MAX_POOL_SHARE))
  const open = ranked.filter((c) => (poolCounts.get(poolKey(c.instanceType, c.zone)) ?? 0) < cap)
  return open.length > 0 ? open : ranked
}

const planLaunches = (input: PlanInput, config: GroupConfig, budget: LaunchBudget): LaunchSpotAction[] => {
  const { group, catalog } = input
  const launches: LaunchSpotAction[] = []
  if (budget.budget <= 0) return launches
  if (!group.launchTemplate && !group.launchConfigurationName && !group.mixedInstancesPolicy) {
    budget.instanceSkips.push({
      instanceId: '*',
      reason: 'no-launch-template: the group has no template or configuration',
    })
    return launches
  }
  const poolCounts = new Map<string, number>()
  const countPool = (type: string, zone: string): void => {
    const key = poolKey(type, zone)
    poolCounts.set(key, (poolCounts.get(key) ?? 0) + 1)
  }
  for (const member of budget.spotMembers) {
    const instance = input.instances.get(member.instanceId)
    if (instance) countPool(instance.type, instance.zone)
  }
  for (const instance of budget.pendingSpot) countPool(instance.type, instance.zone)

  const cache = input.selectionCache ?? new Map<string, Selection>()
  const protectedFromTermination = (id: string): boolean => input.terminationProtected.has(id)
  const eligible = budget.eligible
    .map((m) => ({ member: m, instance: input.instances.get(m.instanceId) }))
    .filter((e): e is { member: GroupMember; instance: Instance } => e.instance !== undefined)
    .sort(
      (a, b) =>
        Number(a.instance.lifecycle === 'on-demand') - Number(b.instance.lifecycle === 'on-demand') ||
        byLaunchTimeThenId(a.instance, b.instance),
    )

  let onDemandLaunches = 0
  for (const { member, instance } of eligible) {
    if (launches.length >= budget.budget) break
    const replacingOnDemand = instance.lifecycle === 'on-demand'
    if (replacingOnDemand && onDemandLaunches >= budget.onDemandBudget) break
    const skip = (reason: string, extra: Partial<InstanceSkip> = {}): void => {
      budget.instanceSkips.push({ instanceId: instance.id, reason, ...extra })
    }
    if (member.protectedFromScaleIn) {
      skip('protected-from-scale-in')
      continue
    }
    if (protectedFromTermination(instance.id)) {
      skip('api-termination-protection')
      continue
    }
    const backoffUntil = Date.parse(instance.tags[TAG_NO_SPOT_CAPACITY_UNTIL] ?? '')
    if (backoffUntil > input.now.getTime()) {
      skip(
        `spot-capacity-backoff: no candidate pool had capacity; next try at ${new Date(backoffUntil).toISOString()}`,
      )
      continue
    }
    // An at-risk spot member is measured against the on-demand type it once replaced.
    const baseType = replacingOnDemand ? instance.type : (instance.tags[TAG_REPLACED_TYPE] ?? instance.type)
    const original = catalog.get(baseType)
    if (!original) {
      skip(`unknown-instance-type: ${baseType} is not in the instance type catalogue`)
      continue
    }
    const onDemandPrice = input.onDemandPrices.get(baseType)
    if (onDemandPrice === undefined) {
      skip(`missing-on-demand-price: no on-demand price for ${baseType}; not replacing blind`)
      continue
    }
    const cacheKey = `${baseType}|${instance.zone}|${selectionSettingsKey(config)}`
    let selection = cache.get(cacheKey)
    if (!selection) {
      selection = selectCandidates(catalog, {
        original,
        zone: instance.zone,
        config,
        spotPrices: input.spotPrices,
        originalOnDemandPrice: onDemandPrice,
      })
      cache.set(cacheKey, selection)
    }
    if (selection.ranked.length === 0) {
      skip('no-compatible-spot-type', { rejectedBy: countRejections(selection) })
      continue
    }
    // Never back into the pool AWS just flagged.
    const atRiskPool = replacingOnDemand ? undefined : poolKey(instance.type, instance.zone)
    const ranked = selection.ranked.filter((c) => poolKey(c.instanceType, c.zone) !== atRiskPool)
    if (ranked.length === 0) {
      skip('no-compatible-spot-type: only the at-risk pool itself is compatible')
      continue
    }
    const choices = diversify(ranked, poolCounts, budget.targetSpot).slice(0, MAX_FLEET_OVERRIDES)
    const first = choices[0] as RankedCandidate
    if (replacingOnDemand) onDemandLaunches++
    countPool(first.instanceType, first.zone)
    launches.push({
      kind: 'launch-spot',
      group: group.name,
      replacing: instance.id,
      replacingType: instance.type,
      zone: instance.zone,
      launchTemplate: group.launchTemplate ?? group.mixedInstancesPolicy?.launchTemplate,
      launchConfigurationName: group.launchConfigurationName,
      overrides: choices.map((c, priority) => ({
        instanceType: c.instanceType,
        subnetId: instance.subnetId,
        zone: c.zone,
        priority,
      })),
      allocationStrategy: config.spotAllocationStrategy,
      tags: launchTags(group, instance, baseType),
      clientToken: clientToken(instance.id, input.now, input.scheduleMinutes),
      capacityBackoffUntil: new Date(input.now.getTime() + CAPACITY_BACKOFF_MINUTES * 60_000).toISOString(),
      expectedHourlySavingsUsd: onDemandPrice - first.spotPriceUsd,
      reason: replacingOnDemand
        ? `on-demand ${instance.type} above the minimum; ${first.instanceType} spot at $${first.spotPriceUsd} vs $${onDemandPrice} on-demand`
        : `spot ${instance.type} at risk (rebalance recommendation); moving to ${first.instanceType} at $${first.spotPriceUsd}`,
    })
  }
  return launches
}

/** Tags that describe one instance's own state and must not be copied onto its replacement. */
const NOT_INHERITED = new Set([TAG_REBALANCE_AT_RISK, TAG_NO_SPOT_CAPACITY_UNTIL])

const launchTags = (group: Group, original: Instance, replacedType: string): Record<string, string> => {
  const tags: Record<string, string> = {}
  const copy = (source: Readonly<Record<string, string>>): void => {
    for (const [key, value] of Object.entries(source)) {
      if (!key.startsWith('aws:') && !NOT_INHERITED.has(key)) tags[key] = value
    }
  }
  copy(group.propagatedTags)
  copy(original.tags)
  tags[TAG_LAUNCHED_BY] = 'true'
  tags[TAG_LAUNCHED_FOR_GROUP] = group.name
  tags[TAG_REPLACING_INSTANCE] = original.id
  tags[TAG_REPLACED_TYPE] = replacedType
  return tags
}

/**
 * Same replaced instance and schedule period → same token, so two overlapping runs cannot both launch;
 * a later period gets a fresh token, so a replacement that failed can be tried again.
 */
export const clientToken = (instanceId: string, now: Date, scheduleMinutes: number): string =>
  `spotswap-${instanceId}-${Math.floor(now.getTime() / (scheduleMinutes * 60_000))}`
