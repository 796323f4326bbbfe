/**
 * The narrow ECS surface the adapter uses (sdk.ts has the others): the subset of @aws-sdk/client-ecs's
 * command inputs and outputs it reads and sends (capacity providers, clusters, container instances and
 * their state), so the simulator answers it without the SDK;
 * sdk-clients.ts sends it with the real client.
 */

/** https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_DescribeCapacityProviders.html */
export interface DescribeCapacityProvidersInput {
  readonly capacityProviders?: string[] | undefined
  readonly maxResults?: number | undefined
  readonly nextToken?: string | undefined
}

/** https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_AutoScalingGroupProvider.html */
export interface AutoScalingGroupProviderShape {
  readonly autoScalingGroupArn?: string | undefined
  readonly managedScaling?: { readonly status?: string | undefined } | undefined
  readonly managedTerminationProtection?: string | undefined
  readonly managedDraining?: string | undefined
}

export interface CapacityProviderShape {
  readonly name?: string | undefined
  readonly status?: string | undefined
  readonly autoScalingGroupProvider?: AutoScalingGroupProviderShape | undefined
}

export interface DescribeCapacityProvidersOutput {
  readonly capacityProviders?: CapacityProviderShape[] | undefined
  /** Providers that could not be described (ECS reports them here, not as an exception). */
  readonly failures?: { readonly arn?: string; readonly reason?: string }[] | undefined
  readonly nextToken?: string | undefined
}

/** A resource ECS could not describe or update: reported in the answer, not as an exception. */
export interface EcsFailureShape {
  readonly arn?: string | undefined
  readonly reason?: string | undefined
  readonly detail?: string | undefined
}

/** https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ListClusters.html (maxResults 1 to 100) */
export interface ListClustersInput {
  readonly maxResults?: number | undefined
  readonly nextToken?: string | undefined
}

export interface ListClustersOutput {
  readonly clusterArns?: string[] | undefined
  readonly nextToken?: string | undefined
}

/** https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_DescribeClusters.html (up to 100 clusters) */
export interface DescribeClustersInput {
  readonly clusters?: string[] | undefined
}

/** https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_Cluster.html */
export interface ClusterShape {
  readonly clusterArn?: string | undefined
  readonly clusterName?: string | undefined
  readonly status?: string | undefined
  /** The capacity providers associated with the cluster, by name. */
  readonly capacityProviders?: string[] | undefined
}

export interface DescribeClustersOutput {
  readonly clusters?: ClusterShape[] | undefined
  readonly failures?: EcsFailureShape[] | undefined
}

/** https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ListContainerInstances.html (maxResults 1 to 100) */
export interface ListContainerInstancesInput {
  readonly cluster?: string | undefined
  readonly maxResults?: number | undefined
  readonly nextToken?: string | undefined
}

export interface ListContainerInstancesOutput {
  readonly containerInstanceArns?: string[] | undefined
  readonly nextToken?: string | undefined
}

/** https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_DescribeContainerInstances.html (up to 100) */
export interface DescribeContainerInstancesInput {
  readonly cluster?: string | undefined
  readonly containerInstances: string[]
}

/** https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ContainerInstance.html */
export interface ContainerInstanceShape {
  readonly containerInstanceArn?: string | undefined
  readonly ec2InstanceId?: string | undefined
  /** REGISTERING, REGISTRATION_FAILED, ACTIVE, INACTIVE, DEREGISTERING or DRAINING. */
  readonly status?: string | undefined
  readonly runningTasksCount?: number | undefined
  readonly pendingTasksCount?: number | undefined
}

export interface DescribeContainerInstancesOutput {
  readonly containerInstances?: ContainerInstanceShape[] | undefined
  readonly failures?: EcsFailureShape[] | undefined
}

/** https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_UpdateContainerInstancesState.html (up to 10) */
export interface UpdateContainerInstancesStateInput {
  readonly cluster?: string | undefined
  readonly containerInstances: string[]
  /** ACTIVE or DRAINING: the only values the action takes. */
  readonly status: 'ACTIVE' | 'DRAINING'
}

export interface UpdateContainerInstancesStateOutput {
  readonly containerInstances?: ContainerInstanceShape[] | undefined
  readonly failures?: EcsFailureShape[] | undefined
}

/** https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ListTasks.html (maxResults 1 to 100) */
export interface ListTasksInput {
  readonly cluster?: string | undefined
  /** Only the tasks of this container instance. */
  readonly containerInstance?: string | undefined
  /** RUNNING by default: the tasks ECS means to keep running. */
  readonly desiredStatus?: 'RUNNING' | 'STOPPED' | undefined
  readonly maxResults?: number | undefined
  readonly nextToken?: string | undefined
}

export interface ListTasksOutput {
  readonly taskArns?: string[] | undefined
  readonly nextToken?: string | undefined
}

/** https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_DescribeTasks.html (up to 100 tasks) */
export interface DescribeTasksInput {
  readonly cluster?: string | undefined
  readonly tasks: string[]
}

/** https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_Task.html */
export interface TaskShape {
  readonly taskArn?: string | undefined
  /** The container instance that hosts it; none for a task on Fargate. */
  readonly containerInstanceArn?: string | undefined
  /** `service:<name>` for a service's task; `family:<family>` by default for a standalone one. */
  readonly group?: string | undefined
  readonly lastStatus?: string | undefined
  /** EC2, FARGATE or EXTERNAL. */
  readonly launchType?: string | undefined
}

export interface DescribeTasksOutput {
  readonly tasks?: TaskShape[] | undefined
  readonly failures?: EcsFailureShape[] | undefined
}

/** Each method as sdk.ts's SdkCall: the SDK's input in, its output out, or a rejection. */
export interface EcsApi {
  readonly describeCapacityProviders: (
    input: DescribeCapacityProvidersInput,
  ) => Promise<DescribeCapacityProvidersOutput>
  readonly listClusters: (input: ListClustersInput) => Promise<ListClustersOutput>
  readonly describeClusters: (input: DescribeClustersInput) => Promise<DescribeClustersOutput>
  readonly listContainerInstances: (
    input: ListContainerInstancesInput,
  ) => Promise<ListContainerInstancesOutput>
  readonly describeContainerInstances: (
    input: DescribeContainerInstancesInput,
  ) => Promise<DescribeContainerInstancesOutput>
  readonly listTasks: (input: ListTasksInput) => Promise<ListTasksOutput>
  readonly describeTasks: (input: DescribeTasksInput) => Promise<DescribeTasksOutput>
  readonly updateContainerInstancesState: (
    input: UpdateContainerInstancesStateInput,
  ) => Promise<UpdateContainerInstancesStateOutput>
}
