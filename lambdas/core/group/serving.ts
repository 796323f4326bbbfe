/**
 * Whether an attached replacement serves: the condition for retiring its partner. Auto Scaling registers
 * an instance attached with AttachInstances with the group's load balancers, but a load balancer routes
 * to it only once it passes the health checks (a target group's `healthy`, a classic load balancer's
 * `InService`): https://docs.aws.amazon.com/autoscaling/ec2/userguide/attach-load-balancer-asg.html,
 * https://docs.aws.amazon.com/elasticloadbalancing/latest/application/target-group-health-checks.html.
 * Until then the partner keeps serving.
 */
import {
  HEALTH_DEADLINE_MAX_SECONDS,
  HEALTH_DEADLINE_MIN_SECONDS,
  HEALTH_POLL_SECONDS,
  UNHEALTHY_THRESHOLD_MIN,
} from '../constants.ts'
import { type HealthCheckSettings, type TrafficHealth, trafficSourceKey } from '../port.ts'
import type { Group, TrafficSources } from '../types.ts'

export type Serving =
  | { readonly serving: true }
  | {
      readonly serving: false
      /** `not-in-service`, `health-unread`, `not-registered`, or the load balancer's state (`initial`, `unhealthy`, ...). */
      readonly code: string
      readonly detail: string
    }

/** What a plan knows of load-balancer health: read, or why it could not be. */
export type HealthObservation =
  | {
      readonly kind: 'read'
      readonly health: TrafficHealth
      /** The instances the read asked about, when known: one it did not ask about is unread, not unregistered. */
      readonly asked?: ReadonlySet<string>
    }
  | { readonly kind: 'unreadable'; readonly error: string }

const SERVING_STATES: Readonly<Record<'target-group' | 'classic', string>> = {
  'target-group': 'healthy',
  classic: 'InService',
}

export const hasTrafficSources = (sources: TrafficSources): boolean =>
  sources.targetGroupArns.length > 0 || sources.classicLoadBalancerNames.length > 0

const sourceKeys = (sources: TrafficSources): { key: string; kind: 'target-group' | 'classic' }[] => [
  ...sources.targetGroupArns.map((arn) => ({
    key: trafficSourceKey('target-group', arn),
    kind: 'target-group' as const,
  })),
  ...sources.classicLoadBalancerNames.map((name) => ({
    key: trafficSourceKey('classic', name),
    kind: 'classic' as const,
  })),
]

/**
 * InService in the group, and healthy in every target group and InService in every classic load
 * balancer of the group. A group without load balancers: InService is serving.
 */
export const servingOf = (
  group: Group,
  instanceId: string,
  observation: HealthObservation | undefined,
): Serving => {
  const member = group.members.find((m) => m.instanceId === instanceId)
  if (member?.lifecycleState !== 'InService')
    return {
      serving: false,
      code: 'not-in-service',
      detail: `${instanceId} is ${member?.lifecycleState ?? 'not a member'} in the group`,
    }
  const sources = sourceKeys(group.trafficSources)
  if (sources.length === 0) return { serving: true }
  if (observation === undefined)
    return {
      serving: false,
      code: 'health-unread',
      detail: `${instanceId}: load-balancer health not read yet`,
    }
  if (observation.kind === 'unreadable')
    return {
      serving: false,
      code: 'health-unread',
      detail: `${instanceId}: load-balancer health could not be read (${observation.error})`,
    }
  // The health is read for the replacements the first plan waited for; one judged only in the plan made
  // with it (a pair released there) was not asked about, and its absence says nothing (chaos seed 23356:
  // five serving replacements taken out as never registered).
  if (observation.asked !== undefined && !observation.asked.has(instanceId))
    return {
      serving: false,
      code: 'health-unread',
      detail: `${instanceId}: load-balancer health not read yet`,
    }
  const states = observation.health.states.get(instanceId)
  for (const { key, kind } of sources) {
    const state = states?.get(key)
    if (state === undefined)
      return { serving: false, code: 'not-registered', detail: `${instanceId} is not registered with ${key}` }
    if (state.state !== SERVING_STATES[kind])
      return {
        serving: false,
        code: state.state,
        detail: `${instanceId} is ${state.state}${state.reason === undefined ? '' : ` (${state.reason})`} in ${key}`,
      }
  }
  return { serving: true }
}

/**
 * A load balancer reports that the member failed its health checks: a target group's `unhealthy`, a
 * classic load balancer's `OutOfService` for the instance's own doing (reason `Instance`, not `ELB`,
 * which registering and first checks show: https://docs.aws.amazon.com/elasticloadbalancing/2012-06-01/APIReference/API_InstanceState.html).
 * A target still registering or in its first checks is `initial`, not this
 * (https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_TargetHealth.html).
 */
export const failsHealthChecks = (
  group: Group,
  instanceId: string,
  observation: HealthObservation | undefined,
): boolean => {
  if (observation?.kind !== 'read') return false
  const states = observation.health.states.get(instanceId)
  return sourceKeys(group.trafficSources).some(({ key, kind }) => {
    const state = states?.get(key)
    return kind === 'target-group'
      ? state?.state === 'unhealthy'
      : state?.state === 'OutOfService' && state.reason === 'Instance'
  })
}

/**
 * The soonest any of the sources can call a registered target unhealthy: interval × the least unhealthy
 * threshold AWS allows (UNHEALTHY_THRESHOLD_MIN), for whichever source checks most often.
 */
export const failVerdictSeconds = (settings: Iterable<HealthCheckSettings>): number => {
  let soonest = Number.POSITIVE_INFINITY
  for (const s of settings) soonest = Math.min(soonest, s.intervalSeconds * UNHEALTHY_THRESHOLD_MIN)
  return Number.isFinite(soonest) ? soonest : 0
}

/** The longest time any of the sources needs to call a registered target healthy: interval × threshold. */
export const healthCheckSeconds = (settings: Iterable<HealthCheckSettings>): number => {
  let longest = 0
  for (const s of settings) longest = Math.max(longest, s.intervalSeconds * s.healthyThreshold)
  return longest
}

/**
 * How long after the attach a replacement may take to serve before it is given up: the group's grace
 * period plus twice its load balancers' health-check time (a first check can fail while the target
 * registers), bounded so a misconfigured group neither gives up at once nor holds a swap for hours.
 */
export const healthDeadlineSeconds = (graceSeconds: number, checkSeconds: number): number =>
  Math.min(
    HEALTH_DEADLINE_MAX_SECONDS,
    Math.max(HEALTH_DEADLINE_MIN_SECONDS, graceSeconds + 2 * checkSeconds),
  )

/**
 * When to look again at a replacement that does not serve yet, seconds from now: when its health checks
 * should have passed (attach + interval × threshold), but at least HEALTH_POLL_SECONDS from now and no
 * later than its deadline.
 */
export const lookAgainSeconds = (
  attachedAtMs: number,
  checkSeconds: number,
  deadlineMs: number,
  nowMs: number,
): number => {
  const expected = (attachedAtMs + checkSeconds * 1000 - nowMs) / 1000
  const untilDeadline = (deadlineMs - nowMs) / 1000
  return Math.ceil(Math.max(HEALTH_POLL_SECONDS, Math.min(expected, untilDeadline)))
}
