/**
 * Replacements that never serve. A member spotswap attached keeps its launch tags (`launched-for-asg`,
 * `launched-for-replacing-instance`) until a run sees it serve (InService, and healthy in every load
 * balancer of its group): only then is it settled (membership recorded, launch tags removed). So the
 * launch tags are the memory across runs: a member still carrying them has never been seen serving.
 *
 * Whatever state its swap was left in (closed or released because the owner resized, its partner taken by
 * a scale-in or an interruption, a run that crashed), one that carries them past its deadline and is not
 * serving leaves the group through Auto Scaling without a decrement: desired capacity stays the owner's,
 * and the group launches a member that may serve. With EC2 health checks (the default) Auto Scaling
 * never replaces it, since it is InService
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/healthcheck.html: EC2 status checks by default, ELB checks only when enabled).
 *
 * One whose load balancer already reports it failing its health checks, past the group's grace period
 * since the attach, leaves at once rather than at its deadline: no partner serves in its stead, so each
 * minute it stays is serving capacity lost, and Auto Scaling itself, with ELB health checks on, replaces
 * an instance the load balancer reports unhealthy once its grace period is over
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/health-check-grace-period.html). The run looks again
 * when the checks can first have called it unhealthy, when they should have called it healthy, and at the
 * deadline, so that moment is not left to the schedule.
 *
 * Only a member spotswap can show it attached leaves: spot, and either recorded as having joined this
 * group by spotswap's confirmed attach (TAG_JOINED_GROUP) or still spotswap's launch for its partner by
 * provenance (core/group/provenance.ts). A forged `served` state cannot be written: removing the launch
 * tags only keeps the member, never makes it leave.
 */
import { isLeavingGroup } from '../config/managed.ts'
import {
  GRACE_SLACK_SECONDS,
  ORPHAN_SCHEDULE_PERIODS,
  TAG_JOINED_GROUP,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_RELEASED_SWAP_ID,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP_ID,
} from '../constants.ts'
import { launchProvenance } from '../group/provenance.ts'
import {
  failsHealthChecks,
  failVerdictSeconds,
  type HealthObservation,
  hasTrafficSources,
  healthCheckSeconds,
  healthDeadlineSeconds,
  servingOf,
} from '../group/serving.ts'
import type { Action } from '../plan/actions.ts'
import type { Group, Instance } from '../types.ts'

export interface NeverServedInput {
  readonly group: Group
  readonly now: Date
  readonly detail: (id: string) => Instance | undefined
  /** Instances the owner protected: spotswap writes nothing on them and never takes them out. */
  readonly isProtected: (id: string) => boolean
  /** Members that are a pair of the open swap: finishing the swap decides for them (finish-pairs.ts). */
  readonly isPair: (id: string) => boolean
  readonly health: HealthObservation | undefined
  readonly graceSeconds: number
  readonly scheduleSeconds: number
}

export interface NeverServedMember {
  readonly instanceId: string
  readonly reason: string
}

export interface NeverServedVerdict {
  /** Seen serving: settled (launch tags removed, membership recorded). */
  readonly served: readonly string[]
  /** Never seen serving by their deadline: they leave without a decrement. */
  readonly leave: readonly NeverServedMember[]
  /** Members whose load-balancer health is needed: read, then planned again. */
  readonly awaitingHealth: readonly string[]
  /** Seconds until a member still waited for can next be judged (judgeAgainSeconds); none when none waits. */
  readonly lookAgainSeconds?: number
}

/** What the load balancers' settings say of when a member's checks decide, seconds after the attach. */
interface CheckTimes {
  /** The soonest they can call it unhealthy. */
  readonly failSeconds: number
  /** When they should have called it healthy. */
  readonly passSeconds: number
}

/**
 * Seconds from now until a waited-for member can next be judged: the first of the checks' soonest failing
 * verdict and their healthy one (each no sooner than the grace period's end), and its deadline, that is
 * still ahead; at least one second, as a load balancer reports a verdict once it is reached.
 */
export const judgeAgainSeconds = (
  attachedMs: number,
  graceSeconds: number,
  checks: CheckTimes,
  deadlineMs: number,
  nowMs: number,
): number | undefined => {
  const verdicts = [checks.failSeconds, checks.passSeconds].map(
    (seconds) => attachedMs + Math.max(graceSeconds, seconds) * 1000,
  )
  const next = [...verdicts, deadlineMs].filter((ms) => ms > nowMs).sort((a, b) => a - b)[0]
  return next === undefined ? undefined : Math.max(1, Math.ceil((next - nowMs) / 1000))
}

/**
 * A pair's replacement stays a pair unless this run's actions release it: then it is an ordinary member at
 * once, and one never seen serving past its deadline leaves in the same run (chaos seed 40914: released
 * when the owner resized, it stayed a run longer, never serving, past its deadline).
 */
export const pairedAfter = (
  isPair: (id: string) => boolean,
  actions: readonly Action[],
): ((id: string) => boolean) => {
  const released = new Set(actions.flatMap((a) => (a.kind === 'release-pair' ? [a.pair.spotInstanceId] : [])))
  return (id) => isPair(id) && !released.has(id)
}

