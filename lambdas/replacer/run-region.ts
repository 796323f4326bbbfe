/**
 * One region, one run: observe → plan → execute → report. Used unchanged by the Lambda and the simulator.
 */
import type { Action, GroupPlan } from '../core/actions.ts'
import type { ConfigError, GlobalConfig } from '../core/config.ts'
import type { Log, MetricsSink } from '../core/log.ts'
import { planGroup } from '../core/planner.ts'
import type { CloudPort } from '../core/port.ts'
import type { Selection } from '../core/selection.ts'
import { executeActions, type Outcome } from './execute.ts'
import { mapWithConcurrency } from './limit.ts'
import { type ManagedGroup, observeRegion, type RegionSnapshot } from './observe.ts'
import { emitGroupMetrics, emitRegionMetrics } from './report.ts'

export interface GroupResult {
  readonly plan: GroupPlan
  readonly outcomes: readonly Outcome[]
}

export interface RegionResult {
  readonly region: string
  readonly groups: readonly GroupResult[]
  /** Spot instances launched for groups that are gone or no longer managed, and what was done with them. */
  readonly strays: readonly Outcome[]
  readonly configErrors: readonly ConfigError[]
  /** Set when the region was too large for one invocation: its groups in chunks, to enqueue. */
  readonly deferred?: readonly (readonly string[])[]
}

export interface RegionRunOptions {
  readonly cloud: CloudPort
  readonly config: GlobalConfig
  readonly now: Date
  readonly log: Log
  readonly metrics: MetricsSink
  /** Reconcile only this group (an `EC2 Instance Launch Successful` event). */
  readonly onlyGroup?: string
  /** Reconcile only these groups (one chunk of a large region). */
  readonly onlyGroups?: readonly string[]
  /** With fan-out: defer a region with more managed groups than this, in chunks of this size. */
  readonly splitAbove?: number
}

import { GROUP_CONCURRENCY, TAG_REBALANCE_AT_RISK } from '../core/constants.ts'

const STACK_NAME_TAG = 'aws:cloudformation:stack-name'
const CHANGES_CAPACITY: ReadonlySet<Action['kind']> = new Set(['launch-spot', 'swap', 'complete-swap'])

const changesCapacity = (plan: GroupPlan): boolean => plan.actions.some((a) => CHANGES_CAPACITY.has(a.kind))

const planAll = (
  snapshot: RegionSnapshot,
  config: GlobalConfig,
  now: Date,
  details: { protectedIds: ReadonlySet<string>; stackStatuses: ReadonlyMap<string, string> },
  groups: readonly ManagedGroup[],
): GroupPlan[] => {
  // One cache per product description: selections depend on the spot prices of that platform.
  const caches = new Map<string, Map<string, Selection>>()
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
      stackStatus: details.stackStatuses.get(managed.group.tags[STACK_NAME_TAG] ?? ''),
      now,
      selectionCache: cacheFor(managed.productDescription),
    }),
  )
}

/**
 * Plans twice: a first pass with no per-instance details finds the few groups about to change; only
 * for those are stack statuses and termination protection read, then they are planned again.
 */
const planRegion = async (snapshot: RegionSnapshot, cloud: CloudPort, config: GlobalConfig, now: Date) => {
  const none = { protectedIds: new Set<string>(), stackStatuses: new Map<string, string>() }
  const first = planAll(snapshot, config, now, none, snapshot.groups)
  const changing = snapshot.groups.filter((_, i) => changesCapacity(first[i] as GroupPlan))
  if (changing.length === 0) return first
  const stackNames = [
    ...new Set(changing.map((g) => g.group.tags[STACK_NAME_TAG]).filter((n) => n !== undefined)),
  ]
  // Candidates for retirement: on-demand members and spot members flagged at risk.
  const retirable = (id: string): boolean => {
    const instance = snapshot.instances.get(id)
    return instance?.lifecycle === 'on-demand' || instance?.tags[TAG_REBALANCE_AT_RISK] !== undefined
  }
  const retirableIds = changing.flatMap((g) =>
    g.group.members
      .filter((m) => !m.protectedFromScaleIn && retirable(m.instanceId))
      .map((m) => m.instanceId),
  )
  const [stackStatuses, protectedIds] = await Promise.all([
    stackNames.length > 0 ? cloud.stackStatuses(stackNames) : Promise.resolve(new Map<string, string>()),
    retirableIds.length > 0 ? cloud.terminationProtected(retirableIds) : Promise.resolve(new Set<string>()),
  ])
  const second = planAll(snapshot, config, now, { protectedIds, stackStatuses }, changing)
  const replanned = new Map(second.map((p) => [p.group, p]))
  return first.map((p) => replanned.get(p.group) ?? p)
}

