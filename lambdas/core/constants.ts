/** Every tunable number with a reason. Change one here, never inline. */

/** AutoSpotting's tag, kept so its users can migrate without retagging. */
export const DEFAULT_TAG_FILTERS = 'spot-enabled=true'

/** Tags spotswap writes on the spot instances it launches (AutoSpotting's names). */
export const TAG_LAUNCHED_BY = 'launched-by-autospotting'
export const TAG_LAUNCHED_FOR_GROUP = 'launched-for-asg'
export const TAG_REPLACING_INSTANCE = 'launched-for-replacing-instance'
/** The on-demand type a spot instance replaced: savings are measured against its price. */
export const TAG_REPLACED_TYPE = 'spotswap:replaced-instance-type'
/**
 * On the temporary launch template made for a launch-configuration group, written when it is created
 * (value: the group's name). The replacer's role may delete only templates carrying it.
 */
export const TAG_TEMPORARY_TEMPLATE = 'spotswap:temporary-template-for'
/**
 * Written on an attached spot member at elevated risk of interruption (rebalance action `replace`);
 * the value is when it was written (ISO 8601). The replacer treats a member carrying it like an
 * on-demand member to replace, excluding the at-risk instance's type/zone pool from the candidates.
 */
export const TAG_REBALANCE_AT_RISK = 'spotswap:rebalance-at-risk'
/**
 * Written by the interruption handler on a member EC2 will interrupt in two minutes, when it replaces it
 * ahead of the interruption instead of letting it leave at once; the value is when the warning came
 * (ISO 8601). The replacer launches its replacement at once, into another pool and outside the in-flight
 * budget, and swaps it in as soon as it runs: there is no grace period to wait for a doomed partner.
 */
export const TAG_INTERRUPTION_WARNED = 'spotswap:interruption-warned'
/**
 * EC2 takes a warned instance 120 s after the warning. A swap that retires it must be over well before,
 * or the retirement fails on an instance already terminating while the attach's +1 stays: no swap, and
 * no launch, for a doomed member later than this after its warning (it leaves the group instead).
 */
export const DOOMED_SWAP_DEADLINE_SECONDS = 100
/**
 * EC2 warns two minutes before it interrupts a spot instance
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instance-termination-notices.html): a warning
 * time already on the member is believed only within this much before the event being handled.
 */
export const INTERRUPTION_NOTICE_SECONDS = 120
/**
 * When the interruption handler asks for replacer runs of the group, seconds after the warning: one at
 * once to launch the replacement, then two to swap it in as soon as it runs (a spot instance is usually
 * running within a minute of its launch), the last one still 30 s before EC2 takes the instance.
 */
export const INTERRUPTION_RUN_DELAYS_SECONDS = [0, 45, 90] as const
/**
 * Attempts at one interruption event within one handler invocation. An attempt that fails transiently
 * (throttling, a 5xx after the SDK's retries) or is held back by a marker KMS could not verify is tried
 * again at once: Lambda retries a failed asynchronous invocation only a minute later
 * (https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-error-handling.html), and the deadline
 * queue after its visibility timeout, when a doomed member's replacement can no longer be swapped in
 * (bench preemption-traces at fault level `both`: after crashed replacer runs, the most common way a doomed
 * member is lost). Two, so a failure that persists still reaches Lambda's retry quickly; a second attempt
 * that runs past the function timeout ends as a crash does, which the next delivery repairs.
 */
export const INTERRUPTION_EVENT_ATTEMPTS = 2
/**
 * Written on an on-demand instance when no candidate pool had spot capacity for it; the value is when
 * to try again. Without it an empty pool would be asked every run, all day.
 */
export const TAG_NO_SPOT_CAPACITY_UNTIL = 'spotswap:no-spot-capacity-until'
/**
 * The first back-off after a capacity failure: one default schedule period, since a pool out for a
 * moment (a few minutes is common in real traces) is back by the next run. It doubles with every
 * attempt the instance needed (TAG_REPLACEMENT_ATTEMPT), up to CAPACITY_BACKOFF_MAX_MINUTES.
 */
