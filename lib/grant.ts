/** One IAM grant as data, and the statement CDK makes of it (see permissions.ts). */
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam'

export interface Grant {
  /** Statement id; also names the grant in tests and acknowledgements. */
  readonly sid: string
  readonly actions: readonly string[]
  readonly resources: readonly string[]
  readonly conditions?: Readonly<Record<string, Readonly<Record<string, string | readonly string[]>>>>
  /** Why a wildcard action or resource is unavoidable; required when the grant has one. */
  readonly wildcardReason?: string
}

export const toStatement = (grant: Grant): PolicyStatement =>
  new PolicyStatement({
    sid: grant.sid,
    effect: Effect.ALLOW,
    actions: [...grant.actions],
    resources: [...grant.resources],
    ...(grant.conditions ? { conditions: grant.conditions as Record<string, Record<string, unknown>> } : {}),
  })
