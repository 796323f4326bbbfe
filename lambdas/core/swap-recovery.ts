/**
 * What a swap leaves on a group until it is over: a record (`spotswap:swap-desired=<desired after the
 * attach>/<pairs>`, and the original MaxSize when it was raised), and spot members attached for partners
 * that are still in service. A run that stopped midway is finished here, by the next run, without ever
 * taking the group below the desired capacity its owner set.
 */
import type { Action, SwapPair } from './actions.ts'
import { TAG_ORIGINAL_MAX_SIZE, TAG_REPLACING_INSTANCE, TAG_SWAP_DESIRED } from './constants.ts'
import type { Group, GroupMember, Instance } from './types.ts'

export interface RecoveryInput {
  readonly group: Group
  /** Spot members in any state but leaving (an attached replacement may still be Pending). */
  readonly spotMembers: readonly GroupMember[]
  readonly detail: (id: string) => Instance | undefined
  /** Members a replacement may retire: on-demand ones and spot ones flagged at risk. */
  readonly isPartner: (id: string) => boolean
  readonly onDemandIds: ReadonlySet<string>
  readonly minOnDemand: number
  /** Partners the owner protected (scale-in or API termination) since the swap started. */
  readonly isProtected: (id: string) => boolean
  readonly inService: (id: string) => boolean
  /** Set when the group may not be changed this run; the record then waits. */
  readonly skipped: string | undefined
}

export interface Recovery {
  readonly actions: readonly Action[]
  /** Partners of attached replacements: they must not get another one. */
  readonly halfDonePartners: ReadonlySet<string>
  /** On-demand partners this run retires: they no longer count toward what may be replaced. */
  readonly retiringOnDemand: number
  /** MaxSize once this run's restore (if any) is done: new swaps are sized against it. */
  readonly maxSize: number
}

export const swapRecord = (desiredAfterAttach: number, pairs: number): string =>
  `${desiredAfterAttach}/${pairs}`

export const parseRecord = (raw: string | undefined): { after: number; pairs: number } | undefined => {
  const match = /^(\d+)\/(\d+)$/.exec(raw ?? '')
  return match ? { after: Number(match[1]), pairs: Number(match[2]) } : undefined
}

export const recoverSwaps = (input: RecoveryInput): Recovery => {
  const { group } = input
  const actions: Action[] = []
  const halfDone: SwapPair[] = input.spotMembers.flatMap((m) => {
    const partner = input.detail(m.instanceId)?.tags[TAG_REPLACING_INSTANCE]
    return partner !== undefined && input.isPartner(partner)
      ? [{ spotInstanceId: m.instanceId, onDemandInstanceId: partner }]
      : []
  })
  const rawRecord = group.tags[TAG_SWAP_DESIRED]
  const recordedMax = group.tags[TAG_ORIGINAL_MAX_SIZE]

  if (halfDone.length === 0) {
    // A skipped group (stack updating, being deleted, processes suspended) is left alone until it is not.
    if ((rawRecord === undefined && recordedMax === undefined) || input.skipped !== undefined) {
      return { actions, halfDonePartners: new Set(), maxSize: group.maxSize, retiringOnDemand: 0 }
    }
    // The swap is over: put MaxSize back (never below desired, which the owner may have raised) and
    // drop the record.
    const originalMax = /^\d+$/.test(recordedMax ?? '') ? Number(recordedMax) : undefined
    const maxSize = originalMax === undefined ? undefined : Math.max(originalMax, group.desiredCapacity)
    actions.push({
      kind: 'restore-max-size',
      group: group.name,
      maxSize,
      reason:
        recordedMax !== undefined && originalMax === undefined
          ? `swap finished; unreadable ${TAG_ORIGINAL_MAX_SIZE}=${recordedMax} left MaxSize as it is`
          : 'swap finished',
    })
    return { actions, halfDonePartners: new Set(), maxSize: maxSize ?? group.maxSize, retiringOnDemand: 0 }
  }

  // Swaps whose replacement is attached but whose partner is still in: retire one side of each, with a
  // decrement that gives back the attach's +1, but only while desired is exactly what the swap left (less
  // the pairs already finished). If the owner set desired meanwhile, theirs stands: retiring anything
  // would dip below it until a backfill boots, so the pair is released instead: the replacement stays as
  // an ordinary member and the partner becomes an ordinary on-demand instance, replaced later as usual.
  const record = parseRecord(rawRecord)
  const expectedDesired = record ? record.after - (record.pairs - halfDone.length) : undefined
  const resizedMeanwhile = expectedDesired !== group.desiredCapacity
  let retiringOnDemand = 0
  if (input.skipped === undefined) {
    let onDemandLeft = input.onDemandIds.size
    for (const pair of halfDone) {
      // The replacement must be in service before its partner goes; an attach still Pending waits a run.
      if (!input.inService(pair.spotInstanceId)) continue
      if (resizedMeanwhile) {
        actions.push({
          kind: 'complete-swap',
          group: group.name,
          pair,
          retire: 'none',
          reason: `desired capacity is ${group.desiredCapacity}, not the ${expectedDesired ?? 'recorded'} the swap left: the owner resized the group, so nothing is retired and the pair is released`,
        })
        continue
      }
      const partnerIsOnDemand = input.onDemandIds.has(pair.onDemandInstanceId)
      const keepsMinimum = !partnerIsOnDemand || onDemandLeft - 1 >= input.minOnDemand
      const partnerProtected = input.isProtected(pair.onDemandInstanceId)
      const retirePartner = keepsMinimum && !partnerProtected
      if (retirePartner && partnerIsOnDemand) {
        onDemandLeft--
        retiringOnDemand++
      }
      actions.push({
        kind: 'complete-swap',
        group: group.name,
        pair,
        retire: retirePartner ? 'partner' : 'replacement',
        reason: retirePartner
          ? 'spot replacement attached by an earlier run; retiring its partner'
          : partnerProtected
            ? 'the partner was protected since the swap started; retiring the replacement instead'
            : 'retiring the partner would break the on-demand minimum; retiring the replacement instead',
      })
    }
  }
  return {
    actions,
    halfDonePartners: new Set(halfDone.map((p) => p.onDemandInstanceId)),
    maxSize: group.maxSize,
    retiringOnDemand,
  }
}