export const CAPACITY_BACKOFF_FIRST_MINUTES = 5
/** Six schedule periods: long enough to stop hammering an empty pool, short enough to catch its return. */
export const CAPACITY_BACKOFF_MAX_MINUTES = 30
/**
 * The swap record on a group for the duration of a swap (version 2, core/swap/record.ts): the swap's id,
 * phase, the owner's desired capacity, the pairs it holds, the step it announced and the MaxSize to
 * restore, in one tag (a group tag value holds at most 256 characters; the record needs about 140).
 */
export const TAG_SWAP = 'spotswap:swap'
/**
 * Written on each replacement just before a swap attaches it: the swap's id. With its
 * `launched-for-replacing-instance` it names the pair on the instance itself.
 */
export const TAG_SWAP_ID = 'spotswap:swap-id'
/**
 * Written on a replacement whose pair is released (core/swap/closing.ts): the swap id it carried, so its
 * never-served deadline still counts from its swap's start once TAG_SWAP_ID is gone (chaos seed 5342).
 */
export const TAG_RELEASED_SWAP_ID = 'spotswap:released-swap-id'
/**
 * Version 1 of the swap record, still read so a swap open across an upgrade is finished; no longer written.
 * It was `<desired capacity after the attach>/<pairs>`, and
 * ahead of each step that takes a unit away, the record it leads to with the instance it takes out
 * (`<after>/<pairs>/<instance id>`). With it the next run can tell a swap cut short
 * (finish it, give back the +1) from an owner's resize (leave it); see core/swap/record.ts.
 */
export const TAG_SWAP_DESIRED = 'spotswap:swap-desired'
/**
 * Written on an instance just before a replacement is launched for it, which attempt this is and since
 * when (`<n>@<time>`), and once EC2 answered, with the outcome (`<n>:<instance id>@<time>` or
 * `<n>:no-instance@<time>`). The launch's client
 * token is built from it, so overlapping runs send the same token (EC2 launches once), and every new
 * attempt, after one ended, gets a new one (core/plan/launches.ts `nextAttempt`).
 */
export const TAG_REPLACEMENT_ATTEMPT = 'spotswap:replacement-attempt'
/**
 * Written on a replacement by the run whose AttachInstances Auto Scaling confirmed: the group it joined.
 * An instance that carries it joined a group once; when it is no member any more, a person (or the
 * interruption handler) took it out, and spotswap never terminates nor attaches it again
 * (core/group/provenance.ts). Members that are no pair of an open swap lose TAG_LAUNCHED_FOR_GROUP and
 * TAG_REPLACING_INSTANCE and keep this one (with TAG_REPLACED_TYPE, which the savings figures read).
 */
export const TAG_JOINED_GROUP = 'spotswap:joined-group'
/**
 * EC2 writes this tag on every instance launched from a launch template, and tags with the `aws:` prefix
 * cannot be written by anyone else
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/launch-instances-from-launch-template.html,
 * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/Using_Tags.html): provenance compares it with the
 * group's templates.
 */
export const TAG_LAUNCH_TEMPLATE_ID = 'aws:ec2launchtemplate:id'
/** Version 1: when the swap started (ISO time); read with TAG_SWAP_DESIRED, no longer written. */
export const TAG_SWAP_STARTED = 'spotswap:swap-started'
/** Version 1: MaxSize before the swap raised it; read (and restored) with TAG_SWAP_DESIRED, no longer written. */
export const TAG_ORIGINAL_MAX_SIZE = 'spotswap:original-max-size'

/**
 * Wildcards (`*` or `?`) one glob may hold. Real instance-type, region and tag globs use one or two, so
 * more is a typo or a hostile tag; it is refused when the setting is read, before any matching. The
 * matcher (core/config/glob.ts) stays within (value + 1) × (pattern + 1) steps whatever the count; the cap
 * keeps globs to what a person writes.
 */
export const MAX_GLOB_WILDCARDS = 16

/** Per-group configuration tags are `autospotting_<lower-case variable name>`. */
export const GROUP_TAG_PREFIX = 'autospotting_'

