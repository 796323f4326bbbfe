/**
 * The group as one plan sees it: its settings, its members' details and roles, its on-demand minimum, and
 * the questions every step of the plan asks about a member (is it protected, a partner, warned of its
 * interruption?).
 *
 * The questions are methods of one object built per group, not arrow functions made one by one: a large
 * run plans ten thousand groups, and under esbuild's keepNames (the Lambda bundle, tsx) every named arrow
 * function also costs a defineProperty and its garbage. None of them uses `this`, so each can be handed on
 * alone (`view.detail`) where a callback is asked for.
 */

import type { GroupConfig } from '../config/config.ts'
import {
  DOOMED_SWAP_DEADLINE_SECONDS,
  INTERRUPTION_NOTICE_SECONDS,
  TAG_INTERRUPTION_WARNED,
  TAG_REPLACING_INSTANCE,
} from '../constants.ts'
import { confirmedInterruptions, warnedAtMs } from '../interruption/confirmation.ts'
import type { Group, Instance } from '../types.ts'
import { minOnDemandCount } from './group-sizes.ts'
import { type MemberRoles, memberRoles } from './member-roles.ts'
import type { PlanInput } from './plan-input.ts'
import { scheduledIds } from './scheduled.ts'

export type Protection = 'protected-from-scale-in' | 'api-termination-protection'

export interface GroupView {
  readonly input: PlanInput
  readonly group: Group
  /** The group's settings, its MixedInstancesPolicy override types as the allow list when it sets none. */
  readonly config: GroupConfig
  readonly roles: MemberRoles
  readonly minOnDemand: number
  /** The grace period: the setting, else the group's own health check grace period. */
  readonly graceSeconds: number
  detail(id: string): Instance | undefined
  /** Members a replacement may retire: on-demand ones and spot ones flagged at risk or moving. */
  isPartner(id: string): boolean
  /** A member launched to replace one of the group's partners (a pair, attached or not). */
  replacesPartner(id: string): boolean
  /** How the owner protected an instance (from scale-in, against API termination), if they did. */
  protection(id: string): Protection | undefined
  isProtected(id: string): boolean
  /**
   * When EC2 warned the member of its interruption, epoch ms: the Spot request's own time where EC2 gave
   * it (core/interruption/confirmation.ts warnedAtMs), else TAG_INTERRUPTION_WARNED's; NaN if never.
   */
  warnedAt(id: string): number
  /** Too close to the interruption for a swap to be over before EC2 takes the member. */
  tooLate(id: string): boolean
  /** For a partner EC2 takes whatever happens (interruption warned): when it must leave, epoch ms. */
  leavesAt(id: string): number | undefined
}

const isPartnerIn = (roles: MemberRoles, id: string): boolean =>
  roles.onDemandIds.has(id) || roles.atRiskIds.has(id) || roles.movingIds.has(id)

const warnedAtOf = (input: PlanInput, id: string): number =>
  warnedAtMs(
    input.interruptions,
    id,
    Date.parse(input.instances.get(id)?.tags[TAG_INTERRUPTION_WARNED] ?? ''),
    INTERRUPTION_NOTICE_SECONDS * 1000,
  )

const isProtectedFromScaleIn = (group: Group, id: string): boolean =>
  group.members.some((m) => m.instanceId === id && m.protectedFromScaleIn)

/** MixedInstancesPolicy override types act as the allow list when the user set none. */
const effectiveConfig = (group: Group, config: GroupConfig): GroupConfig => {
  const overrides = group.mixedInstancesPolicy?.overrideTypes ?? []
  return config.allowedInstanceTypes.length === 0 && overrides.length > 0
    ? { ...config, allowedInstanceTypes: overrides }
    : config
}

export const groupView = (input: PlanInput): GroupView => {
  const { group, instances, terminationProtected, now } = input
  const config = effectiveConfig(group, input.config)
  const roles = memberRoles(
    group,
    instances,
    confirmedInterruptions(input.interruptions),
    scheduledIds(input),
  )
  const deadline = DOOMED_SWAP_DEADLINE_SECONDS * 1000
  return {
    input,
    group,
    config,
    roles,
    // The minimum is the owner's share of the group's own size (MemberRoles.besidePartner).
    minOnDemand: minOnDemandCount(
      config,
      roles.inService.length - roles.besidePartner,
      group.mixedInstancesPolicy,
    ),
    graceSeconds: config.gracePeriodSeconds ?? group.healthCheckGracePeriodSeconds,
    detail(id) {
      return instances.get(id)
    },
    isPartner(id) {
      return isPartnerIn(roles, id)
    },
    replacesPartner(id) {
      const partner = instances.get(id)?.tags[TAG_REPLACING_INSTANCE]
      return partner !== undefined && isPartnerIn(roles, partner)
    },
    // Asked only about a few instances (partners of replacements, doomed members), so a scan beats
    // building a map of the members for every group.
    protection(id) {
      return isProtectedFromScaleIn(group, id)
        ? 'protected-from-scale-in'
        : terminationProtected.has(id)
          ? 'api-termination-protection'
          : undefined
    },
    isProtected(id) {
      return terminationProtected.has(id) || isProtectedFromScaleIn(group, id)
    },
    warnedAt(id) {
      return warnedAtOf(input, id)
    },
    tooLate(id) {
      return now.getTime() >= warnedAtOf(input, id) + deadline
    },
    leavesAt(id) {
      return roles.doomedIds.has(id) ? warnedAtOf(input, id) + deadline : undefined
    },
  }
}
