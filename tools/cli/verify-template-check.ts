/**
 * Whether spotswap's launches for verify's group came from the group's launch template, as EC2 says it:
 * EC2 tags every instance launched from a template with `aws:ec2launchtemplate:id`
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/launch-instances-from-launch-template.html), a key
 * only AWS may write, and spotswap's provenance (lambdas/core/group/provenance.ts) attaches or cleans up
 * only launches that carry its group's. An endpoint that writes no such tag on CreateFleet's instances
 * (moto 5.2.1) leaves spotswap unable to prove any launch its own: it attaches none, so the checks that
 * need a conversion cannot be made there. They are reported `not-possible`, with why, never passed or
 * failed.
 */
import type { MemberView, VerifyCheck } from './verify-checks.ts'

export const TEMPLATE_CHECK = 'launch-template-tag'

/** Launches were made and EC2 tagged none of them with a template. */
export const withoutTemplateTag = (launched: readonly MemberView[]): boolean =>
  launched.length > 0 && launched.every((l) => l.launchTemplateId === undefined)

const NO_TAG =
  'this endpoint wrote no aws:ec2launchtemplate:id on the instances CreateFleet launched (EC2 writes it on every instance launched from a template; moto does not), so spotswap cannot prove them its own and attaches none'

/** Every launch seen for the group carries the group's template, as EC2 wrote it. */
export const launchTemplateCheck = (
  launched: readonly MemberView[],
  groupTemplateId: string,
): VerifyCheck => {
  const name = TEMPLATE_CHECK
  if (launched.length === 0)
    return { name, status: 'skipped', reason: 'spotswap launched nothing to look at' }
  if (withoutTemplateTag(launched))
    return { name, status: 'not-possible', reason: `${NO_TAG}: ${ids(launched)}` }
  const other = launched.filter((l) => l.launchTemplateId !== groupTemplateId)
  if (other.length > 0)
    return {
      name,
      status: 'fail',
      reason: `launched from another template than the group's ${groupTemplateId}: ${other.map((l) => `${l.id} ${l.launchTemplateId ?? 'untagged'}`).join(', ')}`,
    }
  return {
    name,
    status: 'pass',
    reason: `EC2 tagged each of the ${launched.length} launch(es) with the group's template ${groupTemplateId}: ${ids(launched)}`,
  }
}

const ids = (launched: readonly MemberView[]) => launched.map((l) => l.id).join(', ')

/** The checks a conversion must happen for, `not-possible` when the template check could not be made. */
export const unlessTemplateUnprovable = (
  template: VerifyCheck,
  dependents: readonly VerifyCheck[],
): VerifyCheck[] =>
  template.status !== 'not-possible'
    ? [...dependents]
    : dependents.map((c) => ({
        name: c.name,
        status: 'not-possible',
        reason: `needs launches spotswap can prove its own, which ${TEMPLATE_CHECK} says this endpoint cannot give`,
      }))

/** Each launch once, as last seen. */
export const launchesSeen = (observations: readonly { readonly launched: readonly MemberView[] }[]) => [
  ...new Map(observations.flatMap((o) => o.launched).map((l) => [l.id, l])).values(),
]