/**
 * By what judges the group's replacements (group-sizes.ts inFlightLimit): a quarter of a group behind load
 * balancers or ECS at a time, three quarters untouched until a batch passes their checks; a group judged by
 * `InService` alone at once.
 */
export const DEFAULT_MAX_REPLACEMENTS_IN_FLIGHT = 'auto'

/** `auto`'s share of a group behind load balancers or ECS (group-sizes.ts judgedBeyondInService). */
export const IN_FLIGHT_AUTO_CHECKED_PERCENT = 25

/** The replacer's default schedule; also the unit of the orphan timeout below. */
export const DEFAULT_SCHEDULE_MINUTES = 5

/** A launched spot instance not attachable after grace + this many schedule periods is an orphan. */
export const ORPHAN_SCHEDULE_PERIODS = 3

/**
 * A swap's replacement must serve (InService, healthy in every load balancer) within the group's grace
 * period plus twice its load balancers' health-check time after the attach, but never less than this:
 * a target group's defaults (30 s × 5 checks) already take 150 s, and a replacement that passed its grace
 * period running is not given up on while its first checks may still be failing for registration.
 */
export const HEALTH_DEADLINE_MIN_SECONDS = 300
/** ... and never more than this: a replacement that does not serve for half an hour will not. */
export const HEALTH_DEADLINE_MAX_SECONDS = 1800
/**
 * After an attach, and while a replacement does not serve yet, its group is looked at again this often
 * (a delayed run request), so its partner leaves within this long of it turning healthy instead of at
 * the next run. The first look reads the load balancers' health-check settings; the looks after it come
 * when interval × healthy threshold has passed since the attach (a target group's defaults, 30 s × 5,
 * take 150 s: https://docs.aws.amazon.com/elasticloadbalancing/latest/application/target-group-health-checks.html).
 */
export const HEALTH_POLL_SECONDS = 30

/**
 * The fewest consecutive failed health checks after which a load balancer calls a target unhealthy: the
 * least UnhealthyThresholdCount a target group accepts (2 to 10, default 2:
 * https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_CreateTargetGroup.html) and a
 * classic load balancer's UnhealthyThreshold (2 to 10). The soonest a broken replacement can be told apart.
 */
export const UNHEALTHY_THRESHOLD_MIN = 2

/**
 * A replacement launches a few seconds after the run that started it, so with a grace period that is a
 * multiple of the schedule it would miss the run at exactly grace by seconds and wait a whole period.
 */
export const GRACE_SLACK_SECONDS = 30

/**
 * A spot member moves to another pool when one is at least this much cheaper (percent of its own
 * price): a move costs a launch and one grace period of both instances running, repaid within the hour
 * at 10% even for a 5-minute grace period, while pools whose prices differ by less are noise.
 */
export const DEFAULT_CHEAPER_POOL_MIN_SAVING_PERCENTAGE = '10'

/**
 * A spot member must have run this long before it is moved to a cheaper pool: the fleet placed it by
 * price and capacity moments ago, and a pool that just came back may go again.
 */
export const CHEAPER_POOL_MIN_AGE_MINUTES = 60

/**
 * Moves to a cheaper pool per group per run: a fleet is re-placed gradually (say, after an upgrade that
 * turns moves on, or a price drop across a type), never a quarter of it at once into pools that may be
 * shallower than the ones the fleet's allocation strategy chose.
 */
export const CHEAPER_POOL_MOVES_PER_RUN = 1

/** "About a third": no type/zone pool holds more of a group's spot instances when others exist. */
export const MAX_POOL_SHARE = 1 / 3

/** CreateFleet accepts at most this many overrides per request; more is an error. */
export const MAX_FLEET_OVERRIDES = 20

/** DescribeAutoScalingGroups rejects MaxRecords over 100. */
export const GROUPS_PAGE_SIZE = 100

/** EC2 filters accept at most 200 values each. */
export const INSTANCE_ID_FILTER_CHUNK = 200

