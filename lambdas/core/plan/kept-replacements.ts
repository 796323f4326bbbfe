/**
 * Spot instances launched earlier and not attached: one kept per partner still to be replaced, within
 * the on-demand minimum; the others terminated, each with its reason.
 */

import { TAG_REPLACING_INSTANCE } from '../constants.ts'
import type { Instance } from '../types.ts'
import type { MemberRoles } from './member-roles.ts'
import { byLaunchTimeThenId } from './plan-input.ts'
import { compareCodePoints } from './selection.ts'

export interface KeepInput {
  /** spotswap's own launches for the group, not attached (provenance.ts). */
  readonly trusted: Instance[]
  readonly detail: (id: string) => Instance | undefined
  /** Whether a member is one a replacement may be launched for (on-demand, at risk, moving). */
  readonly isPartner: (id: string) => boolean
  /** Partners of attached replacements: the open swap's. */
  readonly halfDonePartners: ReadonlySet<string>
  readonly roles: Pick<MemberRoles, 'onDemandIds' | 'atRiskIds' | 'movingIds'>
  /** On-demand members that may be replaced at all (above the minimum). */
  readonly replaceable: number
  readonly minOnDemand: number
  readonly terminate: (instance: Instance, reason: string) => void
}

export interface KeptReplacements {
  /** Partner → its replacement: every launch kept by partner, before the minimum. */
  readonly pendingByPartner: ReadonlyMap<string, Instance>
  /** The replacements kept, those of at-risk and moving spot members first. */
  readonly wanted: readonly (readonly [string, Instance])[]
  /** Of which replacing on-demand members. */
  readonly wantedForOnDemand: readonly (readonly [string, Instance])[]
}

/** No launch to keep: most groups of a large run. Shared, and read-only like every result. */
const NOTHING_KEPT: KeptReplacements = { pendingByPartner: new Map(), wanted: [], wantedForOnDemand: [] }

export const keepReplacements = (input: KeepInput): KeptReplacements => {
  const { trusted, detail, isPartner, halfDonePartners, replaceable, minOnDemand, terminate } = input
  if (trusted.length === 0) return NOTHING_KEPT
  const { onDemandIds, atRiskIds, movingIds } = input.roles
  const pendingByPartner = new Map<string, Instance>()
  for (const instance of trusted.sort(byLaunchTimeThenId)) {
    const partner = instance.tags[TAG_REPLACING_INSTANCE]
    if (partner === undefined || !isPartner(partner)) {
      terminate(instance, 'partner-gone: the instance it was launched to replace is no longer in service')
    } else if (halfDonePartners.has(partner)) {
      terminate(instance, `duplicate-replacement: ${partner} already has an attached replacement`)
    } else if (pendingByPartner.has(partner)) {
      terminate(
        instance,
        `duplicate-replacement: ${pendingByPartner.get(partner)?.id} already replaces ${partner}`,
      )
    } else {
      pendingByPartner.set(partner, instance)
    }
  }
  // The oldest partners keep their replacements; the newest on-demand instances are the ones kept.
  // Replacements of at-risk spot members are always wanted: they do not change the on-demand count.
  const pending = [...pendingByPartner.entries()].sort(([a], [b]) => {
    const ia = detail(a)
    const ib = detail(b)
    return ia && ib ? byLaunchTimeThenId(ia, ib) : compareCodePoints(a, b)
  })
  const pendingForAtRisk = pending.filter(([partner]) => atRiskIds.has(partner) || movingIds.has(partner))
  const pendingForOnDemand = pending.filter(([partner]) => onDemandIds.has(partner))
  for (const [, instance] of pendingForOnDemand.slice(replaceable)) {
    terminate(instance, `not-needed: the group must keep ${minOnDemand} on-demand instance(s)`)
  }
  const wantedForOnDemand = pendingForOnDemand.slice(0, replaceable)
  const wanted = [...pendingForAtRisk, ...wantedForOnDemand]
  return { pendingByPartner, wanted, wantedForOnDemand }
}
