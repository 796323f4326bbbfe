/**
 * A scenario file as scenarios/scenario.schema.json admits it: what parse.ts may rely on once the
 * schema has passed it. Written out by hand, field for field with the schema (`?` where the schema
 * does not require a field); times are still ISO strings and defaults are not filled in.
 */
import type { ScheduledEventCode } from '../../../lambdas/core/maintenance/events.ts'

export interface ScenarioFile {
  readonly $schema?: string
  readonly name: string
  readonly description?: string
  readonly seed: number
  readonly start: string
  readonly durationHours: number
  readonly scheduleMinutes: number
  readonly env?: Readonly<Record<string, string>>
  readonly regions: Readonly<Record<string, RegionFile>>
  readonly faults?: FaultsFile
  readonly interruptions?: readonly InterruptionFile[]
  readonly scheduledEvents?: readonly ScheduledEventFile[]
}

export interface ScheduledEventFile {
  readonly at: string
  readonly group: string
  readonly count: number
  /** Every code DescribeInstanceStatus reports (core/maintenance/events.ts). */
  readonly code: ScheduledEventCode
  readonly leadMinutes: number
  readonly lifecycle?: 'on-demand' | 'spot'
}

export interface FaultsFile {
  readonly apiErrorRate?: number
  readonly throttle?: boolean
  readonly crashRate?: number
}

export interface InterruptionFile {
  readonly at: string
  readonly group: string
  readonly count: number
}

/** A constant USD/hour, or `[time, price]` steps. */
export type PriceFile = number | readonly (readonly [string, number])[]

export type CapacityFile =
  | { readonly trace: string; readonly startIndex?: number }
  | { readonly available: false }

export interface RegionFile {
  readonly zones: readonly string[]
  /** Instance type → zone → price. */
  readonly spotPrices?: Readonly<Record<string, Readonly<Record<string, PriceFile>>>>
  /** `type/zone` → capacity. */
  readonly capacity?: Readonly<Record<string, CapacityFile>>
  readonly groups: readonly GroupFile[]
  readonly commitments?: CommitmentsFile
}

export type PlatformFile = 'Linux/UNIX' | 'Windows' | 'Red Hat Enterprise Linux' | 'SUSE Linux'

interface InEffectFile {
  readonly start?: string
  readonly end?: string
}

interface PlacedFile extends InEffectFile {
  readonly type: string
  readonly count: number
  readonly platform?: PlatformFile
  readonly tenancy?: 'default' | 'dedicated'
}

export interface ReservedInstancesFile extends PlacedFile {
  readonly zone?: string
  readonly hourlyRateUsd?: number
}

export interface SavingsPlanFile extends InEffectFile {
  readonly kind: 'compute' | 'ec2-instance'
  readonly family?: string
  readonly hourlyCommitmentUsd: number
  readonly discount?: number
  readonly rates?: Readonly<Record<string, number>>
}

export interface CapacityReservationFile extends PlacedFile {
  readonly zone: string
  readonly matchCriteria?: 'open' | 'targeted'
}

export interface UnmanagedUsageFile extends PlacedFile {
  readonly zone: string
}

export interface CommitmentsFile {
  readonly reservedInstances?: readonly ReservedInstancesFile[]
  readonly savingsPlans?: readonly SavingsPlanFile[]
  readonly capacityReservations?: readonly CapacityReservationFile[]
  readonly unmanagedUsage?: readonly UnmanagedUsageFile[]
}

export interface LoadBalancerFile {
  readonly type: 'target-group' | 'classic'
  readonly healthCheckIntervalSeconds?: number
  readonly healthyThreshold?: number
  readonly deregistrationDelaySeconds?: number
}

export interface GroupFile {
  readonly name: string
  readonly instanceType: string
  readonly min: number
  readonly max: number
  readonly desired: number
  readonly tags?: Readonly<Record<string, string>>
  readonly healthCheckGracePeriod?: number
  readonly launch?: 'template' | 'configuration'
  readonly terminationHook?: boolean
  readonly protectedFromScaleIn?: number
  readonly terminationProtected?: number
  readonly desiredSchedule?: readonly (readonly [string, number])[]
  readonly loadBalancers?: readonly LoadBalancerFile[]
  readonly unhealthyReplacementFraction?: number
  readonly image?: { readonly enaSupport?: boolean; readonly nvmeDrivers?: boolean }
  readonly launchHook?: boolean
  readonly suspendedProcesses?: readonly string[]
  readonly capacityRebalance?: boolean
  readonly warmPool?: { readonly minSize: number }
  readonly instanceRefreshes?: readonly string[]
  readonly instanceRefreshesUnreadable?: boolean
  readonly ecs?: {
    readonly managedTerminationProtection?: boolean
    readonly managedDraining?: boolean
    readonly slotsPerInstance?: number
    readonly services?: readonly EcsServiceFile[]
    readonly managedScaling?: {
      readonly targetCapacity?: number
      readonly minimumScalingStepSize?: number
      readonly maximumScalingStepSize?: number
      readonly instanceWarmupPeriod?: number
    }
  }
}

export interface EcsServiceFile {
  readonly name: string
  readonly desiredCount: number
  readonly minimumHealthyPercent?: number
  readonly maximumPercent?: number
  readonly deregistrationDelaySeconds?: number
  readonly desiredSchedule?: readonly (readonly [string, number])[]
  readonly placementStrategy?: 'spread' | 'binpack'
}
