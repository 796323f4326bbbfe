/** What recovering an open swap takes in (RecoveryInput) and gives back (Recovery), and its starting points. */

import type { DrainStep } from '../ecs/drain.ts'
import type { Provenance, UntrustedInstance } from '../group/provenance.ts'
import type { OwnerChanges } from '../group/scaling-activities.ts'
import type { HealthObservation } from '../group/serving.ts'
import type { Action, SwapPair } from '../plan/actions.ts'
import type { Group, GroupMember, Instance } from '../types.ts'
import type { SwapRecord } from './record.ts'
import { type SwapSituation, swapTransition } from './transitions.ts'

export interface RecoveryInput {
  readonly group: Group
  /** Spot members in any state but leaving (an attached replacement may still be Pending). */
  readonly spotMembers: readonly GroupMember[]
  readonly detail: (id: string) => Instance | undefined
  /** spotswap's launches for the group outside it (pending or running), as observed. */
  readonly launched: readonly Instance[]
  /** Members a replacement may retire: on-demand ones and spot ones flagged at risk or moving. */
  readonly isPartner: (id: string) => boolean
  readonly onDemandIds: ReadonlySet<string>
  readonly minOnDemand: number
  /** Instances the owner protected (scale-in or API termination). */
  readonly isProtected: (id: string) => boolean
  /**
   * Protected members whose protection is ECS's alone (core/ecs/drain-view.ts protectedByEcs): a release
   * may remove a replacement's pair tags there. False for every member outside groups ECS manages.
   */
  readonly protectedByEcs?: (id: string) => boolean
  /** InService members, attached replacements included, oldest first. */
  readonly inService: readonly GroupMember[]
  /** Whether an instance is still a member of the group and not leaving it. */
  readonly stillIn: (instanceId: string) => boolean
  /** Set when the group may not be changed this run (stack update, deletion, suspended processes). */
  readonly held: string | undefined
  readonly now: Date
  /**
   * Changes of desired capacity the group's scaling activities show since the swap started. Undefined
   * until read: a plan that would retire something, or that awaits them (Recovery.awaitingActivities), is
   * made again once they are (replacer/plan-region.ts).
   */
  readonly ownerChanges: OwnerChanges | undefined
  /** Load-balancer health of the attached replacements; undefined until read (see GroupPlan.awaitingHealth). */
  readonly health: HealthObservation | undefined
  /** The group's grace period (the setting, else the group's own): part of the health deadline. */
  readonly graceSeconds: number
  /** For a partner EC2 takes whatever happens (interruption warned): when it must leave, epoch ms. */
  readonly leavesAt: (id: string) => number | undefined
  /** The replacement attempt recorded on an instance (TAG_REPLACEMENT_ATTEMPT), 0 when none. */
  readonly attemptOf: (id: string) => number
  /**
   * Whether a member named as a replacement is spotswap's launch for its partner (core/group/provenance.ts):
   * a pair whose replacement is not is no pair; it is dropped and reported, never retired for.
   */
  readonly provenanceOf: (replacementId: string, partnerId: string) => Provenance
  /**
   * Whether something spotswap can see accounts for units the record holds beyond its attached pairs:
   * an instance carrying the swap's id, or a partner whose recorded replacement is gone.
   */
  readonly corroborates: (record: SwapRecord) => boolean
  /** The step of a pair whose partner ECS protects (core/ecs/drain.ts); undefined outside such groups. */
  readonly ecsDrain?: (pair: SwapPair, keepsMinimum: boolean, deadlineMs: number) => DrainStep | undefined
}

