/**
 * Where a managed group's members stand in ECS: the cluster its capacity provider is associated with, and
 * each member's container instance there. An Auto Scaling group capacity provider is associated with one
 * cluster at most (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_CreateCluster.html), and a
 * container instance names the EC2 instance it runs on (ec2InstanceId,
 * https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ContainerInstance.html).
 */

import type { EcsTasksObservation } from './tasks.ts'

/** One cluster as DescribeClusters tells it: its capacity providers by name. */
export interface EcsCluster {
  readonly arn: string
  readonly name: string
  readonly capacityProviders: readonly string[]
}

/** One container instance of a cluster, as DescribeContainerInstances tells it. */
export interface EcsContainerInstance {
  readonly arn: string
  readonly ec2InstanceId: string
  /** REGISTERING, REGISTRATION_FAILED, ACTIVE, INACTIVE, DEREGISTERING or DRAINING. */
  readonly status: string
  readonly runningTasksCount: number
}

/** A container instance ECS did not update, and why (UpdateContainerInstancesState's failures). */
export interface EcsStateFailure {
  readonly arn: string
  readonly reason: string
}

/** A managed group's cluster and its container instances, or why they are not known. */
export type EcsClusterObservation =
  | {
      readonly kind: 'read'
      readonly clusterArn: string
      /** By EC2 instance id. */
      readonly containerInstances: ReadonlyMap<string, EcsContainerInstance>
      /**
       * The tasks of the container instances a drain swap may drain (ACTIVE, running tasks, protected), by
       * EC2 instance id (core/ecs/tasks.ts); one not in it was not read.
       */
      readonly tasks?: ReadonlyMap<string, EcsTasksObservation>
    }
  /** No cluster names the group's capacity provider: no member runs tasks ECS places through it. */
  | { readonly kind: 'no-cluster' }
  | { readonly kind: 'unreadable'; readonly error: string }

/** The cluster `providerName` is associated with, if any. */
export const clusterOfProvider = (
  clusters: readonly EcsCluster[],
  providerName: string,
): EcsCluster | undefined => clusters.find((c) => c.capacityProviders.includes(providerName))

/** The container instances of a cluster by the EC2 instance they run on. */
export const byInstanceId = (
  instances: readonly EcsContainerInstance[],
): ReadonlyMap<string, EcsContainerInstance> => new Map(instances.map((ci) => [ci.ec2InstanceId, ci]))
