/**
 * The real SDK clients behind preflight-reads.ts, for `spotswap plan` only, loaded by a dynamic import
 * when plan runs against AWS: no Lambda bundles the IAM or Service Quotas client.
 */
import { CloudFormationClient, DescribeStackResourcesCommand } from '@aws-sdk/client-cloudformation'
import { DescribeLaunchTemplateVersionsCommand, DescribeRegionsCommand, EC2Client } from '@aws-sdk/client-ec2'
import {
  GetInstanceProfileCommand,
  GetRoleCommand,
  IAMClient,
  SimulatePrincipalPolicyCommand,
} from '@aws-sdk/client-iam'
import { GetServiceQuotaCommand, ServiceQuotasClient } from '@aws-sdk/client-service-quotas'
import type { PreflightClients } from './preflight-reads.ts'

export const preflightClients = (region: string): PreflightClients => {
  const iam = new IAMClient({ region })
  const quotas = new ServiceQuotasClient({ region })
  const ec2 = new EC2Client({ region })
  const cloudFormation = new CloudFormationClient({ region })
  return {
    iam: {
      simulatePrincipalPolicy: (input) => iam.send(new SimulatePrincipalPolicyCommand(input)),
      getInstanceProfile: (input) => iam.send(new GetInstanceProfileCommand(input)),
      getRole: (input) => iam.send(new GetRoleCommand(input)),
    },
    serviceQuotas: { getServiceQuota: (input) => quotas.send(new GetServiceQuotaCommand(input)) },
    ec2: {
      describeRegions: (input) => ec2.send(new DescribeRegionsCommand(input)),
      describeLaunchTemplateVersions: (input) => ec2.send(new DescribeLaunchTemplateVersionsCommand(input)),
    },
    cloudFormation: {
      describeStackResources: (input) => cloudFormation.send(new DescribeStackResourcesCommand(input)),
    },
  }
}