export interface Recovery {
  readonly actions: readonly Action[]
  /** Members named as replacements of an open swap that provenance refused: no pairs, reported. */
  readonly untrusted?: readonly UntrustedInstance[]
  /** Where the swap stands: the row of SWAP_TRANSITIONS that applied. */
  readonly situation: SwapSituation
  /** Partners of attached replacements: they must not get another one. */
  readonly halfDonePartners: ReadonlySet<string>
  readonly halfDoneReplacements: readonly string[]
  /** On-demand instances this run retires: they no longer count toward what may be replaced. */
  readonly retiringOnDemand: number
  /** Members this run gives back: they get no replacement, move or release of their own. */
  readonly givingBack: ReadonlySet<string>
  /** A swap is still open (record or half-done pairs): no new swap starts until it is over. */
  readonly open: boolean
  /** The id of the swap record believed this run, if it has one (version 2). */
  readonly recordId?: string
  /** Why the open swap waits this run, if it does. */
  readonly waiting: string | undefined
  /** Replacements whose serving the plan waits for: their health must be read (see RecoveryInput.health). */
  readonly awaitingHealth: readonly string[]
  /**
   * The group's scaling activities must be read before the swap can go on (situation `activities-unread`):
   * the replacer reads them and plans the group again (see RecoveryInput.ownerChanges).
   */
  readonly awaitingActivities: boolean
  /** When to look again, seconds from now: a replacement should serve by then (or its deadline has come). */
  readonly lookAgainSeconds: number | undefined
  /**
   * The id of the open swap when nothing shows its launches ever joined the group: its record never said
   * the attach was done and nothing of it is attached, and either desired capacity is still the owner's
   * or the swap closes this run without giving a unit back. Launches carrying it stay spotswap's to attach
   * or clean up, and a close unnames them. Any other launch outside the group carrying a swap's id joined
   * the group and was taken out since (core/group/provenance.ts).
   */
  readonly unattachedSwapId?: string
  /**
   * The id of the open swap while only its scaling activities can tell whether its attach happened
   * (situations `activities-unread` and `activities-unreadable`). Launches outside the group carrying
   * it are then neither attached nor terminated, and are reported as waiting with the swap rather than
   * as not spotswap's.
   */
  readonly undecidedSwapId?: string
  /**
   * Launches of a swap that attached only part of its pairs, proven never attached
   * (core/swap/partial-attach.ts): this run terminates them, and their partners get no other replacement.
   */
  readonly unattachedLaunches?: readonly Instance[]
  /**
   * The open swap's record when it was written ahead of a doomed member's replacement and nothing is
   * attached yet (situation `launched-ahead`, core/swap/launched-ahead.ts): a swap of that launch keeps its
   * id, and the replacements ready beside it join it.
   */
  readonly launchedAhead?: SwapRecord
  /** With `launchedAhead`: its launches outside the group (carrying its id), each to be swapped in by it. */
  readonly launchedAheadIds?: readonly string[]
  /**
   * The open swap's record when a replacement ready this run may join it as one more pair
   * (core/swap/joining.ts joinableRecord) instead of waiting for it to close.
   */
  readonly joinable?: SwapRecord
  /**
   * Set when this run's actions close the swap having finished it, or when only a held raise stands: the
   * desired capacity and MaxSize the group has once they are done, so the next swap can start in the same
   * run, after them.
   */
  readonly closes?: {
    readonly desired: number
    readonly maxSize: number
    /** The MaxSize before a raise the close leaves held (closing.ts heldRaise): the next swap's `max`. */
    readonly originalMaxSize?: number
  }
}

/**
 * Whether a release may remove the pair tags of `pair`'s replacement: not protected, or protected by ECS
 * alone (it runs tasks). An owner's protection keeps them: spotswap writes nothing on such a member.
 */
export const mayRelease = (input: Pick<RecoveryInput, 'isProtected' | 'protectedByEcs'>, pair: SwapPair) =>
  !input.isProtected(pair.spotInstanceId) || input.protectedByEcs?.(pair.spotInstanceId) === true

export const partnersOf = (pairs: readonly SwapPair[]): Set<string> =>
  new Set(pairs.map((p) => p.onDemandInstanceId))

export const base = (situation: SwapSituation, open: boolean, halfDone: readonly SwapPair[]): Recovery => ({
  actions: [],
  situation,
  halfDonePartners: new Set(halfDone.map((p) => p.onDemandInstanceId)),
  halfDoneReplacements: halfDone.map((p) => p.spotInstanceId),
  retiringOnDemand: 0,
  givingBack: new Set(),
  open,
  waiting: undefined,
  awaitingHealth: [],
  awaitingActivities: false,
  lookAgainSeconds: undefined,
})

export const waitFor = (
  situation: SwapSituation,
  halfDone: readonly SwapPair[],
  detail?: string,
): Recovery => ({
  ...base(situation, true, halfDone),
  waiting: `swap waits (${situation}): ${detail ?? swapTransition(situation).why}`,
})
