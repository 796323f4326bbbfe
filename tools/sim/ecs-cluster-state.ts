/**
 * The state of a simulated ECS cluster (ecs-cluster.ts runs it): its container instances, services and
 * tasks, as ECS describes them. Apart from the world, so the region's state can hold it.
 */
import type { ScenarioEcs, ScenarioEcsService, ScenarioManagedScaling } from './scenario/types.ts'

const ACCOUNT = '123456789012'

/** PENDING until it started, RUNNING (and healthy), STOPPING while it drains from its load balancer. */
export type TaskStatus = 'PENDING' | 'RUNNING' | 'STOPPING'

export interface SimTask {
  readonly arn: string
  /** As DescribeTasks' `group`: `service:NAME` or `family:NAME`. */
  readonly group: string
  /** Its service's name; undefined for a standalone task. */
  readonly service: string | undefined
  readonly instanceId: string
  status: TaskStatus
}

/** ACTIVE, DRAINING (UpdateContainerInstancesState), INACTIVE once its instance is gone. */
export type ContainerInstanceStatus = 'ACTIVE' | 'DRAINING' | 'INACTIVE'

export interface SimContainerInstance {
  readonly arn: string
  readonly ec2InstanceId: string
  status: ContainerInstanceStatus
}

export interface SimService extends Omit<ScenarioEcsService, 'desiredCount'> {
  desiredCount: number
}

export class SimCluster {
  readonly arn: string
  readonly name: string
  /** By EC2 instance id, in registration order. */
  readonly containerInstances = new Map<string, SimContainerInstance>()
  /** By task ARN, in start order. */
  readonly tasks = new Map<string, SimTask>()
  readonly services: SimService[]
  readonly managedTerminationProtection: boolean
  readonly managedDraining: boolean
  readonly slotsPerInstance: number
  /** The provider's managed scaling (ecs-managed-scaling.ts); undefined when it is off. */
  readonly managedScaling: ScenarioManagedScaling | undefined
  /** [time, desired capacity] for each change its managed scaling made, in order. */
  readonly desiredChanges: [number, number][] = []
  /** When its scheduler next looks (ecs-scheduler.ts), if it is due to. */
  nextCycleMs: number | undefined = undefined
  private taskCount = 0

  constructor(
    regionName: string,
    readonly groupName: string,
    readonly providerName: string,
    spec: ScenarioEcs,
  ) {
    this.name = `${providerName}-cluster`
    this.arn = `arn:aws:ecs:${regionName}:${ACCOUNT}:cluster/${this.name}`
    this.services = spec.services.map((s) => ({ ...s }))
    this.managedTerminationProtection = spec.managedTerminationProtection
    this.managedDraining = spec.managedDraining
    this.slotsPerInstance = spec.slotsPerInstance
    this.managedScaling = spec.managedScaling
  }

  register(instanceId: string): SimContainerInstance {
    const found = this.containerInstances.get(instanceId)
    if (found !== undefined) return found
    const registered: SimContainerInstance = {
      arn: `${this.arn.replace(':cluster/', ':container-instance/')}/${instanceId.slice(2)}`,
      ec2InstanceId: instanceId,
      status: 'ACTIVE',
    }
    this.containerInstances.set(instanceId, registered)
    return registered
  }

  newTask(group: string, service: string | undefined, instanceId: string, status: TaskStatus): SimTask {
    this.taskCount += 1
    const task: SimTask = {
      arn: `${this.arn.replace(':cluster/', ':task/')}/${this.taskCount.toString(16).padStart(32, '0')}`,
      group,
      service,
      instanceId,
      status,
    }
    this.tasks.set(task.arn, task)
    return task
  }

  tasksOn(instanceId: string): SimTask[] {
    return [...this.tasks.values()].filter((t) => t.instanceId === instanceId)
  }
}