/** Upper bounds that catch typos (an extra zero) rather than legitimate settings. */
export const MAX_MIN_ON_DEMAND_NUMBER = 10_000
export const MAX_GRACE_PERIOD_SECONDS = 86_400
export const MAX_ON_DEMAND_PRICE_MULTIPLIER = 10

/** Instance types and zones are looked up fresh per container after this long. */
export const CATALOG_CACHE_TTL_MS = 6 * 60 * 60 * 1000
/** On-demand prices change a few times a year; a day-old cache is plenty. */
export const PRICE_CACHE_TTL_MS = 24 * 60 * 60 * 1000

/** Hours in an average month, for projected monthly savings (365.25 * 24 / 12). */
export const HOURS_PER_MONTH = 730.5

/** Groups in a region above which fan-out sends one message per group instead of per region. */
export const FANOUT_GROUPS_PER_REGION_MESSAGE = 200

/** Groups of one region executed at once: enough to converge a big region in one run, few enough to stay under EC2's mutating-call token bucket. */
export const GROUP_CONCURRENCY = 8

/**
 * Work units one group's plan may spend choosing instance types: one unit per filter a candidate type
 * goes through (core/plan/filters.ts), counted as if each ran when its verdict is remembered. Counted,
 * not timed, so a chaos seed replays exactly. One selection (a type in a zone: the few hundred types
 * priced there, through up to 14 filters) takes at most ~10,000; a
 * mixed-instances group of 20 types in 6 zones needs 120 of them, 1.2 million, and selections are shared
 * across groups. Only a group built to stall the region goes past this, and is skipped while the
 * region's other groups proceed.
 */
export const PLAN_WORK_UNITS_PER_GROUP = 5_000_000

/**
 * The replacer's function timeout (lib/sizing.ts REPLACER_TIMEOUT says why one minute). Here because a
 * region run checks, before it starts, that Lambda ends it before its fan-out message can be delivered again.
 */
export const REPLACER_TIMEOUT_SECONDS = 60
/**
 * Time a region run keeps for its last write step (core/region/time-budget.ts): with less left before
 * Lambda stops it, it starts no new write. The longest step is one action (a swap's chunk of 20 attaches
 * and its failure path: about ten requests of under half a second) plus one request's throttled retries
 * (the SDK's standard mode, five attempts: at most 1 + 2 + 4 + 8 s of backoff).
 */
export const REPLACER_WRITE_MARGIN_SECONDS = 20
/**
 * How late after SQS hands out a fan-out message its run may still start: Lambda's poller retrying a
 * throttled invocation, a cold start. A run that starts later does nothing (core/region/delivery-window.ts).
 */
export const FANOUT_LATE_START_SECONDS = 30
/**
 * The fan-out queue's visibility timeout: a run that starts in time ends (Lambda stops it at its timeout)
 * before its message can be handed out again. Lambda requires it to cover the function timeout; a run
 * shortens its own message's to a lease as it starts (FANOUT_LEASE_SECONDS).
 */
export const FANOUT_VISIBILITY_SECONDS = REPLACER_TIMEOUT_SECONDS + FANOUT_LATE_START_SECONDS
/**
 * A region run's lease on its fan-out message (core/region/lease.ts): as it starts, the run shortens its
 * message's visibility to this, and renews it before a write step once less than
 * FANOUT_LEASE_RENEW_BELOW_SECONDS is left. A crashed run holds its lane this long, not a whole
 * visibility timeout. Longer than the renewal point, which is longer than the write margin, so a renewed
 * lease always leaves one write step its margin.
 */
export const FANOUT_LEASE_SECONDS = 40
export const FANOUT_LEASE_RENEW_BELOW_SECONDS = 30
/** SQS's receive timestamps are approximate and its clock is not Lambda's: a few seconds of doubt. */
export const FANOUT_CLOCK_SKEW_MS = 5_000
/**
 * Runs after the latest deadline a swap can have (HEALTH_DEADLINE_MAX_SECONDS) that finishing it may take:
 * the run at the deadline retires what does not serve, the next closes the swap. Still open after them,
 * it is reported (SwapsPastDeadline): something holds it (protection, a read that keeps failing).
 */
