/**
 * The narrow SDK surface the adapter uses: one interface per service, one method per command it sends,
 * each taking and answering the SDK's own input and output types. The real ones wrap the SDK clients
 * (sdk-clients.ts); the simulator answers them from its world, so the adapter's request building, paging,
 * batching and error classification run unchanged under simulation (Karpenter's narrow EC2API, faked in
 * its pkg/fake/ec2api.go). The method names are those of the SDK's aggregated clients (`EC2`, ...).
 */
import type {
  AttachInstancesCommandInput,
  AttachInstancesCommandOutput,
  CreateOrUpdateTagsCommandInput,
  CreateOrUpdateTagsCommandOutput,
  DeleteTagsCommandInput as DeleteGroupTagsCommandInput,
  DeleteTagsCommandOutput as DeleteGroupTagsCommandOutput,
  DescribeAutoScalingGroupsCommandInput,
  DescribeAutoScalingGroupsCommandOutput,
  DescribeAutoScalingInstancesCommandInput,
  DescribeAutoScalingInstancesCommandOutput,
  DescribeInstanceRefreshesCommandInput,
  DescribeInstanceRefreshesCommandOutput,
  DescribeLaunchConfigurationsCommandInput,
  DescribeLaunchConfigurationsCommandOutput,
  DescribeLifecycleHooksCommandInput,
  DescribeLifecycleHooksCommandOutput,
  DescribeScalingActivitiesCommandInput,
  DescribeScalingActivitiesCommandOutput,
  DetachInstancesCommandInput,
  DetachInstancesCommandOutput,
  SetDesiredCapacityCommandInput,
  SetDesiredCapacityCommandOutput,
  TerminateInstanceInAutoScalingGroupCommandInput,
  TerminateInstanceInAutoScalingGroupCommandOutput,
  UpdateAutoScalingGroupCommandInput,
  UpdateAutoScalingGroupCommandOutput,
} from '@aws-sdk/client-auto-scaling'
import type { DescribeStacksCommandInput, DescribeStacksCommandOutput } from '@aws-sdk/client-cloudformation'
import type {
  CreateFleetCommandInput,
  CreateFleetCommandOutput,
  CreateLaunchTemplateCommandInput,
  CreateLaunchTemplateCommandOutput,
  CreateTagsCommandInput,
  CreateTagsCommandOutput,
  DeleteLaunchTemplateCommandInput,
  DeleteLaunchTemplateCommandOutput,
  DeleteTagsCommandInput,
  DeleteTagsCommandOutput,
  DescribeCapacityReservationsCommandInput,
  DescribeCapacityReservationsCommandOutput,
  DescribeInstanceAttributeCommandInput,
  DescribeInstanceAttributeCommandOutput,
  DescribeInstanceStatusCommandInput,
  DescribeInstanceStatusCommandOutput,
  DescribeInstancesCommandInput,
  DescribeInstancesCommandOutput,
  DescribeInstanceTypesCommandInput,
  DescribeInstanceTypesCommandOutput,
  DescribeReservedInstancesCommandInput,
  DescribeReservedInstancesCommandOutput,
  DescribeSpotInstanceRequestsCommandInput,
  DescribeSpotInstanceRequestsCommandOutput,
  DescribeSpotPriceHistoryCommandInput,
  DescribeSpotPriceHistoryCommandOutput,
  DescribeSubnetsCommandInput,
  DescribeSubnetsCommandOutput,
  TerminateInstancesCommandInput,
  TerminateInstancesCommandOutput,
} from '@aws-sdk/client-ec2'
import type {
  DescribeInstanceHealthCommandInput,
  DescribeInstanceHealthCommandOutput,
  DescribeLoadBalancersCommandInput,
  DescribeLoadBalancersCommandOutput,
} from '@aws-sdk/client-elastic-load-balancing'
import type {
  DescribeTargetGroupsCommandInput,
  DescribeTargetGroupsCommandOutput,
  DescribeTargetHealthCommandInput,
  DescribeTargetHealthCommandOutput,
} from '@aws-sdk/client-elastic-load-balancing-v2'
import type {
  GenerateMacCommandInput,
  GenerateMacCommandOutput,
  VerifyMacCommandInput,
  VerifyMacCommandOutput,
} from '@aws-sdk/client-kms'
import type { GetProductsCommandInput, GetProductsCommandOutput } from '@aws-sdk/client-pricing'
import type {
  DescribeSavingsPlanRatesCommandInput,
  DescribeSavingsPlanRatesCommandOutput,
  DescribeSavingsPlansCommandInput,
  DescribeSavingsPlansCommandOutput,
} from '@aws-sdk/client-savingsplans'
import type { EcsApi } from './ecs-sdk.ts'

