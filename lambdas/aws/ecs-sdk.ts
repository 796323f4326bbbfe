/**
 * The narrow ECS surface the adapter uses (sdk.ts has the others): the subset of @aws-sdk/client-ecs's
 * DescribeCapacityProvidersCommandInput/Output it reads, so the simulator answers it without the SDK;
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

/** Each method as sdk.ts's SdkCall: the SDK's input in, its output out, or a rejection. */
export interface EcsApi {
  readonly describeCapacityProviders: (
    input: DescribeCapacityProvidersInput,
  ) => Promise<DescribeCapacityProvidersOutput>
}
