/**
 * Provenance: which instances outside a group spotswap may treat as its own launches (attach them, or
 * clean them up). Anyone who may tag an instance can write `launched-for-asg`; what one tag cannot forge
 * is three facts together:
 * - EC2 says the instance is spot (its InstanceLifecycle);
 * - EC2's own `aws:ec2launchtemplate:id` (TAG_LAUNCH_TEMPLATE_ID, reserved to AWS) names a template the
 *   group's launches come from: its launch template, its mixed-instances policy's (or an override's), or
 *   for a launch-configuration group the temporary template spotswap made for that launch, whose id the
 *   launch recorded on the partner since the template is deleted right after;
 * - its partner (`launched-for-replacing-instance`) records it as the outcome of its replacement attempt
 *   (`spotswap:replacement-attempt=<n>:<id>`); or, while that attempt has no outcome yet (the run that made
 *   it died before EC2's answer was recorded: `<n>@<since>`), it was launched after the attempt began. The
 *   next launch of the attempt (same client token) records it; until then it may still be attached or
 *   cleaned up, so a run cut short cannot leave an orphan nobody may terminate.
 * An instance that carries TAG_JOINED_GROUP joined a group once: taken out by a person or the interruption
 * handler, it is theirs now, never spotswap's to terminate or attach again. So is one outside the group that
 * carries a swap's id (TAG_SWAP_ID, written just before the attach) unless that swap's record shows the
 * attach never happened (`attach-not-done`, which then removes the id): a run that died right after the
 * attach wrote no TAG_JOINED_GROUP, and a person may take the replacement out before the next run (chaos
 * seeds 5813, 6442, 6950). While only the scaling activities can tell whether that swap attached it, it is
 * `swap-undecided`: left alone, and judged once they are read (chaos seed 2148). Members of a managed group are
 * the group's, whoever launched them: provenance is only asked about instances outside it, and about the
 * replacements an open swap would retire a partner for (core/swap/recover.ts).
 */

import {
  TAG_JOINED_GROUP,
  TAG_LAUNCH_TEMPLATE_ID,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP_ID,
} from '../constants.ts'
import { type RecordedOutcome, recordedOutcome } from '../plan/attempts.ts'
import type { SwapRecord } from '../swap/record.ts'
import type { Group, Instance } from '../types.ts'

export type ProvenanceCode =
  | 'not-spot'
  | 'joined-a-group'
  | 'no-partner'
  | 'partner-unseen'
  | 'outcome-not-recorded'
  | 'foreign-template'
  | 'swap-undecided'

/** What an open swap says about the launches carrying its id (core/swap/recover.ts's Recovery). */
export interface SwapIds {
  /** Asked about a member the open swap attached (which joined the group by that attach). */
  readonly attached?: boolean
  /** The open swap's id when its record shows no attach (Recovery.unattachedSwapId). */
  readonly unattached?: string | undefined
  /**
   * The open swap's id while only the scaling activities can tell whether it attached its launches
   * (Recovery.undecidedSwapId): a launch carrying it is `swap-undecided`, judged once they are read.
   */
  readonly undecided?: string | undefined
}

export type Provenance =
  | { readonly ours: true }
  | { readonly ours: false; readonly code: ProvenanceCode; readonly detail: string }

/** An instance tagged as spotswap's launch that is not, and was left alone: logged, counted, shown by `plan`. */
export interface UntrustedInstance {
  readonly instanceId: string
  readonly code: ProvenanceCode
  readonly detail: string
}

const OURS: Provenance = { ours: true }

const refuse = (code: ProvenanceCode, detail: string): Provenance => ({ ours: false, code, detail })

/** An attempt made but not answered (`<n>@<since>`) accounts for a launch made since it began. */
const pendingOutcome = (attempt: string | undefined, instance: Instance): RecordedOutcome | undefined => {
  const since = Date.parse(/^\d{1,9}@(.+)$/.exec(attempt ?? '')?.[1] ?? '')
  return instance.launchTime.getTime() >= since
    ? { instanceId: instance.id, launchTemplateId: undefined }
    : undefined
}

/** The launch templates the group's own launches (and so spotswap's, which use them) come from. */
export const groupTemplateIds = (group: Group): ReadonlySet<string> => {
  const ids = new Set<string>()
  const add = (id: string | undefined): void => {
    if (id !== undefined && id !== '') ids.add(id)
  }
  add(group.launchTemplate?.id)
  add(group.mixedInstancesPolicy?.launchTemplate.id)
  for (const id of group.mixedInstancesPolicy?.overrideTemplateIds ?? []) add(id)
  return ids
}

/**
 * Whether `instance`, not a member of `group`, is spotswap's launch for it. `partner` is the instance its
 * `launched-for-replacing-instance` names, in any state (terminated ones stay visible for a while,
 * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/terminating-instances.html); undefined when unseen.
 * `group` is undefined for a group that is gone: then its templates cannot be compared, and the other two
 * facts decide.
 */
