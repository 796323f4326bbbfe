/**
 * What the replacer needs from the outside world. `defaultDeps()` wires the real ones; tests pass a
 * stateful fake cloud, captured telemetry and a queue that records what it is sent.
 */
import type { RetryRequestDetail } from '../core/events/retry-request.ts'
import type { Log, MetricsSink } from '../core/log.ts'
import type { CloudPort, RegionDirectory } from '../core/port.ts'
import type { KillSwitch } from '../core/region/kill-switch.ts'

export interface FanoutMessage {
  readonly groupId: string
  readonly deduplicationId: string
  readonly body: string
}

export interface ReplacerDeps {
  readonly env: Readonly<Record<string, string | undefined>>
  readonly now: () => Date
  readonly log: Log
  readonly metrics: MetricsSink
  readonly cloudFor: (region: string) => CloudPort
  readonly regionDirectory: RegionDirectory
  readonly enqueue: (queueUrl: string, messages: readonly FanoutMessage[]) => Promise<void>
  /**
   * Sets a received fan-out message's visibility timeout to `seconds` from now (ChangeMessageVisibility):
   * a region run's lease on its message (core/region/lease.ts). Without it a run holds its message for
   * the queue's whole visibility timeout, and a crash holds its lane that long.
   */
  readonly changeVisibility?: (queueUrl: string, receiptHandle: string, seconds: number) => Promise<void>
  /**
   * A run of one group after a delay, through the run-request queue (RUN_REQUEST_QUEUE_URL): a swap
   * waiting for its replacements to serve is looked at again before the next scheduled run. Without it
   * the next scheduled run looks.
   */
  readonly requestRun?: (region: string, group: string, delaySeconds: number) => Promise<void>
  /**
   * Another run of a lane (or of some of its groups) after a delay, through the run-request queue: a run
   * that failed before it acted asks for one (core/region/look-again.ts). Without it, the next scheduled
   * run looks.
   */
  readonly requestRetry?: (region: string, scope: RetryRequestDetail, delaySeconds: number) => Promise<void>
  /**
   * Reads the kill switch (KILL_SWITCH_PARAMETER, aws/kill-switch.ts); never throws, a failed read is `on`.
   * Without it the switch is off.
   */
  readonly killSwitch?: () => Promise<KillSwitch>
}
