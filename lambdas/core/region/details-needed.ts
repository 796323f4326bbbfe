/**
 * A region run plans first with what is cheap to know, then reads per-group and per-stack details only
 * for the groups whose plans need them. Pure: these say, from a first plan, which details to read and
 * which groups the details change, so that a converged account makes none of these reads.
 */
import { activeRefresh, type RefreshObservation } from '../group/instance-refresh.ts'
import type { OwnerChanges } from '../group/scaling-activities.ts'
import type { Action, GroupPlan } from '../plan/actions.ts'
import type { LifecycleHook } from '../port.ts'
import type { Group } from '../types.ts'

/** The tag CloudFormation puts on the groups of its stacks; its stack's status may hold the group. */
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

/** The name of the CloudFormation stack the group belongs to, if any. */
export const stackNameOf = (group: Group): string | undefined => group.tags[STACK_NAME_TAG]

/** Plans that change capacity, or write to members (whose protection must be read first). */
export const changesCapacity = (plan: GroupPlan): boolean =>
  plan.actions.some((a) => CHANGES_CAPACITY.has(a.kind) || a.kind === 'settle-members')

/** Plans that start a new replacement or swap: only they need the group's launch hooks and refreshes. */
export const startsReplacements = (plan: GroupPlan): boolean =>
  plan.actions.some((a) => a.kind === 'launch-spot' || a.kind === 'swap')

/** Whether the plan finishes a swap by taking a unit of desired capacity (a retirement or a give-back). */
export const retiresForSwap = (plan: GroupPlan): boolean =>
  plan.actions.some((a) => a.kind === 'give-back' || a.kind === 'complete-swap')

/** Whether the plan's open swap needs the group's scaling activities read before it can go on. */
export const awaitsActivities = (plan: GroupPlan): boolean => plan.awaitingActivities === true

/** Whether what was read of a group's refreshes keeps it from starting anything this run. */
export const refreshHolds = (refresh: RefreshObservation | undefined): boolean =>
  refresh?.kind === 'throttled' || activeRefresh(refresh) !== undefined

/** What was read about the groups whose plans change something. */
export interface GroupDetails {
  readonly stackStatuses: ReadonlyMap<string, string>
  readonly ownerChanges: ReadonlyMap<string, OwnerChanges>
  readonly hooks: ReadonlyMap<string, readonly LifecycleHook[]>
  readonly refreshes: ReadonlyMap<string, RefreshObservation>
  /** Stack name → the error its status read ended in (after the SDK's retries). */
  readonly stacksUnreadable: ReadonlyMap<string, string>
  /** Group name → the error its lifecycle hooks read ended in. */
  readonly hooksUnreadable: ReadonlyMap<string, string>
}

/**
 * Whether the details read may change the group's plan: its stack has a status or none could be read, its
 * owner's changes were read, it has lifecycle hooks or they could not be read, or a refresh holds it.
 * Otherwise its first plan stands.
 */
export const detailsMayChange = (group: Group, details: GroupDetails): boolean =>
  details.stackStatuses.has(stackNameOf(group) ?? '') ||
  details.stacksUnreadable.has(stackNameOf(group) ?? '') ||
  details.ownerChanges.has(group.name) ||
  (details.hooks.get(group.name) ?? []).length > 0 ||
  details.hooksUnreadable.has(group.name) ||
  refreshHolds(details.refreshes.get(group.name))

/**
 * A per-group or per-instance read that failed after the SDK's retries. It holds back only what depends on
 * it: hooks unreadable, the group starts nothing; its stack's status unreadable, the group waits as if the
 * stack were updating; an instance's termination protection unreadable, nothing retires it or launches
 * for it. The region-level reads only some groups need (a platform's spot prices, subnets' zones) hold
 * back the groups that need them (core/region/region-reads.ts).
 */
export type DetailRead =
  | 'lifecycle-hooks'
  | 'stack-status'
  | 'termination-protection'
  | 'spot-prices'
  | 'subnets'

export interface UnreadableDetail {
  readonly read: DetailRead
  readonly group: string
  /** What was read: the group, its stack, or the instance. */
  readonly subject: string
  readonly error: string
}
