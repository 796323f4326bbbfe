/**
 * A validated scenario: the simulated account, its prices and capacity, the engine's environment, and
 * what happens to it over time. Times are epoch milliseconds. See scenarios/scenario.schema.json.
 */

import type {
  CapacityReservation,
  ReservedInstances,
  SavingsPlan,
  Tenancy,
} from '../../../lambdas/core/commitments/types.ts'
import type { ScheduledEventCode } from '../../../lambdas/core/maintenance/events.ts'
import type { CapacityTrace } from '../../data/capacity-traces.ts'
import type { FaultConfig } from '../faults.ts'
import type { PriceStep } from '../market.ts'

export type ScenarioCapacity =
  | {
      readonly kind: 'trace'
      readonly traceName: string
      readonly trace: CapacityTrace
      readonly startIndex: number
    }
  | { readonly kind: 'unavailable' }

export type LoadBalancerType = 'target-group' | 'classic'

/** A target group or classic load balancer of a group, with its health checks (parse-load-balancer.ts). */
/** What a group's AMI carries (scenario field `image`). */
export interface SimImage {
  /** The AMI's EnaSupport attribute. */
  readonly enaSupport: boolean
  /** Whether it boots with EBS volumes as NVMe devices (DescribeImages does not say). */
  readonly nvmeDrivers: boolean
}

export interface ScenarioLoadBalancer {
  readonly type: LoadBalancerType
  readonly healthCheckIntervalSeconds: number
  /** Consecutive successful checks before a registered instance is healthy. */
  readonly healthyThreshold: number
  /** How long a deregistered instance drains (a classic load balancer's connection draining timeout). */
  readonly deregistrationDelaySeconds: number
}

/** Auto Scaling features that change what spotswap may do with a group (parse-group-features.ts). */
export interface ScenarioGroupFeatures {
  /** An `autoscaling:EC2_INSTANCE_LAUNCHING` hook: members Auto Scaling launches wait in Pending:Wait. */
  readonly launchHook: boolean
  /** Processes suspended for the whole run (core/group/suspended-processes.ts names them). */
  readonly suspendedProcesses: readonly string[]
  /** CapacityRebalance: Auto Scaling replaces a spot member itself on a rebalance recommendation. */
  readonly capacityRebalance: boolean
  /** A warm pool of stopped instances the group draws on when it scales out. */
  readonly warmPool: { readonly minSize: number } | undefined
  /** When instance refreshes start (epoch ms, sorted); each replaces every older member, one at a time. */
  readonly instanceRefreshes: readonly number[]
  /** DescribeInstanceRefreshes fails for the group (as moto's HTML 500, or a missing permission). */
  readonly instanceRefreshesUnreadable: boolean
}

export interface ScenarioGroup extends ScenarioGroupFeatures {
  readonly name: string
  readonly instanceType: string
  readonly min: number
  readonly max: number
  readonly desired: number
  readonly tags: Readonly<Record<string, string>>
  readonly healthCheckGracePeriod: number
  readonly launch: 'template' | 'configuration'
  readonly terminationHook: boolean
  /** The first n initial instances are protected from scale-in. */
  readonly protectedFromScaleIn: number
  /** The first n initial instances have API termination protection (an extension of the format). */
  readonly terminationProtected: number
  /** [time, desired] pairs set by the group's owner, sorted by time. */
  readonly desiredSchedule: readonly (readonly [number, number])[]
  readonly loadBalancers: readonly ScenarioLoadBalancer[]
  /** The share of the instances spotswap launches for it that never pass a health check (a broken image). */
  readonly unhealthyReplacementFraction: number
  readonly image: SimImage
  /** The ECS capacity provider the group stands behind, if any (sim/ecs.ts). */
  readonly ecs?: ScenarioEcs | undefined
}

