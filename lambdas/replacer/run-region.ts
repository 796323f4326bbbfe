/**
 * One region, one run: observe → plan → execute → report. Used unchanged by the Lambda and the simulator.
 * The caller's contract: no two runs of one region at a time. Deployed, every run goes through the
 * region's message group of the FIFO fan-out queue (FANOUT_QUEUE_URL); a local caller runs one at a time.
 */
import { errorMessage, isThrottle } from '../aws/errors.ts'
import type { ConfigError, GlobalConfig } from '../core/config/config.ts'
import { GROUP_CONCURRENCY, TAG_LAUNCHED_FOR_GROUP, TAG_REPLACING_INSTANCE } from '../core/constants.ts'
import { activeRefresh, type RefreshObservation } from '../core/group/instance-refresh.ts'
import { launchProvenance, type UntrustedInstance, untrustedReason } from '../core/group/provenance.ts'
import { type OwnerChanges, readActivities } from '../core/group/scaling-activities.ts'
import type { HealthObservation } from '../core/group/serving.ts'
import type { Log, MetricsSink } from '../core/log.ts'
import { DIMENSION_GROUP, DIMENSION_REGION, Metric } from '../core/metric-names.ts'
import type { Action, GroupPlan } from '../core/plan/actions.ts'
import { planGroup } from '../core/plan/planner.ts'
import type { Selection } from '../core/plan/selection.ts'
import type { CloudPort, LifecycleHook } from '../core/port.ts'
import { readSwapRecord, unattachedSwapIdOf } from '../core/swap/record.ts'
import type { Group, Instance, OnDemandPrices } from '../core/types.ts'
import { executeActions, type Outcome } from './execute.ts'
import { mapWithConcurrency } from './limit.ts'
import { type ManagedGroup, observeRegion, type RegionSnapshot } from './observe.ts'
import { summarizeOutcome } from './outcome-summary.ts'
import { logReasonChanges, type ReasonMemory } from './reasons.ts'
import { emitGroupMetrics, emitRegionMetrics } from './report.ts'

export interface GroupResult {
  readonly plan: GroupPlan
  readonly outcomes: readonly Outcome[]
  /** The product description the group's prices are for, and where its on-demand prices came from. */
  readonly prices?: { readonly productDescription: string; readonly source: OnDemandPrices['source'] }
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
  /** See PlanInput.maxPoolShare; the benchmark's AutoSpotting policy sets 1. */
  readonly maxPoolShare?: number
  /**
   * Asks for a run of one group after a delay (the run-request queue), so a swap waiting for its
   * replacement to serve is looked at again before the next scheduled run. Without it, the next
   * scheduled run looks.
   */
  readonly requestRun?: (group: string, delaySeconds: number, why: 'swap' | 'warm-up') => Promise<void>
  /**
   * What the container last logged of each on-demand member's reason: a member's reason is logged when
   * it changes (replacer/reasons.ts). Without it, reasons are not logged.
   */
  readonly reasons?: ReasonMemory
}

const STACK_NAME_TAG = 'aws:cloudformation:stack-name'
const CHANGES_CAPACITY: ReadonlySet<Action['kind']> = new Set([
  'launch-spot',
  'swap',
  'complete-swap',
  'release-pair',
  'give-back',
  'close-swap',
  'release-doomed',
])

/** Plans that change capacity, or write to members (whose protection must be read first). */
const changesCapacity = (plan: GroupPlan): boolean =>
  plan.actions.some((a) => CHANGES_CAPACITY.has(a.kind) || a.kind === 'settle-members')

/** Whether what was read of a group's refreshes keeps it from starting anything this run. */
const refreshHolds = (refresh: RefreshObservation | undefined): boolean =>
  refresh?.kind === 'throttled' || activeRefresh(refresh) !== undefined

const startsReplacements = (plan: GroupPlan): boolean =>
  plan.actions.some((a) => a.kind === 'launch-spot' || a.kind === 'swap')

/** What every plan of one region run shares. */
interface PlanContext {
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
}

