/**
 * Liveness: every on-demand member in service is either being replaced or held back for a reason a user
 * can read. Worked out from the plan the planner made, so the reason is the planner's own, never a guess
 * made elsewhere; a member the plan leaves alone without a reason is `unexplained`, which the simulator's
 * liveness invariant reports as a bug.
 */

import { TAG_REPLACING_INSTANCE } from '../constants.ts'
import type { GroupMember, Instance } from '../types.ts'
import type { Action, SwapPair } from './actions.ts'
import type { GroupSkip, InstanceSkip, OnDemandCode, OnDemandStatus } from './reasons.ts'

export interface LivenessInput {
  /** The group's on-demand members in service. */
  readonly onDemand: readonly GroupMember[]
  readonly detail: (id: string) => Instance | undefined
  readonly actions: readonly Action[]
  readonly instanceSkips: readonly InstanceSkip[]
  /** Partner → its replacement, launched and not attached yet, kept by this plan. */
  readonly pending: ReadonlyMap<string, Instance>
  /** Partners of attached replacements: the open swap's. */
  readonly halfDonePartners: ReadonlySet<string>
  /** What the open swap waits for, when it waits. */
  readonly waiting: string | undefined
  readonly skip: GroupSkip | undefined
  /**
   * A replacement ahead of a scheduled event holds the group: `replacing` is its member (undefined for an
   * unreadable marker, dropped this run). Undefined when none holds it.
   */
  readonly maintenance: { readonly replacing: string | undefined } | undefined
  /** How a member is protected, if it is. */
  readonly protection: (id: string) => 'protected-from-scale-in' | 'api-termination-protection' | undefined
  /** What replacing an instance of this type in this zone saves per hour; undefined when nothing can. */
  readonly saving: (type: string, zone: string) => number | undefined
}

/**
 * Held back for now, replaced once it passes: these members count in the projected savings. Those kept
 * for the minimum or protected, and those no spot type can replace, do not.
 */
const PASSES: ReadonlySet<OnDemandCode> = new Set([
  'in-flight-budget',
  'spot-capacity-backoff',
  'replacement-did-not-serve',
  'replacement-terminated',
  'protection-unread',
  'protection-unreadable',
  'commitment-unreadable',
])

/** Codes that mean a replacement is on its way. */
export const PROGRESS_CODES: ReadonlySet<OnDemandCode> = new Set([
  'launching',
  'replacement-warming-up',
  'swapping',
  'swap-open',
  'retiring',
])

/**
 * The reason after its `<code>: `, the last one remembered: in a large first run most members of a group
 * wait on the in-flight budget with one shared reason, and each would otherwise build the prefix to test
 * and slice a string of its own (both kept until the run ends).
 */
let lastSkipDetail: { readonly reason: string; readonly code: string; readonly detail: string } | undefined
const skipDetail = ({ reason, code }: InstanceSkip): string => {
  if (lastSkipDetail?.reason !== reason || lastSkipDetail.code !== code) {
    const prefixed = reason.startsWith(code) && reason.startsWith(': ', code.length)
    lastSkipDetail = { reason, code, detail: prefixed ? reason.slice(code.length + 2) : '' }
  }
  return lastSkipDetail.detail
}

/**
 * The first skip said of `id`. A loop rather than `find` with an arrow function: asked once or twice per
 * on-demand member, and an arrow closing over the id makes V8 allocate a context for every call.
 */
const skipOf = (skips: readonly InstanceSkip[], id: string): InstanceSkip | undefined => {
  for (const skip of skips) if (skip.instanceId === id) return skip
  return undefined
}

const swaps = (pairs: readonly SwapPair[], id: string): boolean => {
  for (const pair of pairs) if (pair.onDemandInstanceId === id) return true
  return false
}