/** A group's ECS capacity provider (scenario field `ecs`). */
export interface ScenarioEcs {
  readonly managedTerminationProtection: boolean
  readonly managedDraining: boolean
  /** Tasks one container instance runs at most (sim/ecs-cluster.ts). */
  readonly slotsPerInstance: number
  /** The cluster's services (ECS's replica scheduler places their tasks). */
  readonly services: readonly ScenarioEcsService[]
  /** ECS managed scaling (sim/ecs-managed-scaling.ts); undefined when it is off. */
  readonly managedScaling?: ScenarioManagedScaling | undefined
}

/** A capacity provider's managed scaling settings (scenario field `ecs.managedScaling`), as ECS defaults them. */
export interface ScenarioManagedScaling {
  /** The CapacityProviderReservation the group's target tracking policy keeps, in percent (1-100). */
  readonly targetCapacity: number
  readonly minimumScalingStepSize: number
  readonly maximumScalingStepSize: number
  readonly instanceWarmupPeriod: number
}

/** Where ECS places a service's tasks: `spread` over instances, or `binpack` on free slots. */
export type EcsPlacementStrategy = 'spread' | 'binpack'

/** One ECS service of a group's cluster (scenario field `ecs.services`). */
export interface ScenarioEcsService {
  readonly name: string
  readonly desiredCount: number
  readonly minimumHealthyPercent: number
  readonly maximumPercent: number
  /** How long a stopped task drains from its load balancer before it is gone. */
  readonly deregistrationDelaySeconds: number
  /** [time, desiredCount] pairs, sorted by time. */
  readonly desiredSchedule: readonly (readonly [number, number])[]
  readonly placementStrategy: EcsPlacementStrategy
}

export interface ScenarioRegion {
  readonly name: string
  readonly zones: readonly string[]
  /** Pool key (`type/zone`) → price steps, overriding the embedded prices. */
  readonly spotPrices: ReadonlyMap<string, readonly PriceStep[]>
  readonly capacity: ReadonlyMap<string, ScenarioCapacity>
  readonly groups: readonly ScenarioGroup[]
  /** The region's commitments and the usage outside the groups that competes for them (parse-commitments.ts). */
  readonly commitments?: ScenarioCommitments | undefined
}

/** When a commitment or a usage line is in effect: [startMs, endMs), endMs Infinity for never ending. */
export interface InEffect {
  readonly startMs: number
  readonly endMs: number
}

/** On-demand instances no group holds: `count` alike, running while in effect. */
export interface ScenarioUnmanagedUsage extends InEffect {
  readonly type: string
  readonly zone: string
  readonly count: number
  readonly platform: string
  readonly tenancy: Tenancy
}

export interface ScenarioCommitments {
  readonly reservedInstances: readonly (ReservedInstances & InEffect)[]
  readonly savingsPlans: readonly (SavingsPlan & InEffect)[]
  readonly capacityReservations: readonly (CapacityReservation & InEffect)[]
  readonly unmanagedUsage: readonly ScenarioUnmanagedUsage[]
}

export interface ScenarioInterruption {
  readonly at: number
  readonly group: string
  readonly count: number
}

/** EC2 schedules `code` on `count` in-service members of `group`, NotBefore `leadMs` after `at`. */
export interface ScenarioScheduledEvent {
  readonly at: number
  readonly group: string
  readonly count: number
  /** Every code DescribeInstanceStatus reports (core/maintenance/events.ts). */
  readonly code: ScheduledEventCode
  readonly leadMs: number
  readonly lifecycle: 'on-demand' | 'spot'
}

export interface Scenario {
  readonly name: string
  readonly description: string | undefined
  readonly seed: number
  readonly start: number
  readonly durationHours: number
  readonly scheduleMinutes: number
  readonly env: Readonly<Record<string, string>>
  readonly regions: readonly ScenarioRegion[]
  readonly faults: FaultConfig
  readonly interruptions: readonly ScenarioInterruption[]
  readonly scheduledEvents?: readonly ScenarioScheduledEvent[]
}

export const endOf = (scenario: Scenario): number => scenario.start + scenario.durationHours * 3_600_000
