/**
 * How far invariant 4 lets a group's sizes stand from its owner's while swaps are open (issue 12: "while a
 * swap is open, desired capacity may stand above the owner's figure by at most its open pairs until its
 * deadline"). Open pairs are read from the world, never from spotswap's record on the group: a pair is
 * open while a replacement spotswap attached (origin spotswap, a member through AttachInstances) names in
 * `launched-for-replacing-instance` an instance that is still a member of the same group, neither side
 * leaving it.
 */
import type { GlobalConfig } from '../../lambdas/core/config/config.ts'
import { HEALTH_DEADLINE_MAX_SECONDS, TAG_REPLACING_INSTANCE } from '../../lambdas/core/constants.ts'
import { revertAllowance } from './revert-allowance.ts'
import { isActiveMember, type SimGroup, type SimRegion } from './state.ts'

/**
 * A run asked for at a pair's deadline may wait behind the region's other runs in its FIFO message group
 * (seconds each); a minute covers that.
 */
const QUEUE_SLACK_SECONDS = 60

/**
 * How long after its attach a pair's +1 is allowed. The engine gives a replacement that does not serve up
 * at its deadline, at most HEALTH_DEADLINE_MAX_SECONDS after the swap's start (which precedes the attach),
 * and a run looks at the pair within one schedule period of it (every HEALTH_POLL_SECONDS when it can
 * request runs, which is shorter), queued behind the region's other runs at worst.
 */
export const pairAllowanceMs = (config: GlobalConfig): number =>
  (HEALTH_DEADLINE_MAX_SECONDS + config.scheduleMinutes * 60 + QUEUE_SLACK_SECONDS) * 1000

/** When the allowance of each open pair of `group` ends (epoch ms), one entry per pair. */
export const openPairs = (config: GlobalConfig, region: SimRegion, group: SimGroup): number[] => {
  const ends: number[] = []
  for (const [id, member] of group.members) {
    const instance = region.instances.get(id)
    if (instance?.origin !== 'spotswap' || !isActiveMember(member)) continue
    const partnerId = instance.tags[TAG_REPLACING_INSTANCE]
    const partner = partnerId === undefined ? undefined : group.members.get(partnerId)
    if (partner === undefined || !isActiveMember(partner)) continue
    // The owner protected the replacement (scale-in or API termination): spotswap may not give it up, so the
    // pair stays open, its unit held, until they lift the protection (the `replacement-protected` row).
    if (member.protectedFromScaleIn || instance.terminationProtected) {
      ends.push(Number.POSITIVE_INFINITY)
      continue
    }
    // A member spotswap launched joined through AttachInstances; without the time, its launch bounds it.
    ends.push((member.attachedMs ?? instance.launchMs) + pairAllowanceMs(config))
  }
  ends.push(...scheduledAllowances(config, region, group))
  ends.push(...revertAllowance(region, group))
  return ends
}

/**
 * A member with an EC2 scheduled event may have a unit raised for it (core/maintenance/plan.ts): one per
 * such member still active, until the pair allowance after its NotBefore, when EC2 has taken it.
 */
const scheduledAllowances = (config: GlobalConfig, region: SimRegion, group: SimGroup): number[] => {
  const ends: number[] = []
  for (const [id, member] of group.members) {
    const event = region.instances.get(id)?.scheduledEvent
    if (event !== undefined && isActiveMember(member)) ends.push(event.notBeforeMs + pairAllowanceMs(config))
  }
  return ends
}

/** Pairs whose allowance still runs at `atMs`. */
export const allowedAt = (pairEnds: readonly number[], atMs: number): number =>
  pairEnds.filter((end) => end > atMs).length
