/**
 * A group's `ecs` field: its capacity provider's settings, and the cluster the simulator runs on it
 * (sim/ecs-cluster.ts): task slots per container instance and the services with their deployment
 * configuration, defaulted as ECS defaults them for a replica service (minimumHealthyPercent 100,
 * maximumPercent 200: https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_DeploymentConfiguration.html)
 * and a target group's default deregistration delay (300 s:
 * https://docs.aws.amazon.com/elasticloadbalancing/latest/application/edit-target-group-attributes.html),
 * placed `spread` unless the scenario says `binpack`; and the provider's managed scaling when given,
 * defaulted as ECS defaults it (targetCapacity 100, step sizes 1 and 10000, warm-up 300 s:
 * https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_ManagedScaling.html).
 */
import { childPath, type Problems } from './check.ts'
import type { GroupFile } from './file-format.ts'
import type { ScenarioEcs, ScenarioManagedScaling } from './types.ts'

const DEFAULT_SLOTS = 4
const DEFAULT_MINIMUM_HEALTHY_PERCENT = 100
const DEFAULT_MAXIMUM_PERCENT = 200
const DEFAULT_DEREGISTRATION_DELAY_SECONDS = 300
const DEFAULT_TARGET_CAPACITY = 100
const DEFAULT_MINIMUM_SCALING_STEP = 1
const DEFAULT_MAXIMUM_SCALING_STEP = 10_000
const DEFAULT_INSTANCE_WARMUP_SECONDS = 300

type EcsFile = NonNullable<GroupFile['ecs']>

const parseManagedScaling = (
  problems: Problems,
  at: string,
  file: EcsFile['managedScaling'],
): ScenarioManagedScaling | undefined => {
  if (file === undefined) return undefined
  const minimumScalingStepSize = file.minimumScalingStepSize ?? DEFAULT_MINIMUM_SCALING_STEP
  const maximumScalingStepSize = file.maximumScalingStepSize ?? DEFAULT_MAXIMUM_SCALING_STEP
  // A minimum step above the maximum gives ECS no step to take.
  if (minimumScalingStepSize > maximumScalingStepSize)
    problems.fail(
      childPath(childPath(at, 'managedScaling'), 'minimumScalingStepSize'),
      `at most maximumScalingStepSize (${maximumScalingStepSize})`,
      minimumScalingStepSize,
    )
  return {
    targetCapacity: file.targetCapacity ?? DEFAULT_TARGET_CAPACITY,
    minimumScalingStepSize,
    maximumScalingStepSize,
    instanceWarmupPeriod: file.instanceWarmupPeriod ?? DEFAULT_INSTANCE_WARMUP_SECONDS,
  }
}

export const parseEcs = (problems: Problems, path: string, file: GroupFile): { ecs?: ScenarioEcs } => {
  if (file.ecs === undefined) return {}
  const at = childPath(path, 'ecs')
  const names = new Set<string>()
  const services = (file.ecs.services ?? []).map((service, i) => {
    const servicePath = childPath(childPath(at, 'services'), i)
    if (names.has(service.name))
      problems.fail(childPath(servicePath, 'name'), 'a name unique in the cluster', service.name)
    names.add(service.name)
    const minimumHealthyPercent = service.minimumHealthyPercent ?? DEFAULT_MINIMUM_HEALTHY_PERCENT
    const maximumPercent = service.maximumPercent ?? DEFAULT_MAXIMUM_PERCENT
    // ECS refuses a maximum below the minimum (API_DeploymentConfiguration).
    if (maximumPercent < minimumHealthyPercent)
      problems.fail(
        childPath(servicePath, 'maximumPercent'),
        `at least minimumHealthyPercent (${minimumHealthyPercent})`,
        maximumPercent,
      )
    return {
      name: service.name,
      desiredCount: service.desiredCount,
      minimumHealthyPercent,
      maximumPercent,
      deregistrationDelaySeconds: service.deregistrationDelaySeconds ?? DEFAULT_DEREGISTRATION_DELAY_SECONDS,
      desiredSchedule: (service.desiredSchedule ?? [])
        .map(([time, count], n): [number, number] => [
          problems.time(childPath(childPath(childPath(servicePath, 'desiredSchedule'), n), 0), time),
          count,
        ])
        .sort((a, b) => a[0] - b[0]),
      placementStrategy: service.placementStrategy ?? 'spread',
    }
  })
  const managedScaling = parseManagedScaling(problems, at, file.ecs.managedScaling)
  return {
    ecs: {
      managedTerminationProtection: file.ecs.managedTerminationProtection ?? true,
      managedDraining: file.ecs.managedDraining ?? true,
      slotsPerInstance: file.ecs.slotsPerInstance ?? DEFAULT_SLOTS,
      services,
      ...(managedScaling === undefined ? {} : { managedScaling }),
    },
  }
}
