/**
 * cdk-nag acknowledgements derived from the grants themselves: every wildcard resource a grant uses is
 * acknowledged with that grant's own reason, and a wildcard without a reason is a programming error.
 */
import { Aws, Validations } from 'aws-cdk-lib'
import type { IConstruct } from 'constructs'
import type { Grant } from './grant.ts'

/** How cdk-nag spells pseudo parameters inside a finding id. */
const nagSpelling = (resource: string): string =>
  resource
    .split(Aws.PARTITION)
    .join('<AWS::Partition>')
    .split(Aws.ACCOUNT_ID)
    .join('<AWS::AccountId>')
    .split(Aws.REGION)
    .join('<AWS::Region>')

export const wildcardFindings = (grant: Grant): string[] => [
  ...grant.actions
    .filter((action) => action.includes('*'))
    .map((action) => `AwsSolutions-IAM5[Action::${action}]`),
  ...grant.resources
    .filter((resource) => resource.includes('*'))
    .map((resource) => `AwsSolutions-IAM5[Resource::${nagSpelling(resource)}]`),
]

export const acknowledgeWildcards = (scope: IConstruct, grants: readonly Grant[]): void => {
  const reasons = new Map<string, string[]>()
  for (const grant of grants) {
    const findings = wildcardFindings(grant)
    if (findings.length > 0 && grant.wildcardReason === undefined) {
      throw new Error(`grant ${grant.sid} uses a wildcard without a wildcardReason`)
    }
    for (const finding of findings) {
      reasons.set(finding, [...(reasons.get(finding) ?? []), `${grant.sid}: ${grant.wildcardReason}`])
    }
  }
  for (const [id, why] of reasons) Validations.of(scope).acknowledge({ id, reason: why.join(' | ') })
}