interface PlanDetails {
  readonly protectedIds: ReadonlySet<string>
  readonly stackStatuses: ReadonlyMap<string, string>
  readonly ownerChanges: ReadonlyMap<string, OwnerChanges>
  readonly health: ReadonlyMap<string, HealthObservation>
  readonly hooks: ReadonlyMap<string, readonly LifecycleHook[]>
  readonly refreshes: ReadonlyMap<string, RefreshObservation>
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
      stackStatus: details.stackStatuses.get(managed.group.tags[STACK_NAME_TAG] ?? ''),
      ownerChanges: details.ownerChanges.get(managed.group.name),
      health: details.health.get(managed.group.name),
      lifecycleHooks: details.hooks.get(managed.group.name),
      instanceRefresh: details.refreshes.get(managed.group.name),
      subnetZones: snapshot.subnetZones,
      now,
      selectionCache: cacheFor(managed.productDescription),
      ...(maxPoolShare === undefined ? {} : { maxPoolShare }),
    }),
  )
}

/**
 * Instances a plan would retire (or start retiring) or write to: only these need their termination
 * protection read.
 */
const retiredBy = (plans: readonly GroupPlan[]): Set<string> => {
  const ids = new Set<string>()
  for (const plan of plans)
    for (const action of plan.actions) {
      if (action.kind === 'launch-spot') ids.add(action.replacing)
      // The swap names its replacements (a tag) before it attaches them: written to, so read too.
      if (action.kind === 'swap')
        for (const pair of action.pairs) {
          ids.add(pair.onDemandInstanceId)
          ids.add(pair.spotInstanceId)
        }
      if (action.kind === 'give-back') ids.add(action.instanceId)
      if (action.kind === 'complete-swap') {
        ids.add(action.pair.onDemandInstanceId)
        if (action.retire === 'replacement') ids.add(action.pair.spotInstanceId)
      }
      // Released: its pair tags removed, so written to.
      if (action.kind === 'release-pair') {
        ids.add(action.pair.onDemandInstanceId)
        ids.add(action.pair.spotInstanceId)
      }
      if (action.kind === 'release-doomed') ids.add(action.instanceId)
      if (action.kind === 'settle-members') for (const id of action.instanceIds) ids.add(id)
    }
  return ids
}

/** Whether the plan finishes a swap by taking a unit of desired capacity (a retirement or a give-back). */
const retiresForSwap = (plan: GroupPlan): boolean =>
  plan.actions.some((a) => a.kind === 'give-back' || a.kind === 'complete-swap')

/**
 * The owner's changes of desired capacity since each group's open swap started (its record's
 * `spotswap:swap-started`; without one, as far back as Auto Scaling keeps them). A group whose
 * activities cannot be read waits: its plan is made again with the error.
 */
const readOwnerChanges = async (
  cloud: CloudPort,
  groups: readonly ManagedGroup[],
): Promise<Map<string, OwnerChanges>> => {
  const read = await mapWithConcurrency(groups, GROUP_CONCURRENCY, async ({ group }) => {
    const onGroup = readSwapRecord(group.tags)
    const since = (onGroup.kind === 'read' ? onGroup.record.startedAt : undefined) ?? new Date(0)
    try {
      const activities = await cloud.scalingActivities(group.name, since)
      return [group.name, { kind: 'read', ...readActivities(activities, since) }] as const
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      return [group.name, { kind: 'unreadable', error: message }] as const
    }
  })
  return new Map<string, OwnerChanges>(read)
}

/**
 * Load-balancer health of the replacements each plan waits for, one read per group; a group whose health
 * cannot be read waits (its plan is made again with the error, and retires nothing on it).
 */
const readHealth = async (
  cloud: CloudPort,
  groups: readonly ManagedGroup[],
  plans: readonly GroupPlan[],
): Promise<Map<string, HealthObservation>> => {
  const waiting = groups.flatMap((managed, i) => {
    const ids = plans[i]?.awaitingHealth ?? []
    return ids.length > 0 ? [{ managed, ids }] : []
  })
  const read = await mapWithConcurrency(waiting, GROUP_CONCURRENCY, async ({ managed, ids }) => {
    try {
      const health = await cloud.trafficHealth(managed.group.trafficSources, ids)
      return [managed.group.name, { kind: 'read', health }] as const
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      return [managed.group.name, { kind: 'unreadable', error: message }] as const
    }
  })
  return new Map<string, HealthObservation>(read)
}

/**
 * A group's instance refreshes. Throttling leaves the state unknown for this run (the group waits); any
 * other error leaves it unreadable, and the group goes on as if none ran (core/group/instance-refresh.ts).
 */
