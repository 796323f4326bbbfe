/**
 * The narrow interfaces of sdk.ts over the real SDK clients of clients.ts: each method sends its command
 * through the bare client (not the aggregated `EC2` class, which would bundle every command of the
 * service into the Lambda), so the SDK's retries, endpoints and mocks apply as before. The SDK modules
 * are imported on first use, as in clients.ts.
 */
import {
  autoScalingClient,
  cloudFormationClient,
  ec2Client,
  elbClient,
  elbv2Client,
  pricingClient,
} from './clients.ts'
import type { AwsClients } from './sdk.ts'

const ec2Sdk = () => import('@aws-sdk/client-ec2')
const autoScalingSdk = () => import('@aws-sdk/client-auto-scaling')
const cloudFormationSdk = () => import('@aws-sdk/client-cloudformation')
const pricingSdk = () => import('@aws-sdk/client-pricing')
const elbv2Sdk = () => import('@aws-sdk/client-elastic-load-balancing-v2')
const elbSdk = () => import('@aws-sdk/client-elastic-load-balancing')

export const sdkClients = (region: string): AwsClients => {
  const ec2 = () => ec2Client(region)
  const autoScaling = () => autoScalingClient(region)
  return {
    ec2: {
      describeInstances: async (input) =>
        (await ec2()).send(new (await ec2Sdk()).DescribeInstancesCommand(input)),
      describeInstanceAttribute: async (input) =>
        (await ec2()).send(new (await ec2Sdk()).DescribeInstanceAttributeCommand(input)),
      describeInstanceTypes: async (input) =>
        (await ec2()).send(new (await ec2Sdk()).DescribeInstanceTypesCommand(input)),
      describeSpotPriceHistory: async (input) =>
        (await ec2()).send(new (await ec2Sdk()).DescribeSpotPriceHistoryCommand(input)),
      describeSubnets: async (input) =>
        (await ec2()).send(new (await ec2Sdk()).DescribeSubnetsCommand(input)),
      createFleet: async (input) => (await ec2()).send(new (await ec2Sdk()).CreateFleetCommand(input)),
      createLaunchTemplate: async (input) =>
        (await ec2()).send(new (await ec2Sdk()).CreateLaunchTemplateCommand(input)),
      deleteLaunchTemplate: async (input) =>
        (await ec2()).send(new (await ec2Sdk()).DeleteLaunchTemplateCommand(input)),
      terminateInstances: async (input) =>
        (await ec2()).send(new (await ec2Sdk()).TerminateInstancesCommand(input)),
      createTags: async (input) => (await ec2()).send(new (await ec2Sdk()).CreateTagsCommand(input)),
      deleteTags: async (input) => (await ec2()).send(new (await ec2Sdk()).DeleteTagsCommand(input)),
    },
    autoScaling: {
      describeAutoScalingGroups: async (input) =>
        (await autoScaling()).send(new (await autoScalingSdk()).DescribeAutoScalingGroupsCommand(input)),
      describeAutoScalingInstances: async (input) =>
        (await autoScaling()).send(new (await autoScalingSdk()).DescribeAutoScalingInstancesCommand(input)),
      describeLifecycleHooks: async (input) =>
        (await autoScaling()).send(new (await autoScalingSdk()).DescribeLifecycleHooksCommand(input)),
      describeInstanceRefreshes: async (input) =>
        (await autoScaling()).send(new (await autoScalingSdk()).DescribeInstanceRefreshesCommand(input)),
      describeScalingActivities: async (input) =>
        (await autoScaling()).send(new (await autoScalingSdk()).DescribeScalingActivitiesCommand(input)),
      describeLaunchConfigurations: async (input) =>
        (await autoScaling()).send(new (await autoScalingSdk()).DescribeLaunchConfigurationsCommand(input)),
      attachInstances: async (input) =>
        (await autoScaling()).send(new (await autoScalingSdk()).AttachInstancesCommand(input)),
      detachInstances: async (input) =>
        (await autoScaling()).send(new (await autoScalingSdk()).DetachInstancesCommand(input)),
      terminateInstanceInAutoScalingGroup: async (input) =>
        (await autoScaling()).send(
          new (await autoScalingSdk()).TerminateInstanceInAutoScalingGroupCommand(input),
        ),
      updateAutoScalingGroup: async (input) =>
        (await autoScaling()).send(new (await autoScalingSdk()).UpdateAutoScalingGroupCommand(input)),
      createOrUpdateTags: async (input) =>
        (await autoScaling()).send(new (await autoScalingSdk()).CreateOrUpdateTagsCommand(input)),
      deleteTags: async (input) =>
        (await autoScaling()).send(new (await autoScalingSdk()).DeleteTagsCommand(input)),
    },
    cloudFormation: {
      describeStacks: async (input) =>
        (await cloudFormationClient(region)).send(
          new (await cloudFormationSdk()).DescribeStacksCommand(input),
        ),
    },
    pricing: {
      getProducts: async (input) =>
        (await pricingClient()).send(new (await pricingSdk()).GetProductsCommand(input)),
    },
    elbv2: {
      describeTargetGroups: async (input) =>
        (await elbv2Client(region)).send(new (await elbv2Sdk()).DescribeTargetGroupsCommand(input)),
      describeTargetHealth: async (input) =>
        (await elbv2Client(region)).send(new (await elbv2Sdk()).DescribeTargetHealthCommand(input)),
    },
    elb: {
      describeLoadBalancers: async (input) =>
        (await elbClient(region)).send(new (await elbSdk()).DescribeLoadBalancersCommand(input)),
      describeInstanceHealth: async (input) =>
        (await elbClient(region)).send(new (await elbSdk()).DescribeInstanceHealthCommand(input)),
    },
  }
}
