/**
 * The KMS HMAC key that signs and verifies spotswap's markers (lambdas/aws/markers.ts). Its key policy is
 * the only place that lets anyone use it: the account manages the key but cannot MAC with it or grant it,
 * so no administrator's or power user's IAM policy can forge a marker; only the two Lambdas' roles can
 * GenerateMac and VerifyMac (https://docs.aws.amazon.com/kms/latest/developerguide/hmac.html).
 */
import { RemovalPolicy } from 'aws-cdk-lib'
import { AccountRootPrincipal, type IRole, PolicyDocument, PolicyStatement } from 'aws-cdk-lib/aws-iam'
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms'
import type { Construct } from 'constructs'

/** Key management for the account, listed: never kms:GenerateMac, never kms:CreateGrant (a grant would hand it out). */
export const MARKER_KEY_MANAGEMENT = [
  'kms:Describe*',
  'kms:Get*',
  'kms:List*',
  'kms:CreateAlias',
  'kms:Enable*',
  'kms:Disable*',
  'kms:Put*',
  'kms:Update*',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:ScheduleKeyDeletion',
  'kms:CancelKeyDeletion',
] as const

export const MARKER_KEY_USE = ['kms:GenerateMac', 'kms:VerifyMac'] as const

/**
 * GenerateMac and VerifyMac name "(key policy)" as their permission: the roles must be named here, since
 * the policy does not delegate these actions to IAM
 * (https://docs.aws.amazon.com/kms/latest/APIReference/API_GenerateMac.html).
 */
export const markerKeyPolicy = (roles: readonly IRole[]): PolicyDocument =>
  new PolicyDocument({
    statements: [
      new PolicyStatement({
        sid: 'AccountManagesTheKeyOnly',
        principals: [new AccountRootPrincipal()],
        actions: [...MARKER_KEY_MANAGEMENT],
        resources: ['*'],
      }),
      new PolicyStatement({
        sid: 'SpotSwapSignsAndVerifiesMarkers',
        principals: roles.map((role) => role.grantPrincipal),
        actions: [...MARKER_KEY_USE],
        resources: ['*'],
        conditions: { StringEquals: { 'kms:MacAlgorithm': 'HMAC_SHA_256' } },
      }),
    ],
  })

export const createMarkerKey = (scope: Construct, roles: readonly IRole[]): Key =>
  new Key(scope, 'MarkerKey', {
    keySpec: KeySpec.HMAC_256,
    keyUsage: KeyUsage.GENERATE_VERIFY_MAC,
    description: 'spotswap: MACs over the markers it reads back',
    // Deleting it makes every marker unverifiable: open swaps are held until a person closes them.
    removalPolicy: RemovalPolicy.RETAIN,
    policy: markerKeyPolicy(roles),
  })