const whatHappens = (
  input: LivenessInput,
  id: string,
  terminated: ReadonlyMap<string, string>,
): { readonly code: OnDemandCode; readonly detail: string } => {
  for (const action of input.actions) {
    if (action.kind === 'complete-swap' && action.pair.onDemandInstanceId === id) {
      if (action.retire === 'partner') return { code: 'retiring', detail: action.reason }
      if (action.retire === 'replacement')
        return {
          // Given up past its deadline, or the partner is kept: protected, or for the minimum.
          code:
            action.backOffPartnerUntil !== undefined
              ? 'replacement-did-not-serve'
              : (input.protection(id) ?? 'on-demand-minimum'),
          detail: action.reason,
        }
    }
    if (
      action.kind === 'release-pair' &&
      action.pair.onDemandInstanceId === id &&
      action.backOffPartnerUntil !== undefined
    )
      return { code: 'spot-capacity-backoff', detail: action.reason }
    if (action.kind === 'give-back' && action.instanceId === id)
      return { code: 'retiring', detail: action.reason }
    if (action.kind === 'swap' && swaps(action.pairs, id)) return { code: 'swapping', detail: action.reason }
    if (action.kind === 'launch-spot' && action.replacing === id)
      return { code: 'launching', detail: action.reason }
  }
  if (input.halfDonePartners.has(id))
    return { code: 'swap-open', detail: input.waiting ?? 'its replacement is attached' }
  const replacement = input.pending.get(id)
  if (replacement !== undefined && !terminated.has(replacement.id)) {
    const own = skipOf(input.instanceSkips, replacement.id)
    return {
      code: 'replacement-warming-up',
      detail: own === undefined ? `${replacement.id} is launched` : `${replacement.id}: ${own.reason}`,
    }
  }
  const skip = skipOf(input.instanceSkips, id)
  if (skip !== undefined)
    switch (skip.code) {
      case 'swap-waits':
      case 'waiting-for-open-swap':
      case 'warming-up':
      // Said of instances outside the group, or of spot members, never of an on-demand member.
      case 'not-spotswaps-launch':
      case 'untrusted-marker':
      case 'marker-unverified':
        break
      default:
        return { code: skip.code, detail: skipDetail(skip) }
    }
  if (input.skip !== undefined)
    return { code: 'group-skipped', detail: `${input.skip.code}: ${input.skip.detail}` }
  const maintenance = input.maintenance
  if (maintenance !== undefined) {
    if (maintenance.replacing === id)
      return {
        code: 'retiring',
        detail:
          'replaced ahead of its scheduled event: it leaves once a member launched since the raise serves',
      }
    return {
      code: 'scheduled-replacement-open',
      detail:
        maintenance.replacing === undefined
          ? 'an unreadable replacement-ahead marker is dropped this run: nothing starts beside it'
          : `${maintenance.replacing} is being replaced ahead of its scheduled event: no launch or swap starts beside it`,
    }
  }
  // Its replacement goes this run (not attached in time): the member's turn comes again on a later run.
  const given = replacement === undefined ? undefined : terminated.get(replacement.id)
  if (replacement !== undefined && given !== undefined)
    return { code: 'replacement-terminated', detail: `${replacement.id} is terminated (${given})` }
  // A replacement launched for it that this plan does not keep (a duplicate, or one the minimum no longer
  // allows: the member stays for the minimum).
  for (const [spotId, reason] of terminated) {
    if (input.detail(spotId)?.tags[TAG_REPLACING_INSTANCE] !== id) continue
    return {
      code: reason.startsWith('not-needed') ? 'on-demand-minimum' : 'replacement-terminated',
      detail: `${spotId} is terminated (${reason})`,
    }
  }
  return { code: 'unexplained', detail: 'the plan neither replaces it nor says why' }
}

export const onDemandStatuses = (input: LivenessInput): OnDemandStatus[] => {
  if (input.onDemand.length === 0) return []
  const terminated = new Map<string, string>()
  for (const action of input.actions)
    if (action.kind === 'terminate-spot') terminated.set(action.instanceId, action.reason)
  return input.onDemand.map((member) => {
    const instance = input.detail(member.instanceId)
    const { code, detail } = whatHappens(input, member.instanceId, terminated)
    const type = instance?.type ?? member.instanceType ?? 'unknown'
    const zone = instance?.zone ?? member.zone
    const progress = PROGRESS_CODES.has(code)
    const projected =
      progress || PASSES.has(code) || input.skip?.code === 'outside-cron-window'
        ? input.saving(type, zone)
        : undefined
    // Two literals rather than a spread of an optional part: one status per member of a large run, each
    // kept until the run ends, and a spread builds a second object and grows the first out of line.
    const instanceId = member.instanceId
    return projected === undefined
      ? { instanceId, type, zone, code, detail, progress }
      : { instanceId, type, zone, code, detail, progress, projectedHourlySavingsUsd: projected }
  })
}
