/**
 * `launches-beyond-budget`: the spot instances spotswap launched for a group that are in flight (alive,
 * outside any group, never attached) never exceed the group's in-flight budget (MAX_REPLACEMENTS_IN_FLIGHT,
 * per group), those it cannot account for included: a launch that lacks EC2's `aws:ec2launchtemplate:id`
 * (the one way the simulator makes a launch unverifiable: its EC2 omits the tag, as moto's CreateFleet
 * does) is refused by provenance, and no run may attach or terminate it. Judged from the simulator's own
 * state after every step: a step that brings a new one while the group has more of them than its budget
 * allows (of the group's size before the step or after it, whichever is larger) is a violation (a run's
 * launches made in the room of an attach or a termination that failed
 * among them). Launches for a member EC2 is about to interrupt are outside the budget (the engine
 * replaces such a member whatever its budget) and do not count while their partner is warned.
 */
import { isManaged } from '../../lambdas/core/config/managed.ts'
import {
  TAG_JOINED_GROUP,
  TAG_LAUNCH_TEMPLATE_ID,
  TAG_REPLACING_INSTANCE,
} from '../../lambdas/core/constants.ts'
import { inFlightLimit, judgedBeyondInService } from '../../lambdas/core/plan/group-sizes.ts'
import { GROUP_NAME_TAG } from './asg-members.ts'
import { effectiveConfig } from './group-state.ts'
import type { InvariantLedger, RegionSnapshot, StepContext, Violation } from './invariant-ledger.ts'
import { isRunningOrPending, type SimGroup, type SimInstance, type SimRegion } from './state.ts'

/** A spot instance spotswap launched, alive outside any group and never in one: a replacement in flight. */
const isInFlight = (region: SimRegion, instance: SimInstance): boolean =>
  instance.origin === 'spotswap' &&
  instance.lifecycle === 'spot' &&
  isRunningOrPending(instance) &&
  instance.tags[GROUP_NAME_TAG] === undefined &&
  instance.tags[TAG_JOINED_GROUP] === undefined &&
  region.groupOf(instance.id) === undefined

/** A spot instance spotswap launched that provenance cannot verify, alive outside any group. */
export const isUnverifiableLaunch = (region: SimRegion, instance: SimInstance): boolean =>
  instance.tags[TAG_LAUNCH_TEMPLATE_ID] === undefined && isInFlight(region, instance)

/** Whether an unverifiable launch made to replace `partnerId` is alive (invariant 8's `unverified-launch`). */
export const unverifiableLaunchAlive = (region: SimRegion, partnerId: string): boolean => {
  for (const instance of region.instances.values())
    if (instance.tags[TAG_REPLACING_INSTANCE] === partnerId && isUnverifiableLaunch(region, instance))
      return true
  return false
}

/** Per simulation (its ledger): the unverifiable launches already seen. */
const seenBy = new WeakMap<InvariantLedger, Set<string>>()

const inService = (group: SimGroup): number => {
  let count = 0
  for (const member of group.members.values()) if (member.lifecycleState === 'InService') count++
  return count
}

export const checkLaunchBound = (
  { config, region, ledger }: StepContext,
  at: string,
  before?: RegionSnapshot,
): Violation[] => {
  let seen = seenBy.get(ledger)
  if (seen === undefined) {
    seen = new Set()
    seenBy.set(ledger, seen)
  }
  const byGroup = new Map<string, { counted: string[]; fresh: string[] }>()
  for (const instance of region.instances.values()) {
    if (instance.costGroup === undefined || !isInFlight(region, instance)) continue
    const fresh = !seen.has(instance.id)
    seen.add(instance.id)
    const partner = region.instances.get(instance.tags[TAG_REPLACING_INSTANCE] ?? '')
    if (partner?.interruptAtMs !== undefined) continue
    const entry = byGroup.get(instance.costGroup) ?? { counted: [], fresh: [] }
    entry.counted.push(instance.id)
    if (fresh) entry.fresh.push(instance.id)
    byGroup.set(instance.costGroup, entry)
  }
  const violations: Violation[] = []
  for (const [name, { counted, fresh }] of byGroup) {
    const group = region.groups.get(name)
    if (group === undefined || fresh.length === 0 || !isManaged(group.tags, config)) continue
    // The run planned on the group as it found it: a member leaving in the same step (released without a
    // decrement, scaled in) lowers the budget only for the next run's launches.
    const size = Math.max(inService(group), before?.states.get(name)?.inService ?? 0)
    const limit = inFlightLimit(
      effectiveConfig(config, group).maxReplacementsInFlight,
      size,
      judgedBeyondInService(group.trafficSources, group.tags),
    )
    if (counted.length > limit)
      violations.push({
        at,
        group: name,
        invariant: 'launches-beyond-budget',
        detail: `${counted.length} launches in flight (${counted.join(', ')}), in-flight budget ${limit}; new: ${fresh.join(', ')}`,
      })
  }
  return violations
}
