/**
 * `spotswap verify`'s check that the deployed roles are refused what they must never do, asked of IAM's
 * policy simulator (iam:SimulatePrincipalPolicy), never by trying: the simulator evaluates the role's
 * policies and performs nothing
 * (https://docs.aws.amazon.com/IAM/latest/APIReference/API_SimulatePrincipalPolicy.html).
 * The roles are found in the SpotSwap stack as `spotswap plan` finds the replacer's (preflight.ts).
 */
import { errorCode, errorMessage, isNotFound } from '../../lambdas/aws/errors.ts'
import { HOME_STACK, REPLACER_ROLE_PREFIX } from './preflight.ts'
import { type PreflightClients, roleArn, stackRoleName } from './preflight-reads.ts'
import type { VerifyCheck } from './verify-checks.ts'

/** lib/spotswap.ts creates the interruption Lambda as `InterruptionHandler`, its role `${id}Role`. */
export const INTERRUPTION_ROLE_PREFIX = 'SpotSwapInterruptionHandlerRole'

export interface DeniedRequest {
  /** What the request would let a compromised or confused spotswap do. */
  readonly what: string
  readonly action: string
  readonly resource: (where: { account: string; region: string }) => string
  readonly context: Readonly<Record<string, string>>
}

const instanceArn = ({ account, region }: { account: string; region: string }) =>
  `arn:aws:ec2:${region}:${account}:instance/i-0123456789abcdef0`

const launchTags = {
  'aws:ResourceTag/launched-by-autospotting': 'true',
  'aws:ResourceTag/launched-for-asg': 'web',
}

/** A few of the requests test/iam/denied.ts proves refused offline, asked of the deployed roles. */
export const MUST_BE_DENIED: readonly DeniedRequest[] = [
  {
    what: 'terminate a group member with EC2 (members leave through Auto Scaling)',
    action: 'ec2:TerminateInstances',
    resource: instanceArn,
    context: {
      'ec2:InstanceMarketType': 'spot',
      ...launchTags,
      'aws:ResourceTag/aws:autoscaling:groupName': 'web',
    },
  },
  {
    what: 'terminate an on-demand instance carrying spotswap’s launch tags',
    action: 'ec2:TerminateInstances',
    resource: instanceArn,
    context: { 'ec2:InstanceMarketType': 'on-demand', ...launchTags },
  },
  {
    what: 'pass a role the operator did not mark passable',
    action: 'iam:PassRole',
    resource: ({ account }) => `arn:aws:iam::${account}:role/spotswap-verify-not-passable`,
    context: { 'iam:PassedToService': 'ec2.amazonaws.com' },
  },
  {
    what: 'delete a launch template spotswap did not create',
    action: 'ec2:DeleteLaunchTemplate',
    resource: ({ account, region }) =>
      `arn:aws:ec2:${region}:${account}:launch-template/lt-0123456789abcdef0`,
    context: { 'aws:ResourceTag/team': 'web' },
  },
  {
    what: 'delete an Auto Scaling group',
    action: 'autoscaling:DeleteAutoScalingGroup',
    resource: ({ account, region }) =>
      `arn:aws:autoscaling:${region}:${account}:autoScalingGroup:*:autoScalingGroupName/web`,
    context: { 'aws:ResourceTag/spot-enabled': 'true' },
  },
]

const NAME = 'roles-denied'

/** The account id of an ARN: arn:aws:iam::123456789012:role/name. */
const accountOf = (arn: string): string => arn.split(':')[4] ?? ''

const simulate = async (clients: PreflightClients, role: string, request: DeniedRequest, region: string) => {
  const answer = await clients.iam.simulatePrincipalPolicy({
    PolicySourceArn: role,
    ActionNames: [request.action],
    ResourceArns: [request.resource({ account: accountOf(role), region })],
    ContextEntries: Object.entries(request.context).map(([key, value]) => ({
      ContextKeyName: key,
      ContextKeyType: 'string' as const,
      ContextKeyValues: [value],
    })),
  })
  return answer.EvaluationResults?.[0]?.EvalDecision ?? 'implicitDeny'
}

const deployedRoles = async (clients: PreflightClients): Promise<string[] | undefined> => {
  const roles: string[] = []
  for (const prefix of [REPLACER_ROLE_PREFIX, INTERRUPTION_ROLE_PREFIX]) {
    let name: string | undefined
    try {
      name = await stackRoleName(clients, HOME_STACK, prefix)
    } catch (error) {
      // CloudFormation answers ValidationError "Stack with id SpotSwap does not exist".
      if (isNotFound(error) || /does not exist/i.test(errorMessage(error))) return undefined
      throw error
    }
    const arn = name === undefined ? undefined : await roleArn(clients, name)
    if (arn !== undefined) roles.push(arn)
  }
  return roles.length === 0 ? undefined : roles
}

export const rolesDeniedCheck = async (clients: PreflightClients, region: string): Promise<VerifyCheck> => {
  try {
    const roles = await deployedRoles(clients)
    if (roles === undefined)
      return {
        name: NAME,
        status: 'skipped',
        reason: `skipped: no deployed roles (no ${HOME_STACK} stack found)`,
      }
    const allowed: string[] = []
    for (const role of roles)
      for (const request of MUST_BE_DENIED)
        if ((await simulate(clients, role, request, region)) === 'allowed')
          allowed.push(`${role.split('/').pop()} may ${request.what} (${request.action})`)
    if (allowed.length > 0) return { name: NAME, status: 'fail', reason: allowed.join('; ') }
    return {
      name: NAME,
      status: 'pass',
      reason: `${roles.length} role(s) × ${MUST_BE_DENIED.length} requests refused by the policy simulator`,
    }
  } catch (error) {
    return {
      name: NAME,
      status: 'not-possible',
      reason: `not possible on this endpoint: needs cloudformation:DescribeStackResources, iam:GetRole and iam:SimulatePrincipalPolicy (${errorCode(error)}: ${errorMessage(error)})`,
    }
  }
}
