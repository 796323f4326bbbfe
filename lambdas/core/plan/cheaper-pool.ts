/**
 * Moving spot members to a markedly cheaper pool (CHEAPER_POOL_MIN_SAVING_PERCENTAGE): which members
 * have a candidate that much cheaper than their own pool. The launches themselves are planned with the
 * rest (launches.ts), last, with what is left of the budget.
 */

import type { GroupConfig } from '../config/config.ts'
import { CHEAPER_POOL_MIN_AGE_MINUTES, TAG_NO_SPOT_CAPACITY_UNTIL, TAG_REPLACED_TYPE } from '../constants.ts'
import type { GroupMember, Instance, InstanceTypeInfo } from '../types.ts'
import { poolKey } from '../types.ts'
import type { MemberRoles } from './member-roles.ts'
import type { PlanInput } from './plan-input.ts'
import { spotPriceOf } from './prices.ts'
import type { RankedCandidate, Selection } from './selection.ts'
import type { Placement } from './subnets.ts'

export interface MovableInput {
  readonly config: GroupConfig
  /** On-demand members above the minimum still to be replaced. */
  readonly replaceable: number
  /** Members this run may launch replacements for. */
  readonly eligible: readonly GroupMember[]
  readonly roles: Pick<MemberRoles, 'spot' | 'atRiskIds'>
  /** Members already taken by a replacement, a swap or a give-back: none of them moves. */
  readonly busy: readonly { has(id: string): boolean }[]
  readonly detail: (id: string) => Instance | undefined
  readonly now: Date
}

/**
 * Spot members that may move to a cheaper pool: only in a group with nothing else to replace, so moves
 * never hold the budget on-demand and at-risk members need (one that backs off still counts), and only
 * members old enough (CHEAPER_POOL_MIN_AGE_MINUTES) and taken by nothing else. None looked for otherwise.
 */
export const movableMembers = (input: MovableInput): readonly GroupMember[] => {
  const { config, roles, busy, detail, now } = input
  const movesAllowed =
    config.cheaperPoolMinSavingPercentage > 0 &&
    input.replaceable === 0 &&
    !input.eligible.some((m) => roles.atRiskIds.has(m.instanceId))
  if (!movesAllowed) return []
  return roles.spot.filter(
    (m) =>
      !roles.atRiskIds.has(m.instanceId) &&
      !busy.some((ids) => ids.has(m.instanceId)) &&
      now.getTime() - (detail(m.instanceId)?.launchTime.getTime() ?? now.getTime()) >=
        CHEAPER_POOL_MIN_AGE_MINUTES * 60_000,
  )
}

export interface MoveCandidate {
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
export const moveCandidates = (
  input: PlanInput,
  config: GroupConfig,
  movable: readonly GroupMember[],
  selectionFor: (baseType: string, original: InstanceTypeInfo, zone: string, onDemand: number) => Selection,
  placementOf: (instance: Instance) => Placement,
): MoveCandidate[] => {
  const minSaving = config.cheaperPoolMinSavingPercentage / 100
  if (minSaving <= 0 || movable.length === 0) return []
  const byPool = new Map<string, { ownPrice: number; cheaper: readonly RankedCandidate[] } | null>()
  const found: MoveCandidate[] = []
  for (const member of movable) {
    const instance = input.instances.get(member.instanceId)
    if (instance === undefined) continue
    const baseType = instance.tags[TAG_REPLACED_TYPE] ?? instance.type
    const own = poolKey(instance.type, instance.zone)
    const key = baseType === instance.type ? own : `${baseType}|${own}`
    let answer = byPool.get(key)
    if (answer === undefined) {
      const ownPrice = spotPriceOf(input.spotPrices, instance.type, instance.zone)
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