/** Still carries the launch tags: not yet seen serving (settled members have none). */
export const isUnsettled = (instance: Instance | undefined): boolean =>
  instance?.tags[TAG_LAUNCHED_FOR_GROUP] !== undefined || instance?.tags[TAG_REPLACING_INSTANCE] !== undefined

/** When a swap with this id started (swapIdAt in record.ts: seconds since the epoch, base 36). */
const swapStartMs = (swapId: string | undefined): number => {
  const match = /^s([0-9a-z]{1,20})$/.exec(swapId ?? '')
  return match?.[1] === undefined ? Number.NaN : Number.parseInt(match[1], 36) * 1000
}

/**
 * When the member was attached, as far as EC2's launch time bounds it: a swap attaches a replacement once it
 * ran for the grace period (plan/swap-start.ts), usually before its orphan deadline but also after it when
 * runs came late. Its swap's start (its swap id, a verified marker, while it carries one) when later than
 * the grace period; a released pair's replacement keeps it as TAG_RELEASED_SWAP_ID; without either, the
 * orphan deadline, the latest a timely swap attaches.
 */
export const attachedBoundMs = (
  instance: Instance,
  graceSeconds: number,
  scheduleSeconds: number,
): number => {
  const launchMs = instance.launchTime.getTime()
  const earliest = launchMs + Math.max(0, graceSeconds - GRACE_SLACK_SECONDS) * 1000
  const latest = launchMs + (graceSeconds + (ORPHAN_SCHEDULE_PERIODS - 1) * scheduleSeconds) * 1000
  const started = swapStartMs(instance.tags[TAG_SWAP_ID] ?? instance.tags[TAG_RELEASED_SWAP_ID])
  return Number.isNaN(started) ? latest : Math.max(earliest, started)
}

/** spotswap attached it to this group, as far as it can show. */
const attachedBySpotswap = (input: NeverServedInput, instance: Instance): boolean => {
  if (instance.lifecycle !== 'spot') return false
  if (instance.tags[TAG_JOINED_GROUP] === input.group.name) return true
  const partner = instance.tags[TAG_REPLACING_INSTANCE]
  if (partner === undefined) return false
  return launchProvenance(instance, input.group, input.detail(partner), { attached: true }).ours
}

/** The group's unsettled members, outside the open swap's pairs: each served, left or waited for. */
export const judgeNeverServed = (input: NeverServedInput): NeverServedVerdict => {
  const { group, now } = input
  const served: string[] = []
  const leave: NeverServedMember[] = []
  const awaitingHealth: string[] = []
  let lookAgain: number | undefined
  const settings = input.health?.kind === 'read' ? [...input.health.health.settings.values()] : []
  const checks = { failSeconds: failVerdictSeconds(settings), passSeconds: healthCheckSeconds(settings) }
  const deadlineSeconds = healthDeadlineSeconds(input.graceSeconds, checks.passSeconds)
  for (const member of group.members) {
    const instance = input.detail(member.instanceId)
    if (isLeavingGroup(member.lifecycleState) || !isUnsettled(instance) || instance === undefined) continue
    if (input.isPair(member.instanceId) || input.isProtected(member.instanceId)) continue
    const serving = servingOf(group, member.instanceId, input.health)
    if (serving.serving) {
      served.push(member.instanceId)
      continue
    }
    if (serving.code === 'health-unread') {
      if (input.health === undefined && hasTrafficSources(group.trafficSources))
        awaitingHealth.push(member.instanceId)
      continue
    }
    if (!attachedBySpotswap(input, instance)) continue
    const attachedMs = attachedBoundMs(instance, input.graceSeconds, input.scheduleSeconds)
    const deadlineMs = attachedMs + deadlineSeconds * 1000
    const failed =
      now.getTime() >= attachedMs + input.graceSeconds * 1000 &&
      failsHealthChecks(group, member.instanceId, input.health)
    if (failed || now.getTime() >= deadlineMs) {
      leave.push({ instanceId: member.instanceId, reason: leaveReason(serving.detail, failed, deadlineMs) })
      continue
    }
    const inSeconds = judgeAgainSeconds(attachedMs, input.graceSeconds, checks, deadlineMs, now.getTime())
    if (inSeconds !== undefined) lookAgain = Math.min(lookAgain ?? inSeconds, inSeconds)
  }
  return {
    served,
    leave,
    awaitingHealth,
    ...(lookAgain === undefined ? {} : { lookAgainSeconds: lookAgain }),
  }
}

const leaveReason = (detail: string, failed: boolean, deadlineMs: number): string =>
  failed
    ? `failed-checks: ${detail} past its grace period and was never seen serving, with no partner serving in its stead; it leaves without a decrement so the group launches one that serves`
    : `never-served: ${detail} at its deadline ${new Date(deadlineMs).toISOString()} and was never seen serving; it leaves without a decrement so the group launches one that serves`
