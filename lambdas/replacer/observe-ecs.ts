/**
 * The region's ECS capacity providers, read only when a managed group carries the AmazonECSManaged tag
 * (a region without ECS groups makes no call); then, for each provider that protects such a group, its
 * cluster (the cached ListClusters + DescribeClusters) and that cluster's container instances, once per
 * cluster and run, with the tasks of those a drain swap may drain (one read of the cluster's tasks). A
 * read that fails is an observation, not an error: only the tagged groups wait
 * (core/ecs/capacity-provider.ts, core/ecs/holds.ts), and the next run reads again.
 */
import { errorMessage } from '../aws/errors.ts'
import {
  carriesEcsTag,
  type EcsCapacityProvider,
  type EcsProvidersObservation,
  protectingProvider,
} from '../core/ecs/capacity-provider.ts'
import {
  byInstanceId,
  clusterOfProvider,
  type EcsClusterObservation,
  type EcsContainerInstance,
} from '../core/ecs/cluster.ts'
import { drainCandidates, type EcsClusterTasksRead, tasksByInstance } from '../core/ecs/cluster-tasks.ts'
import type { EcsTasksObservation } from '../core/ecs/tasks.ts'
import type { CloudPort } from '../core/port.ts'
import type { Group } from '../core/types.ts'

const described = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${errorMessage(error)}` : String(error)

/**
 * The tasks of each container instance a drain swap may drain, from one read of the whole cluster
 * (core/ecs/cluster-tasks.ts): whether one runs a standalone task (core/ecs/tasks.ts). A cluster with no
 * such container instance is not read; a read that fails leaves each of them kept for the run.
 */
const readTasks = async (
  cloud: CloudPort,
  clusterArn: string,
  listed: readonly EcsContainerInstance[],
  candidates: ReadonlySet<string>,
): Promise<ReadonlyMap<string, EcsTasksObservation>> => {
  const asked = drainCandidates(listed, candidates)
  if (asked.length === 0) return new Map()
  let read: EcsClusterTasksRead
  try {
    read = { kind: 'read', tasks: await cloud.ecsClusterTasks(clusterArn) }
  } catch (error) {
    read = { kind: 'unreadable', error: described(error) }
  }
  return tasksByInstance(read, asked)
}

const readClusters = async (
  cloud: CloudPort,
  providers: readonly EcsCapacityProvider[],
  candidates: ReadonlySet<string>,
): Promise<ReadonlyMap<string, EcsClusterObservation>> => {
  if (providers.length === 0) return new Map()
  let clusters: Awaited<ReturnType<CloudPort['ecsClusters']>>
  try {
    clusters = await cloud.ecsClusters()
  } catch (error) {
    const unreadable = { kind: 'unreadable', error: described(error) } as const
    return new Map(providers.map((p) => [p.name, unreadable]))
  }
  const arns = new Set(providers.flatMap((p) => clusterOfProvider(clusters, p.name)?.arn ?? []))
  const byCluster = new Map(
    await Promise.all(
      [...arns].map(async (arn): Promise<[string, EcsClusterObservation]> => {
        try {
          const listed = await cloud.ecsContainerInstances(arn)
          const tasks = await readTasks(cloud, arn, listed, candidates)
          return [arn, { kind: 'read', clusterArn: arn, containerInstances: byInstanceId(listed), tasks }]
        } catch (error) {
          return [arn, { kind: 'unreadable', error: described(error) }]
        }
      }),
    ),
  )
  return new Map(
    providers.map((p) => {
      const arn = clusterOfProvider(clusters, p.name)?.arn
      return [p.name, (arn === undefined ? undefined : byCluster.get(arn)) ?? { kind: 'no-cluster' }]
    }),
  )
}

export const readEcsProviders = async (
  cloud: CloudPort,
  groups: readonly Group[],
): Promise<EcsProvidersObservation | undefined> => {
  const tagged = groups.filter(carriesEcsTag)
  if (tagged.length === 0) return undefined
  let providers: readonly EcsCapacityProvider[]
  try {
    providers = await cloud.ecsCapacityProviders()
  } catch (error) {
    return { kind: 'unreadable', error: described(error) }
  }
  const protecting = new Set(tagged.flatMap((g) => protectingProvider(g, providers) ?? []))
  const candidates = new Set(
    tagged.flatMap((g) => g.members.filter((m) => m.protectedFromScaleIn).map((m) => m.instanceId)),
  )
  return { kind: 'read', providers, clusters: await readClusters(cloud, [...protecting], candidates) }
}
