/**
 * The plan's first step: finish what an earlier run left of a swap (its record, MaxSize, attached
 * replacements) through core/swap/recover.ts, and write what that takes into the plan: the actions, and
 * why the swap waits, if it does.
 */

import { isLeavingGroup, staysInGroup } from '../config/managed.ts'
import { TAG_REPLACEMENT_ATTEMPT, TAG_SWAP_ID } from '../constants.ts'
import { ecsDrainOf, protectedByEcs } from '../ecs/drain-view.ts'
import { corroboratesRecord, launchProvenance } from '../group/provenance.ts'
import { recoverSwaps } from '../swap/recover.ts'
import type { Recovery } from '../swap/recovery.ts'
import type { Action } from './actions.ts'
import { attemptNumber } from './attempts.ts'
import { HOLDS_OPEN_SWAP } from './group-skip.ts'
import type { GroupView } from './group-view.ts'
import type { GroupSkip, InstanceSkip } from './reasons.ts'

/** Recovers the group's open swap, if any; its actions and waits are added to `actions` and `instanceSkips`. */
export const recoverOpenSwap = (
  view: GroupView,
  skip: GroupSkip | undefined,
  skipped: string | undefined,
  actions: Action[],
  instanceSkips: InstanceSkip[],
): Recovery => {
  const { input, group, detail } = view
  // The callbacks are methods, as in GroupView, not named arrow functions (see group-view.ts).
  const recovery = recoverSwaps({
    group,
    // Spot members first: most members of a large first run are on-demand, and the lifecycle test is a regex.
    spotMembers: group.members.filter(
      (m) => detail(m.instanceId)?.lifecycle === 'spot' && !isLeavingGroup(m.lifecycleState),
    ),
    inService: view.roles.inService,
    stillIn(id) {
      return staysInGroup(group, id)
    },
    detail,
    launched: input.launched,
    isPartner: view.isPartner,
    onDemandIds: view.roles.onDemandIds,
    minOnDemand: view.minOnDemand,
    isProtected: view.isProtected,
    protectedByEcs: protectedByEcs(view),
    held: skip !== undefined && HOLDS_OPEN_SWAP.has(skip.code) ? skipped : undefined,
    now: input.now,
    ownerChanges: input.ownerChanges,
    health: input.health,
    graceSeconds: view.graceSeconds,
    leavesAt: view.leavesAt,
    attemptOf(id) {
      return attemptNumber(detail(id)?.tags[TAG_REPLACEMENT_ATTEMPT])
    },
    provenanceOf(id, partner) {
      const replacement = detail(id)
      return replacement === undefined
        ? { ours: false, code: 'partner-unseen', detail: `${id} cannot be seen` }
        : launchProvenance(replacement, group, detail(partner), { attached: true })
    },
    corroborates(record) {
      return corroboratesRecord(record, group, detail, input.launched)
    },
    ecsDrain: ecsDrainOf(view),
  })
  // A swap whose attach never happened unnames its launches as it closes: they are spotswap's again.
  // Most groups have no swap: no list is built for them (ten thousand groups a run).
  const unattachedId = recovery.unattachedSwapId
  const unname =
    unattachedId === undefined
      ? []
      : input.launched.filter((i) => i.tags[TAG_SWAP_ID] === unattachedId).map((i) => i.id)
  for (const a of recovery.actions)
    actions.push(a.kind === 'close-swap' && unname.length > 0 ? { ...a, unname } : a)
  if (recovery.waiting !== undefined) {
    // Shown against each replacement that waits, or the group when only desired capacity is owed.
    const waiters = recovery.halfDoneReplacements.length > 0 ? recovery.halfDoneReplacements : [group.name]
    for (const id of waiters)
      instanceSkips.push({ instanceId: id, code: 'swap-waits', reason: recovery.waiting })
  }
  return recovery
}
