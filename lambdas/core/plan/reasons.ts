/**
 * Why the plan does not do something: a group skipped, an instance left alone, an on-demand member still
 * on-demand, each with a code to act on and a detail to read; and the group's figures beside them.
 */

/** Why an instance gets no replacement this run: a code to act on, the reason text to read. */
export type InstanceSkipCode =
  | 'no-launch-template'
  | 'protected-from-scale-in'
  | 'api-termination-protection'
  | 'spot-capacity-backoff'
  | 'unknown-instance-type'
  | 'missing-on-demand-price'
  | 'no-compatible-spot-type'
  | 'no-subnet-in-group'
  | 'not-spotswaps-launch'
  // A spot member tagged as warned of its interruption that EC2 does not confirm, or could not be asked about.
  | 'untrusted-marker'
  | 'marker-unverified'
  | 'swap-waits'
  | 'waiting-for-open-swap'
  | 'warming-up'
  | 'in-flight-budget'
  | 'on-demand-minimum'
  // A launch made for it that provenance cannot verify is alive: no other until it is resolved.
  | 'unverified-launch'
  // ECS protects it while it runs tasks (a capacity provider's managed termination protection).
  | 'ecs-tasks-running'
  // ECS protects it and it runs a standalone task, which ECS never moves: never drained (core/ecs/tasks.ts).
  | 'ecs-standalone-task'
  // ECS protects it and its tasks could not be read: not drained this run.
  | 'ecs-tasks-unreadable'
  // A Reserved Instance, Savings Plan or Capacity Reservation pays for it: replacing it saves nothing.
  | 'commitment-covered'
  // The Savings Plans could not be read and no other commitment pays for all of it: held this run.
  | 'commitment-unreadable'

export interface InstanceSkip {
  readonly instanceId: string
  readonly code: InstanceSkipCode
  /** `<code>: <detail>`, or the code alone. */
  readonly reason: string
  /** For `no-compatible-spot-type`: how many candidates each filter rejected. */
  readonly rejectedBy?: Readonly<Record<string, number>>
}

/**
 * Why an on-demand member is still on-demand after this run. Progress codes (a replacement on its way) and
 * held-back codes (something a user can read, and often act on), shared by the summary, `plan`, `simulate`
 * and the metrics.
 */
export type OnDemandCode =
  // Progress: a replacement is on its way.
  | 'launching'
  | 'replacement-warming-up'
  | 'swapping'
  | 'swap-open'
  | 'retiring'
  // Held back.
  | 'on-demand-minimum'
  | 'group-skipped'
  | 'replacement-did-not-serve'
  // Its replacement, launched earlier, is terminated this run (not attached in time); a later run launches again.
  | 'replacement-terminated'
  // Its launch, swap or retirement waits for a read this run could not make (core/region/protection.ts).
  | 'protection-unread'
  // Its launch, swap or retirement needs an instance whose termination protection read failed: treated as
  // protected this run.
  | 'protection-unreadable'
  // A replacement ahead of a scheduled event is open in the group (core/maintenance/plan.ts): no launch or
  // swap starts beside it.
  | 'scheduled-replacement-open'
  | Exclude<
      InstanceSkipCode,
      | 'swap-waits'
      | 'waiting-for-open-swap'
      | 'warming-up'
      | 'on-demand-minimum'
      | 'not-spotswaps-launch'
      | 'untrusted-marker'
      | 'marker-unverified'
    >
  // A bug: the planner left the member alone and cannot say why (the simulator's liveness invariant).
  | 'unexplained'

export interface OnDemandStatus {
  readonly instanceId: string
  readonly type: string
  readonly zone: string
  readonly code: OnDemandCode
  readonly detail: string
  /** A replacement is on its way (launched, warming up, attached or retiring its partner). */
  readonly progress: boolean
  /**
   * What replacing it saves per hour at today's prices (on-demand less the cheapest compatible spot price
   * in its zone), when spotswap is replacing it or will once what holds it passes; absent otherwise.
   */
  readonly projectedHourlySavingsUsd?: number
}

export interface GroupFigures {
  readonly inService: number
  readonly spot: number
  readonly onDemand: number
  readonly minOnDemand: number
  /** Σ over spot members: on-demand price of the type it replaced − its current spot price. */
  readonly hourlySavingsUsd: number
  /** What the group's InService instances cost per hour right now. */
  readonly hourlyCostUsd: number
}

export type GroupSkipCode =
  | 'group-being-deleted'
  | 'desired-capacity-zero'
  | 'cloudformation-stack-in-progress'
  | 'cloudformation-stack-unreadable'
  | 'traffic-source-health-unreadable'
  | 'processes-suspended'
  | 'launch-hooks'
  | 'launch-hooks-unreadable'
  | 'instance-refresh'
  | 'instance-refresh-unknown'
  | 'weighted-capacity'
  | 'capacity-not-in-instances'
  | 'outside-cron-window'
  | 'plan-budget-exceeded'
  // A marker of the group or of its instances could not be verified (KMS throttled or unreachable).
  | 'markers-unverifiable'
  | 'ecs-capacity-providers-unreadable'
  // A managed group with more members than desired: Auto Scaling's scale-in waits for ECS (core/ecs/holds.ts).
  | 'ecs-scale-in-pending'
  // The owner asked for the group back on-demand (core/revert/): no swap starts while it goes, or after.
  | 'reverting'
  | 'reverted'
  // Its raises kept failing (core/revert/step.ts): nothing more is raised until the owner asks again.
  | 'revert-stalled'
  // A region-level read it needs failed this run (core/region/region-reads.ts): it starts nothing.
  | 'spot-prices-unreadable'
  | 'subnets-unreadable'

/** Why a group is not acted on this run: a code to act on, a detail to read. */
export interface GroupSkip {
  readonly code: GroupSkipCode
  readonly detail: string
}
