/**
 * Configuration's types: what a group and a run are configured with, and the error a bad value becomes.
 * The settings table (settings.ts) drives both the environment variables (global-config.ts) and the
 * `autospotting_<name>` tags (group-config.ts), so a setting cannot exist in one and not the other.
 */

import type { CommitmentsSetting } from '../commitments/setting.ts'
import type { CronSchedule } from './cron.ts'
import type { InFlightLimit, TagFilter } from './values.ts'

// The value types the parsers produce live with them (values.ts), which imports nothing from here.
export type { InFlightLimit, TagFilter }

export const ALLOCATION_STRATEGIES = [
  'price-capacity-optimized',
  'capacity-optimized-prioritized',
  'lowest-price',
] as const
export type AllocationStrategy = (typeof ALLOCATION_STRATEGIES)[number]
export const BIASES = ['lowest_price', 'prefer_newer_generations'] as const
export type PriorityBias = (typeof BIASES)[number]
export const TERMINATION_ACTIONS = ['auto', 'replace', 'detach', 'terminate'] as const
export type TerminationAction = (typeof TERMINATION_ACTIONS)[number]
export const REBALANCE_ACTIONS = ['replace', 'detach', 'ignore'] as const
export type RebalanceAction = (typeof REBALANCE_ACTIONS)[number]
export const TAG_FILTERING_MODES = ['opt-in', 'opt-out'] as const
export type TagFilteringMode = (typeof TAG_FILTERING_MODES)[number]

export interface GroupConfig {
  readonly minOnDemandNumber: number
  readonly minOnDemandPercentage: number
  /** Globs; empty means every type. `current` stands for the replaced instance's own type. */
  readonly allowedInstanceTypes: readonly string[]
  readonly disallowedInstanceTypes: readonly string[]
  readonly spotAllocationStrategy: AllocationStrategy
  readonly prioritizedInstanceTypesBias: PriorityBias
  readonly cronSchedule: CronSchedule
  readonly cronTimezone: string
  readonly cronScheduleState: 'on' | 'off'
  /** Seconds; undefined means the group's HealthCheckGracePeriod. */
  readonly gracePeriodSeconds: number | undefined
  readonly maxReplacementsInFlight: InFlightLimit
  readonly onDemandPriceMultiplier: number
  readonly terminationNotificationAction: TerminationAction
  readonly rebalanceAction: RebalanceAction
  /** Move a spot member to a pool at least this many percent cheaper than its own; 0 = never. */
  readonly cheaperPoolMinSavingPercentage: number
  /**
   * Swap groups that have EC2_INSTANCE_LAUNCHING lifecycle hooks anyway: an attached replacement skips
   * them (its bootstrap or deployment gate never runs). Off by default: such groups are skipped.
   */
  readonly ignoreLaunchHooks: boolean
  /**
   * The group's image has ENA and NVMe drivers: a Xen type may be replaced by a Nitro one. Off by default:
   * an image without NVMe drivers launches on Nitro and never boots, and nothing in the API tells.
   */
  readonly allowXenToNitro: boolean
  /** A GPU type may be replaced by one with another GPU model. Off by default: CUDA code may not run. */
  readonly allowGpuModelChange: boolean
  /** An Intel type may be replaced by an AMD one and back (flagged). On by default: same instruction set. */
  readonly allowCpuVendorChange: boolean
  /** A type may be replaced by one of another generation (flagged). On by default. */
  readonly allowGenerationChange: boolean
  /** Replace members with an EC2 scheduled event (retirement, stop, reboot, maintenance) ahead of it. */
  readonly replaceScheduled: boolean
}

export interface GlobalConfig {
  /** Region globs; empty means every enabled region. */
  readonly regions: readonly string[]
  readonly tagFilters: readonly TagFilter[]
  readonly tagFilteringMode: TagFilteringMode
  readonly dryRun: boolean
  readonly fanoutQueueUrl: string | undefined
  readonly scheduleMinutes: number
  /**
   * Emit the fleet metrics per group as well as per region (GROUP_METRICS). Off by default: each group
   * would add a dozen custom metrics to the bill; its figures are in the log either way.
   */
  readonly groupMetrics?: boolean
  /** Where the regions' commitments come from (COMMITMENTS, core/commitments/setting.ts). @default account */
  readonly commitments?: CommitmentsSetting
  readonly defaults: GroupConfig
}

export interface ConfigError {
  readonly source: 'env' | 'tag'
  /** The environment variable or tag name. */
  readonly name: string
  readonly value: string
  readonly expected: string
  readonly group: string | undefined
  /** What was used instead; `none: no action` for fatal errors. */
  readonly fallback: string
  /** Fatal errors stop the run: they decide which groups are touched at all. */
  readonly fatal: boolean
}
