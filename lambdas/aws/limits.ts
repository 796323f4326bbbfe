/**
 * Page sizes, batch sizes and retry budgets of the AWS APIs the adapter calls, each with its reason.
 * Limits shared with the core (group page size, instance-id chunk, cache TTLs) live in core/constants.ts.
 */

/** DescribeInstanceTypes accepts at most 100 per page. */
export const INSTANCE_TYPES_PAGE_SIZE = 100

/** DescribeSpotPriceHistory's maximum page; one page usually covers a region's current prices. */
export const SPOT_PRICES_PAGE_SIZE = 1000

/** Pricing GetProducts' maximum page size. */
export const PRICING_PAGE_SIZE = 100

/** DescribeAutoScalingInstances accepts at most 50 instance ids per call. */
export const GROUP_INSTANCES_CHUNK = 50

/** AttachInstances and DetachInstances accept at most 20 instance ids per call. */
export const ATTACH_DETACH_CHUNK = 20

/** TerminateInstances and DeleteTags: stay well inside the request size limits. */
export const INSTANCE_BATCH_CHUNK = 200

/** Standard retry mode with a few attempts rides out throttling without eating the Lambda's time budget. */
export const SDK_MAX_ATTEMPTS = 5

/**
 * The Pricing API is optional (embedded prices are the fallback), so it gets one retry and short
 * timeouts: an unreachable endpoint (a VPC without egress) must not stall the run.
 */
export const PRICING_MAX_ATTEMPTS = 2
export const PRICING_CONNECTION_TIMEOUT_MS = 3_000
export const PRICING_REQUEST_TIMEOUT_MS = 10_000

/** The Pricing API is served from a few regions only; us-east-1 has every product. */
export const PRICING_ENDPOINT_REGION = 'us-east-1'

/**
 * Savings Plans has one global endpoint, savingsplans.amazonaws.com, signed in us-east-1 (the endpoint
 * rules of @aws-sdk/client-savingsplans; https://docs.aws.amazon.com/savingsplans/latest/APIReference/Welcome.html):
 * one client serves every region's reads.
 */
export const SAVINGS_PLANS_ENDPOINT_REGION = 'us-east-1'

/** DescribeScalingActivities returns at most 100 activities per page. */
export const SCALING_ACTIVITIES_PAGE_SIZE = 100

/** Target groups named per DescribeTargetGroups: a group rarely has more, and each request stays small. */
export const TARGET_GROUPS_PER_DESCRIBE = 20

/**
 * DescribeInstanceAttribute requests in flight at once. It reads one attribute of one instance, and a
 * region's plans may retire a thousand or more in a first run. EC2 throttles each API with its own token
 * bucket (the EC2 API guide's example for a non-mutating action: 100 tokens, refilled at 20 a second,
 * https://docs.aws.amazon.com/ec2/latest/devguide/ec2-api-throttling.html): a burst of all of them at once
 * would have most throttled and lean on the SDK's retry quota. A few at a time keep throttled attempts few.
 */
export const INSTANCE_ATTRIBUTE_CONCURRENCY = 10

/**
 * Group names per DescribeAutoScalingGroups request: "By default, you can only specify up to 50 names"
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_DescribeAutoScalingGroups.html). MaxRecords
 * may raise it; the default is kept, so a request never depends on that.
 */
export const GROUP_NAMES_PER_DESCRIBE = 50

/** DescribeInstanceRefreshes returns at most 100 per page; six weeks of refreshes rarely need a second. */
export const INSTANCE_REFRESHES_PAGE_SIZE = 100

/**
 * The services' own limits, which the adapter's page and batch sizes above keep within and the simulator
 * enforces (a request beyond one is refused there as AWS refuses it). Each names its API reference page.
 */
export const API_LIMITS = {
  /** https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_DescribeAutoScalingGroups.html */
  autoScalingGroupsMaxRecords: 100,
  /** AutoScalingGroupNames: 50 by default, more "using the MaxRecords property" (same page). */
  autoScalingGroupNamesDefault: 50,
  /** InstanceIds "up to 50", MaxRecords 50 at most: https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_DescribeAutoScalingInstances.html */
  autoScalingInstancesMax: 50,
  /** https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_DescribeScalingActivities.html */
  scalingActivitiesMaxRecords: 100,
  /** https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_DescribeInstanceRefreshes.html */
  instanceRefreshesMaxRecords: 100,
  /** https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_AttachInstances.html (and DetachInstances) */
  attachDetachInstanceIds: 20,
  /** MaxResults 5 to 1000: https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeInstances.html */
  describeInstancesMaxResults: { min: 5, max: 1000 },
  /** MaxResults 5 to 100: https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeInstanceTypes.html */
  instanceTypesMaxResults: { min: 5, max: 100 },
  /** MaxResults 5 to 1000: https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeSpotPriceHistory.html */
  spotPriceHistoryMaxResults: { min: 5, max: 1000 },
  /** MaxResults 1 to 100: https://docs.aws.amazon.com/aws-cost-management/latest/APIReference/API_pricing_GetProducts.html */
  getProductsMaxResults: { min: 1, max: 100 },
  /** Values per EC2 filter (core/constants.ts INSTANCE_ID_FILTER_CHUNK keeps within it). */
  ec2FilterValues: 200,
} as const

/** ListClusters and ListContainerInstances answer at most 100 a page (their maxResults range is 1 to 100). */
export const ECS_LIST_PAGE_SIZE = 100
/** DescribeClusters and DescribeContainerInstances take at most 100 resources a call. */
export const ECS_DESCRIBE_BATCH = 100
/** UpdateContainerInstancesState takes at most 10 container instances a call. */
export const ECS_UPDATE_STATE_BATCH = 10
