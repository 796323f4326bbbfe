/** Every sizing number of the deployment, with the reason for it. Change one here, never inline. */
import { Duration } from 'aws-cdk-lib'
import { RetentionDays } from 'aws-cdk-lib/aws-logs'
import { FANOUT_VISIBILITY_SECONDS, REPLACER_TIMEOUT_SECONDS } from '../lambdas/core/constants.ts'

/**
 * Lambda gives CPU in proportion to memory (1,769 MB = one vCPU). A region run parses the instance-type
 * catalog (~900 types) and a spot price per type and zone, then plans every group on one event loop:
 * seconds of CPU in a large region. 1 GB buys ~0.6 vCPU, which roughly halves that time compared with
 * 512 MB at about the same cost per run (Lambda bills GB-seconds), and leaves room for the per-container
 * catalog and price caches.
 */
export const REPLACER_MEMORY_MB = 1024

/**
 * One invocation handles one lane of a region (fan-out batch size 1). A steady-state run is a few paged
 * reads; a converging one adds at most MAX_REPLACEMENTS_IN_FLIGHT instant fleets (each answers in seconds)
 * and swaps. The simulator's longest lane run on the bench's large account is 35 s without faults (its
 * first runs) and 17 s at the fault sweep's worst level (1% API errors, 0.5% crashes per request, EC2
 * throttling with the SDK's backoff); under 4 s on preemption-traces, never-healthy-rush and
 * daily-scaling (its requests at 25 ms each, as 8 lanes share ~200 ms of latency). On AWS a read or tag takes a few hundred ms and an instant fleet a few seconds, and
 * a throttled request up to 15 s more (five attempts, 1 + 2 + 4 + 8 s of the SDK's backoff): a steady or
 * moderately busy lane fits in a minute many times over; a lane's first run over many large groups may not.
 * One minute, with a time budget inside the run (REPLACER_WRITE_MARGIN_SECONDS): a run that would not
 * finish stops starting writes and ends on its own, leaving the rest to the next run, and a run that dies
 * (a crash, a hung request) holds its lane's FIFO message group 90 s instead of 210 s at three minutes.
 */
export const REPLACER_TIMEOUT = Duration.seconds(REPLACER_TIMEOUT_SECONDS)

/**
 * The interruption handler has 120 seconds in total, so its cold start matters more than its cost:
 * module initialisation shrinks with CPU, and interruption events are rare, so the extra memory costs
 * almost nothing.
 */
export const INTERRUPTION_MEMORY_MB = 512

/**
 * A handful of API calls, normally well under a second; 30 seconds lets the SDK's retries with backoff
 * ride out throttling and still finish inside the two-minute warning.
 */
export const INTERRUPTION_TIMEOUT = Duration.seconds(30)

/**
 * Lambda retries a failed asynchronous invocation after about one and then two more minutes. An
 * interruption is still worth handling then (a stopped or hibernated spot instance still has to leave
 * its group); after 15 minutes the replacer's runs have reconciled the group anyway.
 */
export const INTERRUPTION_RETRY_ATTEMPTS = 2
export const INTERRUPTION_MAX_EVENT_AGE = Duration.minutes(15)

/** A failed tick or launch event is retried once; older than one schedule period, the next tick supersedes it. */
export const REPLACER_RETRY_ATTEMPTS = 1
/** Lambda keeps an asynchronous event for at most six hours, whatever the schedule. */
const LAMBDA_MAX_EVENT_AGE = Duration.hours(6)
export const replacerMaxEventAge = (schedulePeriod: Duration): Duration =>
  Duration.seconds(Math.min(schedulePeriod.toSeconds(), LAMBDA_MAX_EVENT_AGE.toSeconds()))

/**
 * The fan-out queue's visibility timeout: one function timeout and half a minute (90 s), not the six
 * timeouts AWS recommends for an SQS event source "to retry if your function is throttled"
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html). A crashed run's message holds
 * its lane's FIFO message group for this long (core/region/lanes.ts): at six timeouts (18 minutes) a 0.5% chance of a crash
 * per API request made steady-web converge in 151-201 minutes instead of 20 (three seeds); at 210 s, in 26-31.
 * Lambda refuses an SQS event source whose function timeout exceeds the queue's visibility timeout (same page).
 * What six timeouts protect against, a run still going when its message comes back, is ruled out inside
 * the run instead: it starts only if Lambda must stop it before then (core/region/delivery-window.ts),
 * so one that the poller started over 25 s late does nothing and the next message runs the lane.
 */
export const FANOUT_VISIBILITY_TIMEOUT = FANOUT_VISIBILITY_SECONDS

/**
 * Run requests only enqueue fan-out work and may run beside anything: AWS's recommended six function
 * timeouts, so a throttled invocation is retried before the message comes back.
 */
export const RUN_REQUEST_VISIBILITY_TIMEOUT = REPLACER_TIMEOUT.toSeconds() * 6

/** Three failed runs of the same region message mean a real problem: park it in the DLQ and alarm. */
export const FANOUT_MAX_RECEIVE_COUNT = 3

/** Region work older than a day is stale (many ticks have enqueued newer work since). */
export const FANOUT_RETENTION = Duration.days(1)

/**
 * A run request matters for the two minutes of an interruption warning; kept a little longer so a
 * replacer briefly throttled still gets it, never long enough to run a group from a stale request.
 */
export const RUN_REQUEST_RETENTION = Duration.minutes(10)

/** Run requests only enqueue fan-out work, so a batch of them is one short invocation. */
export const RUN_REQUEST_BATCH_SIZE = 10

/** The longest SQS allows: dead letters are evidence and must survive a long weekend. */
export const DEAD_LETTER_RETENTION = Duration.days(14)

/**
 * Reserved concurrency for the replacer. Overlap on one group is prevented by the FIFO message group
 * (one in-flight message per lane of a region); the reservation bounds how many lanes run at once, so a
 * tick over 17 regions or a storm of launch events cannot exhaust the account's Lambda concurrency or
 * push EC2 and Auto Scaling API calls (whose rate limits the customer's own tooling shares) into
 * throttling, and guarantees the capacity exists when a tick is due. 5 runs the 136 lanes of 17
 * steady-state regions (seconds each) within one tick; a crashed run frees its slot at once.
 */
export const DEFAULT_REPLACER_CONCURRENCY = 5
/** The SQS poller may use all but one slot, so ticks and launch events are never starved by workers. */
export const FANOUT_CONCURRENCY_HEADROOM = 1
/** Lambda's floor for an SQS event source's maximum concurrency. */
export const MIN_FANOUT_CONCURRENCY = 2

/** A month of logs covers an incident investigation; longer costs money for data nobody reads. */
export const DEFAULT_LOG_RETENTION = RetentionDays.ONE_MONTH

/**
 * A deadline reminder is delivered 100 s after its warning and is worth nothing once EC2 took the member
 * (20 s later): kept briefly. The visibility timeout covers a few handler timeouts, as AWS recommends
 * for an SQS event source (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html).
 */
export const DEADLINE_RETENTION = Duration.minutes(10)
export const DEADLINE_VISIBILITY_TIMEOUT = INTERRUPTION_TIMEOUT.toSeconds() * 6
export const DEADLINE_BATCH_SIZE = 10