const readRefresh = async (cloud: CloudPort, groupName: string): Promise<RefreshObservation> => {
  try {
    return { kind: 'read', refreshes: await cloud.instanceRefreshes(groupName) }
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${errorMessage(error)}` : String(error)
    return isThrottle(error) ? { kind: 'throttled', error: message } : { kind: 'unreadable', error: message }
  }
}

/** A plan that skips a protected instance may pick another one; a few rounds settle it. */
const MAX_PROTECTION_ROUNDS = 3

/**
 * Once a group shows one member protected from API termination, the next round reads every on-demand
 * member's protection (one DescribeInstanceAttribute call each, at most this many): one at a time, a
 * group whose oldest members are all protected handed its turn to the next protected one every round,
 * and the run ended before reaching an unprotected one, run after run (chaos seed 7442: four protected
 * members kept five others on-demand for good). Beyond the cap, a later run reads the next ones.
 */
export const PROTECTION_READS_PER_GROUP = 100

/**
 * Plans with what is cheap to know, then reads per-instance and per-stack details only for what the plan
 * would touch: stack statuses of groups about to change, termination protection of instances about to be
 * retired. Groups whose details change something are planned again (a skipped instance may hand its turn
 * to one not yet read, hence the rounds). A converged account makes none of these reads.
 */
const planRegion = async (given: PlanContext, cloud: CloudPort): Promise<GroupPlan[]> => {
  let context = given
  const { snapshot } = context
  const none = {
    protectedIds: new Set<string>(),
    stackStatuses: new Map<string, string>(),
    ownerChanges: new Map<string, OwnerChanges>(),
    health: new Map<string, HealthObservation>(),
    hooks: new Map<string, readonly LifecycleHook[]>(),
    refreshes: new Map<string, RefreshObservation>(),
  }
  let plans = planAll(context, none, snapshot.groups)
  // Swaps waiting for their replacements to serve: with the health read, they may retire partners now.
  const health = await readHealth(cloud, snapshot.groups, plans)
  if (health.size > 0) {
    const again = new Map(
      planAll(
        context,
        { ...none, health },
        snapshot.groups.filter((g) => health.has(g.group.name)),
      ).map((p) => [p.group, p]),
    )
    plans = plans.map((p) => again.get(p.group) ?? p)
  }
  // A member whose zone has no compatible pool may be replaced in another zone once every zone of its
  // group is known: the subnets no instance told are read (one DescribeSubnets) and the groups planned again.
  const unknownSubnets = [...new Set(plans.flatMap((p) => p.unknownSubnets ?? []))]
  if (unknownSubnets.length > 0) {
    const read = await cloud.subnetZones(unknownSubnets)
    const subnetZones = new Map([...snapshot.subnetZones, ...read])
    context = { ...context, snapshot: { ...snapshot, subnetZones } }
    const needing = new Set(plans.filter((p) => (p.unknownSubnets ?? []).length > 0).map((p) => p.group))
    const again = new Map(
      planAll(
        context,
        { ...none, health },
        context.snapshot.groups.filter((g) => needing.has(g.group.name)),
      ).map((p) => [p.group, p]),
    )
    plans = plans.map((p) => again.get(p.group) ?? p)
  }
  const changing = snapshot.groups.filter((_, i) => changesCapacity(plans[i] as GroupPlan))
  if (changing.length === 0) return plans
  const stackNames = [
    ...new Set(changing.map((g) => g.group.tags[STACK_NAME_TAG]).filter((n) => n !== undefined)),
  ]
  const stackStatuses =
    stackNames.length > 0 ? await cloud.stackStatuses(stackNames) : new Map<string, string>()
  // Launch hooks and instance refreshes only matter to a group about to get a new replacement or swap.
  const starting = snapshot.groups.filter((_, i) => startsReplacements(plans[i] as GroupPlan))
  const startingDetails = await mapWithConcurrency(starting, GROUP_CONCURRENCY, async ({ group }) => {
    const [groupHooks, refresh] = await Promise.all([
      cloud.lifecycleHooks(group.name),
      readRefresh(cloud, group.name),
    ])
    return { name: group.name, groupHooks, refresh }
  })
  const hooks = new Map(startingDetails.map((d) => [d.name, d.groupHooks] as const))
  const refreshes = new Map(startingDetails.map((d) => [d.name, d.refresh] as const))
  for (const [name, refresh] of refreshes)
    if (refresh.kind === 'unreadable') context.onRefreshUnreadable?.(name, refresh.error)
  // Read before any retirement of a swap is kept; later details only ever take retirements away.
  const retiring = snapshot.groups.filter((_, i) => retiresForSwap(plans[i] as GroupPlan))
  const ownerChanges = await readOwnerChanges(cloud, retiring)
  context.onOwnerChanges?.(ownerChanges)
  const checked = new Set<string>()
  const protectedIds = new Set<string>()
  // Members to read beside what the plans retire: those of groups where a protected one turned up.
  const alsoRead = new Set<string>()
  let replan = changing.filter(
    (g) =>
      stackStatuses.has(g.group.tags[STACK_NAME_TAG] ?? '') ||
      ownerChanges.has(g.group.name) ||
      (hooks.get(g.group.name) ?? []).length > 0 ||
      refreshHolds(refreshes.get(g.group.name)),
  )
  for (let round = 0; round < MAX_PROTECTION_ROUNDS; round++) {
    const unchecked = [...new Set([...retiredBy(plans), ...alsoRead])].filter((id) => !checked.has(id))
    if (unchecked.length > 0) {
      for (const id of await cloud.terminationProtected(unchecked)) protectedIds.add(id)
      for (const id of unchecked) checked.add(id)
    }
    const withProtected = changing.filter((g) => g.group.members.some((m) => protectedIds.has(m.instanceId)))
    for (const { group } of withProtected) {
      const onDemand = group.members
        .map((m) => m.instanceId)
        .filter((id) => snapshot.instances.get(id)?.lifecycle === 'on-demand' && !checked.has(id))
      for (const id of onDemand.slice(0, PROTECTION_READS_PER_GROUP)) alsoRead.add(id)
    }
    const hit = new Set([...replan.map((g) => g.group.name), ...withProtected.map((g) => g.group.name)])
    if (hit.size === 0 || (unchecked.length === 0 && round > 0)) break
    const again = planAll(
      context,
      { protectedIds, stackStatuses, ownerChanges, health, hooks, refreshes },
      changing.filter((g) => hit.has(g.group.name)),
    )
    const replanned = new Map(again.map((p) => [p.group, p]))
    plans = plans.map((p) => replanned.get(p.group) ?? p)
    replan = []
  }
  // Whatever the last round planned must not retire an instance whose protection was never read.
  const unread = [...retiredBy(plans)].filter((id) => !checked.has(id))
  return unread.length === 0 ? plans : plans.map((p) => withoutUnread(p, new Set(unread)))
}

/**
 * Drops launches, swaps and releases that would retire or write to an instance not checked for termination
 * protection. A record is not dropped while one of its pairs is left for a later run.
 */
const withoutUnread = (plan: GroupPlan, unread: ReadonlySet<string>): GroupPlan => {
  const unreadPair = (a: Action): boolean =>
    (a.kind === 'give-back' && unread.has(a.instanceId)) ||
    (a.kind === 'complete-swap' &&
      (unread.has(a.pair.onDemandInstanceId) ||
        (a.retire === 'replacement' && unread.has(a.pair.spotInstanceId)))) ||
    (a.kind === 'release-pair' && unread.has(a.pair.spotInstanceId))
  // Each retirement's record counts the ones before it: one left for later takes all after it along.
  const completesUnread = plan.actions.some(unreadPair)
  const actions = plan.actions.filter((a) => {
    if (completesUnread && a.kind === 'close-swap') return false
    if (a.kind === 'launch-spot') return !unread.has(a.replacing)
    if (a.kind === 'swap')
      return a.pairs.every((pair) => !unread.has(pair.onDemandInstanceId) && !unread.has(pair.spotInstanceId))
    if (a.kind === 'complete-swap') return !completesUnread
    if (a.kind === 'release-pair') return !unreadPair(a)
    if (a.kind === 'give-back') return !completesUnread
    if (a.kind === 'release-doomed') return !unread.has(a.instanceId)
    if (a.kind === 'settle-members') return a.instanceIds.every((id) => !unread.has(id))
    return true
  })
  // The members whose launch, swap or retirement was dropped wait for the next run, and say so.
  const kept = new Set(actions)
  const waiting = new Set(plan.actions.filter((a) => !kept.has(a)).flatMap(membersOf))
  const onDemand = plan.onDemand.map((status) =>
    waiting.has(status.instanceId)
      ? {
          ...status,
          code: 'protection-unread' as const,
          detail:
            'the termination protection of an instance it needs was not read in this run: the next run looks',
          progress: false,
        }
      : status,
  )
  return { ...plan, actions, onDemand }
}

/** The on-demand side of an action: the member it replaces, swaps or retires. */
const membersOf = (action: Action): string[] => {
  switch (action.kind) {
    case 'launch-spot':
      return [action.replacing]
    case 'swap':
      return action.pairs.map((p) => p.onDemandInstanceId)
    case 'complete-swap':
    case 'release-pair':
      return [action.pair.onDemandInstanceId]
    case 'give-back':
    case 'release-doomed':
      return [action.instanceId]
    default:
      return []
  }
}

/**
 * Sentences of the groups' scaling activities in none of Auto Scaling's known wordings: the wording is not
 * a documented contract, so a change in it must show (a log line and a metric) rather than pass unseen.
 */
const reportUnclassified = (options: RegionRunOptions, changes: ReadonlyMap<string, OwnerChanges>): void => {
  for (const [group, read] of changes) {
    if (read.kind !== 'read' || (read.unclassified ?? 0) === 0) continue
    options.log.warn('scaling activities in an unknown wording', {
      region: options.cloud.region,
      group,
      sentences: read.unclassified,
    })
    options.metrics.emit({ [DIMENSION_REGION]: options.cloud.region, [DIMENSION_GROUP]: group }, [
      { name: Metric.UnclassifiedScalingActivities, unit: 'Count', value: read.unclassified ?? 0 },
    ])
  }
}

/**
 * A group whose instance refreshes could not be read goes on as if none ran: a swap during a refresh wastes
 * a launch but loses no capacity. Said in a warning and the InstanceRefreshUnreadable metric, so an account
 * where the read always fails (a missing permission) shows.
 */
const reportRefreshUnreadable = (options: RegionRunOptions, group: string, error: string): void => {
  options.log.warn('instance refreshes unreadable: the group proceeds as if none were running', {
    region: options.cloud.region,
    group,
    error,
  })
  options.metrics.emit({ [DIMENSION_REGION]: options.cloud.region, [DIMENSION_GROUP]: group }, [
    { name: Metric.InstanceRefreshUnreadable, unit: 'Count', value: 1 },
  ])
}

/**
 * Strays are only terminated when they are spotswap's launches (spot, never in a group, recorded by their
 * partner; EC2's template tag the group's when the group still exists, unmanaged now) and AWS confirms
 * they belong to no group. A partner gone from EC2's view records nothing: then only the template speaks,
 * so a launch for a group that is gone is left alone (reported), one for a group opted out is not (chaos
 * seed 12239: runs blocked for 90 minutes, the partners scaled in meanwhile, then the owner opted out).
 */
const cleanStrays = async (
  candidates: readonly Instance[],
  groups: ReadonlyMap<string, Group> | undefined,
  cloud: CloudPort,
  options: Pick<RegionRunOptions, 'log' | 'metrics'> & { readonly dryRun: boolean },
): Promise<Outcome[]> => {
  if (candidates.length === 0) return []
  const partnerIds = candidates.flatMap((i) => i.tags[TAG_REPLACING_INSTANCE] ?? [])
  const partners = new Map(
    (await cloud.describeInstances(partnerIds, { includeTerminated: true })).map((i) => [i.id, i]),
  )
  const ours = candidates.filter((i) => {
    const group = groups?.get(i.tags[TAG_LAUNCHED_FOR_GROUP] ?? '')
    const partner = partners.get(i.tags[TAG_REPLACING_INSTANCE] ?? '')
    // A swap left open when the group was opted out, whose attach never happened (chaos seed 7567).
    const unattached = group === undefined ? undefined : unattachedSwapIdOf(group)
    const verdict = launchProvenance(i, group, partner, false, unattached)
    if (verdict.ours) return true
    reportUntrusted(options, cloud.region, i.tags[TAG_LAUNCHED_FOR_GROUP] ?? '', [
      { instanceId: i.id, code: verdict.code, detail: verdict.detail },
    ])
    return false
  })
  if (ours.length === 0) return []
  const owners = await cloud.groupOfInstances(ours.map((i) => i.id))
  const actions: Action[] = ours
    .filter((i) => !owners.has(i.id))
    .map((i) => ({
      kind: 'terminate-spot',
      group: i.tags[TAG_LAUNCHED_FOR_GROUP] ?? '',
      instanceId: i.id,
      inNoGroup: true,
      reason: 'group-gone-or-unmanaged: launched for a group that no longer exists or is no longer managed',
    }))
  return executeActions(cloud, actions, options.dryRun)
}

/** Instances tagged as spotswap's launches that are not: a warning each, and a count per group. */
const reportUntrusted = (
  options: Pick<RegionRunOptions, 'log' | 'metrics'>,
  region: string,
  group: string,
  untrusted: readonly UntrustedInstance[],
): void => {
  if (untrusted.length === 0) return
  for (const suspect of untrusted)
    options.log.warn('instance tagged as spotswap launch left alone', {
      region,
      group,
      instanceId: suspect.instanceId,
      reason: untrustedReason(suspect),
    })
  options.metrics.emit({ [DIMENSION_REGION]: region, [DIMENSION_GROUP]: group }, [
    { name: Metric.UntrustedInstances, unit: 'Count', value: untrusted.length },
  ])
}

/**
 * A group whose plan wants a look before the next scheduled run (a swap waiting for its replacements to
 * serve) gets a delayed run request. Never on a dry run, and a failed request is only logged: the next
 * scheduled run looks anyway.
 */
const requestLooks = async (options: RegionRunOptions, groups: readonly GroupResult[]): Promise<void> => {
  const { requestRun, config, log, cloud } = options
  if (requestRun === undefined || config.dryRun) return
  for (const { plan, outcomes } of groups) {
    const delay = plan.lookAgainSeconds
    if (delay === undefined || delay >= config.scheduleMinutes * 60) continue
    // A swap whose attach failed has nothing to look at before the next run.
    if (outcomes.some((o) => o.action.kind === 'swap' && o.status === 'failed')) continue
    try {
      await requestRun(plan.group, delay, plan.lookAgainFor ?? 'swap')
    } catch (error) {
      log.warn('could not request an early look at the group; the next scheduled run looks', {
        region: cloud.region,
        group: plan.group,
        delaySeconds: delay,
        error: String(error),
      })
    }
  }
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
    const strays = await cleanStrays(observed.strays, observed.strayGroups, cloud, {
      ...options,
      dryRun: config.dryRun,
    })
    return { region: cloud.region, groups: [], strays, configErrors: [], deferred: observed.chunks }
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
  const context: PlanContext = {
    snapshot,
    config,
    now,
    maxPoolShare: options.maxPoolShare,
    caches: new Map(),
    onOwnerChanges: (changes) => reportUnclassified(options, changes),
    onRefreshUnreadable: (group, error) => reportRefreshUnreadable(options, group, error),
  }
  const plans = await planRegion(context, cloud)
  const productDescriptions = new Map(snapshot.groups.map((g) => [g.group.name, g.productDescription]))
  const groups = await mapWithConcurrency(plans, GROUP_CONCURRENCY, async (plan): Promise<GroupResult> => {
    const outcomes = await executeActions(cloud, plan.actions, config.dryRun)
    for (const outcome of outcomes) {
      const entry = { region: cloud.region, group: plan.group, ...summarizeOutcome(outcome) }
      if (outcome.status === 'failed') log.error('action failed', entry)
      else log.info(config.dryRun ? 'action planned (dry run)' : 'action done', entry)
    }
    if (plan.skipped)
      log.info('group skipped', { region: cloud.region, group: plan.group, reason: plan.skipped })
    if (options.reasons !== undefined) logReasonChanges(log, cloud.region, plan, options.reasons)
    reportUntrusted(options, cloud.region, plan.group, plan.untrusted ?? [])
    if (plan.skip?.code === 'plan-budget-exceeded')
      options.metrics.emit({ [DIMENSION_REGION]: cloud.region, [DIMENSION_GROUP]: plan.group }, [
        { name: Metric.PlanBudgetExceeded, unit: 'Count', value: 1 },
      ])
    const productDescription = productDescriptions.get(plan.group)
    const source =
      productDescription === undefined ? undefined : snapshot.onDemandPrices.get(productDescription)?.source
    return {
      plan,
      outcomes,
      ...(productDescription === undefined || source === undefined
        ? {}
        : { prices: { productDescription, source } }),
    }
  })
  await requestLooks(options, groups)
  for (const { plan, outcomes } of groups)
    emitGroupMetrics(options.metrics, cloud.region, plan, outcomes, snapshot.configErrors)
  const strays = await cleanStrays(snapshot.strays, snapshot.strayGroups, cloud, {
    ...options,
    dryRun: config.dryRun,
  })
  for (const outcome of strays)
    log.info('stray spot instance', { region: cloud.region, ...summarizeOutcome(outcome) })
  emitRegionMetrics(options.metrics, cloud.region, groups, snapshot.configErrors)
  return { region: cloud.region, groups, strays, configErrors: snapshot.configErrors }
}