/** Strays are only terminated when AWS confirms they belong to no group at all. */
const cleanStrays = async (
  snapshot: RegionSnapshot,
  cloud: CloudPort,
  dryRun: boolean,
): Promise<Outcome[]> => {
  if (snapshot.strays.length === 0) return []
  const owners = await cloud.groupOfInstances(snapshot.strays.map((i) => i.id))
  const actions: Action[] = snapshot.strays
    .filter((i) => !owners.has(i.id))
    .map((i) => ({
      kind: 'terminate-spot',
      group: i.tags['launched-for-asg'] ?? '',
      instanceId: i.id,
      reason: 'group-gone-or-unmanaged: launched for a group that no longer exists or is no longer managed',
    }))
  return executeActions(cloud, actions, dryRun)
}

export const runRegion = async (options: RegionRunOptions): Promise<RegionResult> => {
  const { cloud, config, now, log } = options
  const named = [
    ...(options.onlyGroups ?? []),
    ...(options.onlyGroup === undefined ? [] : [options.onlyGroup]),
  ]
  const observed = await observeRegion(cloud, config, now, {
    onlyGroups: named.length > 0 ? new Set(named) : undefined,
    splitAbove: options.splitAbove,
  })
  if ('chunks' in observed) {
    log.info('region deferred in chunks', { region: cloud.region, chunks: observed.chunks.length })
    return { region: cloud.region, groups: [], strays: [], configErrors: [], deferred: observed.chunks }
  }
  const snapshot = observed
  for (const error of snapshot.configErrors)
    log.warn('invalid configuration value', { region: cloud.region, ...error })
  const unmanaged = named.filter((name) => !snapshot.groups.some((g) => g.group.name === name))
  if (unmanaged.length > 0) {
    log.info('asked for groups spotswap does not manage (or that are gone): nothing to do for them', {
      region: cloud.region,
      groups: unmanaged,
    })
  }
  const plans = await planRegion(snapshot, cloud, config, now)
  const groups = await mapWithConcurrency(plans, GROUP_CONCURRENCY, async (plan): Promise<GroupResult> => {
    const outcomes = await executeActions(cloud, plan.actions, config.dryRun)
    for (const outcome of outcomes) {
      const entry = { region: cloud.region, group: plan.group, ...summarizeOutcome(outcome) }
      if (outcome.status === 'failed') log.error('action failed', entry)
      else log.info(config.dryRun ? 'action planned (dry run)' : 'action done', entry)
    }
    if (plan.skipped)
      log.info('group skipped', { region: cloud.region, group: plan.group, reason: plan.skipped })
    return { plan, outcomes }
  })
  for (const { plan, outcomes } of groups)
    emitGroupMetrics(options.metrics, cloud.region, plan, outcomes, snapshot.configErrors)
  const strays = await cleanStrays(snapshot, cloud, config.dryRun)
  for (const outcome of strays)
    log.info('stray spot instance', { region: cloud.region, ...summarizeOutcome(outcome) })
  emitRegionMetrics(options.metrics, cloud.region, groups, snapshot.configErrors)
  return { region: cloud.region, groups, strays, configErrors: snapshot.configErrors }
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
        candidates: action.overrides.map((o) => o.instanceType),
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