export const launchProvenance = (
  instance: Instance,
  group: Group | undefined,
  partner: Instance | undefined,
  swap: SwapIds = {},
): Provenance => {
  const attached = swap.attached === true
  if (instance.lifecycle !== 'spot') return refuse('not-spot', `${instance.id} is an on-demand instance`)
  const joined = instance.tags[TAG_JOINED_GROUP]
  if (joined !== undefined && !attached)
    return refuse('joined-a-group', `${instance.id} joined ${joined} once and was taken out of it since`)
  // One copied from its partner (launches before TAG_SWAP_ID stopped being inherited) names the partner's swap.
  const swapId = instance.tags[TAG_SWAP_ID]
  const named = swapId !== undefined && swapId !== partner?.tags[TAG_SWAP_ID]
  if (named && !attached && swapId === swap.undecided)
    return refuse(
      'swap-undecided',
      `${instance.id} carries the id of swap ${swapId}, which may have attached it: only the scaling activities can tell`,
    )
  if (named && !attached && swapId !== swap.unattached)
    return refuse(
      'joined-a-group',
      `${instance.id} was attached by swap ${swapId} and is out of the group since`,
    )
  const partnerId = instance.tags[TAG_REPLACING_INSTANCE]
  if (partnerId === undefined) return refuse('no-partner', `${instance.id} names no instance it replaces`)
  const unseen = `${partnerId}, which ${instance.id} names as its partner, cannot be seen`
  const attempt = partner?.tags[TAG_REPLACEMENT_ATTEMPT]
  const recorded = recordedOutcome(attempt)
  if (partner !== undefined) {
    const outcome = recorded ?? pendingOutcome(attempt, instance)
    if (outcome?.instanceId !== instance.id)
      return refuse(
        'outcome-not-recorded',
        `${partnerId} records ${outcome?.instanceId ?? 'no launch'} as its replacement, not ${instance.id}`,
      )
  }
  // A partner gone from EC2's view (terminated over about an hour ago, while no run could act) records
  // nothing any more. Its launch is never attached (only a member is a partner), but is still cleaned up
  // when EC2's template tag says it came from the group: spotswap's runs failing for an hour must not
  // leave an orphan for good. Without the group, nothing is left to check it against.
  if (group === undefined) return partner === undefined ? refuse('partner-unseen', unseen) : OURS
  const template = instance.tags[TAG_LAUNCH_TEMPLATE_ID]
  // A launch-configuration group's temporary template is known once the answer is recorded; before (a run
  // cut short between CreateFleet and recording it), or with the partner unseen, a launch from some
  // template is as far as it goes: the group's own instances come from none.
  if (group.launchConfigurationName !== undefined && recorded?.launchTemplateId === undefined)
    return template !== undefined
      ? OURS
      : refuse('foreign-template', `${instance.id} was launched from no launch template`)
  const allowed = new Set(groupTemplateIds(group))
  if (group.launchConfigurationName !== undefined && recorded?.launchTemplateId !== undefined)
    allowed.add(recorded.launchTemplateId)
  if (template === undefined || !allowed.has(template))
    return refuse(
      'foreign-template',
      `${instance.id} was launched from ${template ?? 'no launch template'}, not from ${[...allowed].join(' or ') || "the group's (unknown)"}`,
    )
  return OURS
}

/**
 * The group's launched instances split into spotswap's own (`trusted`) and the rest (`untrusted`), which
 * the plan leaves alone and reports.
 */
export const sortLaunches = (
  launched: readonly Instance[],
  group: Group,
  detail: (id: string) => Instance | undefined,
  swap: Pick<SwapIds, 'unattached' | 'undecided'> = {},
): { readonly trusted: Instance[]; readonly untrusted: UntrustedInstance[] } => {
  const trusted: Instance[] = []
  const untrusted: UntrustedInstance[] = []
  for (const instance of launched) {
    const partnerId = instance.tags[TAG_REPLACING_INSTANCE]
    const partner = partnerId === undefined ? undefined : detail(partnerId)
    const verdict = launchProvenance(instance, group, partner, swap)
    if (verdict.ours) trusted.push(instance)
    else untrusted.push({ instanceId: instance.id, code: verdict.code, detail: verdict.detail })
  }
  return { trusted, untrusted }
}

/**
 * Whether what spotswap can see accounts for an open swap's units beyond its attached pairs: an instance
 * (member or launch) carrying the swap's id, or a partner in the group whose recorded replacement is no
 * longer in it nor among the launches (it left without its decrement: the unit the record holds).
 */
export const corroboratesRecord = (
  record: SwapRecord,
  group: Group,
  detail: (id: string) => Instance | undefined,
  launched: readonly Instance[],
): boolean => {
  // Only spotswap's own launches speak for it: anyone can write the swap's id on an instance. A record
  // is refused when an instance claiming to be its pair (carrying its id) is not spotswap's launch.
  const planted = (instance: Instance | undefined, attached: boolean): boolean => {
    if (record.id === undefined || instance?.tags[TAG_SWAP_ID] !== record.id) return false
    const partner = detail(instance.tags[TAG_REPLACING_INSTANCE] ?? '')
    // One that joined a group by spotswap's confirmed attach and was taken out since was the swap's:
    // evidence for the record, whatever its partner records now.
    if (instance.tags[TAG_JOINED_GROUP] !== undefined) return false
    return !launchProvenance(instance, group, partner, { attached }).ours
  }
  return !(
    launched.some((i) => planted(i, true)) || group.members.some((m) => planted(detail(m.instanceId), true))
  )
}

/**
 * A refused launch that is spotswap's in every fact but EC2's template tag: spot, never in a group, naming
 * a partner that (if still seen) records it as its replacement. It may well be spotswap's own launch (a
 * model of EC2 that writes no template tag, a group whose template changed since), so it is never acted on
 * and never ignored either: it holds its partner and takes a place in the group's in-flight budget until
 * it is attached, terminated by someone or gone, so launches spotswap cannot verify stay within that budget.
 */
export const isUnverifiedLaunch = (refused: UntrustedInstance): boolean => refused.code === 'foreign-template'

/** As a line for the log, the summary and `plan`. */
export const untrustedReason = (untrusted: UntrustedInstance): string =>
  `not-spotswaps-launch (${untrusted.code}): ${untrusted.detail}; never attached nor terminated`
