/**
 * What the interruption handler needs from the outside world. `defaultDeps()` wires the real ones;
 * tests pass a stateful fake cloud and captured telemetry.
 */
import type { Log, MetricsSink } from '../core/log.ts'
import type { CloudPort } from '../core/port.ts'
import type { KillSwitch } from '../core/region/kill-switch.ts'

/** The slice of the port this Lambda uses. */
export type InterruptionCloud = Pick<
  CloudPort,
  | 'region'
  | 'describeInstances'
  | 'groupOfInstances'
  | 'describeGroups'
  | 'lifecycleHooks'
  | 'scalingActivities'
  | 'terminationProtected'
  | 'attachInstances'
  | 'detachInstances'
  | 'terminateInGroup'
  | 'terminateInstances'
  | 'tagInstances'
  | 'untagInstances'
  | 'verifyMarkers'
  | 'tagGroup'
  | 'ecsCapacityProviders'
  | 'ecsClusters'
  | 'ecsContainerInstances'
  | 'setContainerInstancesState'
>

export interface InterruptionDeps {
  /** The same variables the replacer reads: REGIONS, TAG_FILTERS, TAG_FILTERING_MODE, DRY_RUN, ... */
  readonly env: Readonly<Record<string, string | undefined>>
  /** One port per region; events carry the region they are about. */
  readonly cloudFor: (region: string) => InterruptionCloud
  readonly log: Log
  readonly metrics: MetricsSink
  readonly now: () => Date
  /**
   * Asks for replacer runs of one group after these delays (seconds), for replacing a member ahead of its
   * interruption; undefined when no run-request queue is configured, and doomed members leave at once.
   */
  readonly requestRuns?: (region: string, group: string, delaysSeconds: readonly number[]) => Promise<void>
  /**
   * Sends this handler a reminder about a member replaced ahead, delivered after `delaySeconds` (its
   * deadline queue, DEADLINE_QUEUE_URL): then the member leaves if it is still in its group. Undefined
   * without the queue; the replacer's own look at the deadline is then the only one.
   */
  readonly requestDeadline?: (region: string, instanceId: string, delaySeconds: number) => Promise<void>
  /**
   * Reads the kill switch (KILL_SWITCH_PARAMETER, aws/kill-switch.ts) once per invocation; never throws.
   * Without it the switch is off.
   */
  readonly killSwitch?: () => Promise<KillSwitch>
}
