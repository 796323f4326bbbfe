/** The simulator's timings and limits, each with the reason for its value. */

/** Pending → running for an instance: typical Linux boot to EC2 status "running" is well under a minute. */
export const BOOT_SECONDS = 40

/**
 * Consecutive failed health checks before a load balancer calls a target unhealthy: AWS's default for a
 * target group (UnhealthyThresholdCount 2 for HTTP, HTTPS and TCP:
 * https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_CreateTargetGroup.html), and
 * the UnhealthyThreshold the simulated classic load balancers report. A target in its first checks is
 * `initial` only until it has had the checks that decide either way (Elb.InitialHealthChecking:
 * https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_TargetHealth.html).
 */
export const UNHEALTHY_THRESHOLD = 2

/** shutting-down → terminated; billing stops at shutting-down, as EC2 bills. */
export const SHUTDOWN_SECONDS = 30

/**
 * A terminated instance stays visible in DescribeInstances, tags included, for about an hour
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/terminating-instances.html), then is gone.
 */
export const TERMINATED_VISIBLE_SECONDS = 3600

/** EC2 gives a spot instance two minutes between the interruption warning and the interruption. */
export const INTERRUPTION_NOTICE_SECONDS = 120

/**
 * How long a termination lifecycle hook holds an instance in Terminating:Wait: the user's drain runs
 * and completes the action well before the hook's heartbeat timeout.
 */
export const TERMINATION_HOOK_SECONDS = 90

/**
 * How long a launch lifecycle hook holds a member Auto Scaling launched in Pending:Wait: a bootstrap or a
 * deployment gate (CodeDeploy) that completes the action well inside its heartbeat timeout.
 */
export const LAUNCH_HOOK_SECONDS = 120

/** Pending → InProgress for an instance refresh: Auto Scaling starts one within a minute or so. */
export const REFRESH_START_SECONDS = 60

/**
 * Simulated time per API request: about 200 ms of latency with the replacer's 8 groups in flight.
 * It spreads a run's calls over time, which is what lets EC2's token buckets refill between them.
 */
export const API_CALL_MS = 25

/** Smithy's standard retry strategy: base delay for throttling errors and the cap on any delay. */
export const SDK_THROTTLE_BASE_DELAY_MS = 500
export const SDK_MAX_DELAY_MS = 20_000

/** Lambda retries a failed asynchronous invocation twice, about one and then two minutes later. */
export const ASYNC_RETRY_DELAYS_SECONDS = [60, 120] as const

/** The account the simulated events claim to come from (moto's default, obviously not a real one). */
export const SIM_ACCOUNT_ID = '123456789012'

/** Initial instances were launched this long before the scenario starts: settled, out of every grace period. */
export const INITIAL_INSTANCE_AGE_HOURS = 24

/**
 * The fan-out queue's visibility timeout (lib/sizing.ts FANOUT_VISIBILITY_TIMEOUT, one replacer timeout
 * and half a minute): a run that crashed is delivered again this long after it was received, and its lane's
 * FIFO message group holds every later run of the lane until then.
 */
export { FANOUT_VISIBILITY_SECONDS } from '../../lambdas/core/constants.ts'

/** lib/sizing.ts FANOUT_MAX_RECEIVE_COUNT: a region message received this often goes to the dead-letter queue. */
export const FANOUT_MAX_RECEIVES = 3

/**
 * The deadline queue's visibility timeout (lib/sizing.ts DEADLINE_VISIBILITY_TIMEOUT): a reminder whose
 * handler invocation failed is delivered again this long after it was received.
 */
export const DEADLINE_VISIBILITY_SECONDS = 180

/** lib/sizing.ts DEADLINE_RETENTION: a reminder not handled this long after it was sent is dropped. */
export const DEADLINE_RETENTION_SECONDS = 600

/**
 * The liveness invariant (liveness.ts): an on-demand member above its group's minimum has progress or a
 * confirmed reason at least once in this many schedule periods plus the grace period (issue 16).
 */
export const PROGRESS_PERIODS = 3

/**
 * How long EC2's scheduled reboot or maintenance keeps an instance offline: an `instance-reboot` "typically
 * completes in seconds", a `system-reboot` (reboot migration) "in minutes", a power maintenance reboot
 * "normally takes a few minutes"
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/schedevents_actions_reboot.html,
 * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/schedevents_actions_maintenance.html).
 */
export const SCHEDULED_OFFLINE_SECONDS = {
  'instance-reboot': 60,
  'system-reboot': 300,
  'system-maintenance': 300,
} as const

/**
 * Running → container instance ACTIVE: the ECS agent starts at boot and registers the instance in its
 * cluster within about half a minute.
 */
export const ECS_AGENT_REGISTER_SECONDS = 30

/** A task PENDING → RUNNING: the image pulled (cached on the ECS-optimized AMI) and the container started. */
export const ECS_TASK_START_SECONDS = 30

/** How long ECS's service scheduler waits before trying again to place tasks it could not place. */
export const ECS_PLACEMENT_RETRY_SECONDS = 60

/**
 * ECS managed scaling publishes CapacityProviderReservation once a minute: "Every minute, Amazon ECS
 * collects information" (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/cluster-auto-scaling.html).
 */
export const ECS_METRIC_PERIOD_SECONDS = 60

/**
 * Datapoints above targetCapacity before the target tracking policy's high alarm scales out: ECS creates
 * it with 1 datapoint within a minute (https://github.com/aws/containers-roadmap/issues/638).
 */
export const ECS_SCALE_OUT_DATAPOINTS = 1

/**
 * Datapoints below targetCapacity before the low alarm scales in: "CloudWatch scale-in alarms require 15
 * data points (15 minutes)" (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/cluster-auto-scaling.html).
 */
export const ECS_SCALE_IN_DATAPOINTS = 15

/**
 * The most a scale-in step removes, in percent of the instances: once scale-in starts, each minute's step
 * leaves "greater than one instance and less than 50%" (cluster-auto-scaling.html, scale-in considerations).
 */
export const ECS_SCALE_IN_STEP_PCT = 50