/** One command: the SDK's input in, the SDK's output out, or a rejection shaped as the SDK's errors. */
export type SdkCall<Input, Output> = (input: Input) => Promise<Output>

export interface Ec2Api {
  readonly describeInstances: SdkCall<DescribeInstancesCommandInput, DescribeInstancesCommandOutput>
  readonly describeInstanceAttribute: SdkCall<
    DescribeInstanceAttributeCommandInput,
    DescribeInstanceAttributeCommandOutput
  >
  readonly describeInstanceStatus: SdkCall<
    DescribeInstanceStatusCommandInput,
    DescribeInstanceStatusCommandOutput
  >
  readonly describeInstanceTypes: SdkCall<
    DescribeInstanceTypesCommandInput,
    DescribeInstanceTypesCommandOutput
  >
  readonly describeSpotPriceHistory: SdkCall<
    DescribeSpotPriceHistoryCommandInput,
    DescribeSpotPriceHistoryCommandOutput
  >
  readonly describeSubnets: SdkCall<DescribeSubnetsCommandInput, DescribeSubnetsCommandOutput>
  readonly describeSpotInstanceRequests: SdkCall<
    DescribeSpotInstanceRequestsCommandInput,
    DescribeSpotInstanceRequestsCommandOutput
  >
  readonly createFleet: SdkCall<CreateFleetCommandInput, CreateFleetCommandOutput>
  readonly createLaunchTemplate: SdkCall<CreateLaunchTemplateCommandInput, CreateLaunchTemplateCommandOutput>
  readonly deleteLaunchTemplate: SdkCall<DeleteLaunchTemplateCommandInput, DeleteLaunchTemplateCommandOutput>
  readonly terminateInstances: SdkCall<TerminateInstancesCommandInput, TerminateInstancesCommandOutput>
  readonly createTags: SdkCall<CreateTagsCommandInput, CreateTagsCommandOutput>
  readonly deleteTags: SdkCall<DeleteTagsCommandInput, DeleteTagsCommandOutput>
  /** Commitments (aws/commitments.ts); a client without them (the simulator's world holds none) reads none. */
  readonly describeReservedInstances?: SdkCall<
    DescribeReservedInstancesCommandInput,
    DescribeReservedInstancesCommandOutput
  >
  readonly describeCapacityReservations?: SdkCall<
    DescribeCapacityReservationsCommandInput,
    DescribeCapacityReservationsCommandOutput
  >
}