export const SWAP_FINISH_RUNS = 2

/**
 * How long after a swap's health deadline ECS may take to drain a partner spotswap set DRAINING (its
 * service tasks stopped and started elsewhere at the pace of each service's minimumHealthyPercent, each
 * after its load balancer's deregistration delay, 300 s by default): three such rounds. A drain not done by
 * then is stuck (a task that cannot be placed, a standalone task ECS never moves): the partner is set
 * ACTIVE again and stays (core/ecs/drain.ts).
 */
export const ECS_DRAIN_DEADLINE_SECONDS = 900
/**
 * A member whose drain was given up (it stalled, or a standalone task started on it) gets no new
 * replacement, so is not drained again, for a day: each drain moves its service tasks, and what stalled it
 * (a task that cannot be placed elsewhere, a long standalone task) seldom clears within the hour. At most
 * one drain a day per member, instead of one per capacity back-off (30 minutes at most).
 */
export const ECS_DRAIN_RETRY_MINUTES = 24 * 60
/**
 * The longest a swap can be open (the longest grace period, the longest health deadline, an ECS drain and
 * a schedule period to notice): a swap record that started earlier is expired even with a valid MAC, so a
 * record spotswap really wrote cannot be re-planted on its group later (core/markers.ts).
 */
export const SWAP_RECORD_MAX_AGE_SECONDS =
  MAX_GRACE_PERIOD_SECONDS + HEALTH_DEADLINE_MAX_SECONDS + ECS_DRAIN_DEADLINE_SECONDS + 300
/**
 * A rebalance recommendation not acted on within this long is stale: the handler marks the member again on
 * the next recommendation, so an old, re-planted mark costs nothing by being ignored.
 */
export const REBALANCE_MARK_MAX_AGE_SECONDS = 6 * 3600
/**
 * VerifyMac calls in flight at once: a swap of 20 pairs verifies about 41 markers, and KMS's shared
 * cryptographic request rate (5,500/s and up) is never approached by a handful in flight.
 */
export const MARKER_VERIFY_CONCURRENCY = 8
/**
 * Verdicts a warm container keeps (a marker's value never changes once written, so its verdict never
 * does): far above what one account's open swaps carry, small enough to never matter for memory.
 */
export const MARKER_CACHE_MAX_ENTRIES = 10_000
/**
 * How long one read of the kill switch's parameter may take before it counts as unreadable (on): SSM
 * answers in tens of milliseconds; a run must not spend its one minute waiting on it.
 */
export const KILL_SWITCH_READ_TIMEOUT_MS = 3_000
/**
 * FIFO message groups (lanes) a region's groups are spread over, each group always in the same one: a
 * crashed run holds only its lane's groups for the visibility timeout, and lanes run side by side. Eight
 * met the fault sweep's targets on the bench's large account (40 groups a region) where one missed them;
 * each lane lists the region's groups and launches, so more lanes cost more reads in a converged account.
 */
export const REGION_LANES = 8
/**
 * The group marker of a replacement ahead of an on-demand member's scheduled event (core/maintenance/
 * marker.ts): the member, the desired capacity its owner had set, the phase and when it began. One per
 * group, so at most one such replacement at a time.
 */
export const TAG_MAINTENANCE = 'spotswap:maintenance'
/**
 * Scheduled events are read at most once per region this often (DescribeInstanceStatus, one filtered,
 * paginated call): EC2 schedules retirements and reboots days to weeks ahead
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/monitoring-instances-status-check_sched.html), so a
 * quarter of an hour late costs nothing, while a read every 5-minute run would be three times the calls.
 */
export const SCHEDULED_EVENTS_TTL_MS = 15 * 60 * 1000
/**
 * A member raised for a scheduled event that does not serve within this long gives the unit back: the
 * health deadline's ceiling (HEALTH_DEADLINE_MAX_SECONDS) plus the group's grace period, as for a swap.
 */
