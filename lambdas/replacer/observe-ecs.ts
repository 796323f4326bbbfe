/**
 * The region's ECS capacity providers, read only when a managed group carries the AmazonECSManaged tag
 * (a region without ECS groups makes no call). A read that fails is an observation, not an error: only
 * the tagged groups wait (core/ecs/capacity-provider.ts), and the next run reads again.
 */
import { errorMessage } from '../aws/errors.ts'
import { carriesEcsTag, type EcsProvidersObservation } from '../core/ecs/capacity-provider.ts'
import type { CloudPort } from '../core/port.ts'
import type { Group } from '../core/types.ts'

export const readEcsProviders = async (
  cloud: CloudPort,
  groups: readonly Group[],
): Promise<EcsProvidersObservation | undefined> => {
  if (!groups.some(carriesEcsTag)) return undefined
  try {
    return { kind: 'read', providers: await cloud.ecsCapacityProviders() }
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${errorMessage(error)}` : String(error)
    return { kind: 'unreadable', error: message }
  }
}
