/**
 * The reads `spotswap plan`'s pre-flight check makes beyond the replacer's own: the account's Spot vCPU
 * quotas (Service Quotas), the regions it has not opted in to, the deployed replacer's role, the instance
 * roles of the groups' launch templates, and whether that role may pass them (the IAM policy simulator).
 * Over narrow SDK interfaces like lambdas/aws/sdk.ts's, so tests answer them with fakes; converted to plain
 * data here. Here and not in lambdas/aws, whose SDK calls are the Lambdas' (their IAM grants are checked
 * against them): no Lambda makes these.
 */
import type {
  DescribeStackResourcesInput,
  DescribeStackResourcesOutput,
} from '@aws-sdk/client-cloudformation'
import type {
  DescribeLaunchTemplateVersionsCommandInput,
  DescribeLaunchTemplateVersionsCommandOutput,
  DescribeRegionsCommandInput,
  DescribeRegionsCommandOutput,
} from '@aws-sdk/client-ec2'
import type {
  GetInstanceProfileCommandInput,
  GetInstanceProfileCommandOutput,
  GetRoleCommandInput,
  GetRoleCommandOutput,
  SimulatePrincipalPolicyCommandInput,
  SimulatePrincipalPolicyCommandOutput,
} from '@aws-sdk/client-iam'
import type {
  GetServiceQuotaCommandInput,
  GetServiceQuotaCommandOutput,
} from '@aws-sdk/client-service-quotas'
import type { SdkCall } from '../../lambdas/aws/cloud.ts'
import type { LaunchTemplateRef } from '../../lambdas/core/types.ts'

export interface PreflightIamApi {
  readonly simulatePrincipalPolicy: SdkCall<
    SimulatePrincipalPolicyCommandInput,
    SimulatePrincipalPolicyCommandOutput
  >
  readonly getInstanceProfile: SdkCall<GetInstanceProfileCommandInput, GetInstanceProfileCommandOutput>
  readonly getRole: SdkCall<GetRoleCommandInput, GetRoleCommandOutput>
}

/** The clients of one region; IAM is global, asked through any. */
export interface PreflightClients {
  readonly iam: PreflightIamApi
  readonly serviceQuotas: {
    readonly getServiceQuota: SdkCall<GetServiceQuotaCommandInput, GetServiceQuotaCommandOutput>
  }
  readonly ec2: {
    readonly describeRegions: SdkCall<DescribeRegionsCommandInput, DescribeRegionsCommandOutput>
    readonly describeLaunchTemplateVersions: SdkCall<
      DescribeLaunchTemplateVersionsCommandInput,
      DescribeLaunchTemplateVersionsCommandOutput
    >
  }
  readonly cloudFormation: {
    readonly describeStackResources: SdkCall<DescribeStackResourcesInput, DescribeStackResourcesOutput>
  }
}

/** The applied value of an EC2 quota in the clients' region (GetServiceQuota, service code `ec2`). */
export const ec2QuotaValue = async (
  clients: PreflightClients,
  quotaCode: string,
): Promise<number | undefined> => {
  const answer = await clients.serviceQuotas.getServiceQuota({ ServiceCode: 'ec2', QuotaCode: quotaCode })
  return answer.Quota?.Value
}

/**
 * Regions this account has not opted in to: it cannot deploy there
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeRegions.html, OptInStatus).
 */
export const notOptedInRegions = async (clients: PreflightClients): Promise<string[]> => {
  const answer = await clients.ec2.describeRegions({ AllRegions: true })
  return (answer.Regions ?? [])
    .filter((r) => r.OptInStatus === 'not-opted-in')
    .flatMap((r) => (r.RegionName ? [r.RegionName] : []))
    .sort()
}

/**
 * The physical name of the first IAM role of a stack whose logical id starts with `logicalPrefix`, or
 * undefined when the stack has none. A missing stack rejects (ValidationError "does not exist").
 */
export const stackRoleName = async (
  clients: PreflightClients,
  stackName: string,
  logicalPrefix: string,
): Promise<string | undefined> => {
  const answer = await clients.cloudFormation.describeStackResources({ StackName: stackName })
  return (answer.StackResources ?? []).find(
    (r) => r.ResourceType === 'AWS::IAM::Role' && r.LogicalResourceId?.startsWith(logicalPrefix),
  )?.PhysicalResourceId
}

export const roleArn = async (clients: PreflightClients, roleName: string): Promise<string | undefined> =>
  (await clients.iam.getRole({ RoleName: roleName })).Role?.Arn

/** The instance profile a launch template version names (by ARN or by name), if any. */
export const launchTemplateProfile = async (
  clients: PreflightClients,
  template: LaunchTemplateRef,
): Promise<string | undefined> => {
  const answer = await clients.ec2.describeLaunchTemplateVersions({
    ...(template.id ? { LaunchTemplateId: template.id } : { LaunchTemplateName: template.name }),
    Versions: [template.version ?? '$Default'],
  })
  const profile = answer.LaunchTemplateVersions?.[0]?.LaunchTemplateData?.IamInstanceProfile
  // An instance profile ARN ends with its path and name: arn:aws:iam::123:instance-profile/path/name.
  return profile?.Name ?? profile?.Arn?.split('/').pop()
}

export interface InstanceRole {
  readonly arn: string
  readonly tags: Readonly<Record<string, string>>
}

/** The role of an instance profile with its tags (a tag may be what makes it passable). */
export const profileRole = async (
  clients: PreflightClients,
  profileName: string,
): Promise<InstanceRole | undefined> => {
  const profile = await clients.iam.getInstanceProfile({ InstanceProfileName: profileName })
  const role = profile.InstanceProfile?.Roles?.[0]
  if (role?.RoleName === undefined || role.Arn === undefined) return undefined
  const full = await clients.iam.getRole({ RoleName: role.RoleName })
  const tags = Object.fromEntries(
    (full.Role?.Tags ?? []).flatMap((t) => (t.Key ? [[t.Key, t.Value ?? '']] : [])),
  )
  return { arn: role.Arn, tags }
}

/**
 * Whether `principalArn`'s policies allow iam:PassRole of `role` to EC2. The simulator evaluates the
 * conditions from the context given, so the request carries what IAM would see: the service the role is
 * passed to and the role's tags
 * (https://docs.aws.amazon.com/IAM/latest/APIReference/API_SimulatePrincipalPolicy.html).
 */
export const mayPassRole = async (
  clients: PreflightClients,
  principalArn: string,
  role: InstanceRole,
): Promise<{ allowed: boolean; decision: string }> => {
  const answer = await clients.iam.simulatePrincipalPolicy({
    PolicySourceArn: principalArn,
    ActionNames: ['iam:PassRole'],
    ResourceArns: [role.arn],
    ContextEntries: [
      {
        ContextKeyName: 'iam:PassedToService',
        ContextKeyType: 'string',
        ContextKeyValues: ['ec2.amazonaws.com'],
      },
      ...Object.entries(role.tags).map(([key, value]) => ({
        ContextKeyName: `iam:ResourceTag/${key}`,
        ContextKeyType: 'string' as const,
        ContextKeyValues: [value],
      })),
    ],
  })
  const decision = answer.EvaluationResults?.[0]?.EvalDecision ?? 'implicitDeny'
  return { allowed: decision === 'allowed', decision }
}
