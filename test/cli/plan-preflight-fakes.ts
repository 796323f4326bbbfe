/**
 * A stateful fake of the services plan's pre-flight check reads (preflight-reads.ts), answering as AWS
 * does: Service Quotas' NoSuchResourceException for a quota it does not hold, CloudFormation's
 * ValidationError for a missing stack, IAM's NoSuchEntity, and AccessDenied for a caller without the
 * permission. moto's Service Quotas knows no EC2 quota, hence a fake.
 */
import type { PreflightClients } from '../../tools/cli/preflight-reads.ts'

const awsError = (name: string, message: string) => Object.assign(new Error(message), { name })

export interface FakeRole {
  readonly name: string
  readonly arn: string
  readonly tags: Readonly<Record<string, string>>
}

export interface FakeAccount {
  /** Applied Spot quotas by region, then quota code, in vCPUs. */
  readonly quotas: Map<string, Map<string, number>>
  readonly regions: { name: string; optIn: 'opt-in-not-required' | 'opted-in' | 'not-opted-in' }[]
  /** Stack name → its resources (logical id, type, physical id). */
  readonly stacks: Map<string, { logical: string; type: string; physical: string }[]>
  readonly roles: Map<string, FakeRole>
  /** Instance profile name → role name. */
  readonly profiles: Map<string, string>
  /** Launch template id → the instance profile name its default version names. */
  readonly templates: Map<string, string>
  /** Whether the principal's policies allow iam:PassRole of a role, given the request's context. */
  passRole(principal: string, roleArn: string, context: Readonly<Record<string, string>>): string
  /** Operations (`iam:GetRole`, ...) this caller may not call. */
  readonly denied: Set<string>
}

export const REPLACER_ROLE: FakeRole = {
  name: 'SpotSwap-SpotSwapReplacerRoleAB12-XYZ',
  arn: 'arn:aws:iam::123456789012:role/SpotSwap-SpotSwapReplacerRoleAB12-XYZ',
  tags: {},
}

/** The deployed stack's grant: roles tagged spotswap:passable=true, passed to EC2 only (lib/pass-role.ts). */
export const passableByTag = (
  _principal: string,
  _role: string,
  context: Readonly<Record<string, string>>,
) =>
  context['iam:PassedToService'] === 'ec2.amazonaws.com' &&
  context['iam:ResourceTag/spotswap:passable'] === 'true'
    ? 'allowed'
    : 'implicitDeny'

export const fakeAccount = (overrides: Partial<FakeAccount> = {}): FakeAccount => ({
  quotas: new Map([['us-east-1', new Map([['L-34B43A08', 640]])]]),
  regions: [
    { name: 'us-east-1', optIn: 'opt-in-not-required' },
    { name: 'eu-west-1', optIn: 'opt-in-not-required' },
    { name: 'af-south-1', optIn: 'not-opted-in' },
  ],
  stacks: new Map([
    [
      'SpotSwap',
      [{ logical: 'SpotSwapReplacerRoleAB12', type: 'AWS::IAM::Role', physical: REPLACER_ROLE.name }],
    ],
  ]),
  roles: new Map([
    [REPLACER_ROLE.name, REPLACER_ROLE],
    [
      'web-role',
      {
        name: 'web-role',
        arn: 'arn:aws:iam::123456789012:role/web-role',
        tags: { 'spotswap:passable': 'true' },
      },
    ],
  ]),
  profiles: new Map([['web-profile', 'web-role']]),
  templates: new Map([['lt-00000000000000001', 'web-profile']]),
  passRole: passableByTag,
  denied: new Set(),
  ...overrides,
})