export const MAINTENANCE_DEADLINE_SECONDS = HEALTH_DEADLINE_MAX_SECONDS
/** DescribeCapacityProviders answers at most 10 providers a page (its maxResults range is 1 to 10). */
export const ECS_CAPACITY_PROVIDERS_PAGE_SIZE = 10
/**
 * A capacity provider's settings change by hand, rarely; read again after this long, so turning managed
 * termination protection off takes at most this long to reach spotswap.
 */
export const ECS_CAPACITY_PROVIDERS_CACHE_TTL_MS = 10 * 60 * 1000
/**
 * How long a region's commitments (Reserved Instances, Capacity Reservations, Savings Plans and their
 * rates) are read once: they are bought and expire rarely, and AWS bills by the hour, so three default
 * runs late is a few minutes of one hour's coverage; reads stay at four an hour per region whatever the
 * number of groups (the Savings Plans list four an hour for the whole container).
 */
export const COMMITMENTS_CACHE_TTL_MS = 15 * 60 * 1000
/**
 * How long a slot of an open Capacity Reservation stays empty after its start when spotswap replaced the
 * member that would have filled it (core/commitments/upcoming.ts): spotswap launches no on-demand instance,
 * so until the group launches one there (a scale-out, a spot replacement interrupted), taken as one day,
 * the cycle of a group's daily scaling; a reservation that ends sooner bounds it by its length. It weighs
 * keeping a member T hours before the start (costs on-demand - spot an hour) against replacing it (its
 * spot price an hour for these U hours, the slot being billed either way): keep while spot > on-demand x
 * T / (T + U), the member's effective rate.
 */
export const EMPTY_RESERVATION_SLOT_MS = 24 * 60 * 60 * 1000
/**
 * A revert's raised member that does not serve within this long leaves with the unit it came with: the
 * health deadline's ceiling plus the group's grace period, as for a swap (core/revert/step.ts).
 */
export const REVERT_DEADLINE_SECONDS = HEALTH_DEADLINE_MAX_SECONDS
/**
 * A revert stops raising after this many raises in a row gave their unit back without a serving member
 * (core/revert/step.ts): each waits up to its deadline, so three cover a transient shortage of capacity
 * for over an hour and a half, while a broken template, a quota or a MaxSize Auto Scaling keeps refusing
 * needs its owner, not a raise every deadline forever.
 */
export const REVERT_MAX_RAISES = 3
/**
 * A revert's raise or retirement marker is believed until its raise's deadline and this long more (core/
 * markers.ts): twelve default runs to take the unit back after the deadline, even through throttling or a
 * paused schedule, while a signed value copied from an earlier raise is refused once this is past.
 */
export const REVERT_MARKER_MARGIN_SECONDS = 3600
/**
 * On a member spotswap set DRAINING in ECS for a drain swap (core/ecs/drain.ts): that swap's id. A marker:
 * only with it does spotswap set a container instance ACTIVE again; removed once it has.
 */
export const TAG_ECS_DRAINED = 'spotswap:ecs-drained'
/**
 * A region run that fails before it acts (a read still failing after the SDK's retries) asks once for
 * another run of its lane this long after (core/region/look-again.ts): EC2 and Auto Scaling refill a
 * throttled account's request tokens within seconds, and a minute is a fifth of the default schedule, so
 * a failed read no longer costs the lane a whole period.
 */
export const FAILED_RUN_RETRY_SECONDS = 60
/**
 * A revert waiting on a launch (or stalled for want of one) reads this many of its group's latest scaling
 * activities, once a run (core/revert/launch-failure.ts): Auto Scaling retries a failed launch every few
 * minutes, so the newest launch activity is among the first few, and one small page keeps the read to one
 * call per such group.
 */
export const REVERT_ACTIVITY_RECORDS = 10
/**
 * At most this much of a failed launch's StatusMessage is quoted in a revert's skip and log line: EC2's
 * longest messages (capacity, quotas) fit, and a message of any length cannot swell every run's summary.
 */
export const REVERT_STATUS_MESSAGE_MAX_CHARS = 400
