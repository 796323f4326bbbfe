/**
 * The narrow interfaces of sdk.ts over the real SDK clients of clients.ts: each method sends its command
 * through the bare client (not the aggregated `EC2` class, which would bundle every command of the
 * service into the Lambda), so the SDK's retries, endpoints and mocks apply as before.
 *
 * The commands are imported statically, like the clients: the Lambdas load this file at init and esbuild
 * bundles only the commands named here. Code shared with the simulator reaches this file only through a
 * dynamic import (cloud.ts, region-directory.ts), taken only when no clients are injected.
 */
import {
  AttachInstancesCommand,
  CreateOrUpdateTagsCommand,
  DeleteTagsCommand as DeleteGroupTagsCommand,
  DescribeAutoScalingGroupsCommand,
  DescribeAutoScalingInstancesCommand,
  DescribeInstanceRefreshesCommand,
  DescribeLaunchConfigurationsCommand,
  DescribeLifecycleHooksCommand,
  DescribeScalingActivitiesCommand,
  DetachInstancesCommand,
  SetDesiredCapacityCommand,
  TerminateInstanceInAutoScalingGroupCommand,
  UpdateAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling'
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation'
import {
  CreateFleetCommand,
  CreateLaunchTemplateCommand,
  CreateTagsCommand,
  DeleteLaunchTemplateCommand,
  DeleteTagsCommand,
  DescribeCapacityReservationsCommand,
  DescribeInstanceAttributeCommand,
  DescribeInstanceStatusCommand,
  DescribeInstancesCommand,
  DescribeInstanceTypesCommand,
  DescribeRegionsCommand,
  type DescribeRegionsCommandInput,
  type DescribeRegionsCommandOutput,
  DescribeReservedInstancesCommand,
  DescribeSpotInstanceRequestsCommand,
  DescribeSpotPriceHistoryCommand,
  DescribeSubnetsCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2'
import {
  DescribeCapacityProvidersCommand,
  DescribeClustersCommand,
  DescribeContainerInstancesCommand,
  DescribeTasksCommand,
  ListClustersCommand,
  ListContainerInstancesCommand,
  ListTasksCommand,
  UpdateContainerInstancesStateCommand,
} from '@aws-sdk/client-ecs'
import {
  DescribeInstanceHealthCommand,
  DescribeLoadBalancersCommand,
} from '@aws-sdk/client-elastic-load-balancing'
import {
  DescribeTargetGroupsCommand,
  DescribeTargetHealthCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2'
import { GenerateMacCommand, VerifyMacCommand } from '@aws-sdk/client-kms'
import { GetProductsCommand } from '@aws-sdk/client-pricing'
import { DescribeSavingsPlanRatesCommand, DescribeSavingsPlansCommand } from '@aws-sdk/client-savingsplans'
import {
  autoScalingClient,
  cloudFormationClient,
  ec2Client,
  ecsClient,
  elbClient,
  elbv2Client,
  kmsClient,
  pricingClient,
  savingsPlansClient,
} from './clients.ts'
import type { AwsClients } from './sdk.ts'

/** A key ARN's region (`arn:aws:kms:<region>:<account>:key/<id>`); a bare key id is in the client's region. */
const keyRegion = (keyId: string | undefined, fallback: string): string =>
  keyId?.startsWith('arn:') ? (keyId.split(':')[3] ?? fallback) : fallback

export const sdkClients = (region: string): AwsClients => {
  // Each client is created by its first call: the interruption Lambda never prices, for one.
  const ec2 = () => ec2Client(region)
  const autoScaling = () => autoScalingClient(region)
  const cloudFormation = () => cloudFormationClient(region)
  const pricing = () => pricingClient()
  const elbv2 = () => elbv2Client(region)
  const elb = () => elbClient(region)
  return {
    ec2: {
      describeInstances: (input) => ec2().send(new DescribeInstancesCommand(input)),
      describeInstanceAttribute: (input) => ec2().send(new DescribeInstanceAttributeCommand(input)),
      describeInstanceStatus: (input) => ec2().send(new DescribeInstanceStatusCommand(input)),
      describeInstanceTypes: (input) => ec2().send(new DescribeInstanceTypesCommand(input)),
      describeSpotPriceHistory: (input) => ec2().send(new DescribeSpotPriceHistoryCommand(input)),
      describeSubnets: (input) => ec2().send(new DescribeSubnetsCommand(input)),
      describeSpotInstanceRequests: (input) => ec2().send(new DescribeSpotInstanceRequestsCommand(input)),
      createFleet: (input) => ec2().send(new CreateFleetCommand(input)),
      createLaunchTemplate: (input) => ec2().send(new CreateLaunchTemplateCommand(input)),
      deleteLaunchTemplate: (input) => ec2().send(new DeleteLaunchTemplateCommand(input)),
      terminateInstances: (input) => ec2().send(new TerminateInstancesCommand(input)),
      createTags: (input) => ec2().send(new CreateTagsCommand(input)),
      deleteTags: (input) => ec2().send(new DeleteTagsCommand(input)),
      describeReservedInstances: (input) => ec2().send(new DescribeReservedInstancesCommand(input)),
      describeCapacityReservations: (input) => ec2().send(new DescribeCapacityReservationsCommand(input)),
    },
    autoScaling: {
      describeAutoScalingGroups: (input) => autoScaling().send(new DescribeAutoScalingGroupsCommand(input)),
      describeAutoScalingInstances: (input) =>
        autoScaling().send(new DescribeAutoScalingInstancesCommand(input)),
      describeLifecycleHooks: (input) => autoScaling().send(new DescribeLifecycleHooksCommand(input)),
      describeInstanceRefreshes: (input) => autoScaling().send(new DescribeInstanceRefreshesCommand(input)),
      describeScalingActivities: (input) => autoScaling().send(new DescribeScalingActivitiesCommand(input)),
      describeLaunchConfigurations: (input) =>
        autoScaling().send(new DescribeLaunchConfigurationsCommand(input)),
      attachInstances: (input) => autoScaling().send(new AttachInstancesCommand(input)),
      detachInstances: (input) => autoScaling().send(new DetachInstancesCommand(input)),
      terminateInstanceInAutoScalingGroup: (input) =>
        autoScaling().send(new TerminateInstanceInAutoScalingGroupCommand(input)),
      updateAutoScalingGroup: (input) => autoScaling().send(new UpdateAutoScalingGroupCommand(input)),
      setDesiredCapacity: (input) => autoScaling().send(new SetDesiredCapacityCommand(input)),
      createOrUpdateTags: (input) => autoScaling().send(new CreateOrUpdateTagsCommand(input)),
      deleteTags: (input) => autoScaling().send(new DeleteGroupTagsCommand(input)),
    },
    cloudFormation: {
      describeStacks: (input) => cloudFormation().send(new DescribeStacksCommand(input)),
    },
    pricing: {
      getProducts: (input) => pricing().send(new GetProductsCommand(input)),
    },
    elbv2: {
      describeTargetGroups: (input) => elbv2().send(new DescribeTargetGroupsCommand(input)),
      describeTargetHealth: (input) => elbv2().send(new DescribeTargetHealthCommand(input)),
    },
    elb: {
      describeLoadBalancers: (input) => elb().send(new DescribeLoadBalancersCommand(input)),
      describeInstanceHealth: (input) => elb().send(new DescribeInstanceHealthCommand(input)),
    },
    ecs: {
      describeCapacityProviders: (input) =>
        ecsClient(region).send(new DescribeCapacityProvidersCommand(input)),
      listClusters: (input) => ecsClient(region).send(new ListClustersCommand(input)),
      describeClusters: (input) => ecsClient(region).send(new DescribeClustersCommand(input)),
      listContainerInstances: (input) => ecsClient(region).send(new ListContainerInstancesCommand(input)),
      listTasks: (input) => ecsClient(region).send(new ListTasksCommand(input)),
      describeTasks: (input) => ecsClient(region).send(new DescribeTasksCommand(input)),
      describeContainerInstances: (input) =>
        ecsClient(region).send(new DescribeContainerInstancesCommand(input)),
      updateContainerInstancesState: (input) =>
        ecsClient(region).send(new UpdateContainerInstancesStateCommand(input)),
    },
    kms: {
      generateMac: (input) => kmsClient(keyRegion(input.KeyId, region)).send(new GenerateMacCommand(input)),
      verifyMac: (input) => kmsClient(keyRegion(input.KeyId, region)).send(new VerifyMacCommand(input)),
    },
    savingsPlans: {
      describeSavingsPlans: (input) => savingsPlansClient().send(new DescribeSavingsPlansCommand(input)),
      describeSavingsPlanRates: (input) =>
        savingsPlansClient().send(new DescribeSavingsPlanRatesCommand(input)),
    },
  }
}

/** DescribeRegions, asked in one region: region discovery is account-wide, so it is not in AwsClients. */
export const describeRegions = (
  region: string,
  input: DescribeRegionsCommandInput,
): Promise<DescribeRegionsCommandOutput> => ec2Client(region).send(new DescribeRegionsCommand(input))