export interface AutoScalingApi {
  readonly describeAutoScalingGroups: SdkCall<
    DescribeAutoScalingGroupsCommandInput,
    DescribeAutoScalingGroupsCommandOutput
  >
  readonly describeAutoScalingInstances: SdkCall<
    DescribeAutoScalingInstancesCommandInput,
    DescribeAutoScalingInstancesCommandOutput
  >
  readonly describeLifecycleHooks: SdkCall<
    DescribeLifecycleHooksCommandInput,
    DescribeLifecycleHooksCommandOutput
  >
  readonly describeInstanceRefreshes: SdkCall<
    DescribeInstanceRefreshesCommandInput,
    DescribeInstanceRefreshesCommandOutput
  >
  readonly describeScalingActivities: SdkCall<
    DescribeScalingActivitiesCommandInput,
    DescribeScalingActivitiesCommandOutput
  >
  readonly describeLaunchConfigurations: SdkCall<
    DescribeLaunchConfigurationsCommandInput,
    DescribeLaunchConfigurationsCommandOutput
  >
  readonly attachInstances: SdkCall<AttachInstancesCommandInput, AttachInstancesCommandOutput>
  readonly detachInstances: SdkCall<DetachInstancesCommandInput, DetachInstancesCommandOutput>
  readonly terminateInstanceInAutoScalingGroup: SdkCall<
    TerminateInstanceInAutoScalingGroupCommandInput,
    TerminateInstanceInAutoScalingGroupCommandOutput
  >
  readonly updateAutoScalingGroup: SdkCall<
    UpdateAutoScalingGroupCommandInput,
    UpdateAutoScalingGroupCommandOutput
  >
  readonly setDesiredCapacity: SdkCall<SetDesiredCapacityCommandInput, SetDesiredCapacityCommandOutput>
  readonly createOrUpdateTags: SdkCall<CreateOrUpdateTagsCommandInput, CreateOrUpdateTagsCommandOutput>
  readonly deleteTags: SdkCall<DeleteGroupTagsCommandInput, DeleteGroupTagsCommandOutput>
}

export interface CloudFormationApi {
  readonly describeStacks: SdkCall<DescribeStacksCommandInput, DescribeStacksCommandOutput>
}

export interface PricingApi {
  readonly getProducts: SdkCall<GetProductsCommandInput, GetProductsCommandOutput>
}

/** Target groups (Application, Network and Gateway Load Balancers). */
export interface Elbv2Api {
  readonly describeTargetGroups: SdkCall<DescribeTargetGroupsCommandInput, DescribeTargetGroupsCommandOutput>
  readonly describeTargetHealth: SdkCall<DescribeTargetHealthCommandInput, DescribeTargetHealthCommandOutput>
}

/** Classic Load Balancers. */
export interface ElbApi {
  readonly describeLoadBalancers: SdkCall<
    DescribeLoadBalancersCommandInput,
    DescribeLoadBalancersCommandOutput
  >
  readonly describeInstanceHealth: SdkCall<
    DescribeInstanceHealthCommandInput,
    DescribeInstanceHealthCommandOutput
  >
}

/**
 * The marker key's MACs (aws/markers.ts). Each request names the key by ARN, and the client answers in
 * the key's region, whatever region the markers are in.
 */
export interface KmsApi {
  readonly generateMac: SdkCall<GenerateMacCommandInput, GenerateMacCommandOutput>
  readonly verifyMac: SdkCall<VerifyMacCommandInput, VerifyMacCommandOutput>
}

/** Savings Plans (aws/savings-plans.ts): one global endpoint, whatever the region (clients.ts). */
export interface SavingsPlansApi {
  readonly describeSavingsPlans: SdkCall<DescribeSavingsPlansCommandInput, DescribeSavingsPlansCommandOutput>
  readonly describeSavingsPlanRates: SdkCall<
    DescribeSavingsPlanRatesCommandInput,
    DescribeSavingsPlanRatesCommandOutput
  >
}

/** Every service the CloudPort of one region talks to. */
export interface AwsClients {
  readonly ec2: Ec2Api
  readonly autoScaling: AutoScalingApi
  readonly cloudFormation: CloudFormationApi
  /** In us-east-1 whatever the region (clients.ts). */
  readonly pricing: PricingApi
  readonly elbv2: Elbv2Api
  readonly elb: ElbApi
  readonly kms: KmsApi
  /** Absent in a context built without it (a test's): reads of ECS then fail (ecs.ts EcsClientMissingError). */
  readonly ecs?: EcsApi
  /** Absent in a world without Savings Plans (the simulator's, a test's): none are read. */
  readonly savingsPlans?: SavingsPlansApi
}
