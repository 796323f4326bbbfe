/**
 * One group's launch round: the budget it plans within and what it has planned so far (launches, pools
 * filled, zone moves). The steps of the round are functions of it rather than closures made per group:
 * a large run plans ten thousand groups, and under esbuild's keepNames (the Lambda bundle, tsx) every
 * named closure also costs a defineProperty.
 */

import type { GroupConfig } from '../config/config.ts'
import type { Group, GroupMember, Instance, InstanceTypeInfo } from '../types.ts'
import type { LaunchSpotAction, ReleaseDoomedAction } from './actions.ts'
import type { PlanInput } from './plan-input.ts'
import type { InstanceSkip, InstanceSkipCode } from './reasons.ts'
import type { Selection } from './selection.ts'
import { cachedSelection } from './selection-cache.ts'
import { type Placement, placementFor, subnetZonesSeen } from './subnets.ts'
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

export interface LaunchRound {
  readonly input: PlanInput
  readonly config: GroupConfig
  readonly budget: LaunchBudget
  readonly launches: (LaunchSpotAction | ReleaseDoomedAction)[]
  /** Spot instances per pool (type/zone), the group's and this round's launches. */
  readonly poolCounts: Map<string, number>
  /** Zone moves under way: a replacement in another zone than its partner's (+1 there, -1 at the partner's). */
  readonly zoneShift: Map<string, number>
  /** Subnet zones, looked up only when an instance's own subnet left the group's VPCZoneIdentifier. */
  zones: ReadonlyMap<string, string> | undefined
  /** Launches made within the budget (doomed members' aside), and of them for on-demand members. */
  budgeted: number
  onDemandLaunches: number
}

export const launchRound = (input: PlanInput, config: GroupConfig, budget: LaunchBudget): LaunchRound => ({
  input,
  config,
  budget,
  launches: [],
  poolCounts: new Map(),
  zoneShift: new Map(),
  zones: undefined,
  budgeted: 0,
  onDemandLaunches: 0,
})

export const countPool = (round: LaunchRound, key: string): void => {
  round.poolCounts.set(key, (round.poolCounts.get(key) ?? 0) + 1)
}

export const shiftZones = (round: LaunchRound, from: string, to: string): void => {
  if (from === to) return
  round.zoneShift.set(from, (round.zoneShift.get(from) ?? 0) - 1)
  round.zoneShift.set(to, (round.zoneShift.get(to) ?? 0) + 1)
}

export const subnetZones = (round: LaunchRound): ReadonlyMap<string, string> => {
  round.zones ??= subnetZonesSeen(round.input.instances.values(), round.input.subnetZones)
  return round.zones
}

export const placementOf = (round: LaunchRound, instance: Instance): Placement =>
  placementFor(round.input.group, instance, () => subnetZones(round))

export const selectionFor = (
  round: LaunchRound,
  baseType: string,
  original: InstanceTypeInfo,
  zone: string,
  onDemandPrice: number,
): Selection =>
  cachedSelection(round.input, round.config, baseType, original, zone, onDemandPrice, round.budget.meter)

/** A doomed member nothing replaces leaves the group now, so it backfills before EC2 takes the member. */
export const releaseDoomed = (round: LaunchRound, group: Group, instanceId: string, why: string): void => {
  round.launches.push({
    kind: 'release-doomed',
    group: group.name,
    instanceId,
    reason: `interrupted soon and not replaceable ahead: ${why}`,
  })
}

/** A member not replaced this run, and why; a doomed one is released instead of waiting for EC2. */
export const skipMember = (
  round: LaunchRound,
  instance: Instance,
  code: InstanceSkipCode,
  detail: string,
  extra: Pick<InstanceSkip, 'rejectedBy'> = {},
): void => {
  const reason = detail === '' ? code : `${code}: ${detail}`
  round.budget.instanceSkips.push({ instanceId: instance.id, code, reason, ...extra })
  // A doomed member must not wait for EC2: the group backfills now instead.
  if (round.budget.doomed.has(instance.id)) releaseDoomed(round, round.input.group, instance.id, reason)
}
