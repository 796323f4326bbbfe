/**
 * The parts a group's members play in a plan: on-demand members to replace, spot members EC2 will
 * interrupt (doomed) or flagged at risk, spot members being moved to a cheaper pool.
 */

import {
  TAG_INTERRUPTION_WARNED,
  TAG_REBALANCE_AT_RISK,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
} from '../constants.ts'
import type { Group, GroupMember, Instance } from '../types.ts'

export interface MemberRoles {
  readonly inService: readonly GroupMember[]
  readonly onDemand: readonly GroupMember[]
  readonly spot: readonly GroupMember[]
  readonly onDemandIds: ReadonlySet<string>
  /**
   * Spot members EC2 will interrupt within two minutes, which the interruption handler left in service
   * for us to replace ahead of the interruption.
   */
  readonly doomed: readonly GroupMember[]
  readonly doomedIds: ReadonlySet<string>
  /**
   * Spot members tagged as warned whose interruption EC2 does not confirm (their Spot request status,
   * core/interruption/confirmation.ts): anyone may write the tag, so they are not doomed, only reported.
   */
  readonly unconfirmed: readonly GroupMember[]
  /**
   * Those and the ones flagged after a rebalance recommendation: replaced like on-demand ones (into
   * another pool), without counting against the on-demand minimum.
   */
  readonly atRisk: readonly GroupMember[]
  readonly atRiskIds: ReadonlySet<string>
  /** Spot members a replacement was launched for to move them to a cheaper pool: its partners, too. */
  readonly movingIds: ReadonlySet<string>
  /**
   * Spot members attached beside their partner, still in service (an open swap's +1): not counted in the
   * group's own size, or a percentage that rounds up for the larger size would keep the partner and
   * retire the replacement, and the next run launch again (seed 20867: 33.3% of 1 is 0, of 2 is 1).
   */
  readonly besidePartner: number
}

const NONE: ReadonlySet<string> = new Set()

/**
 * The roles of the group's members in service. One pass per list, and no set built for an empty one: a
 * large run asks this of ten thousand groups, most of them without any spot member or all spot.
 * `confirmed`: the members EC2 confirms it interrupts; only those are doomed. `scheduled`: members with an
 * EC2 scheduled event, at risk.
 */
export const memberRoles = (
  group: Group,
  instances: ReadonlyMap<string, Instance>,
  confirmed: ReadonlySet<string> = NONE,
  scheduled: ReadonlySet<string> = NONE,
): MemberRoles => {
  const inService: GroupMember[] = []
  const onDemand: GroupMember[] = []
  const spot: GroupMember[] = []
  const spotDetails: Instance[] = []
  for (const member of group.members) {
    if (member.lifecycleState !== 'InService') continue
    inService.push(member)
    const instance = instances.get(member.instanceId)
    if (instance?.lifecycle === 'on-demand') onDemand.push(member)
    else if (instance?.lifecycle === 'spot') {
      spot.push(member)
      spotDetails.push(instance)
    }
  }
  const onDemandIds = new Set<string>()
  for (const member of onDemand) onDemandIds.add(member.instanceId)
  if (spot.length === 0)
    return {
      inService,
      onDemand,
      spot,
      onDemandIds,
      doomed: [],
      doomedIds: NONE,
      unconfirmed: [],
      atRisk: [],
      atRiskIds: NONE,
      movingIds: NONE,
      besidePartner: 0,
    }
  const doomed: GroupMember[] = []
  const doomedIds = new Set<string>()
  const unconfirmed: GroupMember[] = []
  const atRisk: GroupMember[] = []
  const atRiskIds = new Set<string>()
  const movingIds = new Set<string>()
  const inServiceIds = new Set<string>()
  for (const member of inService) inServiceIds.add(member.instanceId)
  let besidePartner = 0
  for (const [index, member] of spot.entries()) {
    const tags = (spotDetails[index] as Instance).tags
    const marked = tags[TAG_INTERRUPTION_WARNED] !== undefined
    const doomedOne = marked && confirmed.has(member.instanceId)
    if (marked && !doomedOne) unconfirmed.push(member)
    if (doomedOne) {
      doomed.push(member)
      doomedIds.add(member.instanceId)
    }
    // A scheduled event (core/maintenance/events.ts) is EC2's word, like a confirmed interruption.
    if (doomedOne || tags[TAG_REBALANCE_AT_RISK] !== undefined || scheduled.has(member.instanceId)) {
      atRisk.push(member)
      atRiskIds.add(member.instanceId)
    } else if (tags[TAG_REPLACEMENT_ATTEMPT] !== undefined) movingIds.add(member.instanceId)
    const partner = tags[TAG_REPLACING_INSTANCE]
    if (partner !== undefined && inServiceIds.has(partner)) besidePartner++
  }
  return {
    inService,
    onDemand,
    spot,
    onDemandIds,
    doomed,
    doomedIds,
    unconfirmed,
    atRisk,
    atRiskIds,
    movingIds,
    besidePartner,
  }
}
