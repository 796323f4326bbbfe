/**
 * Strays: spot instances launched for groups that are gone or no longer managed. Strays are only
 * terminated when they are spotswap's launches (spot, never in a group, recorded by their partner; EC2's
 * template tag the group's when the group still exists, unmanaged now) and AWS confirms they belong to no
 * group. A partner gone from EC2's view records nothing: then only the template speaks, so a launch for a
 * group that is gone is left alone (reported), one for a group opted out is not (chaos seed 12239: runs
 * blocked for 90 minutes, the partners scaled in meanwhile, then the owner opted out).
 */
import { TAG_LAUNCHED_FOR_GROUP, TAG_REPLACING_INSTANCE } from '../constants.ts'
import { launchProvenance, type UntrustedInstance } from '../group/provenance.ts'
import type { TerminateSpotAction } from '../plan/actions.ts'
import { unattachedSwapIdOf } from '../swap/record.ts'
import type { Group, Instance } from '../types.ts'

/** The group a stray was launched for, by its `launched-for-asg` tag ('' when it has none). */
export const launchedForOf = (instance: Instance): string => instance.tags[TAG_LAUNCHED_FOR_GROUP] ?? ''

/** The partners whose records decide the strays' provenance, to read (terminated ones included). */
export const strayPartnerIds = (candidates: readonly Instance[]): string[] =>
  candidates.flatMap((i) => i.tags[TAG_REPLACING_INSTANCE] ?? [])

export interface StrayVerdicts {
  /** spotswap's launches: terminated once AWS confirms they are in no group. */
  readonly ours: readonly Instance[]
  /** The others, in the candidates' order, each with the group it names: left alone and reported. */
  readonly untrusted: readonly { readonly group: string; readonly instance: UntrustedInstance }[]
}

export const judgeStrays = (
  candidates: readonly Instance[],
  groups: ReadonlyMap<string, Group> | undefined,
  partners: ReadonlyMap<string, Instance>,
): StrayVerdicts => {
  const ours: Instance[] = []
  const untrusted: { group: string; instance: UntrustedInstance }[] = []
  for (const i of candidates) {
    const group = groups?.get(launchedForOf(i))
    const partner = partners.get(i.tags[TAG_REPLACING_INSTANCE] ?? '')
    // A swap left open when the group was opted out, whose attach never happened (chaos seed 7567).
    const unattached = group === undefined ? undefined : unattachedSwapIdOf(group)
    const verdict = launchProvenance(i, group, partner, { unattached })
    if (verdict.ours) ours.push(i)
    else
      untrusted.push({
        group: launchedForOf(i),
        instance: { instanceId: i.id, code: verdict.code, detail: verdict.detail },
      })
  }
  return { ours, untrusted }
}

/** Our strays that AWS says are members of no group (`owners`: each member's group), to terminate. */
export const strayTerminations = (
  ours: readonly Instance[],
  owners: ReadonlyMap<string, string>,
): TerminateSpotAction[] =>
  ours
    .filter((i) => !owners.has(i.id))
    .map((i) => ({
      kind: 'terminate-spot',
      group: launchedForOf(i),
      instanceId: i.id,
      inNoGroup: true,
      reason: 'group-gone-or-unmanaged: launched for a group that no longer exists or is no longer managed',
    }))
