/**
 * A group behind an ECS capacity provider: ECS tags the group `AmazonECSManaged` (propagated to its
 * instances) and DescribeCapacityProviders lists a provider naming it by ARN
 * (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_AutoScalingGroupProvider.html). The
 * members ECS protects while they run tasks are the scenario's `protectedFromScaleIn` ones; the simulator
 * runs no tasks, so ECS never lifts that protection.
 */
import { TAG_ECS_MANAGED } from '../../lambdas/core/ecs/capacity-provider.ts'
import type { ScenarioGroup } from './scenario/types.ts'
import type { SimGroup, SimRegion } from './state.ts'

const ACCOUNT = '123456789012'

const groupArn = (region: SimRegion, group: SimGroup): string =>
  `arn:aws:autoscaling:${region.name}:${ACCOUNT}:autoScalingGroup:00000000-0000-4000-8000-000000000000:autoScalingGroupName/${group.name}`

const state = (on: boolean): string => (on ? 'ENABLED' : 'DISABLED')

/** Puts `group` behind its capacity provider, when the scenario gives it one. */
export const placeBehindEcs = (region: SimRegion, group: SimGroup, spec: ScenarioGroup): void => {
  if (spec.ecs === undefined) return
  group.tags[TAG_ECS_MANAGED] = ''
  group.propagatedKeys.add(TAG_ECS_MANAGED)
  region.capacityProviders.push({
    name: `${group.name}-capacity`,
    status: 'ACTIVE',
    autoScalingGroupProvider: {
      autoScalingGroupArn: groupArn(region, group),
      managedScaling: { status: 'ENABLED' },
      managedTerminationProtection: state(spec.ecs.managedTerminationProtection),
      managedDraining: state(spec.ecs.managedDraining),
    },
  })
}