export const fakePreflightClients =
  (account: FakeAccount, calls: string[] = []) =>
  (region: string): PreflightClients => {
    const call = async <T>(operation: string, answer: () => T): Promise<T> => {
      calls.push(operation)
      if (account.denied.has(operation))
        throw awsError(
          operation.startsWith('ec2:') ? 'UnauthorizedOperation' : 'AccessDenied',
          `not authorized to perform: ${operation}`,
        )
      return answer()
    }
    const role = (name: string | undefined) => {
      const found = account.roles.get(name ?? '')
      if (found === undefined) throw awsError('NoSuchEntity', `The role with name ${name} cannot be found.`)
      return found
    }
    return {
      iam: {
        getRole: (input) =>
          call('iam:GetRole', () => {
            const found = role(input.RoleName)
            return {
              $metadata: {},
              Role: {
                RoleName: found.name,
                Arn: found.arn,
                Path: '/',
                RoleId: 'AROA',
                CreateDate: new Date(0),
                Tags: Object.entries(found.tags).map(([Key, Value]) => ({ Key, Value })),
              },
            }
          }),
        getInstanceProfile: (input) =>
          call('iam:GetInstanceProfile', () => {
            const roleName = account.profiles.get(input.InstanceProfileName ?? '')
            if (roleName === undefined)
              throw awsError('NoSuchEntity', `Instance Profile ${input.InstanceProfileName} cannot be found.`)
            const found = role(roleName)
            return {
              $metadata: {},
              InstanceProfile: {
                InstanceProfileName: input.InstanceProfileName,
                InstanceProfileId: 'AIPA',
                Arn: `arn:aws:iam::123456789012:instance-profile/${input.InstanceProfileName}`,
                Path: '/',
                CreateDate: new Date(0),
                // Only the fields IAM returns that the check reads.
                Roles: [
                  {
                    RoleName: found.name,
                    Arn: found.arn,
                    Path: '/',
                    RoleId: 'AROA',
                    CreateDate: new Date(0),
                  },
                ],
              },
            }
          }),
        simulatePrincipalPolicy: (input) =>
          call('iam:SimulatePrincipalPolicy', () => {
            const context = Object.fromEntries(
              (input.ContextEntries ?? []).map((e) => [
                e.ContextKeyName ?? '',
                e.ContextKeyValues?.[0] ?? '',
              ]),
            )
            return {
              $metadata: {},
              EvaluationResults: (input.ResourceArns ?? []).flatMap((arn) =>
                (input.ActionNames ?? []).map((action) => ({
                  EvalActionName: action,
                  EvalResourceName: arn,
                  EvalDecision: account.passRole(input.PolicySourceArn ?? '', arn, context) as 'allowed',
                })),
              ),
            }
          }),
      },
      serviceQuotas: {
        getServiceQuota: (input) =>
          call('servicequotas:GetServiceQuota', () => {
            const value = account.quotas.get(region)?.get(input.QuotaCode ?? '')
            if (value === undefined)
              throw awsError(
                'NoSuchResourceException',
                `The request failed because the specified quota does not exist.`,
              )
            return { $metadata: {}, Quota: { ServiceCode: 'ec2', QuotaCode: input.QuotaCode, Value: value } }
          }),
      },
      ec2: {
        describeRegions: () =>
          call('ec2:DescribeRegions', () => ({
            $metadata: {},
            Regions: account.regions.map((r) => ({ RegionName: r.name, OptInStatus: r.optIn })),
          })),
        describeLaunchTemplateVersions: (input) =>
          call('ec2:DescribeLaunchTemplateVersions', () => {
            const profile = account.templates.get(input.LaunchTemplateId ?? '')
            return {
              $metadata: {},
              LaunchTemplateVersions: [
                {
                  LaunchTemplateId: input.LaunchTemplateId,
                  LaunchTemplateData: profile === undefined ? {} : { IamInstanceProfile: { Name: profile } },
                },
              ],
            }
          }),
      },
      cloudFormation: {
        describeStackResources: (input) =>
          call('cloudformation:DescribeStackResources', () => {
            const resources = account.stacks.get(input.StackName ?? '')
            if (resources === undefined)
              throw awsError('ValidationError', `Stack with id ${input.StackName} does not exist`)
            return {
              $metadata: {},
              StackResources: resources.map((r) => ({
                StackName: input.StackName,
                LogicalResourceId: r.logical,
                ResourceType: r.type,
                PhysicalResourceId: r.physical,
                Timestamp: new Date(0),
                ResourceStatus: 'CREATE_COMPLETE',
              })),
            }
          }),
      },
    }
  }
