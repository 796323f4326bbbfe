/**
 * Which groups ECS manages behind a capacity provider with managed termination protection. In such a
 * group ECS sets each instance's scale-in protection while it runs non-daemon tasks and removes it once
 * they are gone (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/managed-termination-protection.html):
 * the protection is ECS's statement that tasks run there, not the owner's. Recognised per group, never
 * per instance: the `AmazonECSManaged` tag ECS adds to the group when a capacity provider takes it
 * (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/asg-capacity-providers.html),
 * and an ACTIVE capacity provider naming the group with managedTerminationProtection ENABLED
 * (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_AutoScalingGroupProvider.html).
 * Anyone may tag a group: the tag alone only decides whether the capacity providers are read.
 */

import type { Group } from '../types.ts'
import type { EcsClusterObservation } from './cluster.ts'

/** The tag ECS puts on a group a capacity provider manages. */
export const TAG_ECS_MANAGED = 'AmazonECSManaged'

/** One capacity provider of the region, as DescribeCapacityProviders tells it. */
export interface EcsCapacityProvider {
  readonly name: string
  /** `ACTIVE`, or `INACTIVE` while ECS deletes it. */
  readonly status: string
  /** autoScalingGroupArn: the group's ARN, or its name (either is accepted at creation). */
  readonly groupArnOrName: string
  readonly managedTerminationProtection: boolean
  /** ECS drains the group's instances itself before Auto Scaling terminates them. */
  readonly managedDraining: boolean
  /** ECS managed scaling changes the group's desired capacity itself. */
  readonly managedScaling: boolean
}

/** The region's capacity providers, or why they could not be read. */
export type EcsProvidersObservation =
  | {
      readonly kind: 'read'
      readonly providers: readonly EcsCapacityProvider[]
      /** By the name of a provider that protects a tagged group: its cluster and container instances. */
      readonly clusters?: ReadonlyMap<string, EcsClusterObservation>
    }
  | { readonly kind: 'unreadable'; readonly error: string }

/** What one group is to ECS, as the plan sees it. */
export type EcsManagement =
  /** ECS protects the group's members that run tasks: their protection is not the owner's. */
  | {
      readonly kind: 'managed'
      readonly provider: EcsCapacityProvider
      /** The provider's cluster and its container instances (core/ecs/cluster.ts). */
      readonly cluster: EcsClusterObservation
    }
  /** The group carries the tag but no capacity provider protects its members: an owner's group. */
  | { readonly kind: 'not-managed'; readonly detail: string }
  /** The capacity providers could not be read: whose protection it is cannot be told. */
  | { readonly kind: 'unreadable'; readonly error: string }

export const carriesEcsTag = (group: Group): boolean => group.tags[TAG_ECS_MANAGED] !== undefined

const ARN_NAME_MARK = ':autoScalingGroupName/'

/** The group name an autoScalingGroupArn names: the ARN's last part, or the value itself when a name. */
export const groupNameOf = (arnOrName: string): string => {
  const at = arnOrName.indexOf(ARN_NAME_MARK)
  return arnOrName.startsWith('arn:') && at >= 0 ? arnOrName.slice(at + ARN_NAME_MARK.length) : arnOrName
}

/**
 * What `group` is to ECS; undefined for a group without the tag (nothing was read for it). Only an
 * ACTIVE provider counts: an INACTIVE one is being deleted and no longer protects anything.
 */
/** The ACTIVE provider naming `group` with managed termination protection on, if any. */
export const protectingProvider = (
  group: Group,
  providers: readonly EcsCapacityProvider[],
): EcsCapacityProvider | undefined =>
  providers.find(
    (p) =>
      p.status === 'ACTIVE' && p.managedTerminationProtection && groupNameOf(p.groupArnOrName) === group.name,
  )

export const ecsManagementOf = (
  group: Group,
  observation: EcsProvidersObservation | undefined,
): EcsManagement | undefined => {
  if (!carriesEcsTag(group)) return undefined
  if (observation === undefined) return { kind: 'unreadable', error: 'the capacity providers were not read' }
  if (observation.kind === 'unreadable') return { kind: 'unreadable', error: observation.error }
  const protecting = protectingProvider(group, observation.providers)
  if (protecting !== undefined)
    return {
      kind: 'managed',
      provider: protecting,
      cluster: observation.clusters?.get(protecting.name) ?? {
        kind: 'unreadable',
        error: 'the cluster of the capacity provider was not read',
      },
    }
  const mine = observation.providers.filter(
    (p) => p.status === 'ACTIVE' && groupNameOf(p.groupArnOrName) === group.name,
  )
  return {
    kind: 'not-managed',
    detail:
      mine.length === 0
        ? 'no active capacity provider names the group'
        : `capacity provider ${mine.map((p) => p.name).join(', ')} has managed termination protection off`,
  }
}
